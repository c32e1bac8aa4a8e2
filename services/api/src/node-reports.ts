// The node's report threads (decision 1253): TAKT_REPORT_THREADS worker threads of the node's process, each with its
// own event loop, heap and database handle, computing the reports the API's loop hands them (report-thread.ts). The
// loop keeps what every call needs (HTTP, the caller's session, the data version, the shared answers); a computation
// goes to the ready thread with the fewest under way, so 20 managers' reports use the machine's cores instead of one.
// main.ts and the benches start them here, so a bench measures the product's arrangement.
import { Worker } from 'node:worker_threads';
import { watchRecomputes } from '@takt/db/rollups';
import { ApiError } from './http/errors';
import type { ContentfulStatusCode } from 'hono/utils/http-status';
import { REPORT_THREAD } from './report-thread';
import type {
  FromReportThread,
  ReportThreadConfig,
  ReportThreadData,
  ThreadFailure,
  ToReportThread,
} from './report-thread';
import { restartBackoff, threadFileOf } from './node-threads';
import { useReportThreads } from './services/report-threads';
import type { ReportAnswer, ReportRun, ReportThreads } from './services/report-threads';

export interface NodeReports extends ReportThreads {
  /** Stop every thread (calls under way fail; later ones compute in the loop). */
  stop(): Promise<void>;
  /** The threads ready now (tests end one as a crash would). */
  ready(): Worker[];
  /** Resolves once every thread is ready (tests and benches; the node serves in the loop until then). */
  started(): Promise<void>;
  /** Times a thread ended without being stopped and was started again. */
  restarts(): number;
  /** Computations the threads answered (or failed with an error of the report's), since the start. */
  computed(): number;
}

/** An ApiError again from a thread's failure (the spec's text and status kept), else an Error with its message. */
function errorOf(f: ThreadFailure): Error {
  if (f.api) return new ApiError(f.status as ContentfulStatusCode, f.code, f.message, f.issues);
  return new Error(`report thread: ${f.message}`);
}

interface Thread {
  worker: Worker;
  ready: boolean;
  /** Computations under way, by id. */
  pending: Map<number, { resolve: (a: ReportAnswer) => void; reject: (err: Error) => void }>;
}

/** Start `count` report threads on `config`'s database; `log` gets their deaths. */
export function startNodeReports(
  config: ReportThreadConfig,
  count: number,
  log: (message: string) => void,
): NodeReports {
  const { file, entry } = threadFileOf(import.meta.url, './report-thread.ts');
  const data: ReportThreadData = { role: REPORT_THREAD, config, ...(entry ? { entry } : {}) };
  const threads: Array<Thread | null> = Array.from({ length: count }, () => null);
  const waiting: Array<() => void> = [];
  let nextId = 1;
  let stopping = false;
  let restarts = 0;
  let computed = 0;
  /** The next thread a tie goes to, so an idle node spreads its calls (and each thread warms its kept reads). */
  let turn = 0;
  const timers = new Set<NodeJS.Timeout>();
  /** Each slot's waits before its thread starts again: the ingest thread's backoff. */
  const backoffs = threads.map(() => restartBackoff());

  const spawn = (slot: number) => {
    const worker = new Worker(file, { workerData: data });
    const me: Thread = { worker, ready: false, pending: new Map() };
    threads[slot] = me;
    const since = Date.now();
    worker.on('message', (m: FromReportThread) => {
      if (m.t === 'ready') {
        me.ready = true;
        if (threads.every((t) => t?.ready)) for (const w of waiting.splice(0)) w();
        return;
      }
      const p = me.pending.get(m.id);
      me.pending.delete(m.id);
      computed++;
      if (m.t === 'done') p?.resolve({ answer: m.answer, text: m.text });
      else p?.reject(errorOf(m.error));
    });
    worker.on('error', (err) => log(`[reports] thread failed: ${err.stack ?? err.message}`));
    worker.on('exit', (code) => {
      if (threads[slot] === me) threads[slot] = null;
      for (const p of me.pending.values()) p.reject(new Error('the report thread ended'));
      me.pending.clear();
      if (stopping) return;
      restarts++;
      const wait = backoffs[slot]!.after(Date.now() - since);
      log(`[reports] thread ended (exit code ${code}): started again in ${wait} ms`);
      const timer = setTimeout(() => {
        timers.delete(timer);
        if (!stopping) spawn(slot);
      }, wait);
      timers.add(timer);
    });
  };

  // Every recompute this process notes (its own, and its ingest thread's: node-ingest.ts), posted to every thread
  // before any computation handed to it after: each counts it as the loop does (the week rows stamp).
  const unwatch = watchRecomputes((companyId, now) => {
    for (const t of threads)
      t?.worker.postMessage({ t: 'recomputed', companyId, now } satisfies ToReportThread);
  });
  for (let slot = 0; slot < count; slot++) spawn(slot);

  return {
    run(work: ReportRun): Promise<ReportAnswer> | null {
      // The ready thread with the fewest computations under way; ties in turn.
      let best: Thread | null = null;
      for (let i = 0; i < count; i++) {
        const t = threads[(turn + i) % count];
        if (t?.ready && (!best || t.pending.size < best.pending.size)) best = t;
      }
      if (!best) return null;
      turn = (threads.indexOf(best) + 1) % count;
      const id = nextId++;
      const thread = best;
      return new Promise<ReportAnswer>((resolve, reject) => {
        thread.pending.set(id, { resolve, reject });
        try {
          thread.worker.postMessage({ t: 'run', id, run: work } satisfies ToReportThread);
        } catch (err) {
          thread.pending.delete(id);
          reject(err as Error);
        }
      });
    },
    ready: () => threads.filter((t): t is Thread => t?.ready === true).map((t) => t.worker),
    started: () =>
      threads.every((t) => t?.ready) ? Promise.resolve() : new Promise<void>((r) => waiting.push(r)),
    restarts: () => restarts,
    computed: () => computed,
    async stop() {
      stopping = true;
      unwatch();
      for (const timer of timers) clearTimeout(timer);
      await Promise.all(
        threads.map(async (t) => {
          if (!t) return;
          const ended = new Promise<void>((r) => t.worker.once('exit', () => r()));
          t.worker.postMessage({ t: 'stop' } satisfies ToReportThread);
          // Its handle closed, the thread ends by itself; one that does not within a while is ended.
          const timer = setTimeout(() => void t.worker.terminate(), 5_000);
          await ended;
          clearTimeout(timer);
        }),
      );
    },
  };
}

/**
 * The node's report threads as main.ts runs them (and the benches, so they measure that): `count` threads on
 * `config`'s database computing the reports read through `db`, or null for none (the API's loop computes them). Their
 * stop() hands the reports back to the loop.
 */
export function reportThreadsOn(
  db: object,
  config: ReportThreadConfig,
  count: number,
  log: (message: string) => void,
): NodeReports | null {
  if (count <= 0) return null;
  const reports = startNodeReports(config, count, log);
  useReportThreads(db, reports);
  return {
    ...reports,
    stop: () => {
      useReportThreads(db, null);
      return reports.stop();
    },
  };
}
