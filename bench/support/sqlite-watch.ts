// Where a SQLite bench's event loop goes (decision 1224): better-sqlite3 runs every statement synchronously, so a
// statement's time is time the event loop is held. Its Statement methods are wrapped process-wide and each run is
// timed, split by who asked: a call the HTTP server is answering (pool-watch's `asApi`), the rollup worker (its
// `run` wrapped), or anything else (the ingest's batches, its workers). With the event loop's delay
// (perf_hooks.monitorEventLoopDelay) over the same part. Figures only, for bench/report-load.ts on SQLite.
// Each side's `commit` statements are timed one by one too (decision 1229: a commit that runs SQLite's automatic
// checkpoint holds the loop for the WAL's copy into the file and its fsync).
// BENCH_SCHEDSTAT=1 (Linux): each of the API's statements also reads its thread's /proc/thread-self/schedstat before
// and after, so a statement holding the loop over 20 ms is split into the time it ran on a core, the time it waited
// for one (the machine's other work), and the rest: blocked (a lock's busy wait, I/O, a sleep). Costs a few µs a
// statement; off by default. BENCH_TEXTS=1: each side's statements by their summed time, the 15 longest.
import { AsyncLocalStorage } from 'node:async_hooks';
import { readFileSync } from 'node:fs';
import { monitorEventLoopDelay } from 'node:perf_hooks';
import type { IntervalHistogram } from 'node:perf_hooks';
import SQLite from 'better-sqlite3';
import { RollupWorker } from '../../services/ingest/src/worker/rollup';
import { apiSide } from './pool-watch';

type Side = 'api' | 'rollup' | 'ingest';
interface Tally {
  statements: number;
  ms: number;
  /** The statements that held the loop over 20 ms, by the first 60 characters of their text. */
  slow: Map<string, { n: number; ms: number; max: number }>;
  runs: number[];
  /** Every `commit` statement's time. */
  commits: number[];
  /** BENCH_SCHEDSTAT: the statements over 20 ms split: on a core, waiting for one, blocked (ms); the longest. */
  split: { n: number; cpu: number; queued: number; blocked: number; max: number; longest: string };
  /** BENCH_TEXTS=1: every statement by its text (the first 150 characters), runs and time. */
  texts: Map<string, { n: number; ms: number }>;
}
const fresh = (): Tally => ({
  statements: 0,
  ms: 0,
  slow: new Map(),
  runs: [],
  commits: [],
  split: { n: 0, cpu: 0, queued: 0, blocked: 0, max: 0, longest: '' },
  texts: new Map(),
});
const TEXTS = process.env.BENCH_TEXTS === '1';
const SCHEDSTAT = process.env.BENCH_SCHEDSTAT === '1';
/** This thread's time on a core and waiting for one, ms (Linux schedstat: ns, ns, timeslices). */
const sched = (): [number, number] => {
  const [run, wait] = readFileSync('/proc/thread-self/schedstat', 'utf8').split(' ');
  return [Number(run) / 1e6, Number(wait) / 1e6];
};

/** sched's figures, or null where the thread has no schedstat (not Linux): bench/report-load.ts's part lines. */
export function schedstat(): { run: number; wait: number } | null {
  try {
    const [run, wait] = sched();
    return { run, wait };
  } catch {
    return null;
  }
}
const inRollup = new AsyncLocalStorage<true>();
let tallies: Record<Side, Tally> = { api: fresh(), rollup: fresh(), ingest: fresh() };
let histogram: IntervalHistogram | null = null;
let installed = false;

const sideNow = (): Side => (apiSide() ? 'api' : inRollup.getStore() ? 'rollup' : 'ingest');

/** Wraps better-sqlite3's statements and the rollup worker's runs once; later calls do nothing. */
export function watchSqlite(): void {
  if (installed) return;
  installed = true;
  const probe = new SQLite(':memory:');
  const proto = Object.getPrototypeOf(probe.prepare('select 1')) as Record<string, unknown>;
  probe.close();
  for (const name of ['run', 'get', 'all'] as const) {
    const original = proto[name] as (this: SQLite.Statement, ...a: unknown[]) => unknown;
    proto[name] = function (this: SQLite.Statement, ...args: unknown[]) {
      const s0 = SCHEDSTAT ? sched() : null;
      const t0 = performance.now();
      try {
        return original.apply(this, args);
      } finally {
        const ms = performance.now() - t0;
        const t = tallies[sideNow()];
        if (s0 && ms > 20) {
          const [run, wait] = sched();
          const [cpu, queued] = [run - s0[0], wait - s0[1]];
          const split = t.split;
          split.n++;
          split.cpu += cpu;
          split.queued += queued;
          split.blocked += Math.max(0, ms - cpu - queued);
          if (ms > split.max) {
            split.max = ms;
            split.longest = `${ms.toFixed(0)} ms (core ${cpu.toFixed(0)}, waiting for one ${queued.toFixed(0)}, blocked ${Math.max(0, ms - cpu - queued).toFixed(0)}): ${this.source.replace(/\s+/g, ' ').slice(0, 60)}`;
          }
        }
        t.statements++;
        t.ms += ms;
        if (this.source === 'commit') t.commits.push(ms);
        if (TEXTS) {
          const key = this.source.replace(/\s+/g, ' ').slice(0, 150);
          const x = t.texts.get(key) ?? { n: 0, ms: 0 };
          x.n++;
          x.ms += ms;
          t.texts.set(key, x);
        }
        if (ms > 20) {
          const key = this.source.replace(/\s+/g, ' ').slice(0, 60);
          const s = t.slow.get(key) ?? { n: 0, ms: 0, max: 0 };
          s.n++;
          s.ms += ms;
          s.max = Math.max(s.max, ms);
          t.slow.set(key, s);
        }
      }
    };
  }
  const run = RollupWorker.prototype.run;
  RollupWorker.prototype.run = function (this: RollupWorker) {
    const t0 = performance.now();
    return inRollup
      .run(true, () => run.call(this))
      .finally(() => tallies.rollup.runs.push(performance.now() - t0));
  };
}

/** Commits' count and p50 / p99 / max, ms. */
export function commitLine(commits: readonly number[]): string {
  const s = [...commits].sort((a, b) => a - b);
  const at = (p: number) => s[Math.min(s.length - 1, Math.floor((p / 100) * s.length))] ?? NaN;
  const over = s.filter((ms) => ms > 20).length;
  return `${s.length} commits: p50 ${at(50).toFixed(2)} ms, p99 ${at(99).toFixed(1)} ms, max ${(s[s.length - 1] ?? NaN).toFixed(0)} ms, ${over} over 20 ms (${(s.reduce((a, b) => a + b, 0) / 1000).toFixed(1)} s in all)`;
}

/** Every commit's time since the last reset, all sides together. */
export const sqliteCommits = (): number[] => Object.values(tallies).flatMap((t) => t.commits);

/** Empties the tallies and starts the event loop's delay histogram again (a new part of the bench). */
export function resetSqlite(): void {
  tallies = { api: fresh(), rollup: fresh(), ingest: fresh() };
  histogram?.disable();
  histogram = monitorEventLoopDelay({ resolution: 10 });
  histogram.enable();
}

/** The tallies and the loop's delay since the last reset. */
export function sqliteLines(): string[] {
  const h = histogram;
  const ms = (ns: number) => (ns / 1e6).toFixed(0);
  const lines = h
    ? [
        `    event loop delay: p50 ${ms(h.percentile(50))} ms, p99 ${ms(h.percentile(99))} ms, max ${ms(h.max)} ms, mean ${ms(h.mean)} ms`,
      ]
    : [];
  for (const side of ['api', 'rollup', 'ingest'] as const) {
    const t = tallies[side];
    const runs =
      side === 'rollup'
        ? `; ${t.runs.length} runs, ${(t.runs.reduce((a, b) => a + b, 0) / 1000).toFixed(1)} s in them`
        : '';
    lines.push(
      `    ${side}: ${t.statements} statements, ${(t.ms / 1000).toFixed(1)} s holding the loop${runs}`,
    );
    if (t.commits.length > 0) lines.push(`      ${commitLine(t.commits)}`);
    const split = t.split;
    if (split.n > 0)
      lines.push(
        `      over 20 ms (schedstat): ${split.n}, on a core ${(split.cpu / 1000).toFixed(1)} s, waiting for a core ${(split.queued / 1000).toFixed(1)} s, blocked ${(split.blocked / 1000).toFixed(1)} s${split.longest ? `; longest ${split.longest}` : ''}`,
      );
    const top = [...t.slow].sort((a, b) => b[1].ms - a[1].ms).slice(0, 5);
    for (const [k, s] of top)
      lines.push(
        `      ${s.n} × over 20 ms, ${(s.ms / 1000).toFixed(1)} s, max ${s.max.toFixed(0)} ms: ${k}`,
      );
    for (const [k, x] of [...t.texts].sort((a, b) => b[1].ms - a[1].ms).slice(0, 15))
      lines.push(`      ${x.n}× ${x.ms.toFixed(0)} ms: ${k}`);
  }
  return lines;
}
