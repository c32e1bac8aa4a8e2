import type { Kysely } from 'kysely';
import type { Database } from '../schema';

// Decision 1153: the rollup worker writes a machine's hourly, day and week rows only where they changed. Every
// recompute used to delete and insert all the rows of the company days (and weeks) it recomputed, so on
// PostgreSQL each left a dead version of every row: 8 times the rows' own size in bench/disk-day.ts.

/**
 * The tables of rollup rows, each keyed by (machine_id, company_id, start_at): one row per bucket, day or week × shift
 * of a machine (the same machine id under another company is another machine: decision 1190).
 */
export type RollupTable = 'rollups' | 'rollup_days' | 'rollup_weeks';

type Value = string | number | null;
type Row = Record<string, Value>;

/** A dynamic view of the three tables (they differ in columns; the diff below treats rows as column maps). */
type Tables = Record<RollupTable, Row>;

/** Changed rows up to this many are updated one by one (PostgreSQL can keep an update on its page: HOT). */
const UPDATE_ONE_BY_ONE = 8;

/**
 * Mutates: the machine's rows of `table` starting in [start, end) become `rows` (their `start_at` distinct, all
 * of the machine and inside the span), written only where they changed. A stored row whose start matches a new
 * row with the same values (computed_at aside) is left as it was, with its computed_at: it still holds, and its
 * computed_at is still at or after its end. One with other values is updated, a new start is inserted and a
 * stored start that is no longer produced is deleted. A stored row computed up to its own end (cut by the
 * recompute's now, read.ts rollupGaps) takes the new computed_at. Returns how many rows it wrote or deleted.
 */
export async function writeChangedRows(
  trx: Kysely<Database>,
  table: RollupTable,
  span: { companyId: string; machineId: string; start: number; end: number },
  rows: readonly Row[],
): Promise<number> {
  const db = trx as unknown as Kysely<Tables>;
  const stored = await db
    .selectFrom(table)
    .selectAll()
    .where('machine_id', '=', span.machineId)
    .where('company_id', '=', span.companyId)
    .where('start_at', '>=', span.start)
    .where('start_at', '<', span.end)
    .execute();
  const byStart = new Map<number, Row | null>();
  const gone: number[] = [];
  for (const s of stored) {
    const start = Number(s.start_at);
    // Two stored rows of one start (never written so): both go, and the new row, if any, is inserted.
    if (byStart.has(start)) {
      if (byStart.get(start) !== null) gone.push(start);
      byStart.set(start, null);
    } else byStart.set(start, s);
  }
  const inserted: Row[] = [];
  const changed: Row[] = [];
  const kept = new Set<number>();
  for (const r of rows) {
    const start = Number(r.start_at);
    const s = byStart.get(start);
    if (s === undefined || s === null) inserted.push(r);
    else if (!holds(s, r)) changed.push(r);
    kept.add(start);
  }
  for (const start of byStart.keys()) if (!kept.has(start)) gone.push(start);
  // Many changes (an edit of the past, a changed calendar): deleted and inserted in batches instead.
  const rewritten = changed.length > UPDATE_ONE_BY_ONE ? changed : [];
  for (const start of rewritten) gone.push(Number(start.start_at));
  for (let i = 0; i < gone.length; i += 500)
    await db
      .deleteFrom(table)
      .where('machine_id', '=', span.machineId)
      .where('company_id', '=', span.companyId)
      .where('start_at', 'in', gone.slice(i, i + 500))
      .execute();
  if (rewritten.length === 0)
    for (const r of changed)
      await db
        .updateTable(table)
        .set(r)
        .where('machine_id', '=', span.machineId)
        .where('company_id', '=', span.companyId)
        .where('start_at', '=', r.start_at as number)
        .execute();
  const values = [...inserted, ...rewritten];
  for (let i = 0; i < values.length; i += 100)
    await db
      .insertInto(table)
      .values(values.slice(i, i + 100))
      .execute();
  return gone.length - rewritten.length + changed.length + inserted.length;
}

/** Whether stored row `s` still holds for new row `r`: the same values, and not cut at its computation. */
function holds(s: Row, r: Row): boolean {
  for (const column of Object.keys(r)) {
    if (column === 'computed_at') continue;
    const a = s[column] ?? null;
    const b = r[column] ?? null;
    if (a !== b && !(typeof b === 'number' && a !== null && Number(a) === b)) return false;
  }
  const computedAt = Number(s.computed_at);
  return computedAt > Number(s.end_at) || computedAt === Number(r.computed_at);
}
