import type { RangeLimitedReport } from '@takt/domain';
import { versionReadOf } from '../repositories/config-cache';
import type { Caller } from '../http/context';
import type { ServiceCtx } from './context';
import type { DowntimeReportQuery } from './report-downtime';
import type { UtilizationQuery } from './report-utilization';
import type { OeeByQuery, OeeReportQuery, ProductionQuery } from './production-report';
import { keepAnswerText } from './report-shared';

// Decision 1253: a report's computation runs in one of the node's report threads (node-reports.ts) when the node
// started them for the database handle the call reads: its statements, its figures and its JSON text there, on the
// machine's other cores, while the API's loop keeps the HTTP, the caller's session, the data version and the shared
// answers (report-shared.ts). Without threads (tests, TAKT_REPORT_THREADS=0, none ready yet, a transaction) the call
// computes here, in the loop, as before: the same functions either way (report-thread.ts names them).

/** A report computation a thread can run: its call and parameters (structured-cloneable data only). */
export type ReportTask =
  | { call: 'utilization'; q: UtilizationQuery }
  | { call: 'production'; q: ProductionQuery }
  | { call: 'oee'; q: OeeReportQuery }
  | { call: 'oee/bymachine'; q: OeeByQuery }
  | { call: 'oee/byabstractshift'; q: OeeByQuery }
  | { call: 'downtime'; q: DowntimeReportQuery; limit: RangeLimitedReport | null; keep: boolean };

/** What a thread is handed for one computation: the task and the service context as data. */
export interface ReportRun {
  task: ReportTask;
  companyId: string;
  at: number;
  now: number;
  caller: Caller;
  /** The data version's reads the call's answer is shared under (config-cache.ts noteVersionRead), if any. */
  version?: { config: string; end: number; marks: number };
}

/** A thread's answer: the answer and its JSON text (made there, so this loop does not serialize it again). */
export interface ReportAnswer {
  answer: unknown;
  text: string;
}

/** The node's report threads (node-reports.ts): `run` answers, or gives null when no thread is ready. */
export interface ReportThreads {
  run(work: ReportRun): Promise<ReportAnswer> | null;
}

/** The threads computing the reports of each database handle (main.ts registers the API's). */
const threadsOf = new WeakMap<object, ReportThreads>();

/** Reports read through `db` compute in `threads` from now on (null: in this loop again). */
export function useReportThreads(db: object, threads: ReportThreads | null): void {
  if (threads) threadsOf.set(db, threads);
  else threadsOf.delete(db);
}

/**
 * `task` computed in a report thread of the handle `ctx` reads through, else `here()` in this loop. Call it from the
 * computation a shared answer runs (report-shared.ts sharedAnswer), so the version read it noted goes along.
 */
export function inReportThread<T>(ctx: ServiceCtx, task: ReportTask, here: () => Promise<T>): Promise<T> {
  const db = ctx.scope.db;
  const threads = db.isTransaction ? undefined : threadsOf.get(db);
  if (!threads) return here();
  const version = versionReadOf(ctx.scope);
  const run: ReportRun = {
    task,
    companyId: ctx.scope.companyId,
    at: ctx.at,
    now: ctx.now,
    caller: ctx.caller,
    ...(version ? { version } : {}),
  };
  const answered = threads.run(run);
  if (!answered) return here();
  return answered.then(({ answer, text }) => {
    keepAnswerText(answer, text);
    return answer as T;
  });
}
