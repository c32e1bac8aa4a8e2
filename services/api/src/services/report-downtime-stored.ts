import {
  bucketAt,
  epochMs,
  NO_DATA_REASON,
  selectDowntimeFigures,
  shiftOccurrences,
  spansMs,
  storedUntil,
  UNCATEGORIZED_REASON,
} from '@takt/domain';
import type { AnnotationType, CompanyCalendar, DowntimeFigures, DowntimeReasonFigures } from '@takt/domain';
import { downtimeEdgeFigures, loadDowntimeFigureRows } from '@takt/db/rollups';
import type { EdgeFigures } from '@takt/db/rollups';
import { toAnnotationType } from '@takt/db';
import { heldAtInstant } from '../repositories/config-cache';
import { machinesWithRowsFrom, rollupState } from '../repositories/reports';
import type { ServiceCtx } from './context';
import { monitoredFromOnce } from './report-facts';

// Decision 1193: the downtime report's figures (its JSON without the list) read from the figures kept with the
// rollup rows (decision 1188) over the range's interior of whole buckets, and computed from the states, with the
// same domain code the recompute uses, over its edges: the part before the first whole bucket, and from where a
// machine's rows stop holding (its dirty mark or where they were computed up to, storedUntil) or the last bucket
// of the range, whichever is earlier, to the range's end (or now). Every figure is a sum over the rows and edges;
// each period is counted once (domain selectDowntimeFigures: by its start, across the joints). Machines the rows
// cannot answer exactly are left to the states path (the caller): see storedDowntimeFigures.

/** The figures of the machines the stored rows answer, by reason, and the annotation types they name. */
export interface StoredDowntime {
  figures: Map<string, Record<string, DowntimeReasonFigures>>;
  types: ReadonlyMap<string, AnnotationType>;
}

/** True when two of the company's shifts overlap in the range: the buckets and the report's clip would differ. */
function shiftsOverlap(calendar: CompanyCalendar, range: { start: number; end: number }): boolean {
  const from = epochMs(range.start);
  const to = epochMs(range.end);
  const each = calendar.shifts.reduce((t, s) => t + spansMs(shiftOccurrences(calendar, [s], from, to)), 0);
  return each !== spansMs(shiftOccurrences(calendar, calendar.shifts, from, to));
}

/**
 * The stored figures of the machines (the caller's company's, from reportMachines) over [range.start, until)
 * in the selected shifts (null: all time), judged at ctx.now. A machine is left out (answered from the states)
 * when: its rows hold no whole bucket of the range; a row it is read from was stored without figures (before
 * migration 0067's rows were recomputed, 0068); a downtime judged on its duration (plannedWithLimit) reaches
 * from the stored rows into the part computed now; or a reason the rows name is no longer an annotation type.
 * No machine is answered when the selected shifts overlap others (decision 1188: the buckets give the overlap to
 * the shift that started first, the report to every selected shift).
 */
export async function storedDowntimeFigures(
  ctx: ServiceCtx,
  calendar: CompanyCalendar,
  machineIds: readonly string[],
  range: { start: number; until: number },
  shiftIds: readonly string[] | null,
): Promise<StoredDowntime> {
  const out: StoredDowntime = { figures: new Map(), types: new Map() };
  const { start, until } = range;
  if (machineIds.length === 0 || !(start < until)) return out;
  if (shiftIds && shiftsOverlap(calendar, { start, end: until })) return out;
  const first = bucketAt(calendar, start);
  const a = first.start === start ? start : (first.end as number);
  // The last bucket of the range is always computed from the states: an open downtime reaching into the range
  // (its duration judged at now) is then always among the edge's facts.
  const last = bucketAt(calendar, until - 1).start as number;
  // Decision 1205: b below is at most `last`, so a machine's rows computed at or after `last` give the same b as rows
  // computed up to the range's end. A machine with a row starting in the last bucket has such rows (a row is
  // computed at or after its start): its latest computed_at is not read (a range's every hourly row visited for it:
  // 166 ms of a month's call on SQLite); only the other machines' is.
  const reaching = await machinesWithRowsFrom(ctx.scope, machineIds, { start: last, end: until });
  const state = await rollupState(
    ctx.scope,
    machineIds,
    { start, end: until },
    machineIds.filter((id) => !reaching.has(id)),
  );
  const ends = new Map<string, number>();
  for (const id of machineIds) {
    const computedAt = reaching.has(id) ? until : state.computedAt.get(id);
    const held = storedUntil(calendar, until, state.dirty.get(id), computedAt);
    const b = Math.min(held, last);
    if (b > a) ends.set(id, b);
  }
  if (ends.size === 0) return out;
  const shifts = shiftIds ? new Set<string | null>(shiftIds) : null;
  const ids = [...ends.keys()];
  // Decision 1198: each machine's interior [a, b) and tail [b, until) with its own b, read for all machines at once
  // (a fixed number of queries whatever the number of machines and of their b's). No edge figures are computed for
  // a machine the states will answer (a row stored without figures, or a downtime judged on its duration reaching
  // into its end edge): its facts are read with the others', its figures left out. Both edges' No data from one
  // read of where the machines' monitored life starts (decision 1256: shared at the call's report instant).
  const life = await monitoredFromOnce(ctx, ids);
  const stored = loadDowntimeFigureRows(
    ctx.scope,
    calendar,
    ids,
    new Map(ids.map((id) => [id, { start: a, end: ends.get(id)! }])),
    shifts,
  );
  const answered = stored.then((rows) => (id: string) => !!rows.get(id));
  const tailKept = answered.then((rowsHeld) => (id: string, limited: boolean) => rowsHeld(id) && !limited);
  // Every machine's tail figures, held at the call's report instant (decision 1256: today's, this week's and this
  // month's calls end at the same now and share them); those the rows do not answer are left out here.
  const tailSpans = ids.map((id) => `${id}:${ends.get(id)!}`).join(',');
  const allTails = heldAtInstant(ctx.scope, ctx.now, `downtime tails|${until}|${tailSpans}`, () =>
    downtimeEdgeFigures(
      ctx.scope,
      calendar,
      ids,
      new Map(ids.map((id) => [id, { start: ends.get(id)!, end: until }])),
      ctx.now,
      undefined,
      life,
    ),
  );
  const tails = Promise.all([allTails, tailKept]).then(
    ([all, kept]) =>
      new Map(
        [...all].map(([id, tail]) => [id, kept(id, tail.limitedFromBefore) ? tail : { ...tail, rows: [] }]),
      ),
  );
  const heads = downtimeEdgeFigures(
    ctx.scope,
    calendar,
    ids,
    { start, end: a },
    ctx.now,
    Promise.all([answered, tails]).then(
      ([rowsHeld, tailOf]) =>
        (id: string) =>
          rowsHeld(id) && tailOf.get(id)?.limitedFromBefore === false,
    ),
    life,
  );
  const [rowsOf, headOf, tailOf] = await Promise.all([stored, heads, tails]);
  const typeIds = new Set<string>();
  const kept: Array<[string, DowntimeFigures[]]> = [];
  for (const id of ids) {
    const rows = rowsOf.get(id);
    const tail = tailOf.get(id)!;
    if (!rows || tail.limitedFromBefore) continue;
    const all = [...edgeRows(headOf.get(id), shifts), ...rows, ...edgeRows(tail, shifts)];
    for (const r of all) for (const reason in r.byReason) typeIds.add(reason);
    kept.push([id, all]);
  }
  const types = await annotationTypes(ctx, [...typeIds]);
  const selected = (t: number, shift: string | null) =>
    t >= start && t < until && (shifts === null || shifts.has(shift));
  for (const [id, rows] of kept) {
    const figures = selectDowntimeFigures(rows, selected);
    if (Object.keys(figures).some((reason) => !isBuiltIn(reason) && !types.has(reason))) continue;
    out.figures.set(id, figures);
  }
  out.types = types;
  return out;
}

/** An edge's rows in the selected shifts (null: all), as loadDowntimeFigureRows filters the stored rows. */
const edgeRows = (edge: EdgeFigures | undefined, shifts: ReadonlySet<string | null> | null) =>
  edge ? edge.rows.filter((_r, i) => shifts === null || shifts.has(edge.shiftIds[i] ?? null)) : [];

const isBuiltIn = (reason: string) => reason === UNCATEGORIZED_REASON || reason === NO_DATA_REASON;

/** The company's annotation types of these ids (the stored rows' reason keys: type ids, or the built-in keys). */
async function annotationTypes(ctx: ServiceCtx, ids: readonly string[]) {
  const wanted = ids.filter((id) => !isBuiltIn(id));
  if (wanted.length === 0) return new Map<string, AnnotationType>();
  const rows = await ctx.scope.selectFrom('annotation_types').selectAll().where('id', 'in', wanted).execute();
  return new Map(rows.map((r) => [r.id, toAnnotationType(r)]));
}
