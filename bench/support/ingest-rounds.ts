// bench/dashboard-answer.ts BENCH_INGEST_PROCESS=both: GET /api/dashboard answered while `count` machines ingest a
// line a second, in rounds with the ingest in the bench's own process (a single node: API and ingest in one
// process) and in a child process on the same database (an API-only node of the cluster), alternated ABBA so the
// load of the moment falls on both alike. Each round starts its ingest afresh (a new company of `count` machines),
// lets it run a few seconds, then times `calls` answers interleaved with GET /api/me (the baseline).
import { loadavg } from 'node:os';
import { performance } from 'node:perf_hooks';
import type { BenchNode } from './node-api';
import { liveIngestProcess } from './ingest-process';
import { liveIngest } from './live-ingest';

export interface IngestRound {
  other: boolean;
  answerMs: number[];
  meMs: number[];
  /** The bench process's CPU over the round's calls, ms per answer. */
  cpuPerAnswer: number;
  load: number;
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

export async function ingestRounds(
  node: BenchNode,
  url: string,
  get: (path: string) => Promise<string>,
  opts: { count: number; pairs: number; calls: number; path?: string },
): Promise<IngestRound[]> {
  const out: IngestRound[] = [];
  for (let round = 0; round < 2 * opts.pairs; round++) {
    // ABBA: same, other, other, same, …
    const other = (round % 2 === 1) !== (Math.floor(round / 2) % 2 === 1);
    const stop = other ? await liveIngestProcess(url, opts.count) : await liveIngest(node, opts.count);
    try {
      await sleep(3000);
      for (let i = 0; i < 3; i++) await get(opts.path ?? '/api/dashboard');
      const r: IngestRound = { other, answerMs: [], meMs: [], cpuPerAnswer: 0, load: loadavg()[0]! };
      const cpu0 = process.cpuUsage();
      for (let i = 0; i < opts.calls; i++) {
        let a = performance.now();
        await get('/api/me');
        r.meMs.push(performance.now() - a);
        a = performance.now();
        await get(opts.path ?? '/api/dashboard');
        r.answerMs.push(performance.now() - a);
      }
      const cpu = process.cpuUsage(cpu0);
      r.cpuPerAnswer = (cpu.user + cpu.system) / 1000 / opts.calls;
      out.push(r);
    } finally {
      await stop();
    }
  }
  return out;
}
