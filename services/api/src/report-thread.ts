// A node's report thread (decision 1253): the computations of the OEE, utilization, production and downtime reports,
// on a database handle of its own, so the node's cores share the reports while the API's loop keeps the HTTP, the
// sessions and the shared answers (services/report-shared.ts). node-reports.ts starts the threads and hands them
// their work; everything here is data in and data out (a Kysely handle cannot cross threads).
import { isMainThread, parentPort, workerData } from 'node:worker_threads';
import type { MessagePort } from 'node:worker_threads';
import { companyScope, openDb } from '@takt/db';
import { noteRecompute } from '@takt/db/rollups';
import { NODE_SQLITE_OPTIONS } from './databases';
import { ApiError } from './http/errors';
import { noteVersionRead } from './repositories/config-cache';
import type { ServiceCtx } from './services/context';
import { oeeByMachine, oeeByShift, oeeReport, productionReport } from './services/production-report';
import { downtimeAnswer } from './services/report-downtime';
import type { ReportRun, ReportTask } from './services/report-threads';
import { computeUtilizationReport } from './services/report-utilization';
import { nameThisThread } from './thread-name';

/** workerData's mark of a report thread (a bundled product starts its threads from its one file). */
export const REPORT_THREAD = 'takt-report-thread';

/** PostgreSQL connections of each report thread's own pool (SQLite: one connection). */
export const REPORT_POOL_SIZE = 4;

/** What a report thread is given: its database. */
export interface ReportThreadConfig {
  /** DATABASE_URL: the thread opens its own handle on it. */
  url: string;
  /** SQLite with the node's WAL checkpointer (decision 1229): the thread reads through the node's memory map. */
  externalCheckpoints?: boolean;
}

export interface ReportThreadData {
  role: typeof REPORT_THREAD;
  config: ReportThreadConfig;
  /** The module to import once tsx's loader is registered (ingest-thread-boot.mjs), when run from sources. */
  entry?: string;
}

/** The node's messages to a thread: a recompute its process committed, or a computation to run. */
export type ToReportThread =
  | { t: 'recomputed'; companyId: string; now: number }
  | { t: 'run'; id: number; run: ReportRun }
  | { t: 'stop' };

/** A failed computation as data: an ApiError's status, code and text, or another error's message. */
export type ThreadFailure =
  | { api: true; status: number; code: string; message: string; issues?: ApiError['issues'] }
  | { api: false; message: string };

export type FromReportThread =
  | { t: 'ready' }
  | { t: 'done'; id: number; answer: unknown; text: string }
  | { t: 'failed'; id: number; error: ThreadFailure };

/** The computation of each task: the same functions a call runs in the API's loop without threads. */
function compute(ctx: ServiceCtx, task: ReportTask): Promise<unknown> {
  switch (task.call) {
    case 'utilization':
      return computeUtilizationReport(ctx, task.q);
    case 'production':
      return productionReport(ctx, task.q);
    case 'oee':
      return oeeReport(ctx, task.q);
    case 'oee/bymachine':
      return oeeByMachine(ctx, task.q);
    case 'oee/byabstractshift':
      return oeeByShift(ctx, task.q);
    case 'downtime':
      return downtimeAnswer(ctx, task.q, task.limit, task.keep);
  }
}

/** An error as the node gets it back (node-reports.ts makes an ApiError of it again). */
export function failureOf(err: unknown): ThreadFailure {
  if (err instanceof ApiError)
    return {
      api: true,
      status: err.status,
      code: err.code,
      message: err.message,
      ...(err.issues ? { issues: err.issues } : {}),
    };
  return { api: false, message: err instanceof Error ? err.message : String(err) };
}

/** The thread's work: its own handle; each computation's answer and JSON text posted back by its id. */
function runReportThread(config: ReportThreadConfig, port: MessagePort): void {
  nameThisThread('takt-report');
  const handle = openDb(config.url, {
    poolSize: REPORT_POOL_SIZE,
    ...(config.externalCheckpoints ? NODE_SQLITE_OPTIONS : {}),
  });
  const post = (message: FromReportThread) => port.postMessage(message);
  const run = async (id: number, work: ReportRun) => {
    const scope = companyScope(handle.db, work.companyId);
    // The version the node read for the call (decisions 1250, 1251), on this thread's scope.
    const forget = work.version ? noteVersionRead(scope, work.version) : () => undefined;
    try {
      const ctx: ServiceCtx = { scope, at: work.at, now: work.now, caller: work.caller };
      const answer = await compute(ctx, work.task);
      post({ t: 'done', id, answer, text: JSON.stringify(answer) });
    } catch (err) {
      post({ t: 'failed', id, error: failureOf(err) });
    } finally {
      forget();
    }
  };
  port.on('message', (m: ToReportThread) => {
    // In the order posted: a recompute the node noted before a computation is counted before it runs (the week
    // rows stamp and the kept reads, decisions 1157, 1183).
    if (m.t === 'recomputed') noteRecompute(m.companyId, m.now);
    else if (m.t === 'run') void run(m.id, m.run);
    else
      void handle.close().finally(() => {
        port.close();
      });
  });
  post({ t: 'ready' });
}

// The thread starts here: this module is the worker's entry (through ingest-thread-boot.mjs from sources, or as part
// of a bundled product's one file, whose main thread runs main.ts instead).
const data = workerData as ReportThreadData | undefined;
if (!isMainThread && data?.role === REPORT_THREAD && parentPort) runReportThread(data.config, parentPort);
