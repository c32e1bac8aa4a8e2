// The ingest of bench/support/live-ingest.ts in a process of its own on the same database, as an ingest-only node
// of the cluster runs it (tests/multihost/cluster.ts: TAKT_INGEST=1 nodes beside TAKT_INGEST=0 API nodes), so the
// bench's process answers as an API-only node: it reads what another process wrote, with none of that process's
// memory (its recomputes noted, its kept writes). bench/dashboard-answer.ts BENCH_INGEST_PROCESS=1.
//   child: node --import tsx bench/support/ingest-process.ts child <database url> <machines>
import { spawn } from 'node:child_process';
import { createInterface } from 'node:readline';
import { fileURLToPath } from 'node:url';
import { liveIngest } from './live-ingest';
import { openBenchNode } from './node-api';

/** What the child reports when it stops: its CPU time over its ingest, user + system. */
export interface IngestProcessFigures {
  cpuMs: number;
  wallMs: number;
}

/**
 * `count` machines of a new company ingesting a line a second each (liveIngest) in a child process on `url`; resolves
 * once every adapter is connected. Its stop() ends the child and gives the child's CPU over the ingest.
 */
export async function liveIngestProcess(
  url: string,
  count: number,
): Promise<() => Promise<IngestProcessFigures>> {
  const self = fileURLToPath(import.meta.url);
  const child = spawn(process.execPath, [...process.execArgv, self, 'child', url, String(count)], {
    stdio: ['pipe', 'pipe', 'inherit'],
  });
  const lines = createInterface({ input: child.stdout });
  const next = () =>
    new Promise<string>((resolve, reject) => {
      const onExit = (code: number | null) => reject(new Error(`the ingest process exited (${code})`));
      child.once('exit', onExit);
      lines.once('line', (line) => {
        child.off('exit', onExit);
        resolve(line);
      });
    });
  const ready = await next();
  if (ready !== 'ready') throw new Error(`the ingest process said ${ready}`);
  return async () => {
    const figures = next();
    child.stdin.end('stop\n');
    const out = JSON.parse(await figures) as IngestProcessFigures;
    await new Promise((r) => (child.exitCode === null ? child.once('exit', r) : r(null)));
    return out;
  };
}

async function child(url: string, count: number) {
  // The handles an ingest node's main.ts opens (TAKT_INGEST=1 beside API-only nodes).
  const node = openBenchNode(url);
  const stop = await liveIngest(node, count);
  const cpu0 = process.cpuUsage();
  const wall0 = Date.now();
  process.stdout.write('ready\n');
  // Stops on "stop" or when the parent goes away (its end of stdin closed).
  await new Promise<void>((resolve) => {
    process.stdin.on('data', (d: Buffer) => d.toString().includes('stop') && resolve());
    process.stdin.on('end', () => resolve());
  });
  const cpu = process.cpuUsage(cpu0);
  const wallMs = Date.now() - wall0;
  await stop();
  await node.databases.close();
  process.stdout.write(`${JSON.stringify({ cpuMs: (cpu.user + cpu.system) / 1000, wallMs })}\n`);
  process.exit(0);
}

if (process.argv[2] === 'child' && process.argv[1] === fileURLToPath(import.meta.url))
  await child(process.argv[3]!, Number(process.argv[4]));
