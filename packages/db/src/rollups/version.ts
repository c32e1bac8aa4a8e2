import { sql } from 'kysely';
import type { CompanyScope } from '../scope';

// The data version of a company's reports up to an instant (decision 1148): what changes whenever an input of
// a report of a range ending then may have changed, so an answer computed at one version can be given again
// while the version stays the same.

/**
 * The company's report data version for ranges ending at `end`, as one string, read in one statement:
 * - its pending rollup marks from before `end` (count, Σ marked_at, Σ from_at): every write of a fact (ingest
 *   marks each machine it derives for, with its wall clock in marked_at) and every edit (annotations, part
 *   adjustments, job runs, the calendar: historyChanged) sets or moves one, and the worker moves or clears it
 *   when it has recomputed;
 * - the latest computed_at of its week rows starting before `end`: the worker writes a recomputed day's
 *   hourly, day and week rows in one transaction, so a mark set and cleared between two reads still shows
 *   (one walk down the (company_id, computed_at, start_at) index of migration 0051);
 * - the company's configuration generation (decision 1159, migration 0057): a counter the database's own
 *   triggers bump in the writer's transaction on every insert, update or delete of the configuration the
 *   answers name or are cut by: the company row (time zone, day start, settings), shifts and their versions,
 *   machines, groups and members, downtime reasons, part adjustment types, jobs and setup stages, the reasons
 *   each group offers, the jobs' standards per machine (job_machines) and the operators. Facts outside the
 *   marks (labor activities, operator runs) are bounded by the answer's reuse time (services/api
 *   report-shared.ts SETTLED_REUSE_MS), not by the version.
 * `marks` is the count of pending marks from before `end` (0: nothing in the range is being recomputed); `config` the
 * configuration generation alone (decision 1250: what a call's configuration reads may be kept by).
 */
export async function reportDataVersion(
  scope: CompanyScope,
  end: number,
): Promise<{ version: string; marks: number; config: string }> {
  const c = scope.companyId;
  const { rows } = await sql<StateRow>`select count(*) as marks, sum(d.marked_at) as marked,
      sum(d.from_at) as froms,
      (select w.computed_at from rollup_weeks w where w.company_id = ${c} and w.start_at < ${end}
        order by w.computed_at desc limit 1) as computed,
      (select g.generation from report_config_generations g where g.company_id = ${c}) as config
    from rollup_dirty d where d.company_id = ${c} and d.from_at < ${end}`.execute(scope.db);
  return versionOf(rows[0]!, recomputesNoted(c));
}

interface StateRow {
  marks: number | string;
  marked: unknown;
  froms: unknown;
  computed: unknown;
  config: unknown;
}

/**
 * The data version of the live dashboard at `now` (decisions 1200, 1206), read in one statement of index reads (no
 * row of the company's machines read): the company's live generation (migration 0071: bumped by the database's own
 * triggers in the writer's transaction on every write of its live rows, job runs, rollup marks, annotations, part
 * adjustments, adapter fields and data sources' enabled flag or machine: the sum of its rows, which every committed
 * write raises whatever order the writers commit in), the latest computed_at of its week rows before now and this
 * process's recomputes (a recompute within the same millisecond), and its configuration generation (decision
 * 1159). So any stored line the tiles show (a live row written) or a job started or stopped changes it, even within
 * the same millisecond, and so do the writes the content hash of decision 1200 could not see (a source enabled, an
 * adapter field, an annotation or a part adjustment written behind the API's back without a rollup mark).
 */
export async function liveDataVersion(scope: CompanyScope, now: number): Promise<string> {
  const c = scope.companyId;
  const { rows } = await sql<{ computed: unknown; config: unknown; live: unknown }>`select
      (select w.computed_at from rollup_weeks w where w.company_id = ${c} and w.start_at < ${now + 1}
        order by w.computed_at desc limit 1) as computed,
      (select g.generation from report_config_generations g where g.company_id = ${c}) as config,
      (select sum(l.generation) from live_generations l where l.company_id = ${c}) as live`.execute(scope.db);
  const r = rows[0]!;
  return `${String(r.live ?? 0)}:${String(r.computed)}:${recomputesNoted(c)}:${String(r.config ?? 0)}`;
}

/**
 * Recomputes committed in this process, per company. Two recomputes within one millisecond of the clock (a test's
 * fixed clock, or a fast machine) leave the same latest computed_at, so a mark set and cleared between two reads
 * would not show in the stored part of the version; this process's own count does. Recomputes of another node
 * still show through computed_at, and a shared answer's reuse time bounds the rest (decision 1148). Counted by
 * company (decision 1189): a recompute writes one company's rows only, and a process-wide count moved every
 * company's version, week rows stamp and kept reads at each recompute of any other (1,000 machines ingesting
 * recompute several times a second), so no kept read and no shared answer outlived a second under ingest.
 */
interface Noted {
  count: number;
  /** The `now` (computed_at) of the last RECENT recomputes, the latest at count - 1 (mod RECENT). */
  nows: number[];
}
const RECENT = 64;
const noted = new Map<string, Noted>();

const watchers = new Set<(companyId: string, now: number) => void>();

/**
 * Called once a recompute's transaction has committed (recompute.ts), with its company and computed_at; also by the
 * node's API thread with the recomputes its ingest thread committed (services/api node-ingest.ts, decision 1226).
 */
export function noteRecompute(companyId: string, now: number): void {
  let n = noted.get(companyId);
  if (!n) noted.set(companyId, (n = { count: 0, nows: [] }));
  n.nows[n.count % RECENT] = now;
  n.count++;
  for (const watch of watchers) watch(companyId, now);
}

/**
 * `watch` is called with every recompute noted in this thread from now on (the ingest thread hands them to the
 * API's: module state is a thread's own). Returns the call that stops it.
 */
export function watchRecomputes(watch: (companyId: string, now: number) => void): () => void {
  watchers.add(watch);
  return () => watchers.delete(watch);
}

/**
 * The earliest computed_at of the company's recomputes this process committed after the first `since` (decision
 * 1168: the week index's incremental reload reads the week rows from there when a recompute wrote at or before its
 * latest computed_at, a fixed clock); undefined when there were none, null when they are no longer all known.
 */
export function earliestRecomputeSince(companyId: string, since: number): number | null | undefined {
  const n = noted.get(companyId) ?? { count: 0, nows: [] };
  if (n.count - since > RECENT || since > n.count) return null;
  let earliest: number | undefined;
  for (let i = since; i < n.count; i++) {
    const now = n.nows[i % RECENT]!;
    if (earliest === undefined || now < earliest) earliest = now;
  }
  return earliest;
}

/** How many of the company's recomputes this process has committed (part of the week index's stamp, decision 1157). */
export const recomputesNoted = (companyId: string): number => noted.get(companyId)?.count ?? 0;

function versionOf(r: StateRow, recomputes: number): { version: string; marks: number; config: string } {
  const marks = Number(r.marks);
  const stored = `${marks}:${String(r.marked)}:${String(r.froms)}:${String(r.computed)}`;
  const config = String(r.config ?? 0);
  return { version: `${stored}:${recomputes}:${config}`, marks, config };
}
