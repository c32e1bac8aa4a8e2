// A whole ingest worker in its own process (crash-worker.ts), for the tests that kill it with SIGKILL or run
// several: durability, scale-out, restart-connect. Not used at run time.
import type { ChildProcessWithoutNullStreams } from 'node:child_process';
import { spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { bundledCommand } from './bundle';

const WORKER = fileURLToPath(new URL('./crash-worker.ts', import.meta.url));
const ROOT = fileURLToPath(new URL('../../../../', import.meta.url));

export interface WorkerOptions {
  /** The node's id (leases on PostgreSQL); `crash-worker` unless given. */
  nodeId?: string;
  /** The lease period and renewal interval (leases.ts's defaults unless a test shortens them). */
  ttlMs?: number;
  renewMs?: number;
}

export interface WorkerProcess {
  /** Whether the process loaded its modules (and now waits for `start`) before it exited. */
  loaded: Promise<boolean>;
  /**
   * Lets the loaded process open the database and start its worker (waits for `loaded` first, so a time counted
   * from here is the worker's own start-up, not the module loading); false when the process exited first.
   */
  start(): Promise<boolean>;
  /** Whether the worker came up (printed `ready`) before the process exited. */
  ready: Promise<boolean>;
  kill(): Promise<void>;
  stderr(): string;
}

/**
 * A worker process, run from crash-worker.ts bundled once per test process (bundle.ts): it loads its modules at
 * once and waits for `start()` before it touches the database or a socket, so a test may spawn its next worker
 * while the current one runs.
 * `node crash-worker <database url> [node id] [lease ttl ms] [lease renewal ms]`.
 */
export function spawnWorker(url: string, options: WorkerOptions = {}): WorkerProcess {
  const args = [url, options.nodeId ?? '', String(options.ttlMs ?? ''), String(options.renewMs ?? '')];
  let stderr = '';
  let stdout = '';
  const child: Promise<ChildProcessWithoutNullStreams> = bundledCommand(WORKER).then((command) => {
    const c = spawn(process.execPath, [...command, ...args], { cwd: ROOT, stdio: ['pipe', 'pipe', 'pipe'] });
    c.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
    // Registered before the listeners of `printed`, so they see the chunk that arrived.
    c.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString()));
    c.stdin.on('error', () => {}); // written after the process died: start() answers false
    return c;
  });
  const exited = child.then((c) => new Promise<void>((resolve) => c.once('exit', () => resolve())));
  const printed = (word: string) =>
    child.then(
      (c) =>
        new Promise<boolean>((resolve) => {
          c.stdout.on('data', () => {
            if (stdout.split('\n').includes(word)) resolve(true);
          });
          void exited.then(() => resolve(false));
        }),
    );
  const loaded = printed('loaded');
  const ready = printed('ready');
  return {
    loaded,
    ready,
    async start() {
      if (!(await loaded)) return false;
      (await child).stdin.write('go\n');
      return true;
    },
    async kill() {
      (await child).kill('SIGKILL');
      await exited;
    },
    stderr: () => stderr,
  };
}

/** A worker process (`spawnWorker`) started at once; `nodeId` as its only option. */
export function startWorker(url: string, options: string | WorkerOptions = {}): WorkerProcess {
  const worker = spawnWorker(url, typeof options === 'string' ? { nodeId: options } : options);
  void worker.start();
  return worker;
}
