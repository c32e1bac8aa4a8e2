// Where a PostgreSQL statement's time goes in a bench (decision 1192): pg's Pool.connect and Client.query are
// wrapped process-wide, so every statement Kysely runs is counted, with the time its caller waited for a pooled
// client and the time the statement ran, split by who asked (a call the HTTP server is answering, or anything else:
// the ingest and its workers). Sampled once a second: the pools' waiting callers and the server's sessions by
// state and wait event (pg_stat_activity), the oldest open transaction. Figures only, for bench/report-load.ts.
import { AsyncLocalStorage } from 'node:async_hooks';
import pg from 'pg';

type Side = 'api' | 'other';
interface Tally {
  connects: number;
  waitMs: number[];
  statements: number;
  runMs: number;
}
const fresh = (): Tally => ({ connects: 0, waitMs: [], statements: 0, runMs: 0 });

const side = new AsyncLocalStorage<Side>();
const tallies: Record<Side, Tally> = { api: fresh(), other: fresh() };
const pools = new Set<pg.Pool>();
let installed = false;
/** The API's statements' text since the last reset, when kept (`keepTexts`). */
let texts: string[] | null = null;
/** The time the API's statements ran by text since `keepTexts` (never reset): count and ms. */
const timesByText = new Map<string, { n: number; ms: number; slowest: number; values: unknown[] }>();

/** Runs `work` as the API's (a request being answered). */
export const asApi = <T>(work: () => T): T => side.run('api', work);

/** Whether the code running now is a call the HTTP server is answering (`asApi`). */
export const apiSide = (): boolean => side.getStore() === 'api';

/** Wraps pg once; later calls do nothing. */
export function watchPools(): void {
  if (installed) return;
  installed = true;
  const connect = pg.Pool.prototype.connect as (this: pg.Pool, ...a: unknown[]) => unknown;
  pg.Pool.prototype.connect = function (this: pg.Pool, ...args: unknown[]) {
    pools.add(this);
    if (args.length > 0) return connect.apply(this, args);
    const t = tallies[side.getStore() ?? 'other'];
    const t0 = performance.now();
    t.connects++;
    return (connect.apply(this, args) as Promise<pg.PoolClient>).then((c) => {
      t.waitMs.push(performance.now() - t0);
      return c;
    });
  } as typeof pg.Pool.prototype.connect;
  const query = pg.Client.prototype.query as (this: pg.Client, ...a: unknown[]) => unknown;
  pg.Client.prototype.query = function (this: pg.Client, ...args: unknown[]) {
    const result = query.apply(this, args);
    if (!(result instanceof Promise)) return result;
    const t = tallies[side.getStore() ?? 'other'];
    const t0 = performance.now();
    t.statements++;
    let text: string | null = null;
    let values: unknown[] = [];
    if (texts && t === tallies.api) {
      const q = args[0] as string | { text?: string; values?: unknown[] };
      text = typeof q === 'string' ? q : (q?.text ?? '?');
      values = (typeof q === 'string' ? args[1] : q?.values) as unknown[];
      texts.push(text);
    }
    return result.finally(() => {
      const ms = performance.now() - t0;
      t.runMs += ms;
      if (text !== null) {
        const kept = timesByText.get(text) ?? { n: 0, ms: 0, slowest: 0, values };
        timesByText.set(text, {
          n: kept.n + 1,
          ms: kept.ms + ms,
          ...(ms > kept.slowest ? { slowest: ms, values } : { slowest: kept.slowest, values: kept.values }),
        });
      }
    });
  } as typeof pg.Client.prototype.query;
}

/** Empties the tallies (a new part of the bench). */
export function resetTallies(): void {
  tallies.api = fresh();
  tallies.other = fresh();
  if (texts) texts = [];
}

/** Keeps the text of the API's statements from now on (read with `keptTexts`). */
export function keepTexts(): void {
  texts = [];
}

/** The API's statements since the last reset, in order (empty unless `keepTexts` was called). */
export const keptTexts = (): readonly string[] => texts ?? [];

/** The API's statements' texts by their time run since `keepTexts`, the longest first (with the slowest run's values). */
export const keptTimes = () => [...timesByText].sort((a, b) => b[1].ms - a[1].ms);

/** The API's statement count since the last reset. */
export const apiStatements = (): number => tallies.api.statements;

const pct = (xs: readonly number[], p: number) => {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.min(s.length - 1, Math.floor((p / 100) * s.length))] ?? Number.NaN;
};

/** The tallies since the last reset, one line a side; `calls` the API calls answered meanwhile. */
export function tallyLines(calls: number): string[] {
  return (['api', 'other'] as const).map((s) => {
    const t = tallies[s];
    const per = s === 'api' && calls > 0 ? ` (${(t.statements / calls).toFixed(1)} a call)` : '';
    return `    ${s === 'api' ? 'API calls' : 'ingest etc.'}: ${t.statements} statements${per}, run ${(t.runMs / 1000).toFixed(1)} s; ${t.connects} client checkouts, wait p50 ${pct(t.waitMs, 50).toFixed(0)} ms, p99 ${pct(t.waitMs, 99).toFixed(0)} ms, max ${pct(t.waitMs, 100).toFixed(0)} ms, sum ${(t.waitMs.reduce((a, b) => a + b, 0) / 1000).toFixed(1)} s`;
  });
}

/**
 * Samples the pools and the server's sessions once a second until stopped; returns the summary lines: the
 * most callers waiting for a client at once, the sessions seen per state and wait event (summed over the samples),
 * the oldest transaction seen.
 */
export function sampleServer(url: string): () => Promise<string[]> {
  const client = new pg.Client({ connectionString: url });
  const waiting: number[] = [];
  const events = new Map<string, number>();
  let oldestXactMs = 0;
  let samples = 0;
  let running = true;
  // A database dropped under it (the bench failing) must not end the process with an unhandled error.
  client.on('error', () => undefined);
  const t0 = performance.now();
  const loop = (async () => {
    await client.connect();
    while (running) {
      waiting.push([...pools].reduce((n, p) => n + p.waitingCount, 0));
      // Progress on stderr every 15 s, so a run that fails still shows where it stood.
      if (samples % 15 === 0)
        process.stderr.write(
          `  [pools ${((performance.now() - t0) / 1000).toFixed(0)} s] waiting ${waiting.at(-1)}; ${tallyLines(0).join(' |').replace(/\s+/g, ' ')}\n`,
        );
      const { rows } = await client.query<{ state: string; ev: string; n: number; xact: number }>(
        `select coalesce(state, '?') as state, coalesce(wait_event_type || ':' || wait_event, '-') as ev,
           count(*)::int as n, coalesce(max(extract(epoch from now() - xact_start) * 1000), 0)::float8 as xact
         from pg_stat_activity where datname = current_database() and pid <> pg_backend_pid()
         group by 1, 2`,
      );
      samples++;
      for (const r of rows) {
        events.set(`${r.state} ${r.ev}`, (events.get(`${r.state} ${r.ev}`) ?? 0) + r.n);
        if (r.state !== 'idle') oldestXactMs = Math.max(oldestXactMs, r.xact);
      }
      await new Promise((r) => setTimeout(r, 1000));
    }
    await client.end();
  })();
  return async () => {
    running = false;
    await loop;
    const top = [...events].sort((a, b) => b[1] - a[1]).slice(0, 8);
    return [
      `    callers waiting for a pooled client: max ${Math.max(0, ...waiting)}, mean ${(waiting.reduce((a, b) => a + b, 0) / Math.max(1, waiting.length)).toFixed(1)} over ${samples} samples`,
      `    sessions (state, wait event: mean a sample): ${top.map(([k, n]) => `${k} ${(n / Math.max(1, samples)).toFixed(1)}`).join('; ')}`,
      `    oldest open transaction seen: ${(oldestXactMs / 1000).toFixed(1)} s`,
    ];
  };
}
