// What the server stored, read straight from the product's SQLite file (read-only, beside the running
// product: WAL lets a reader in while it writes).
import Database from 'better-sqlite3';
import type { RunningProduct } from './harness';

export type Row = Record<string, unknown>;

/** Runs one query on a fresh read-only connection and returns every row. */
export function query<T extends Row = Row>(
  product: Pick<RunningProduct, 'dbFile'>,
  sql: string,
  ...params: unknown[]
): T[] {
  const db = new Database(product.dbFile, { readonly: true, fileMustExist: true });
  try {
    return db.prepare(sql).all(...params) as T[];
  } finally {
    db.close();
  }
}

export interface SyncCommandRow extends Row {
  id: string;
  type: string;
  machine_id: string;
  occurred_at: number;
  received_at: number;
  status: 'applied' | 'rejected';
  result: string | null;
}

export const syncCommands = (product: Pick<RunningProduct, 'dbFile'>, machineId: string) =>
  query<SyncCommandRow>(
    product,
    'SELECT * FROM sync_commands WHERE machine_id = ? ORDER BY occurred_at',
    machineId,
  );

/** The parts added by hand on a machine (Add Part, the part count), as the server stored them, oldest first. */
export const manualParts = (product: Pick<RunningProduct, 'dbFile'>, machineId: string) =>
  query<{ count: number }>(
    product,
    "SELECT count FROM part_adjustments WHERE machine_id = ? AND kind = 'manual' ORDER BY adjustment_time, rowid",
    machineId,
  ).map((r) => r.count);

/** Every table the floor app's commands write to, as row counts for one machine. */
export function factCounts(product: Pick<RunningProduct, 'dbFile'>, machineId: string) {
  const count = (sql: string) => Number(query<{ n: number }>(product, sql, machineId)[0]?.n ?? 0);
  return {
    jobRuns: count('SELECT COUNT(*) AS n FROM job_runs WHERE machine_id = ?'),
    laborActivities: count(
      'SELECT COUNT(*) AS n FROM labor_activities la JOIN job_runs r ON r.id = la.job_run_id WHERE r.machine_id = ?',
    ),
    annotations: count('SELECT COUNT(*) AS n FROM annotations WHERE machine_id = ?'),
    partAdjustments: count('SELECT COUNT(*) AS n FROM part_adjustments WHERE machine_id = ?'),
    operatorRuns: count('SELECT COUNT(*) AS n FROM operator_runs WHERE machine_id = ?'),
    syncCommands: count('SELECT COUNT(*) AS n FROM sync_commands WHERE machine_id = ?'),
  };
}

/** How many of these command ids the server has logged (applied or refused). */
export function loggedCount(product: Pick<RunningProduct, 'dbFile'>, ids: readonly string[]): number {
  if (ids.length === 0) return 0;
  const marks = ids.map(() => '?').join(', ');
  return Number(
    query<{ n: number }>(product, `SELECT COUNT(*) AS n FROM sync_commands WHERE id IN (${marks})`, ...ids)[0]
      ?.n ?? 0,
  );
}

/**
 * Changes what the server stored, as an admin screen without an API would (company flags have no write route):
 * one statement on a fresh connection beside the running product (WAL; waits up to 5 s for its writer).
 */
export function execute(product: Pick<RunningProduct, 'dbFile'>, sql: string, ...params: unknown[]): number {
  const db = new Database(product.dbFile, { fileMustExist: true, timeout: 5_000 });
  try {
    return db.prepare(sql).run(...params).changes;
  } finally {
    db.close();
  }
}
