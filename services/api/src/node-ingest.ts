// The node's ingest (decision 1226): by default in a worker thread of the node's process, with its own event loop,
// heap and database handle, so the API's calls no longer queue behind the ingest's batches, commits and rollup
// recomputes on one loop; TAKT_INGEST_THREAD=0 runs it in the API's loop, as before. main.ts and the benches start
// it here, so a bench measures the product's arrangement.
import { Worker } from 'node:worker_threads';
import type { Db } from '@takt/db';
import { noteRecompute } from '@takt/db/rollups';
import { ingestDatabase } from './databases';
import type { Metrics } from './http/metrics';
import { INGEST_THREAD, startIngestHere } from './ingest-thread';
import type {
  IngestEvent,
  NodeIngestConfig,
  ThreadData,
  ThreadMessage,
  ThreadRequest,
} from './ingest-thread';
import { restartBackoff, threadFileOf } from './node-threads';
import { REPORTS_UNDER_WAY, reportsUnderWay } from './services/report-turns';

export type { NodeIngestConfig } from './ingest-thread';

/** What the node's ingest reports to and writes through, in the API's thread. */
export interface NodeIngestDeps {
  /** The API's handle: in the loop, the ingest's handle is made beside it (decision 1192), and dispatch writes here. */
  api: Db;
  now: () => number;
  /** The node's log of the ingest (textLog(log, 'ingest')): the thread's messages end here too. */
  log: (message: string) => void;
  metrics: Pick<Metrics, 'ingest' | 'timesRefused' | 'autoDispatched'>;
  /** The live bus's publish of the machines a batch wrote (SQLite's bus lives in this thread). */
  publish: (machines: Array<{ companyId: string; machineId: string }>) => void;
}

export interface NodeIngest {
  arrangement: 'thread' | 'loop';
  /** Write everything buffered now (tests). */
  flush(): Promise<void>;
  /** Stop the ingest (its last batch written), then its thread. */
  stop(): Promise<void>;
  /** Times the thread ended without being stopped and was started again. */
  restarts(): number;
  /** The running thread, null between a death and its restart or in the loop (tests end it as a crash would). */
  thread(): Worker | null;
}

/** An ingest batch starts at the earliest this long after the last one began, when lines wait (decision 1199). */
export const INGEST_ARRIVAL_GAP_MS = 50;

/** stop() ends a thread that has not stopped its ingest within this. */
const STOP_WAIT_MS = 30_000;

/** How long a stopped thread may take to end by itself before it is ended. */
const EXIT_WAIT_MS = 5_000;

/** True when `work` ended within `ms`. */
async function within(work: Promise<unknown>, ms: number): Promise<boolean> {
  let timer: NodeJS.Timeout | undefined;
  const done = await Promise.race([
    work.then(() => true),
    new Promise<false>((r) => (timer = setTimeout(() => r(false), ms))),
  ]);
  clearTimeout(timer);
  return done;
}

/** The ingest's events handed to the API's metrics, log, live bus and recompute count. */
function eventSink(deps: NodeIngestDeps): (event: IngestEvent) => void {
  const { metrics } = deps;
  return (e) => {
    switch (e.t) {
      case 'log':
        return deps.log(e.message);
      case 'stored':
        return metrics.ingest.observationsStored(e.count, e.oldestTs, e.at);
      case 'lateRefused':
        return metrics.ingest.lateRefused(e.count);
      case 'leases':
        return metrics.ingest.leasesHeld(e.count);
      case 'setAside':
        return metrics.ingest.machineSetAside();
      case 'timeRefused':
        return metrics.timesRefused(e.source, e.count);
      case 'dispatched':
        return metrics.autoDispatched(e.counts);
      case 'written':
        return deps.publish(e.machines);
      case 'recomputed':
        // The thread's recompute, counted here as if this thread had committed it (the reports' and dashboard's
        // versions and the week index's stamp, decisions 1157, 1168, 1200).
        return noteRecompute(e.companyId, e.now);
    }
  };
}

/**
 * Start the node's ingest: in a worker thread (`thread`; resolves at once, the thread loading and starting its ingest
 * while the node goes on) or in this loop (resolves once the ingest started).
 */
export async function startNodeIngest(
  config: NodeIngestConfig,
  deps: NodeIngestDeps,
  options: { thread: boolean },
): Promise<NodeIngest> {
  return options.thread ? startThread(config, deps) : startInLoop(config, deps);
}

async function startInLoop(config: NodeIngestConfig, deps: NodeIngestDeps): Promise<NodeIngest> {
  const own = ingestDatabase(deps.api, config.url, config.poolSize);
  const service = await startIngestHere(
    config,
    own.db,
    deps.api.db,
    deps.now,
    eventSink(deps),
    reportsUnderWay(),
  );
  return {
    arrangement: 'loop',
    flush: () => service.flush(),
    async stop() {
      await service.stop();
      if (own !== deps.api) await own.close();
    },
    restarts: () => 0,
    thread: () => null,
  };
}

function startThread(config: NodeIngestConfig, deps: NodeIngestDeps): NodeIngest {
  const sink = eventSink(deps);
  const { file, entry } = threadFileOf(import.meta.url, './ingest-thread.ts');
  // Decision 1261: the thread's rollup marks read the node's report computations under way.
  const data: ThreadData = {
    role: INGEST_THREAD,
    config,
    reports: REPORTS_UNDER_WAY,
    ...(entry ? { entry } : {}),
  };
  /** The running thread; `ready` is true once its ingest started, false if it ended before. */
  let current: { worker: Worker; ready: Promise<boolean> } | null = null;
  const pending = new Map<number, { resolve: () => void; reject: (err: Error) => void }>();
  let nextId = 1;
  let stopping = false;
  let restarts = 0;
  const backoff = restartBackoff();
  let timer: NodeJS.Timeout | undefined;

  /** Starts a thread, and again after the backoff when it ends without being stopped. */
  const spawn = () => {
    const worker = new Worker(file, { workerData: data });
    let started!: (ready: boolean) => void;
    const me = { worker, ready: new Promise<boolean>((r) => (started = r)) };
    current = me;
    const since = Date.now();
    worker.on('message', (m: ThreadMessage) => {
      if (m.t === 'ready') started(true);
      else if (m.t === 'done') {
        const p = pending.get(m.id);
        pending.delete(m.id);
        if (m.error === undefined) p?.resolve();
        else p?.reject(new Error(m.error));
      } else sink(m);
    });
    // An uncaught error in the thread: logged here, then 'exit' starts it again.
    worker.on('error', (err) => deps.log(`[ingest] thread failed: ${err.stack ?? err.message}`));
    worker.on('exit', (code) => {
      if (current === me) current = null;
      started(false);
      for (const p of pending.values()) p.reject(new Error('the ingest thread ended'));
      pending.clear();
      if (stopping) return;
      restarts++;
      deps.metrics.ingest.threadRestarted();
      const wait = backoff.after(Date.now() - since);
      deps.log(
        `[ingest] thread ended (exit code ${code}) without being stopped: started again in ${wait} ms`,
      );
      timer = setTimeout(() => {
        timer = undefined;
        if (!stopping) spawn();
      }, wait);
    });
  };

  /** `op` asked of the running thread once its ingest started. */
  const request = async (op: ThreadRequest['op']) => {
    const running = current;
    if (!running || !(await running.ready)) throw new Error('the ingest thread is not running');
    const id = nextId++;
    return new Promise<void>((resolve, reject) => {
      pending.set(id, { resolve, reject });
      running.worker.postMessage({ id, op } satisfies ThreadRequest);
    });
  };

  // The node goes on starting (and listens) while the thread loads its modules and starts its ingest.
  spawn();
  return {
    arrangement: 'thread',
    flush: () => request('flush'),
    async stop() {
      stopping = true;
      clearTimeout(timer);
      const running = current;
      if (!running) return;
      const ended = new Promise<void>((r) => running.worker.once('exit', () => r()));
      // A thread still starting is let start (within the wait), so that its ingest stops as a running one does.
      const stopped = request('stop').catch((err: Error) => deps.log(`[ingest] stop failed: ${err.message}`));
      if (!(await within(stopped, STOP_WAIT_MS)))
        deps.log(`[ingest] the thread's ingest did not stop within ${STOP_WAIT_MS} ms: ended`);
      // A stopped ingest leaves nothing open: its thread ends by itself.
      else if (!(await within(ended, EXIT_WAIT_MS)))
        deps.log('[ingest] thread still running after its stop: ended');
      if (current === running) await running.worker.terminate();
    },
    restarts: () => restarts,
    thread: () => current?.worker ?? null,
  };
}
