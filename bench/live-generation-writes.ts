// Benchmark (decision 1206): what the live generation's triggers (migration 0071) add to an ingest batch's writes. On
// a fresh database with `machines` machines of one company, each batch is one transaction of the ingest's own
// statements for every machine: its live row upserted (a new program each batch, so every row is written) and its
// rollup mark moved, as bench/ingest-work.ts's batches do at 1 Hz. Rounds alternate without the triggers (migrated
// down to the migration before 0071) and with them (ABAB…, same database, same process), so the ratio holds whatever
// the load of the moment; the machine's load average is printed beside the figures. Not a test.
//   npx tsx bench/live-generation-writes.ts [machines=1000] [postgres|sqlite|both] [rounds=6] [batches=40]
import { performance } from 'node:perf_hooks';
import { readFileSync } from 'node:fs';
import { CompiledQuery } from 'kysely';
import type { Kysely } from 'kysely';
import { numberedPlaceholders } from '@takt/db';
import type { Database, DialectName, MachineLiveTable } from '@takt/db';
import { markRollupsDirtyStatements } from '@takt/db/rollups';
import { companyRow, freshDb, machineRow, migrateTo, migrationBefore } from '@takt/db/testing';
import { liveStatements } from '../services/ingest/src/worker/live-row';

const MACHINES = Number(process.argv[2] ?? 1000);
const WHICH = process.argv[3] ?? 'both';
const ROUNDS = Number(process.argv[4] ?? 6);
const BATCHES = Number(process.argv[5] ?? 40);
const NAME = '2026-11-30-0071-live-generations';
const BEFORE = migrationBefore(NAME);
const T0 = 1_764_000_000_000;

const load = () => readFileSync('/proc/loadavg', 'utf8').split(' ').slice(0, 3).join(' ');
const pct = (xs: number[], p: number) => {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.min(s.length - 1, Math.floor((p / 100) * s.length))] ?? NaN;
};

const liveRow = (id: string, batch: number): MachineLiveTable => ({
  machine_id: id,
  company_id: 'c1',
  state: 'ACTIVE',
  state_since: T0,
  connection: 'CONNECTED',
  connection_since: T0,
  last_heartbeat: T0 + batch * 1000,
  execution: 'ACTIVE',
  execution_since: T0,
  availability: 'AVAILABLE',
  controller_mode: 'AUTOMATIC',
  program: `O${batch}`,
  part_count: batch,
  spindle_speed: 1000,
  fault_since: null,
  fault_message: null,
  in_setup: 0,
  updated_at: T0 + batch * 1000,
});

const statementsOf = (db: Kysely<Database>, ids: readonly string[], n: number): CompiledQuery[] => {
  const numbered = numberedPlaceholders(db);
  return [
    ...markRollupsDirtyStatements(
      db,
      ids.map((id) => ({ companyId: 'c1', machineId: id, from: T0 + n * 1000, now: T0 + n * 1000 })),
    ),
    ...liveStatements(
      numbered,
      ids.map((id) => liveRow(id, n)),
    ),
  ];
};

async function batch(db: Kysely<Database>, ids: readonly string[], n: number): Promise<number> {
  const statements = statementsOf(db, ids, n);
  const t = performance.now();
  await db.transaction().execute(async (trx) => {
    for (const q of statements) await trx.executeQuery(q);
  });
  return performance.now() - t;
}

async function run(dialect: DialectName) {
  const t = await freshDb(dialect);
  try {
    const db = t.db;
    await db.insertInto('companies').values(companyRow('c1')).execute();
    const ids = Array.from({ length: MACHINES }, (_, i) => `m${i}`);
    for (let i = 0; i < ids.length; i += 200)
      await db
        .insertInto('machines')
        .values(ids.slice(i, i + 200).map((id) => machineRow(id, 'c1')))
        .execute();
    let n = 0;
    for (let i = 0; i < 5; i++) await batch(db, ids, n++); // warm-up: the rows exist, plans cached
    const times: Record<'without' | 'with', number[]> = { without: [], with: [] };
    const loads: string[] = [];
    for (let r = 0; r < ROUNDS; r++) {
      const mode = r % 2 === 0 ? 'without' : 'with';
      await migrateTo(db, mode === 'with' ? NAME : BEFORE);
      for (let i = 0; i < 3; i++) await batch(db, ids, n++); // each round's own warm-up
      for (let i = 0; i < BATCHES; i++) times[mode].push(await batch(db, ids, n++));
      loads.push(load());
    }
    const p = (mode: 'without' | 'with', q: number) => pct(times[mode], q);
    console.log(
      `${dialect}, ${MACHINES} machines, ${ROUNDS} rounds of ${BATCHES} batches (ABAB…), load averages ${loads.join(' | ')}`,
    );
    for (const q of [50, 90]) {
      const a = p('without', q);
      const b = p('with', q);
      console.log(
        `  batch transaction p${q}: without triggers ${a.toFixed(2)} ms, with ${b.toFixed(2)} ms: ${(b / a).toFixed(2)}×`,
      );
    }
    // PostgreSQL: the server's own time in the triggers (EXPLAIN ANALYZE of a batch's statements, triggers on), against
    // the statements' whole execution: the share of a batch's database time they take, whatever the load.
    if (dialect === 'postgres') {
      await migrateTo(db, NAME);
      const share = { trigger: [] as number[], total: [] as number[] };
      for (let i = 0; i < 20; i++)
        await db.transaction().execute(async (trx) => {
          let trigger = 0;
          let total = 0;
          for (const q of statementsOf(db, ids, n++)) {
            const r = await trx.executeQuery<{ 'QUERY PLAN': unknown }>(
              CompiledQuery.raw(`explain (analyze, format json) ${q.sql}`, [...q.parameters]),
            );
            const plan = r.rows[0]!['QUERY PLAN'] as Array<{
              'Execution Time': number;
              Triggers?: Array<{ 'Trigger Name': string; Time: number }>;
            }>;
            total += plan[0]!['Execution Time'];
            for (const t of plan[0]!.Triggers ?? [])
              if (t['Trigger Name'].includes('live_generation')) trigger += t.Time;
          }
          share.trigger.push(trigger);
          share.total.push(total);
        });
      console.log(
        `  server time of a batch's two statements p50 ${pct(share.total, 50).toFixed(2)} ms, of which the live generation triggers p50 ${pct(share.trigger, 50).toFixed(2)} ms (${((100 * pct(share.trigger, 50)) / pct(share.total, 50)).toFixed(1)} %)`,
      );
    }
  } finally {
    await t.cleanup();
  }
}

for (const d of (WHICH === 'both' ? ['postgres', 'sqlite'] : [WHICH]) as DialectName[]) await run(d);
