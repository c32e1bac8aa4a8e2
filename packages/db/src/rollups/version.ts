import { createHash } from 'node:crypto';
import { sql } from 'kysely';
import { numberedPlaceholders } from '../batch-insert';
import type { CompanyScope } from '../scope';

// The data version of a company's reports up to an instant (decision 1148): what changes whenever an input of
// a report of a range ending then may have changed, so an answer computed at one version can be given again
// while the version stays the same.

/**
 * The company's report data version for ranges ending at `end`, as one string:
 * - its pending rollup marks from before `end` (count, Σ marked_at, Σ from_at): every write of a fact (ingest
 *   marks each machine it derives for, with its wall clock in marked_at) and every edit (annotations, part
 *   adjustments, job runs, the calendar: historyChanged) sets or moves one, and the worker moves or clears it
 *   when it has recomputed;
 * - the latest computed_at of its week rows starting before `end`: the worker writes a recomputed day's
 *   hourly, day and week rows in one transaction, so a mark set and cleared between two reads still shows
 *   (one walk down the (company_id, computed_at, start_at) index of migration 0051);
 * - a hash of the configuration the answers name or are cut by: the company row (time zone, day start,
 *   settings), shifts and their versions, machines, groups and members, downtime reasons, part adjustment
 *   types, jobs and setup stages (names only), the reasons each group offers, the jobs' standards per machine
 *   (job_machines) and the operators. Facts outside the marks (labor activities, operator runs) are bounded by
 *   the answer's reuse time (services/api report-shared.ts SETTLED_REUSE_MS), not by the version.
 * `marks` is the count of pending marks from before `end` (0: nothing in the range is being recomputed).
 */
export async function reportDataVersion(
  scope: CompanyScope,
  end: number,
): Promise<{ version: string; marks: number }> {
  const c = scope.companyId;
  const db = scope.db;
  const state = sql`count(*) as marks, sum(d.marked_at) as marked, sum(d.from_at) as froms,
    (select w.computed_at from rollup_weeks w where w.company_id = ${c} and w.start_at < ${end}
      order by w.computed_at desc limit 1) as computed`;
  const marked = sql`from rollup_dirty d where d.company_id = ${c} and d.from_at < ${end}`;
  // PostgreSQL: the configuration as each table's rows in text, hashed by the server, in the same statement (one
  // round trip); SQLite: the rows themselves (its reads cost microseconds, and it has no row-to-text cast).
  if (numberedPlaceholders(db)) {
    const text = (table: string, order: string) =>
      sql`(select md5(coalesce(string_agg(t::text, ',' order by ${sql.raw(order)}), ''))
        from ${sql.table(table)} t where t.company_id = ${c}) as ${sql.ref(`c_${table}`)}`;
    const { rows } = await sql<StateRow>`select ${state},
        (select md5(t::text) from companies t where t.id = ${c}) as company,
        ${sql.join(CONFIG.map(([table, order]) => text(table, order)))} ${marked}`.execute(db);
    return versionOf(rows[0]!, JSON.stringify(rows[0]));
  }
  const [rows, ...config] = await Promise.all([
    sql<StateRow>`select ${state} ${marked}`.execute(db),
    db.selectFrom('companies').selectAll().where('id', '=', c).execute(),
    scope.selectFrom('shifts').selectAll().orderBy('id').execute(),
    scope.selectFrom('shift_versions').selectAll().orderBy('id').execute(),
    scope.selectFrom('machines').selectAll().orderBy('id').execute(),
    scope.selectFrom('machine_groups').selectAll().orderBy('id').execute(),
    scope.selectFrom('machine_group_members').selectAll().orderBy('group_id').orderBy('machine_id').execute(),
    scope.selectFrom('annotation_types').selectAll().orderBy('id').execute(),
    scope.selectFrom('part_adjustment_types').selectAll().orderBy('id').execute(),
    scope.selectFrom('jobs').select(['id', 'name']).orderBy('id').execute(),
    scope.selectFrom('setup_stages').select(['id', 'name']).orderBy('id').execute(),
    scope
      .selectFrom('machine_group_annotation_types')
      .selectAll()
      .orderBy('group_id')
      .orderBy('annotation_type_id')
      .execute(),
    scope.selectFrom('job_machines').selectAll().orderBy('id').execute(),
    scope.selectFrom('operators').selectAll().orderBy('id').execute(),
  ]);
  return versionOf(rows.rows[0]!, JSON.stringify(config));
}

/** The configuration tables of the version on PostgreSQL, each with the order its rows are hashed in. */
const CONFIG: ReadonlyArray<[string, string]> = [
  ['shifts', 't.id'],
  ['shift_versions', 't.id'],
  ['machines', 't.id'],
  ['machine_groups', 't.id'],
  ['machine_group_members', 't.group_id, t.machine_id'],
  ['annotation_types', 't.id'],
  ['part_adjustment_types', 't.id'],
  ['jobs', 't.id'],
  ['setup_stages', 't.id'],
  ['machine_group_annotation_types', 't.group_id, t.annotation_type_id'],
  ['job_machines', 't.id'],
  ['operators', 't.id'],
];

interface StateRow {
  marks: number | string;
  marked: unknown;
  froms: unknown;
  computed: unknown;
}

/**
 * Recomputes committed in this process. Two recomputes within one millisecond of the clock (a test's fixed clock,
 * or a fast machine) leave the same latest computed_at, so a mark set and cleared between two reads would not
 * show in the stored part of the version; this process's own count does. Recomputes of another node still show
 * through computed_at, and a shared answer's reuse time bounds the rest (decision 1148).
 */
let recomputes = 0;

/** Called once a recompute's transaction has committed (recompute.ts). */
export function noteRecompute(): void {
  recomputes++;
}

function versionOf(r: StateRow, config: string): { version: string; marks: number } {
  const hash = createHash('sha256').update(config).digest('hex').slice(0, 24);
  const marks = Number(r.marks);
  const stored = `${marks}:${String(r.marked)}:${String(r.froms)}:${String(r.computed)}`;
  return { version: `${stored}:${recomputes}:${hash}`, marks };
}
