// Pieces of the explain benches (bench/explain-*.ts): a series of numbers as SQL, a plan's lines as printed, ingest's
// replace statements and a rolled-back transaction.
import type { CompiledQuery, Kysely } from 'kysely';
import { companyScope } from '@takt/db';
import type { Database } from '@takt/db';
import { programsIn } from '../../services/api/src/repositories/reports';
import { narrowStatements } from '../../services/ingest/src/worker/store-narrow';
import type { DerivedWrite } from '../../services/ingest/src/worker/store';

/** `select` of the numbers 0 … n-1 as column `name`, on either dialect (SQLite has no generate_series). */
export const series = (pg: boolean, n: number, name: string): string =>
  pg
    ? `select generate_series(0, ${n - 1}) as ${name}`
    : `with recursive s(${name}) as (select 0 union all select ${name} + 1 from s where ${name} < ${n - 1}) select ${name} from s`;

/** The lines of an EXPLAIN's rows: PostgreSQL's QUERY PLAN, SQLite's query plan (id, parent, detail). */
export const planLines = (pg: boolean, rows: readonly unknown[]): string[] =>
  (rows as Array<Record<string, unknown>>).map((row) =>
    pg ? String(row['QUERY PLAN']) : `${String(row.id)} ${String(row.parent)} ${String(row.detail)}`,
  );

/** Ingest's statements replacing the derived records of machine-0 … machine-(n-1) (dictionary ids 1 … n) from `from`. */
export const replaceStatements = (pg: boolean, n: number, from: number): CompiledQuery[] => {
  const m = new Map<DerivedWrite, number>();
  const writes = Array.from({ length: n }, (_, i) => {
    const w = { companyId: 'c', machineId: `machine-${i}`, from } as DerivedWrite;
    m.set(w, i + 1);
    return w;
  });
  return narrowStatements(
    pg,
    [],
    writes,
    () => [],
    (w) => m.get(w)!,
  );
};

/** Runs `work` in a transaction rolled back after it. */
export const rolledBack = (db: Kysely<Database>, work: (trx: Kysely<Database>) => Promise<void>) =>
  db
    .transaction()
    .execute(async (trx) => {
      await work(trx);
      throw new Error('rollback');
    })
    .catch((e: unknown) => {
      if (!(e instanceof Error) || e.message !== 'rollback') throw e;
    });

/**
 * The timeline's program reads of machine-7 (reports.ts programsIn) over a range mid-history (its 1,000th of `step`)
 * and one around `now`, each counted and explained.
 */
export async function explainProgramReads(
  db: Kysely<Database>,
  step: number,
  now: number,
  explain: (q: CompiledQuery, label: string) => Promise<void>,
): Promise<void> {
  for (const [what, range] of [
    ['mid-history', { start: 1000 * step + 100, end: 1001 * step + 500 }],
    ['near now', { start: now - 6 * step, end: now + 6 * step }],
  ] as const) {
    const q = programsIn(companyScope(db, 'c'), 'machine-7', range, 0).orderBy('start_at');
    console.log(`programs of machine-7, ${what}: ${(await q.execute()).length} rows`);
    await explain(q.compile(), `programsIn ${what}`);
  }
}
