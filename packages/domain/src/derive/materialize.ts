import type { DurationMs, EpochMs } from '../brand';
import type { CurrentSignals, DerivationResult, MachineCycle, Span } from './outputs';
import type { Fold, Outputs } from './fold';
import { advance, cloneFold, commit, emptyOutputs, faultUntil } from './fold';

// The state deriver's results (state-deriver.ts): the records the fold closed, and its open ones cut at `now`.

/** Cuts every open record at `now` (without changing the fold) and returns sorted copies of all outputs. */
export function materialize(src: Fold, closed: Outputs, now: number, since: number): DerivationResult {
  const f = cloneFold(src);
  const tail = emptyOutputs();
  const end = Math.max(now, f.t);
  if (f.started) {
    advance(f, end, tail);
    commit(f, end, tail);
  }
  /**
   * The closed records a write from `since` on keeps (it keeps every open one, and these). States, programs,
   * sub-programs and cycles close in time order, so they are the tail of their list: found from its end, at the cost
   * of what is kept and not of the history held (a filter over the hour held made every write cost the hour,
   * decision 1123). Faults of several items overlap: filtered.
   */
  const ending = <T extends { end: number }>(rows: T[]): T[] => {
    if (since === -Infinity) return rows;
    let i = rows.length;
    while (i > 0 && (rows[i - 1] as T).end >= since) i--;
    return i === 0 ? rows : rows.slice(i);
  };
  const endingUnordered = <T extends { end: number }>(rows: T[]): T[] =>
    since === -Infinity ? rows : rows.filter((r) => r.end >= since);
  /**
   * Spindle and in-cut spans a write from `since` on keeps, with every older closed span that merges into them
   * (adjacent ones merge, whatever their end): the tail of the closed ones, found from its end (decision 1123).
   */
  const spansFrom = (closedSpans: Span[], later: Span[]): Span[] => {
    if (since === -Infinity) return [...closedSpans, ...later];
    let first = Infinity;
    for (const x of later) if (x.start < first) first = x.start;
    let i = closedSpans.length;
    for (; i > 0; i--) {
      const x = closedSpans[i - 1] as Span;
      if (x.end < since && x.end < first) break;
      if (x.start < first) first = x.start;
    }
    return [...closedSpans.slice(i), ...later];
  };
  const intervals = [...ending(closed.intervals), ...tail.intervals].map((x) => ({ ...x }));
  if (f.started && end > f.stateStart) {
    intervals.push({
      start: f.stateStart as EpochMs,
      end: end as EpochMs,
      state: f.state,
      reason: f.reason,
      open: true,
    });
  }
  const programs = [...ending(closed.programs), ...tail.programs];
  if (f.program !== null && end > f.programStart)
    programs.push({ start: f.programStart as EpochMs, end: end as EpochMs, name: f.program, open: true });
  const subprograms = [...ending(closed.subprograms), ...tail.subprograms];
  if (f.subprogram !== null && end > f.subprogramStart)
    subprograms.push({
      start: f.subprogramStart as EpochMs,
      end: end as EpochMs,
      name: f.subprogram,
      open: true,
    });
  const faults = [...endingUnordered(closed.faults), ...tail.faults];
  for (const x of f.faults) {
    if (end > x.start) faults.push({ ...faultUntil(x, end), open: true });
  }
  const spindleLater = [...tail.spindle];
  if (f.spindleStart !== null && end > f.spindleStart)
    spindleLater.push({ start: f.spindleStart as EpochMs, end: end as EpochMs });
  const spindle = spansFrom(closed.spindle, spindleLater);
  const inCutLater = [...tail.inCut];
  if (f.inCutStart !== null && end > f.inCutStart)
    inCutLater.push({ start: f.inCutStart as EpochMs, end: end as EpochMs });
  const inCut = spansFrom(closed.inCut, inCutLater);

  const byStart = <T extends { start: number }>(a: T, b: T) => a.start - b.start;
  faults.sort(
    (a, b) =>
      a.start - b.start ||
      a.end - b.end ||
      (a.item + (a.nativecode ?? '') < b.item + (b.nativecode ?? '') ? -1 : 1),
  );
  const firstFault = f.faults[0];
  const current: CurrentSignals = {
    state: f.state,
    reason: f.reason,
    since: f.started ? (f.stateStart as EpochMs) : null,
    execution: f.execution,
    availability: f.availability,
    controllerMode: f.controllerMode,
    partCount: f.partCount,
    program: f.program,
    subprogram: f.subprogram,
    inSetup: f.inSetup,
    connected: f.connected,
    lastHeartbeat: f.lastHeartbeat as EpochMs | null,
    faultSince: firstFault ? (firstFault.start as EpochMs) : null,
    faultMessage: firstFault ? firstFault.value : null,
  };
  return {
    intervals,
    // Cycles of one end are merged: all of them end at or after `since`, or none.
    cycles: mergeSameEnd(ending(closed.cycles)),
    programs: programs.sort(byStart),
    subprograms: subprograms.sort(byStart),
    faults,
    spindle: mergeAdjacent(spindle.sort(byStart)),
    inCut: mergeAdjacent(inCut.sort(byStart)),
    current,
  };
}

/**
 * Counts that land on the same millisecond (two part-count steps in one instant, or machine times clamped to the
 * time they were received) make one cycle with their summed count: a cycle is known by its end (the store's
 * key), and a second, zero-length cycle at the same end would be a duplicate of it. Done when materializing,
 * so the fold's own records stay as they were at each checkpoint.
 */
function mergeSameEnd(cycles: readonly MachineCycle[]): MachineCycle[] {
  const out: MachineCycle[] = [];
  for (const c of cycles) {
    const last = out[out.length - 1];
    if (last && last.end === c.end) {
      const start = Math.min(last.start, c.start) as EpochMs;
      out[out.length - 1] = {
        ...c,
        start,
        duration: (c.end - start) as DurationMs,
        count: last.count + c.count,
      };
    } else out.push({ ...c });
  }
  return out;
}

function mergeAdjacent(spans: Span[]): Span[] {
  const out: Span[] = [];
  for (const s of spans) {
    const last = out[out.length - 1];
    if (last && last.end >= s.start) last.end = Math.max(last.end, s.end) as EpochMs;
    else out.push({ ...s });
  }
  return out;
}
