import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { Worker } from 'node:worker_threads';
import type { Kysely } from 'kysely';
import type { Database } from '@takt/db';
import { RollupWorker } from './rollup';

/** What the ingest node asks of its rollup thread. */
export type ToRollupThread = { type: 'run'; id: number } | { type: 'stop' };
/** What the rollup thread tells the node. */
export type FromRollupThread =
  | { type: 'done'; id: number }
  | { type: 'log'; message: string }
  | { type: 'timeRefused'; source: string; count: number };

/** A rollup worker as the ingest node drives it: in its own thread or in the node's. */
export interface Rollups {
  /** One run; resolves when it ended (or was skipped because one was going). */
  run(): Promise<void>;
  stop(): Promise<void>;
}

// The thread runs the TypeScript sources as the node does (tsx, scripts/start.mjs). A worker thread takes neither
// the loader of `--import tsx` nor one registered in it (Node 20: "Unknown file extension .ts"), so it starts from a
// line of JavaScript that imports the thread's module through tsx's ESM API (`tsImport`), found by tsx's exports.
const TSX_API = (() => {
  const require = createRequire(import.meta.url);
  const manifest = require('tsx/package.json') as {
    exports: Record<string, { import: { default: string } }>;
  };
  const file = manifest.exports['./esm/api']!.import.default;
  return pathToFileURL(join(dirname(require.resolve('tsx/package.json')), file)).href;
})();
const THREAD = new URL('./rollup-thread.ts', import.meta.url).href;
const START = `import(${JSON.stringify(TSX_API)}).then((tsx) => tsx.tsImport(${JSON.stringify(THREAD)}, ${JSON.stringify(THREAD)}))`;

/**
 * The rollup worker in a worker thread with its own connection to the database (PostgreSQL, decision 1174): its
 * reads, its recompute in JavaScript and its transactions no longer take turns on the ingest node's event loop, so a
 * batch's transaction does not wait for them between its statements, and theirs do not wait for the batch's work. If
 * the thread fails, the runs go on in the node's own thread (`fallback`), as before the decision.
 */
export class RollupThread implements Rollups {
  private readonly worker: Worker;
  private readonly waiting = new Map<number, () => void>();
  private nextId = 0;
  private stopping = false;
  /** Set once the thread failed: the runs are the node's own from then on. */
  private inProcess: Rollups | null = null;

  constructor(
    url: string,
    private readonly log: (message: string) => void,
    onTimeRefused: ((source: string, count: number) => void) | undefined,
    private readonly fallback: () => Rollups,
  ) {
    this.worker = new Worker(START, { eval: true, workerData: { url } });
    this.worker.on('message', (m: FromRollupThread) => {
      if (m.type === 'log') log(m.message);
      else if (m.type === 'timeRefused') onTimeRefused?.(m.source, m.count);
      else this.settle(m.id);
    });
    this.worker.on('error', (err) => this.failed(`failed: ${err.message}`));
    this.worker.on('exit', (code) => {
      if (!this.stopping) this.failed(`ended (exit code ${code})`);
    });
  }

  /** The thread's id (tests: the work is done off the node's thread). */
  get threadId(): number {
    return this.worker.threadId;
  }

  run(): Promise<void> {
    if (this.inProcess) return this.inProcess.run();
    const id = ++this.nextId;
    return new Promise<void>((resolve) => {
      this.waiting.set(id, resolve);
      this.worker.postMessage({ type: 'run', id } satisfies ToRollupThread);
    });
  }

  async stop(): Promise<void> {
    if (this.inProcess) return this.inProcess.stop();
    this.stopping = true;
    const exited = new Promise<void>((resolve) => this.worker.once('exit', () => resolve()));
    this.worker.postMessage({ type: 'stop' } satisfies ToRollupThread);
    await exited;
    for (const id of [...this.waiting.keys()]) this.settle(id);
  }

  private settle(id: number): void {
    this.waiting.get(id)?.();
    this.waiting.delete(id);
  }

  /** Mutates: from now on the runs are the node's own; the runs waiting end (the next timer's run redoes them). */
  private failed(what: string): void {
    if (this.inProcess) return;
    this.log(`[ingest] the rollup thread ${what}: rollups are recomputed in the ingest thread from now on`);
    this.inProcess = this.fallback();
    for (const id of [...this.waiting.keys()]) this.settle(id);
  }
}

/** What a node's rollup worker runs with. */
export interface RollupSetup {
  db: Kysely<Database>;
  now: () => number;
  log: (message: string) => void;
  /** PostgreSQL: several nodes share the marks by claims (decision 0970). */
  postgres: boolean;
  onTimeRefused?: ((source: string, count: number) => void) | undefined;
  /** The database's URL: the worker's thread connects with it. */
  url?: string | undefined;
}

/**
 * The node's rollup worker (decision 1174): on PostgreSQL with the database's `url`, in a thread of its own, which
 * reads the wall clock; otherwise in the node's thread with `now`. SQLite keeps it there: the database has one writer,
 * so a second connection's transactions would only wait for the batches' lock (and theirs for its).
 */
export function startRollups(setup: RollupSetup): Rollups {
  const inThisThread = (): Rollups => {
    const worker = new RollupWorker(setup.db, setup.now, setup.log, setup.postgres, setup.onTimeRefused);
    return { run: () => worker.run(), stop: async () => {} };
  };
  return setup.postgres && setup.url
    ? new RollupThread(setup.url, setup.log, setup.onTimeRefused, inThisThread)
    : inThisThread();
}
