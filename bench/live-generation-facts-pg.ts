// Benchmark (decisions 1231, 1234): what the live generation's triggers on the fact tables cost an ingest batch and
// the rollup worker on PostgreSQL, statement by statement. On a new database (takt_h2_… or TAKT_BENCH_DB_PREFIX) with
// `machines` machines of one company and a history of states, cycles and hourly rows, each batch is one transaction
// of the ingest's own statements for those tables, built by its own builders (store-narrow.ts, store-cycles.ts) for
// every machine, and its rollup marks: a quarter of the machines change state each batch (a closed state inserted, the
// open one updated), an eighth end a cycle, the rest leave their open state as it is (upserts that write nothing).
// Then `marks` transactions of the rollup worker, each updating one machine's hourly row (rollups/changed-rows.ts).
// Rounds alternate the variants (ABCABC…, same database and process): `none` (0072's triggers dropped), `0072`
// (statement-level triggers with transition tables) and `0074` (row-level, skipped when the transaction says it
// marks what it writes; `0074u`: the same triggers, the batch not saying so, what any other writer pays a row).
// Printed: each variant's batch and worker p50, then EXPLAIN (ANALYZE, BUFFERS) of a batch's statements by variant:
// their execution time and the live generation triggers' time. Load averages with each round. Not a test.
//   npx tsx bench/live-generation-facts-pg.ts [machines=1000] [rounds=9] [batches=30] [variants=none,0072,0074]
import { readFileSync } from 'node:fs';
import { performance } from 'node:perf_hooks';
import { CompiledQuery, sql } from 'kysely';
import type { Kysely } from 'kysely';
import { liveFactsMarked, migrateToLatest, openDb } from '@takt/db';
import type { Database } from '@takt/db';
import { markRollupsDirtyStatements } from '@takt/db/rollups';
import { companyRow, withAdmin, TEST_PG_URL } from '@takt/db/testing';
import * as m0072 from '../packages/db/src/migrations/2026-12-01-0072-live-generation-facts';
import * as m0074 from '../packages/db/src/migrations/2026-12-02-0074-live-generation-facts-rows';
import { writeChangedRows } from '../packages/db/src/rollups/changed-rows';
import type { DerivedWrite } from '../services/ingest/src/worker/store';
import type { NarrowRow } from '../services/ingest/src/worker/store-narrow';
import { narrowStatements } from '../services/ingest/src/worker/store-narrow';
import { cycleStatements } from '../services/ingest/src/worker/store-cycles';

const MACHINES = Number(process.argv[2] ?? 1000);
const ROUNDS = Number(process.argv[3] ?? 9);
const BATCHES = Number(process.argv[4] ?? 30);
const VARIANTS = (process.argv[5] ?? 'none,0072,0074').split(',') as Variant[];
const MARKS = 20;
const HISTORY = 200;
const T0 = 1_764_000_000_000;
const HOUR = 3_600_000;

/** `0074u`: 0074's triggers, the batch not saying it marks its machines (what any other writer pays a row). */
type Variant = 'none' | '0072' | '0074' | '0074u';

const load = () => readFileSync('/proc/loadavg', 'utf8').split(' ').slice(0, 3).join(' ');
const pct = (xs: number[], p: number) => {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.min(s.length - 1, Math.floor((p / 100) * s.length))] ?? NaN;
};

/** Migrated to the latest (0074 up); the other variants take 0074 down, then 0072. */
let current: Variant = '0074';
let marked = true;
async function variant(db: Kysely<Database>, wanted: Variant) {
  marked = wanted !== '0074u';
  const to = wanted === '0074u' ? '0074' : wanted;
  const rank = { none: 0, '0072': 1, '0074': 2, '0074u': 2 } as const;
  while (rank[current] < rank[to]) {
    if (current === 'none') await m0072.up(db);
    else await m0074.up(db);
    current = current === 'none' ? '0072' : '0074';
  }
  while (rank[current] > rank[to]) {
    if (current === '0074') await m0074.down(db);
    else await m0072.down(db);
    current = current === '0074' ? '0072' : 'none';
  }
}

/** Each machine's open state (start, state) as the batches move it. */
const open = Array.from({ length: MACHINES }, () => ({ start: T0, state: 'ACTIVE' }));

/** The fact statements of batch `n` (and its marks): what the ingest sends for these tables. */
function batchStatements(db: Kysely<Database>, n: number): CompiledQuery[] {
  const t = T0 + n * 1000;
  const writes: DerivedWrite[] = open.map((_, i) => ({
    companyId: 'c1',
    machineId: `m${i}`,
    from: t - 1000,
    result: undefined as never,
  }));
  const states: NarrowRow[] = [];
  const cycles: NarrowRow[] = [];
  for (let i = 0; i < MACHINES; i++) {
    const w = writes[i]!;
    const o = open[i]!;
    if ((n + i) % 4 === 0) {
      states.push({ w, values: [o.start, t, o.state, null] });
      o.start = t;
      o.state = o.state === 'ACTIVE' ? 'INACTIVE' : 'ACTIVE';
    }
    states.push({ w, values: [o.start, null, o.state, null] });
    if ((n + i) % 8 === 0) cycles.push({ w, values: [t - 8000, t, 8000, 1, 'part_count', 0] });
  }
  const mOf = (w: DerivedWrite) => Number(w.machineId.slice(1)) + 1;
  const facts = [
    ...narrowStatements(true, [], writes, (tb) => (tb.view === 'state_intervals' ? states : []), mOf),
    ...cycleStatements(true, [], writes, cycles, mOf),
  ].filter((q) => /\bstate_(rows|open)\b|\bcycle_rows\b/.test(q.sql));
  return [
    ...(marked ? [liveFactsMarked] : []),
    ...markRollupsDirtyStatements(
      db,
      writes.map((w) => ({ companyId: w.companyId, machineId: w.machineId, from: w.from, now: t })),
    ),
    ...facts,
  ];
}

async function batch(db: Kysely<Database>, n: number): Promise<number> {
  const statements = batchStatements(db, n);
  const t = performance.now();
  await db.transaction().execute(async (trx) => {
    for (const q of statements) await trx.executeQuery(q);
  });
  return performance.now() - t;
}

/** The rollup worker's writes after batch `n`: MARKS machines' hourly row each updated in its own transaction. */
async function worker(db: Kysely<Database>, n: number): Promise<number> {
  const t = performance.now();
  for (let k = 0; k < MARKS; k++) {
    const i = (n * MARKS + k) % MACHINES;
    const start = T0 - (T0 % HOUR);
    await db.transaction().execute((trx) =>
      writeChangedRows(trx, 'rollups', { companyId: 'c1', machineId: `m${i}`, start, end: start + HOUR }, [
        {
          company_id: 'c1',
          machine_id: `m${i}`,
          start_at: start,
          end_at: start + HOUR,
          shift_id: null,
          measures: JSON.stringify({ active: n }),
          computed_at: T0 + n * 1000,
          downtime: null,
        },
      ]),
    );
  }
  return performance.now() - t;
}

type Plan = Array<{
  'Execution Time': number;
  Triggers?: Array<{ 'Trigger Name': string; Time: number; Calls: number }>;
}>;

/** A statement's label: its verb and table. */
const labelOf = (q: string) => {
  const m = /^\s*(set|insert into|update|delete from|with)\s+"?(\w+)/i.exec(q);
  const verb = m?.[1]?.split(' ')[0]?.toLowerCase() ?? '?';
  const table = /\b(state_rows|state_open|cycle_rows|rollup_dirty|rollups)\b/.exec(q)?.[1] ?? m?.[2] ?? '?';
  return `${verb} ${table}${/on conflict/.test(q) ? ' (upsert)' : ''}`;
};

/** EXPLAIN ANALYZE of `count` batches' statements: per label, the p50 execution time and trigger time a batch. */
async function explained(db: Kysely<Database>, from: number, count: number) {
  const per = new Map<string, { exec: number[]; trig: number[] }>();
  for (let b = 0; b < count; b++) {
    const seen = new Map<string, { exec: number; trig: number }>();
    await db.transaction().execute(async (trx) => {
      for (const q of batchStatements(db, from + b)) {
        if (q.sql.startsWith('set ')) {
          await trx.executeQuery(q);
          continue;
        }
        const r = await trx.executeQuery<{ 'QUERY PLAN': Plan }>(
          CompiledQuery.raw(`explain (analyze, buffers, format json) ${q.sql}`, [...q.parameters]),
        );
        const plan = r.rows[0]!['QUERY PLAN'][0]!;
        const s = seen.get(labelOf(q.sql)) ?? { exec: 0, trig: 0 };
        s.exec += plan['Execution Time'];
        for (const tr of plan.Triggers ?? [])
          if (tr['Trigger Name'].includes('live_generation')) s.trig += tr.Time;
        seen.set(labelOf(q.sql), s);
      }
    });
    for (const [label, s] of seen) {
      const p = per.get(label) ?? { exec: [], trig: [] };
      p.exec.push(s.exec);
      p.trig.push(s.trig);
      per.set(label, p);
    }
  }
  return per;
}

const prefix = process.env.TAKT_BENCH_DB_PREFIX ?? 'takt_h2_';
const name = `${prefix}facts_${Math.random().toString(36).slice(2, 10)}`;
await withAdmin((c) => c.query(`create database ${name} template template0`));
const u = new URL(TEST_PG_URL);
u.pathname = `/${name}`;
const database = openDb(`${u.toString()}?options=${encodeURIComponent('-c synchronous_commit=off')}`, {
  poolSize: 1,
});
try {
  const db = database.db;
  await migrateToLatest(db);
  await db.insertInto('companies').values(companyRow('c1')).execute();
  await sql`insert into observation_machines (id, company_id, machine_id)
    select g, 'c1', 'm' || (g - 1) from generate_series(1, ${MACHINES}) g`.execute(db);
  // A history: HISTORY closed states and cycles a machine, its open state, a day of hourly rows (0074's triggers on
  // every row otherwise: a bump a company and transaction, still a function call a row).
  await sql`begin`.execute(db);
  await db.executeQuery(liveFactsMarked);
  await sql`insert into state_rows (m, start_at, end_at, state)
    select om.id, ${T0}::bigint - (h + 1) * 4000, ${T0}::bigint - h * 4000, case when h % 2 = 0 then 'INACTIVE' else 'ACTIVE' end
    from observation_machines om cross join generate_series(0, ${HISTORY - 1}) h`.execute(db);
  await sql`insert into cycle_rows (m, start_at, end_at, duration, count, source, setup)
    select om.id, ${T0}::bigint - (h + 1) * 8000, ${T0}::bigint - h * 8000, 8000, 1, 'part_count', 0
    from observation_machines om cross join generate_series(0, ${HISTORY - 1}) h`.execute(db);
  await sql`insert into state_open (m, start_at, state) select id, ${T0}::bigint, 'ACTIVE' from observation_machines`.execute(
    db,
  );
  await sql`insert into rollups (company_id, machine_id, start_at, end_at, shift_id, measures, computed_at)
    select 'c1', om.machine_id, ${T0 - (T0 % HOUR)}::bigint - h * ${HOUR}::bigint,
      ${T0 - (T0 % HOUR)}::bigint - (h - 1) * ${HOUR}::bigint, null, '{}', ${T0}::bigint
    from observation_machines om cross join generate_series(0, 23) h`.execute(db);
  await sql`commit`.execute(db);
  await sql`vacuum analyze`.execute(db);

  let n = 1;
  for (let i = 0; i < 5; i++) await batch(db, n++);
  const times = new Map(VARIANTS.map((v) => [v, { batch: [] as number[], worker: [] as number[] }]));
  const loads: string[] = [];
  for (let r = 0; r < ROUNDS; r++) {
    const v = VARIANTS[r % VARIANTS.length]!;
    await variant(db, v);
    for (let i = 0; i < 3; i++) await batch(db, n++);
    for (let i = 0; i < BATCHES; i++) {
      times.get(v)!.batch.push(await batch(db, n));
      times.get(v)!.worker.push(await worker(db, n++));
    }
    loads.push(`${v}: ${load()}`);
  }
  console.log(
    `live-generation-facts-pg: ${MACHINES} machines, ${ROUNDS} rounds of ${BATCHES} batches (${VARIANTS.join('/')} in turn), ` +
      `load averages ${loads.join(' | ')}`,
  );
  const base = times.get(VARIANTS[0]!)!;
  for (const [v, t] of times)
    console.log(
      `  ${v.padEnd(5)} batch p50 ${pct(t.batch, 50).toFixed(2)} ms (${(pct(t.batch, 50) / pct(base.batch, 50)).toFixed(2)}×), ` +
        `p90 ${pct(t.batch, 90).toFixed(2)} ms; the worker's ${MARKS} marks p50 ${pct(t.worker, 50).toFixed(2)} ms ` +
        `(${(pct(t.worker, 50) / pct(base.worker, 50)).toFixed(2)}×)`,
    );
  // Statement by statement: server time, EXPLAIN ANALYZE, 10 batches a variant.
  const plans = new Map<Variant, Awaited<ReturnType<typeof explained>>>();
  for (const v of VARIANTS) {
    await variant(db, v);
    for (let i = 0; i < 3; i++) await batch(db, n++);
    plans.set(v, await explained(db, n, 10));
    n += 10;
  }
  console.log(
    `  a batch's statements, server time p50 ms (of which the live generation triggers), load ${load()}:`,
  );
  for (const label of plans.get(VARIANTS[0]!)!.keys())
    console.log(
      `    ${label.padEnd(28)} ` +
        VARIANTS.map((v) => {
          const p = plans.get(v)!.get(label);
          return `${v} ${p ? `${pct(p.exec, 50).toFixed(2)} (${pct(p.trig, 50).toFixed(2)})` : '-'}`;
        }).join(', '),
    );
  for (const v of VARIANTS) {
    let exec = 0;
    let trig = 0;
    for (const p of plans.get(v)!.values()) {
      exec += pct(p.exec, 50);
      trig += pct(p.trig, 50);
    }
    console.log(`    ${v.padEnd(5)} sum ${exec.toFixed(2)} ms (triggers ${trig.toFixed(2)} ms)`);
  }
} finally {
  await database.close();
  await withAdmin((c) => c.query(`drop database if exists ${name} with (force)`));
}
process.exit(0);
