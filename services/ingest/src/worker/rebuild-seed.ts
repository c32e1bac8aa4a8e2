import type { Kysely } from 'kysely';
import type { Database } from '@takt/db';
import { CONNECTION_KEY } from '@takt/db';

/** How much of a machine's older observations one step of the search reads (an aggregate, not the rows). */
const SEED_SLICE_MS = 7 * 24 * 3_600_000;

/**
 * The signals in force at `floor`, where a rebuild for late data starts reading: the latest stored value of each
 * key before it (the link's latest connection change included), back to the latest disconnect before it (the
 * engine's signals start afresh after one, decision 1025). Read in week slices as one aggregate each, so memory
 * holds one row a key whatever the age: the rebuild starts from the stored state, never from nothing.
 */
export async function signalsBefore(
  db: Kysely<Database>,
  machineId: string,
  floor: number,
): Promise<Array<{ ts: number; key: string; value: string | null }>> {
  const first = await db
    .selectFrom('observations')
    .select((eb) => eb.fn.min<number>('ts').as('ts'))
    .where('machine_id', '=', machineId)
    .executeTakeFirst();
  const earliest = first?.ts == null ? null : Number(first.ts);
  if (earliest == null || earliest >= floor) return [];
  const latest = new Map<string, number>();
  let since = -Infinity;
  for (let to = floor; to > earliest; to -= SEED_SLICE_MS) {
    const slice = Math.max(earliest, to - SEED_SLICE_MS);
    const [rows, disconnect] = await Promise.all([
      db
        .selectFrom('observations')
        .select(['key', (eb) => eb.fn.max<number>('ts').as('ts')])
        .where('machine_id', '=', machineId)
        .where('ts', '>=', slice)
        .where('ts', '<', to)
        .groupBy('key')
        .execute(),
      db
        .selectFrom('observations')
        .select((eb) => eb.fn.max<number>('ts').as('ts'))
        .where('machine_id', '=', machineId)
        .where('key', '=', CONNECTION_KEY)
        .where('value', '=', 'DISCONNECTED')
        .where('ts', '>=', slice)
        .where('ts', '<', to)
        .executeTakeFirst(),
    ]);
    for (const r of rows) if (!latest.has(r.key)) latest.set(r.key, Number(r.ts));
    if (disconnect?.ts != null) {
      since = Number(disconnect.ts);
      break;
    }
  }
  const out: Array<{ ts: number; key: string; value: string | null }> = [];
  for (const [key, ts] of latest) {
    if (ts < since) continue;
    const rows = await db
      .selectFrom('observations')
      .select(['ts', 'key', 'value'])
      .where('machine_id', '=', machineId)
      .where('key', '=', key)
      .where('ts', '=', ts)
      .execute();
    for (const r of rows) out.push({ ts: Number(r.ts), key: r.key, value: r.value });
  }
  // Stable: equal times keep their order as read.
  return out.sort((a, b) => a.ts - b.ts);
}
