// Benchmark (issue 30 point 3, decision 1130): bytes on disk per stored raw observation. Replays the shared SHDR
// logs (/work/shared/data/mtconnect, through the replay command's function) into a fresh SQLite file and a fresh
// PostgreSQL database, then prints, per dialect, the bytes of the compact observation rows with their index and
// dictionaries (SQLite: dbstat pages; PostgreSQL: pg_total_relation_size over the partitions), per observation,
// against the same rows in the old layout (text company, machine and key on every row, with its (machine_id, ts)
// index) built in the same database in the same run, and the ratio to the SHDR text the observations came from.
// `npx tsx bench/storage.ts`. Prints figures, asserts nothing.
import { readFileSync, statSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { sql } from 'kysely';
import type { Kysely } from 'kysely';
import type { Database, DialectName } from '@takt/db';
import { packObservations } from '@takt/db';
import { freshDb } from '@takt/db/testing';
import { runReplay } from '../services/ingest/src/replay/replay-cli';

const LOGS = ['cppagent_demo_okuma.shdr.txt', 'nist_2-1-2017-Hurco04-Clean.shdr.txt'].map((f) =>
  fileURLToPath(new URL(`../../shared/data/mtconnect/${f}`, import.meta.url)),
);
const RECEIVED_AT = Date.UTC(2024, 0, 1);

/** The old layout (migration 0001), filled from the view in the same database: the baseline. */
async function buildBaseline(db: Kysely<Database>) {
  await sql`create table observations_baseline (company_id text not null, machine_id text not null,
    ts bigint not null, key text not null, value text)`.execute(db);
  await sql`insert into observations_baseline select company_id, machine_id, ts, key, value from observations
    order by machine_id, ts`.execute(db);
  await sql`create index observations_baseline_machine_ts on observations_baseline (machine_id, ts)`.execute(
    db,
  );
}

async function sqliteBytes(db: Kysely<Database>, names: string[]): Promise<number> {
  const r = await sql<{ bytes: number }>`select coalesce(sum(pgsize), 0) as bytes from dbstat
    where name in (${sql.join(names)})`.execute(db);
  return Number(r.rows[0]?.bytes ?? 0);
}

async function sqliteTableBytes(db: Kysely<Database>, table: string): Promise<number> {
  const r = await sql<{ name: string }>`select name from sqlite_master where tbl_name = ${table}`.execute(db);
  return sqliteBytes(
    db,
    r.rows.map((x) => x.name),
  );
}

async function pgBytes(db: Kysely<Database>, table: string): Promise<number> {
  const r = await sql<{ bytes: string }>`select coalesce(sum(pg_total_relation_size(relid)), 0) as bytes
    from pg_partition_tree(${table}::regclass)`.execute(db);
  return Number(r.rows[0]?.bytes ?? 0);
}

async function measure(dialect: DialectName) {
  const t = await freshDb(dialect);
  try {
    let shdrBytes = 0;
    for (const file of LOGS) {
      shdrBytes += statSync(file).size;
      readFileSync(file); // warm the page cache so both dialects read the same
      await runReplay(t.db, { file, speed: 'max', cycles: 'part_count', json: true }, () => RECEIVED_AT);
    }
    const count = Number(
      (
        await t.db
          .selectFrom('observation_rows')
          .select((eb) => eb.fn.countAll<number>().as('n'))
          .executeTakeFirst()
      )?.n ?? 0,
    );
    await buildBaseline(t.db);
    let compact: number;
    let baseline: number;
    let rowsOnly: number | null = null;
    if (dialect === 'sqlite') {
      await sql`analyze`.execute(t.db);
      compact =
        (await sqliteTableBytes(t.db, 'observation_rows')) +
        (await sqliteTableBytes(t.db, 'observation_machines')) +
        (await sqliteTableBytes(t.db, 'observation_keys'));
      baseline = await sqliteTableBytes(t.db, 'observations_baseline');
    } else {
      await sql`vacuum analyze`.execute(t.db);
      const dictionaries =
        (await pgBytes(t.db, 'observation_machines')) + (await pgBytes(t.db, 'observation_keys'));
      rowsOnly = (await pgBytes(t.db, 'observation_rows')) + dictionaries;
      // Every row packed (decision 1184), as the packer leaves all but the last minutes, then the rows' space
      // returned (VACUUM FULL: the day partitions keep only what is younger than the packer's age).
      await packObservations(t.db, Date.now(), 0);
      await sql`vacuum full observation_rows`.execute(t.db);
      await sql`vacuum analyze`.execute(t.db);
      compact =
        (await pgBytes(t.db, 'observation_rows')) + (await pgBytes(t.db, 'observation_packs')) + dictionaries;
      const b = await sql<{
        bytes: string;
      }>`select pg_total_relation_size('observations_baseline') as bytes`.execute(t.db);
      baseline = Number(b.rows[0]?.bytes ?? 0);
    }
    return { dialect, count, shdrBytes, compact, baseline, rowsOnly };
  } finally {
    await t.cleanup();
  }
}

const fmt = (n: number, d = 1) => n.toLocaleString('en-US', { maximumFractionDigits: d });

console.log('raw observation storage, the shared SHDR logs replayed (decision 1130)');
console.log(
  '| dialect | observations | SHDR bytes/obs | compact bytes/obs | old layout bytes/obs | compact/old | compact/SHDR | unpacked rows bytes/obs |',
);
console.log('|---|---|---|---|---|---|---|---|');
for (const dialect of ['sqlite', 'postgres'] as const) {
  const m = await measure(dialect);
  const per = (b: number) => b / m.count;
  console.log(
    `| ${m.dialect} | ${fmt(m.count, 0)} | ${fmt(per(m.shdrBytes))} | ${fmt(per(m.compact))} | ${fmt(per(m.baseline))} | ${fmt(m.compact / m.baseline, 2)} | ${fmt(m.compact / m.shdrBytes, 2)} | ${m.rowsOnly == null ? '-' : fmt(per(m.rowsOnly))} |`,
  );
}
process.exit(0);
