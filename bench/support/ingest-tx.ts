// bench/ingest-work.ts's watch of a PostgreSQL ingest (decisions 1163, 1174, 1238): every transaction on each pg
// client, its time split into the database's and the node's, by kind (batch, rollup, other); the pool's waits for a
// client; the rollup worker's runs; the garbage collector's pauses. With them, the batches at a minute's lag p99 are
// taken apart one by one: where each one's lag went and what ran beside it. Figures only, not a test.
import { PerformanceObserver } from 'node:perf_hooks';
import { sql } from 'kysely';
import type { Kysely } from 'kysely';
import pg from 'pg';
import type { Database } from '@takt/db';
import { RollupWorker } from '../../services/ingest/src/worker/rollup';
import type { BatchTimes } from '../../services/ingest/src/worker/batch-writer';

/** Epoch ms by the monotonic clock (comparable with the worker's Date.now stamps within a ms or so). */
const epochNow = () => performance.timeOrigin + performance.now();
const micros = () => Number(process.hrtime.bigint() / 1000n);

export const pct = (xs: number[], p: number) => {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.min(s.length - 1, Math.floor((p / 100) * s.length))] ?? NaN;
};

/** One transaction: kind, whole time, the node's share (answer → next statement), its window. */
export interface Tx {
  kind: string;
  ms: number;
  nodeMs: number;
  longestGapMs: number;
  /** For a CPU profile's samples (TAKT_BENCH_TX_WINDOWS=<file>): begin and end by the monotonic clock, µs. */
  window: [number, number];
  /** Begin sent and commit answered, epoch ms. */
  at: [number, number];
}

/** A committed batch as ingest-work records it from onStored. */
export interface StoredBatch {
  count: number;
  oldest: number;
  at: number;
  times: BatchTimes;
}

/** A transaction's kind by its first statement after begin: the batch's, the rollup worker's or another. */
const kindOf = (body: string): 'batch' | 'rollup' | 'other' =>
  body.startsWith('set local jit') ||
  body.startsWith('copy "observation_rows"') ||
  body.startsWith('select source_id, epoch from source_leases')
    ? 'batch'
    : /rollup/.test(body)
      ? 'rollup'
      : 'other';

/** One sample of a backend working for the bench's database: its kind, what it waited on, who blocked it. */
interface Sample {
  at: number;
  kind: 'batch' | 'rollup' | 'other';
  wait: string;
  blockedBy: string;
}
const samples: Sample[] = [];

/**
 * PostgreSQL: every `everyMs` the active backends of the bench's database other than the sampler's, by the kind of
 * their statement, with their wait event ('CPU' for none: running, or waiting for a core) and, when blocked on a
 * lock, the start of the blocking backend's statement. Returns the call that stops it.
 */
export function sampleBackends(db: Kysely<Database>, everyMs = 100): () => void {
  let running = true;
  void (async () => {
    while (running) {
      try {
        const { rows } = await sql<{ wait: string | null; query: string; blocker: string | null }>`
          select a.wait_event_type || ':' || a.wait_event as wait, left(a.query, 80) as query,
            (select left(b.query, 50) from pg_stat_activity b where b.pid = (pg_blocking_pids(a.pid))[1]) as blocker
          from pg_stat_activity a
          where a.datname = current_database() and a.pid <> pg_backend_pid() and a.state = 'active'`.execute(
          db,
        );
        const at = epochNow();
        for (const r of rows) {
          const q = r.query.trimStart().toLowerCase();
          samples.push({
            at,
            kind: kindOf(q.replace(/^begin;\s*/, '')),
            wait: r.wait ?? 'CPU',
            blockedBy: r.blocker ?? '',
          });
        }
      } catch {
        // a sample lost
      }
      await new Promise((r) => setTimeout(r, everyMs));
    }
  })();
  return () => {
    running = false;
  };
}

/** The batch backends' samples in [a, b], counted by wait (and blocker). */
const batchWaits = (a: number, b: number): string => {
  const counts = new Map<string, number>();
  for (const x of samples)
    if (x.kind === 'batch' && x.at >= a && x.at <= b) {
      const k = x.blockedBy ? `${x.wait} by "${x.blockedBy}"` : x.wait;
      counts.set(k, (counts.get(k) ?? 0) + 1);
    }
  return [...counts].map(([k, n]) => `${n}× ${k}`).join('; ') || '-';
};

/** Cleared each minute by `resetWatch`. */
export const txs: Tx[] = [];
export const windows: Array<{ kind: string; window: [number, number] }> = [];
/** Pool waits (a caller asking pg's Pool for a client → given one), epoch ms. */
const connects: Array<[number, number]> = [];
/** The rollup worker's runs, epoch ms (an unfinished one ends at Infinity). */
const runs: Array<[number, number]> = [];
/** GC pauses, epoch ms. */
const pauses: Array<[number, number]> = [];

export function resetWatch(): void {
  txs.length = 0;
  connects.length = 0;
  samples.length = 0;
  pauses.length = 0;
  // A run still going is kept.
  const open = runs.filter((r) => r[1] === Infinity);
  runs.length = 0;
  runs.push(...open);
}

let installed = false;

/** Wraps pg's Client.query and Pool.connect and the rollup worker's run, and observes GC; once. */
export function installWatch(): void {
  if (installed) return;
  installed = true;
  const open = new WeakMap<
    object,
    {
      t0: number;
      e0: number;
      us: number;
      kind: string | null;
      answered: number | null;
      node: number;
      gap: number;
    }
  >();
  const query = pg.Client.prototype.query as (...args: unknown[]) => unknown;
  pg.Client.prototype.query = function (this: pg.Client, ...args: unknown[]) {
    const first = args[0] as string | { text?: string };
    const text = (typeof first === 'string' ? first : (first?.text ?? '')).trimStart().toLowerCase();
    const t = performance.now();
    let tx = open.get(this);
    // Decision 1199: a batch's begin and commit may go in one message with its statements.
    const begins = text === 'begin' || text.startsWith('begin;');
    if (begins)
      open.set(
        this,
        (tx = { t0: t, e0: epochNow(), us: micros(), kind: null, answered: null, node: 0, gap: 0 }),
      );
    else if (tx && tx.answered !== null) {
      const gap = t - tx.answered;
      tx.node += gap;
      tx.gap = Math.max(tx.gap, gap);
    }
    const body = text === 'begin' ? '' : begins ? text.replace(/^begin;\s*/, '') : text;
    if (tx && body !== '') tx.kind ??= kindOf(body);
    // A transaction ends when its commit (or rollback) is answered.
    const ending = tx && (/(^|;\s*)commit$/.test(text) || text === 'rollback') ? tx : undefined;
    if (ending) open.delete(this);
    const end = () => {
      if (!ending) return;
      const window: [number, number] = [ending.us, micros()];
      txs.push({
        kind: ending.kind ?? 'other',
        ms: performance.now() - ending.t0,
        nodeMs: ending.node,
        longestGapMs: ending.gap,
        window,
        at: [ending.e0, epochNow()],
      });
      if (process.env.TAKT_BENCH_TX_WINDOWS) windows.push({ kind: ending.kind ?? 'other', window });
    };
    const answered = () => {
      if (tx) tx.answered = performance.now();
      end();
    };
    if (tx) tx.answered = null;
    const out = query.apply(this, args) as { then?: unknown; once?: unknown };
    if (out instanceof Promise) void out.then(answered, answered);
    else if (out && typeof out.once === 'function') {
      const stream = out as { once: (e: string, f: () => void) => void };
      stream.once('finish', answered);
      stream.once('error', answered);
    }
    return out;
  } as typeof pg.Client.prototype.query;

  const connect = pg.Pool.prototype.connect as (this: pg.Pool, ...a: unknown[]) => unknown;
  pg.Pool.prototype.connect = function (this: pg.Pool, ...args: unknown[]) {
    if (args.length > 0) return connect.apply(this, args);
    const e0 = epochNow();
    return (connect.apply(this, args) as Promise<pg.PoolClient>).then((c) => {
      connects.push([e0, epochNow()]);
      return c;
    });
  } as typeof pg.Pool.prototype.connect;

  const run = RollupWorker.prototype.run;
  RollupWorker.prototype.run = async function (this: RollupWorker) {
    const r: [number, number] = [epochNow(), Infinity];
    runs.push(r);
    try {
      await run.call(this);
    } finally {
      r[1] = epochNow();
    }
  };

  new PerformanceObserver((list) => {
    for (const e of list.getEntries()) {
      const start = performance.timeOrigin + e.startTime;
      pauses.push([start, start + e.duration]);
    }
  }).observe({ entryTypes: ['gc'] });
}

/** ms of [a, b] covered by the spans (overlaps between spans counted once each: they rarely overlap). */
const within = (spans: ReadonlyArray<readonly [number, number]>, a: number, b: number) =>
  spans.reduce((ms, [s, e]) => ms + Math.max(0, Math.min(e, b) - Math.max(s, a)), 0);

/** p50/p99 of each kind's transactions: whole, the node's share, the longest single wait for the node. */
export function printTransactions(): void {
  for (const kind of ['batch', 'rollup', 'other']) {
    const xs = txs.filter((x) => x.kind === kind);
    if (xs.length === 0) continue;
    const f = (g: (x: Tx) => number) => `${pct(xs.map(g), 50).toFixed(0)}/${pct(xs.map(g), 99).toFixed(0)}`;
    console.log(
      `    ${kind} transactions (${xs.length}) p50/p99 ms: whole ${f((x) => x.ms)}, waiting for the node ` +
        `${f((x) => x.nodeMs)}, longest wait ${f((x) => x.longestGapMs)}`,
    );
  }
  const waits = connects.map(([s, e]) => e - s);
  console.log(
    `    pool: ${waits.length} clients asked for, wait p50/p99/max ${pct(waits, 50).toFixed(1)}/` +
      `${pct(waits, 99).toFixed(1)}/${Math.max(0, ...waits).toFixed(1)} ms, ${waits.filter((w) => w > 5).length} over 5 ms`,
  );
}

/**
 * Where a batch's lag went (decision 1163), p50 / p99 over the minute's batches: its earliest observation waiting for
 * a flush to be asked (the timer), the flush waiting behind the running batch and the work queued between batches,
 * the setup reads and rebuilds before it, taking the pipelines' changes (CPU), and its transaction (statements and
 * commit); the event loop's delay over the minute.
 */
export function printBreakdown(
  batches: readonly StoredBatch[],
  loop: { percentile: (p: number) => number },
): void {
  const parts: Array<[string, (b: StoredBatch) => number]> = [
    ['whole lag', (b) => b.at - b.oldest],
    ['wait for the flush to be asked', (b) => Math.max(0, b.times.asked - b.oldest)],
    ['wait behind the running batch', (b) => b.times.started - Math.max(b.times.asked, b.oldest)],
    ['(of which work between batches', (b) => b.times.between],
    [') setup reads and rebuilds', (b) => b.times.prepared - b.times.started],
    ['take the changes', (b) => b.times.taken - b.times.prepared],
    ['transaction', (b) => b.at - b.times.taken],
  ];
  const line = parts.map(([name, f]) => {
    const xs = batches.map(f);
    return `${name} ${pct(xs, 50)}/${pct(xs, 99)}`;
  });
  console.log(
    `    lag p50/p99 ms: ${line.join(', ')}; event-loop delay ${(loop.percentile(50) / 1e6).toFixed(0)}/` +
      `${(loop.percentile(99) / 1e6).toFixed(0)}`,
  );
}

/**
 * One batch's lag taken apart (ms), with what ran beside it over its lag (rollup, GC, pool waits), and the batch
 * before it (its transaction and counters: what a batch waiting behind it waited for).
 */
function anatomy(b: StoredBatch, prev: StoredBatch | undefined) {
  const { times } = b;
  // Its own transaction: the last batch transaction answered by the time onStored ran.
  const own = txs
    .filter((x) => x.kind === 'batch' && x.at[1] <= b.at + 2 && x.at[0] >= times.taken - 2)
    .sort((x, y) => y.at[1] - x.at[1])[0];
  return {
    lag: b.at - b.oldest,
    asked: Math.max(0, times.asked - b.oldest),
    behind: times.started - Math.max(times.asked, b.oldest),
    between: times.between,
    setup: times.prepared - times.started,
    take: times.taken - times.prepared,
    // taken → begin sent: the plan, the statements built, a pooled client.
    build: own ? own.at[0] - times.taken : NaN,
    tx: own ? own.ms : NaN,
    txNode: own ? own.nodeMs : NaN,
    after: own ? b.at - own.at[1] : NaN,
    counters: times.counters,
    prevTx: prev ? prev.at - prev.times.taken : NaN,
    prevCounters: prev ? prev.times.counters : NaN,
    gc: within(pauses, b.oldest, b.at),
    poolWait: within(connects, times.taken, b.at),
    rollup: within(
      runs.map(([s, e]) => [s, Math.min(e, epochNow())] as const),
      b.oldest,
      b.at,
    ),
    rollupTx: within(
      txs.filter((x) => x.kind === 'rollup').map((x) => x.at),
      b.oldest,
      b.at,
    ),
  };
}

/**
 * The batches at or over the minute's lag p99, each taken apart, and the same parts' means over all batches and over
 * those tail batches; the share of the minute a rollup run was going (against which the tail's overlap reads).
 */
export function printTail(batches: readonly StoredBatch[], minuteMs: number): void {
  if (batches.length === 0) return;
  const p99 = pct(
    batches.map((b) => b.at - b.oldest),
    99,
  );
  const all = batches.map((b, i) => anatomy(b, batches[i - 1]));
  const tail = all.filter((a) => a.lag >= p99).sort((x, y) => y.lag - x.lag);
  const keys = Object.keys(all[0]!) as Array<keyof ReturnType<typeof anatomy>>;
  const mean = (xs: ReturnType<typeof anatomy>[], k: keyof ReturnType<typeof anatomy>) =>
    xs.reduce((s, a) => s + (Number.isNaN(a[k]) ? 0 : a[k]), 0) / Math.max(1, xs.length);
  const t0 = Math.min(...batches.map((b) => b.oldest));
  const t1 = Math.max(...batches.map((b) => b.at));
  const runShare =
    within(
      runs.map(([s, e]) => [s, Math.min(e, epochNow())] as const),
      t0,
      t1,
    ) / Math.max(1, Math.min(minuteMs, t1 - t0));
  console.log(
    `    tail (lag >= p99 ${p99} ms, ${tail.length} batches); rollup runs going ${(runShare * 100).toFixed(0)} % of the minute`,
  );
  console.log(`      mean all : ${keys.map((k) => `${k} ${mean(all, k).toFixed(0)}`).join(', ')}`);
  console.log(`      mean tail: ${keys.map((k) => `${k} ${mean(tail, k).toFixed(0)}`).join(', ')}`);
  for (const a of tail.slice(0, 6))
    console.log(`      ${keys.map((k) => `${k} ${Number.isNaN(a[k]) ? '-' : a[k].toFixed(0)}`).join(', ')}`);
  const tailBatches = batches
    .map((b, i) => ({ b, a: all[i]! }))
    .filter((x) => x.a.lag >= p99)
    .sort((x, y) => y.a.lag - x.a.lag);
  for (const { b } of tailBatches.slice(0, 6))
    console.log(
      `      batch backends over the lag of the ${b.at - b.oldest} ms batch: ${batchWaits(b.oldest, b.at)}`,
    );
  if (samples.length > 0) {
    const byWait = new Map<string, number>();
    for (const x of samples) if (x.kind === 'batch') byWait.set(x.wait, (byWait.get(x.wait) ?? 0) + 1);
    console.log(
      `    batch backends' samples over the minute: ${[...byWait].map(([k, n]) => `${k} ${n}`).join(', ')}`,
    );
  }
}
