import type { EpochMs } from '../brand';
import { durationMs, epochMs } from '../brand';
import type { StateInterval } from '../derive/outputs';
import type { MachineState } from '../machine-state';
import type { ProductionCycle } from '../metrics/production';
import { DEFAULT_CYCLE_TIME_MS } from '../metrics/production';

// Decision 1073: a manual work center (workcenter type manual) has no machine data source, so its states
// come from the floor's evidence, its job runs and the parts its operators add by hand: SETUP while a run is
// in setup; in production the time between consecutive Add Parts is ACTIVE up to MANUAL_GAP_FACTOR × the
// addition's expected time, a longer gap is INACTIVE (downtime, uncategorized until an operator gives it a
// reason) except the expected time of the part that ends it; outside job runs INACTIVE. Never UNAVAILABLE:
// No data means a source that went silent, and it has none. These intervals are stored as the machine's
// state intervals, so the rollups, the timeline, the downtime list and report and the tiles read them as
// they read a monitored machine's (one rule, here).

/** A gap between two Add Parts longer than this many times the part's expected time is downtime. */
export const MANUAL_GAP_FACTOR = 2;

/** A job run of a manual work center, as its states need it. */
export interface ManualRun {
  id: string;
  jobId: string | null;
  start: number;
  /** null while the run goes on. */
  end: number | null;
  /** When it went into production; null while it is still in setup. */
  setupEnd: number | null;
  /** Per Add Part step (ms): 0 or less means the default, DEFAULT_CYCLE_TIME_MS. */
  expectedCycleTime: number;
  idealCycleTime: number;
  /** Parts per Add Part step (the job machine's partCountMultiplier, at least 1). */
  partCountMultiplier: number;
}

/** One Add Part (or Add 1 Part) of an operator: `count` parts at `at`. */
export interface ManualCount {
  at: number;
  count: number;
}

const expectedOf = (r: ManualRun) => (r.expectedCycleTime > 0 ? r.expectedCycleTime : DEFAULT_CYCLE_TIME_MS);
/** The time an addition of `count` parts is expected to take: its share of the run's Add Part step. */
const stepsOf = (r: ManualRun, count: number) => count / Math.max(1, r.partCountMultiplier);

/** The runs sorted by start, each cut at the next one's start (a machine runs one job at a time). */
function orderedRuns(runs: readonly ManualRun[]): ManualRun[] {
  const sorted = [...runs].sort((a, b) => a.start - b.start);
  return sorted.map((r, i) => {
    const next = sorted[i + 1];
    if (!next || (r.end !== null && r.end <= next.start)) return r;
    return { ...r, end: next.start, setupEnd: r.setupEnd === null ? null : Math.min(r.setupEnd, next.start) };
  });
}

/**
 * The manual work center's states over [from, now), every instant in exactly one state, sorted, disjoint and
 * contiguous, neighbours of one state merged. `runs`: its job runs reaching into the range; `counts`: its
 * Add Parts from `from` on (earlier ones are ignored). `from` should be a point of evidence (a count, a run's
 * start, setup end or end: manualAnchor), so the gap it starts is read whole. The last interval ends at `now`
 * and is open: while a production run goes on, a gap shorter than the limit reads ACTIVE until it passes it
 * (manualReviewAt), then the whole gap is INACTIVE (the newest evidence wins, as for a monitored machine).
 */
export function manualStates(
  runs: readonly ManualRun[],
  counts: readonly ManualCount[],
  from: number,
  now: number,
): StateInterval[] {
  const out: StateInterval[] = [];
  const push = (start: number, end: number, state: MachineState) => {
    const s = Math.max(start, from);
    const e = Math.min(end, now);
    if (e <= s) return;
    const last = out[out.length - 1];
    if (last && last.state === state && last.end === s) {
      last.end = epochMs(e);
      return;
    }
    out.push({ start: epochMs(s), end: epochMs(e), state, reason: null });
  };
  const sortedCounts = counts.filter((c) => c.at >= from && c.at < now).sort((a, b) => a.at - b.at);
  let cursor = from;
  let k = 0;
  for (const run of orderedRuns(runs)) {
    const end = Math.min(run.end ?? now, now);
    if (end <= cursor) continue;
    if (run.start >= now) break;
    push(cursor, run.start, 'INACTIVE');
    const production = run.setupEnd === null ? end : Math.min(Math.max(run.setupEnd, run.start), end);
    push(run.start, production, 'SETUP');
    const expected = expectedOf(run);
    // `from` is itself evidence (manualAnchor): counts before it are not passed.
    let evidence = Math.max(production, from);
    while (k < sortedCounts.length && (sortedCounts[k] as ManualCount).at < production) k++;
    for (; k < sortedCounts.length && (sortedCounts[k] as ManualCount).at < end; k++) {
      const c = sortedCounts[k] as ManualCount;
      const own = expected * stepsOf(run, c.count);
      if (c.at - evidence > MANUAL_GAP_FACTOR * own) {
        push(evidence, c.at - own, 'INACTIVE');
        push(c.at - own, c.at, 'ACTIVE');
      } else push(evidence, c.at, 'ACTIVE');
      evidence = c.at;
    }
    // The tail after the last evidence: one Add Part step's limit, ended or not.
    if (end > evidence)
      push(evidence, end, end - evidence > MANUAL_GAP_FACTOR * expected ? 'INACTIVE' : 'ACTIVE');
    cursor = Math.max(cursor, end);
  }
  push(cursor, now, 'INACTIVE');
  const last = out[out.length - 1];
  if (last) last.open = true;
  return out;
}

/**
 * The latest point of evidence at or before `t` (a count, a run's start, setup end or end), from where the
 * states after `t` can be derived again whole; null when there is none (the machine's life starts later).
 */
export function manualAnchor(
  runs: readonly ManualRun[],
  counts: readonly ManualCount[],
  t: number,
): number | null {
  let best: number | null = null;
  const consider = (x: number | null) => {
    if (x !== null && x <= t && (best === null || x > best)) best = x;
  };
  for (const r of runs) {
    consider(r.start);
    consider(r.setupEnd);
    consider(r.end);
  }
  for (const c of counts) consider(c.at);
  return best;
}

/**
 * Decision 1207: a manual work center's time from its first Add Part (its life's start, METRICS.md §1) to its first
 * stored state, as a state row: there when the rollup worker has not derived its states from that evidence yet (its
 * first counts are pending). INACTIVE (idle: downtime, uncategorized until an operator gives it a reason), never
 * UNAVAILABLE: No data is a silent source's and it has none. Open (`end` null) while it has no stored state at all.
 * Null when its stored states start at or before its first count (derived: they cover its life).
 */
export function manualUnderivedState(
  firstCount: number | null,
  firstState: number | null,
): { start: number; end: number | null; state: 'INACTIVE' } | null {
  if (firstCount === null || (firstState !== null && firstState <= firstCount)) return null;
  return { start: firstCount, end: firstState, state: 'INACTIVE' };
}

/**
 * When the states derived at `now` change with no new evidence: the instant a production run's open gap
 * passes the limit (its ACTIVE tail turns INACTIVE), or null when nothing is pending.
 */
export function manualReviewAt(
  runs: readonly ManualRun[],
  counts: readonly ManualCount[],
  now: number,
): number | null {
  const run = orderedRuns(runs).find((r) => r.start <= now && (r.end === null || now < r.end));
  if (!run || run.setupEnd === null || run.setupEnd > now) return null;
  let evidence = Math.max(run.setupEnd, run.start);
  for (const c of counts) if (c.at >= evidence && c.at <= now) evidence = c.at;
  const at = evidence + MANUAL_GAP_FACTOR * expectedOf(run);
  return at >= now ? at : null;
}

/**
 * The Add Parts of a manual work center as cycles for Performance (METRICS.md §3: its Add Part step is one
 * cycle): each addition is `count / partCountMultiplier` cycles of the run covering it, with that share of
 * the run's ideal and expected time, lasting from the previous addition of its run (or its production start),
 * so the timeline and the card judge it slow or fast. They credit no parts (`parts` 0): the parts are counted
 * once, as the manual part adjustments they are. An addition outside any run has no standard, one in setup no
 * ideal time (setup is not run time).
 */
export function manualCycles(runs: readonly ManualRun[], counts: readonly ManualCount[]): ProductionCycle[] {
  const ordered = orderedRuns(runs);
  const out: ProductionCycle[] = [];
  let previous: { run: ManualRun | null; at: number } | null = null;
  for (const c of [...counts].sort((a, b) => a.at - b.at)) {
    const run = ordered.find((r) => r.start <= c.at && (r.end === null || c.at < r.end)) ?? null;
    const setup = run !== null && (run.setupEnd === null || c.at < run.setupEnd);
    const steps = run ? stepsOf(run, c.count) : c.count;
    const expected = run ? expectedOf(run) : 0;
    const ideal = run ? run.idealCycleTime : 0;
    // What the addition took: since the previous one of its run, or since the run went into production.
    const production = run ? Math.max(run.start, run.setupEnd ?? run.start) : c.at;
    const since =
      run === null || setup
        ? c.at
        : Math.max(production, previous && previous.run === run ? previous.at : production);
    previous = { run, at: c.at };
    out.push({
      start: epochMs(since) as EpochMs,
      end: epochMs(c.at),
      duration: durationMs(c.at - since),
      count: steps,
      source: 'part_count',
      setup,
      runId: run ? run.id : null,
      jobId: run ? run.jobId : null,
      parts: 0,
      expectedCycleTime: expected,
      idealCycleTime: ideal,
      idealMs: setup ? 0 : ideal * steps,
      expectedMs: setup ? 0 : expected * steps,
    });
  }
  return out;
}
