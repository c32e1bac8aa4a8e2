// Helpers for the ingest tests: real TCP servers on 127.0.0.1, worker processes and polling waits. Not used at
// runtime.
import net from 'node:net';
import type { SourcePolicy } from '@takt/domain';

/**
 * The source policy of tests whose fake adapters and agents listen on this host: loopback opened, as
 * TAKT_SOURCE_NETWORKS=127.0.0.0/8 would (decision 0985).
 */
export const LOOPBACK_SOURCES: SourcePolicy = { allow: [{ cidr: '127.0.0.0/8' }], ownPorts: [] };

/** Polls until `check` returns a value other than undefined/false, or fails after `timeoutMs`. */
export async function waitFor<T>(
  check: () => T | undefined | false,
  timeoutMs = 5_000,
  what = 'condition',
): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = check();
    // A promise is always truthy: an async check would pass at once, whatever it found.
    if (value instanceof Promise) throw new Error(`waitFor takes a synchronous check (${what})`);
    if (value !== undefined && value !== false) return value;
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 5));
  }
}

export function sleep(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms));
}

export interface FakeAdapter {
  port: number;
  /** sockets accepted so far, in order */
  sockets: net.Socket[];
  /** lines each socket sent us, by socket index */
  received: string[][];
  /** closed sockets, by index */
  closed: boolean[];
  close(): Promise<void>;
}

/** A bare TCP server standing in for an adapter; `onConnection` scripts its behaviour. */
export async function fakeAdapter(
  onConnection: (socket: net.Socket, index: number) => void,
  onLine: (socket: net.Socket, line: string, index: number) => void = () => {},
  port = 0,
): Promise<FakeAdapter> {
  const sockets: net.Socket[] = [];
  const received: string[][] = [];
  const closed: boolean[] = [];
  const server = net.createServer((socket) => {
    const index = sockets.length;
    sockets.push(socket);
    received.push([]);
    closed.push(false);
    let buffer = '';
    socket.on('data', (chunk) => {
      buffer += chunk.toString();
      const parts = buffer.split('\n');
      buffer = parts.pop() ?? '';
      for (const line of parts) {
        received[index]?.push(line.trim());
        onLine(socket, line.trim(), index);
      }
    });
    socket.on('error', () => {});
    socket.on('close', () => {
      closed[index] = true;
    });
    onConnection(socket, index);
  });
  await new Promise<void>((resolve) => server.listen(port, '127.0.0.1', resolve));
  const address = server.address();
  if (address === null || typeof address === 'string') throw new Error('no port');
  return {
    port: address.port,
    sockets,
    received,
    closed,
    close: () =>
      new Promise<void>((resolve) => {
        for (const s of sockets) s.destroy();
        server.close(() => resolve());
      }),
  };
}

// The worker processes of the crash and scale-out tests (crash-worker.ts).
export { spawnWorker, startWorker } from './worker-process';
export type { WorkerOptions, WorkerProcess } from './worker-process';
