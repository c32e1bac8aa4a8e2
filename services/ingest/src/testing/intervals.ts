import type { Kysely } from 'kysely';
import type { Database } from '@takt/db';

/**
 * Stored state intervals of a machine that overlap one another (each a machine is in exactly one state at a time,
 * METRICS.md §1): the pairs, as text, empty when none. An open interval runs to the end of time.
 */
export async function overlappingIntervals(db: Kysely<Database>, machineId: string): Promise<string[]> {
  const rows = await db
    .selectFrom('state_intervals')
    .select(['start_at', 'end_at', 'state'])
    .where('machine_id', '=', machineId)
    .orderBy('start_at')
    .execute();
  const out: string[] = [];
  const text = (r: (typeof rows)[number]) =>
    `${r.state} ${new Date(Number(r.start_at)).toISOString()}–${r.end_at == null ? 'open' : new Date(Number(r.end_at)).toISOString()}`;
  let reach = -Infinity;
  let reachRow: (typeof rows)[number] | undefined;
  for (const r of rows) {
    if (reachRow && Number(r.start_at) < reach) out.push(`${text(reachRow)} overlaps ${text(r)}`);
    const end = r.end_at == null ? Infinity : Number(r.end_at);
    if (end > reach) {
      reach = end;
      reachRow = r;
    }
  }
  return out;
}

/** `overlappingIntervals` of every machine with stored intervals: an afterEach of a worker test expects none. */
export async function overlappingIntervalsOfAll(db: Kysely<Database>): Promise<string[]> {
  const machines = await db.selectFrom('state_intervals').select('machine_id').distinct().execute();
  const out: string[] = [];
  for (const m of machines)
    for (const o of await overlappingIntervals(db, m.machine_id)) out.push(`${m.machine_id}: ${o}`);
  return out;
}
