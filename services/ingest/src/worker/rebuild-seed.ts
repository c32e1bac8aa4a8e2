import { sql } from 'kysely';
import type { Kysely } from 'kysely';
import type { Database } from '@takt/db';
import { compactObservationsBetween, CONNECTION_KEY, firstStoredAt, observationsBetween } from '@takt/db';

/** How much of a machine's older observations one step of the search reads (an aggregate, not the rows). */
const SEED_SLICE_MS = 7 * 24 * 3_600_000;

/**
 * The signals in force at `floor`, where a rebuild for late data starts reading: the latest stored value of each
 * key before it (the link's latest connection change included), back to the latest disconnect before it (the
 * engine's signals start afresh after one, decision 1025). Read in week slices as one aggregate each, so memory
 * holds one row a key whatever the age: the rebuild starts from the stored state, never from nothing. Where raw
 * retention removed the rows (decision 1132), each key's last value before the raw floor is its kept seed.
 * Reads the stored rows by the machine's dictionary id (decision 1130), and on PostgreSQL its packs by their time
 * bounds (decision 1184): the first stored time is one key step of each.
 */
export async function signalsBefore(
  db: Kysely<Database>,
  companyId: string,
  machineId: string,
  floor: number,
  /** The raw floor (decision 1132): rows before it are not read (late data refused there), the seeds stand in. */
  rawFrom = 0,
): Promise<Array<{ ts: number; key: string; value: string | null }>> {
  // Its dictionary id under its company: rows another company stored under the same id are another machine's
  // (decision 1130).
  const m = (
    await db
      .selectFrom('observation_machines')
      .select('id')
      .where('machine_id', '=', machineId)
      .where('company_id', '=', companyId)
      .execute()
  ).map((r) => r.id);
  if (m.length === 0) return [];
  const keys = new Map(
    (await db.selectFrom('observation_keys').select(['id', 'key']).execute()).map((r) => [r.id, r.key]),
  );
  const connection = [...keys].find(([, key]) => key === CONNECTION_KEY)?.[0] ?? -1;
  const first = await db
    .selectFrom('observation_machines as om')
    .select(sql<number | null>`min(${firstStoredAt(db, sql.ref('om.id'))})`.as('ts'))
    .where('om.id', 'in', m)
    .executeTakeFirst();
  const earliest = first?.ts == null ? null : Math.max(rawFrom, Number(first.ts));
  const latest = new Map<number, number>();
  let since = -Infinity;
  for (let to = floor; earliest != null && to > earliest; to -= SEED_SLICE_MS) {
    const slice = Math.max(earliest, to - SEED_SLICE_MS);
    const [rows, disconnect] = await Promise.all([
      db
        .selectFrom(compactObservationsBetween(db, m, slice, to))
        .select(['r.k', (eb) => eb.fn.max<number>('r.ts').as('ts')])
        .groupBy('r.k')
        .execute(),
      db
        .selectFrom(compactObservationsBetween(db, m, slice, to))
        .select((eb) => eb.fn.max<number>('r.ts').as('ts'))
        .where('r.k', '=', connection)
        .where('r.value', '=', 'DISCONNECTED')
        .executeTakeFirst(),
    ]);
    for (const r of rows) if (!latest.has(r.k)) latest.set(r.k, Number(r.ts));
    if (disconnect?.ts != null) {
      since = Number(disconnect.ts);
      break;
    }
  }
  const out: Array<{ ts: number; key: string; value: string | null }> = [];
  // The kept seeds (rows removed by raw retention) of keys with no row left before `floor`, back to a disconnect.
  if (since === -Infinity) {
    const seeds = await db
      .selectFrom('observation_seeds')
      .select(['k', 'ts', 'value'])
      .where('m', 'in', m)
      .where('ts', '<', floor)
      .execute();
    const unseen = seeds.filter((s) => !latest.has(s.k));
    const gone = unseen.find((s) => s.k === connection && s.value === 'DISCONNECTED');
    if (gone) since = Number(gone.ts);
    for (const s of unseen)
      if (Number(s.ts) >= since) out.push({ ts: Number(s.ts), key: keys.get(s.k) ?? '', value: s.value });
  }
  for (const [k, ts] of latest) {
    if (ts < since) continue;
    const rows = await db
      .selectFrom(compactObservationsBetween(db, m, ts, ts + 1))
      .select(['r.ts', 'r.value'])
      .where('r.k', '=', k)
      .orderBy('r.seq')
      .execute();
    for (const r of rows) out.push({ ts: Number(r.ts), key: keys.get(k) ?? '', value: r.value });
  }
  // Stable: equal times keep their order as read.
  return out.sort((a, b) => a.ts - b.ts);
}

/** How many observations of the company's machine are stored in [from, to) (late data refused before the raw floor). */
export async function countStoredBetween(
  db: Kysely<Database>,
  companyId: string,
  machineId: string,
  from: number,
  to: number,
): Promise<number> {
  const row = await db
    .selectFrom(observationsBetween(db, { companyId, machineIds: [machineId], from, to }))
    .select((eb) => eb.fn.countAll<number | string>().as('n'))
    .executeTakeFirst();
  return Number(row?.n ?? 0);
}
