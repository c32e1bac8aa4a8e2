import { sql } from 'kysely';
import { companyObservations, lastObservationBefore, rawFloor } from '@takt/db';
import type { CompanyScope } from '@takt/db';
import { dictionaryId } from './reports';

/**
 * Parts the machine counted in [from, to): the sum of the positive steps of its PART_COUNT data item(s).
 * A reset of the counter (a step down) counts nothing; the next increments count again. Before the raw floor
 * (decision 1132) the counter's rows are gone: there the machine's derived cycles stand for its steps (the counter
 * counts cycles, METRICS.md §3; a step of N is a cycle of count N), and the rows are read from the floor on
 * (decision 1150).
 */
export async function machinePartsBetween(
  scope: CompanyScope,
  machineId: string,
  start: number,
  to: number,
): Promise<number> {
  const keys = await scope
    .selectFrom('machines')
    .innerJoin('adapter_fields', 'adapter_fields.adapter_id', 'machines.adapter_id')
    .select('adapter_fields.name')
    .where('machines.id', '=', machineId)
    .where(sql<boolean>`upper(adapter_fields.data_item_type) = 'PART_COUNT'`)
    .execute();
  if (keys.length === 0) return 0;
  const names = keys.map((k) => k.name);
  const floor = await rawFloor(scope.db);
  const beforeFloor =
    start < floor ? await cycleCountBetween(scope, machineId, start, Math.min(to, floor)) : 0;
  if (to <= floor) return beforeFloor;
  const from = Math.max(start, floor);
  // The last value before the range is the baseline of the first step inside it.
  const before = await lastObservationBefore(scope, machineId, names, from)
    // Raw retention (decision 1132) removed the rows before its floor and kept each key's last value: a counter
    // unchanged since before the floor has its seed as the baseline.
    .then(
      (row) =>
        row ??
        scope.db
          .selectFrom('observation_seeds as s')
          .innerJoin('observation_machines as om', 'om.id', 's.m')
          .innerJoin('observation_keys as ok', 'ok.id', 's.k')
          .select(['s.value', 's.ts'])
          .where('om.machine_id', '=', machineId)
          .where('om.company_id', '=', scope.companyId)
          .where('ok.key', 'in', names)
          .where('s.ts', '<', from)
          .orderBy('s.ts', 'desc')
          .limit(1)
          .executeTakeFirst(),
    );
  const rows = await companyObservations(scope, [machineId], from, to)
    .select(['value', 'ts'])
    .where('key', 'in', names)
    .orderBy('ts')
    .orderBy('seq')
    .execute();
  let last = before?.value != null ? Number(before.value) : null;
  let parts = 0;
  for (const r of rows) {
    const v = r.value == null ? null : Number(r.value);
    if (v == null || !Number.isFinite(v)) continue;
    if (last != null && v > last) parts += v - last;
    last = v;
  }
  return beforeFloor + parts;
}

/** The counts of the machine's cycles ending in [from, to) (derived records, kept past the raw floor). */
async function cycleCountBetween(
  scope: CompanyScope,
  machineId: string,
  from: number,
  to: number,
): Promise<number> {
  const row = await scope
    .selectFrom('cycles')
    .select((eb) => eb.fn.sum<number | string | null>('count').as('n'))
    .where('machine_id', '=', machineId)
    .where('end_at', '>=', from)
    .where('end_at', '<', to)
    .executeTakeFirst();
  return Number(row?.n ?? 0);
}

/** The sub-program the machine is running now (its open sub-program interval), or null. */
export async function openSubprogram(scope: CompanyScope, machineId: string): Promise<string | null> {
  // program_open's row (decision 1161), its key (m, sub): through the view, `end_at is null` also searched the closed
  // rows, by an index on end_at that decision 1181 drops.
  const row = await scope.db
    .selectFrom('program_open')
    .select('name')
    .where('m', '=', dictionaryId(scope, machineId))
    .where('sub', '=', 1)
    .executeTakeFirst();
  return row?.name ?? null;
}
