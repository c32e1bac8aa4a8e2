// The node's ingest as it runs in its worker thread (decision 1226), and the options both arrangements give
// startIngest. The thread has its own event loop, heap and database handle (a Kysely handle cannot cross threads);
// everything the ingest used to call in the API's loop is an event, posted to the node's thread (node-ingest.ts).
import { isMainThread, parentPort, workerData } from 'node:worker_threads';
import type { MessagePort } from 'node:worker_threads';
import type { Kysely } from 'kysely';
import type { Database } from '@takt/db';
import { openDb } from '@takt/db';
import { INGEST_POOL_SIZE, NODE_SQLITE_OPTIONS } from './databases';
import { watchRecomputes } from '@takt/db/rollups';
import type { SourcePolicy } from '@takt/domain';
import { startIngest } from '@takt/ingest';
import type { IngestOptions, IngestService } from '@takt/ingest';
import { autoDispatch } from './services/auto-dispatch';
import { reportsUnderWay } from './services/report-turns';
import type { AutoDispatchCounts } from './services/auto-dispatch';
import { nameThisThread } from './thread-name';

/** workerData's mark of the ingest thread (a bundled product starts the thread from its one file). */
export const INGEST_THREAD = 'takt-ingest-thread';

/** What the node's ingest is given: data only, so the thread can be handed it. */
export interface NodeIngestConfig {
  /** DATABASE_URL: the thread opens its own handle on it. */
  url: string;
  /** PostgreSQL: the ingest's pool (TAKT_INGEST_DB_POOL_SIZE, decision 1192; unset: INGEST_POOL_SIZE). */
  poolSize?: number;
  /**
   * SQLite: the node's WAL checkpointer runs (decision 1229), so the thread's connection leaves checkpoints to it and
   * reads through the node's memory map (databases.ts NODE_SQLITE_OPTIONS).
   */
  externalCheckpoints?: boolean;
  /** Decision 1199. */
  arrivalGapMs: number | null;
  sourcePolicy: SourcePolicy;
  mqttUrl?: string;
  mqttPrefix?: string;
  mqttClientId?: string;
  /** TAKT_NODE_ID: the node's name in the source leases (decision 0970). */
  nodeId?: string;
  /** The worker's periods (tests and benches; the product leaves them at their defaults). */
  periods?: Pick<
    IngestOptions,
    'flushIntervalMs' | 'rollupIntervalMs' | 'sourcesIntervalMs' | 'tickIntervalMs' | 'countersIntervalMs'
  >;
}

/** What the ingest tells the node: the IngestOptions callbacks main.ts had, as data. */
export type IngestEvent =
  | { t: 'log'; message: string }
  | { t: 'stored'; count: number; oldestTs: number; at: number }
  | { t: 'lateRefused'; count: number }
  | { t: 'leases'; count: number }
  | { t: 'setAside'; machineId: string }
  | { t: 'timeRefused'; source: string; count: number }
  | { t: 'dispatched'; counts: AutoDispatchCounts }
  | { t: 'written'; machines: Array<{ companyId: string; machineId: string }> }
  /** A rollup recompute the thread committed (the API thread's version and week stamps count it). */
  | { t: 'recomputed'; companyId: string; now: number };

/** The node's requests to its thread, each answered by `done` with its id. */
export interface ThreadRequest {
  id: number;
  op: 'flush' | 'stop';
}

export type ThreadMessage = IngestEvent | { t: 'ready' } | { t: 'done'; id: number; error?: string };

/** The thread's workerData. */
export interface ThreadData {
  role: typeof INGEST_THREAD;
  config: NodeIngestConfig;
  /** The module to import once tsx's loader is registered (ingest-thread-boot.mjs), when run from sources. */
  entry?: string;
  /** The node's count of report computations under way (report-turns.ts REPORTS_UNDER_WAY, decision 1261). */
  reports?: SharedArrayBuffer;
}

/**
 * Start the node's ingest in the calling thread, the API's (TAKT_INGEST_THREAD=0) or its own: `db` the ingest's
 * handle, `dispatchDb` where auto job dispatch writes (decision 1094), `emit` where every callback goes. The same
 * options in both arrangements, so they cannot drift.
 */
export function startIngestHere(
  config: NodeIngestConfig,
  db: Kysely<Database>,
  dispatchDb: Kysely<Database>,
  now: () => number,
  emit: (event: IngestEvent) => void,
  rollupYield?: () => boolean,
): Promise<IngestService> {
  const log = (message: string) => emit({ t: 'log', message });
  return startIngest({
    ...config.periods,
    // Decision 1261: the rollup marks let the node's report computations go first.
    ...(rollupYield ? { rollupYield } : {}),
    db,
    now,
    log,
    onStored: (count, oldestTs, at) => emit({ t: 'stored', count, oldestTs, at }),
    onLateRefused: (count) => emit({ t: 'lateRefused', count }),
    onLeases: (count) => emit({ t: 'leases', count }),
    onSetAside: (machineId) => emit({ t: 'setAside', machineId }),
    // Decision 1199: a line starts a batch once the running one ended (50 ms at least after the last one began),
    // rather than at the next 250 ms tick: at 1,000 machines the batches then run back to back.
    arrivalGapMs: config.arrivalGapMs,
    onTimeRefused: (source, count) => emit({ t: 'timeRefused', source, count }),
    // Auto job dispatch (decision 1094): the job a machine's data names starts through the dispatch service.
    onDispatch: async (values) => {
      emit({ t: 'dispatched', counts: await autoDispatch(dispatchDb, values, { now, log }) });
    },
    ...(config.mqttUrl ? { mqttUrl: config.mqttUrl } : {}),
    ...(config.mqttPrefix ? { mqttPrefix: config.mqttPrefix } : {}),
    ...(config.mqttClientId ? { mqttClientId: config.mqttClientId } : {}),
    sourcePolicy: config.sourcePolicy,
    ...(config.nodeId ? { leases: { nodeId: config.nodeId } } : {}),
    onWritten: (machines) => emit({ t: 'written', machines }),
  });
}

/**
 * The thread's work: its own handle, the ingest on it (auto dispatch too: its writes stay off the API's loop), every
 * event and recompute posted to the node, `flush` and `stop` answered. A failure to start is thrown: the thread
 * dies and the node restarts it.
 */
async function runIngestThread(
  config: NodeIngestConfig,
  port: MessagePort,
  reports: SharedArrayBuffer | undefined,
): Promise<void> {
  const post = (message: ThreadMessage) => port.postMessage(message);
  nameThisThread('takt-ingest');
  // Decision 1192's pool of its own: TAKT_INGEST_DB_POOL_SIZE or 4 (openDb's default, 10, is the API's).
  const handle = openDb(config.url, {
    poolSize: config.poolSize ?? INGEST_POOL_SIZE,
    ...(config.externalCheckpoints ? NODE_SQLITE_OPTIONS : {}),
  });
  const unwatch = watchRecomputes((companyId, now) => post({ t: 'recomputed', companyId, now }));
  let service: IngestService;
  try {
    service = await startIngestHere(
      config,
      handle.db,
      handle.db,
      Date.now,
      post,
      reports ? reportsUnderWay(reports) : undefined,
    );
  } catch (err) {
    await handle.close().catch(() => undefined);
    throw err;
  }
  port.on('message', (request: ThreadRequest) => {
    const work =
      request.op === 'flush'
        ? service.flush()
        : service.stop().then(async () => {
            unwatch();
            await handle.close();
          });
    work.then(
      () => post({ t: 'done', id: request.id }),
      (err: Error) => post({ t: 'done', id: request.id, error: err.message }),
    );
    // Stopped: nothing but what the ingest left open keeps the thread alive now (the node ends it after a while).
    if (request.op === 'stop') void work.finally(() => port.unref());
  });
  post({ t: 'ready' });
}

// The thread starts here: this module is the worker's entry (through ingest-thread-boot.mjs from sources, or as part
// of a bundled product's one file, whose main thread runs main.ts instead).
const data = workerData as ThreadData | undefined;
if (!isMainThread && data?.role === INGEST_THREAD && parentPort) {
  const port = parentPort;
  runIngestThread(data.config, port, data.reports).catch((err: unknown) => {
    // Uncaught in the thread: the node sees the error, logs it and starts the thread again.
    setImmediate(() => {
      throw err;
    });
  });
}
