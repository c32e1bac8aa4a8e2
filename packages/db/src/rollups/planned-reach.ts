import type { Kysely } from 'kysely';
import { EARLIEST_TIME_MS, piecePlannedValue, piecesOf, segmentsOf } from '@takt/domain';
import type { Database } from '../schema';
import type { DowntimeFacts } from './range-reads';
import { storedMeasures } from './read';

/** How far back the row before a day start is looked for (two days, as before decision 1246 narrowed the reads). */
const ROW_BEFORE_DAY_MS = 2 * 86_400_000;

/**
 * Decision 1155 (METRICS.md §5): a downtime judged on its duration (plannedWithLimit, an annotation without an
 * end) that began before `dayStart` and is still counted the other way in the stored row just before it: where
 * its period starts (not before it), so the earlier days are recomputed too. A recompute replaces whole company
 * days from a mark, and marks start at the new observations, so such a period that passes its limit (or ends)
 * after a day start left the earlier day's rows judged as they were. Null when nothing reaches back. `facts`:
 * the machine's downtime facts around the day (whole periods at its start). One row read, only for such a period.
 */
export async function plannedLimitReachBack(
  db: Kysely<Database>,
  companyId: string,
  machineId: string,
  dayStart: number,
  now: number,
  facts: DowntimeFacts,
): Promise<number | null> {
  const intervals = facts.intervals
    .filter((r) => r.machine_id === machineId)
    .map((r) => ({ start: r.start_at, end: r.end_at, state: r.state }));
  const annotations = facts.annotations.filter((a) => a.machineId === machineId);
  const crossing = piecesOf(segmentsOf(intervals), annotations).filter(
    (p) =>
      p.start < dayStart &&
      (p.end === null || p.end >= dayStart) &&
      p.annotation?.end === null &&
      !p.annotation.setup &&
      p.annotation.category_id != null &&
      facts.types.get(p.annotation.category_id)?.plannedBehavior === 'plannedWithLimit',
  );
  if (crossing.length === 0) return null;
  const row = await db
    .selectFrom('rollups')
    .select(['start_at', 'end_at', 'measures'])
    .where('machine_id', '=', machineId)
    .where('company_id', '=', companyId)
    .where('start_at', '<', dayStart)
    .where('start_at', '>', dayStart - ROW_BEFORE_DAY_MS)
    .orderBy('start_at', 'desc')
    .limit(1)
    .executeTakeFirst();
  if (!row) return null;
  const measures = storedMeasures(row.measures);
  for (const p of crossing) {
    const a = p.annotation!;
    const overlap = Math.min(Number(row.end_at), dayStart) - Math.max(p.start, Number(row.start_at));
    if (overlap <= 0) continue;
    const planned = piecePlannedValue(facts.types.get(a.category_id!), a, p, now).countsAsPlanned;
    const d = measures.downtimeByReason[a.category_id!] ?? { plannedMs: 0, unplannedMs: 0 };
    const [right, other] = planned ? [d.plannedMs, d.unplannedMs] : [d.unplannedMs, d.plannedMs];
    // Counted the other way: its share of the row is missing where it belongs and present where it does not.
    if (right < overlap && other >= overlap) return Math.max(p.start, EARLIEST_TIME_MS);
  }
  return null;
}
