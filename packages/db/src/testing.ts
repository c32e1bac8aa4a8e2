import { copyFileSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createHash } from 'node:crypto';
import pg from 'pg';
import { Migrator, sql } from 'kysely';
import type { Kysely } from 'kysely';
import type { Database } from './schema';
import { migrations } from './migrations/index';
import type { Db, DialectName } from './connect';
import { migrateToLatest, openDb } from './connect';
import type { TemplateFacts } from './testing-pool';
import { SERIES_COLUMNS } from '@takt/domain';
import type { CompanyScope } from './scope';
import { encodePack, PACK_SPAN_MS, storedWeekPacks } from './rollups/week-packs';
import { loadReasons } from './rollups/week-reasons';
import type { MachineReasons } from './rollups/week-reasons';
import { readWeeks } from './rollups/week-rows';
import type { MachineWeeks } from './rollups/week-rows';
import { dropAbandonedDatabases, pooledName, readTemplateFacts, resetDatabase } from './testing-pool';

/** Every database test runs on both dialects (STYLE.md "Same suite on every dialect"). */
export const DIALECTS: readonly DialectName[] = ['sqlite', 'postgres'];

/** The PostgreSQL server the tests use; scripts/test.mjs makes sure one answers here. */
export const TEST_PG_URL = process.env.TAKT_TEST_PG_URL ?? 'postgres://root@127.0.0.1:5432/test';

/** The test server's URL with another database name. */
function urlFor(database: string): string {
  const u = new URL(TEST_PG_URL);
  u.pathname = `/${database}`;
  return u.toString();
}

/** `work` on a client of the test server's admin database. */
export async function withAdmin<T>(work: (c: pg.Client) => Promise<T>): Promise<T> {
  const c = new pg.Client({ connectionString: TEST_PG_URL });
  await c.connect();
  try {
    return await work(c);
  } finally {
    await c.end();
  }
}

let templateReady: Promise<string> | undefined;

/**
 * One migrated template database per set of migrations (named by their hash), made once and shared by every
 * test worker; an advisory lock keeps two workers from building it at the same time.
 */
function ensureTemplate(): Promise<string> {
  templateReady ??= (async () => {
    // The hash covers each migration's code, so an edited migration gets a new template.
    const text = Object.entries(migrations)
      .map(([n, m]) => `${n}:${m.up.toString()}`)
      .join('|');
    const hash = createHash('sha256').update(text).digest('hex').slice(0, 12);
    const name = `takt_tpl_${hash}`;
    await withAdmin(async (c) => {
      await c.query('SELECT pg_advisory_lock(4242)');
      try {
        const exists = await c.query('SELECT 1 FROM pg_database WHERE datname = $1', [name]);
        if (exists.rowCount === 0) {
          const building = `${name}_build`;
          await c.query(`DROP DATABASE IF EXISTS ${building} WITH (FORCE)`);
          await c.query(`CREATE DATABASE ${building}`);
          const db = openDb(urlFor(building), { poolSize: 1 });
          try {
            await migrateToLatest(db.db);
          } finally {
            await db.close();
          }
          // Renamed only when complete, so a crash mid-build never leaves a half-migrated template.
          await c.query(`ALTER DATABASE ${building} RENAME TO ${name}`);
        }
      } finally {
        await c.query('SELECT pg_advisory_unlock(4242)');
      }
    });
    return name;
  })();
  return templateReady;
}

let sqliteTemplateReady: Promise<string> | undefined;

/**
 * One migrated SQLite file per test process, copied for every fresh database: a copy costs a fraction of
 * running the migrations again. Closed before the first copy, so its WAL is checkpointed into the file.
 */
function sqliteTemplate(): Promise<string> {
  sqliteTemplateReady ??= (async () => {
    const dir = mkdtempSync(join(tmpdir(), 'takt-tpl-'));
    const file = join(dir, 'template.db');
    const db = openDb(file);
    try {
      await migrateToLatest(db.db);
    } finally {
      await db.close();
    }
    process.once('exit', () => rmSync(dir, { recursive: true, force: true }));
    return file;
  })();
  return sqliteTemplateReady;
}

export interface TestDb extends Db {
  url: string;
  /** Close and throw the database away. */
  cleanup(): Promise<void>;
}

/**
 * A fresh, migrated database: a new SQLite file in a temporary folder, or a new schema on the test
 * PostgreSQL server (search_path pinned through the connection string, so every pooled client sees it).
 */
export async function freshDb(dialect: DialectName): Promise<TestDb> {
  if (dialect === 'sqlite') {
    const template = await sqliteTemplate();
    const dir = mkdtempSync(join(tmpdir(), 'takt-test-'));
    const url = join(dir, 'takt.db');
    copyFileSync(template, url);
    const db = openDb(url);
    return {
      ...db,
      url,
      cleanup: async () => {
        await db.close();
        rmSync(dir, { recursive: true, force: true });
      },
    };
  }
  // A fresh database copied from a migrated template: isolated catalogs (no test can see another's
  // tables mid-drop) and no migration run per test. Under vitest, one a test is done with is emptied back to
  // the template's rows and handed out again (decision 1135).
  const template = await ensureTemplate();
  const reused = REUSE ? spares.pop() : undefined;
  const name = reused ?? pooledName();
  if (reused === undefined) await withAdmin((c) => c.query(`CREATE DATABASE ${name} TEMPLATE ${template}`));
  // Test data need not survive a crash: commits don't wait for the WAL flush (synchronous_commit off).
  const url = `${urlFor(name)}?options=${encodeURIComponent('-c synchronous_commit=off')}`;
  // Read from the first copy before any test writes to it.
  if (REUSE) factsReady ??= readTemplateFacts(url).catch(() => undefined);
  const facts = REUSE ? await factsReady : undefined;
  const db = openDb(url, { poolSize: 4 });
  return {
    ...db,
    url,
    cleanup: async () => {
      // Kysely opens its pool at the first query and closes only a pool it opened: one query first, so this
      // handle fails from now on (as it did once its database was dropped) instead of reaching the database
      // another test gets next.
      if (facts) await sql`SELECT 1`.execute(db.db).catch(() => undefined);
      await db.close();
      if (facts && (await resetDatabase(url, facts))) spares.push(name);
      else await withAdmin((c) => c.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`));
    },
  };
}

/**
 * Test databases are reused only under vitest, whose set-up drops the spares (decision 1135);
 * TAKT_TEST_DB_REUSE=0 makes a new one for every freshDb, as before.
 */
const REUSE = process.env.VITEST !== undefined && process.env.TAKT_TEST_DB_REUSE !== '0';
/** Emptied databases of this process, ready for the next freshDb('postgres'). */
const spares: string[] = [];
let factsReady: Promise<TemplateFacts | undefined> | undefined;

/** Drops this process's spare databases (after each test file of a group whose files get fresh modules). */
export async function dropSpareDatabases(): Promise<void> {
  for (let name = spares.pop(); name !== undefined; name = spares.pop()) {
    const dropping = name;
    await withAdmin((c) => c.query(`DROP DATABASE IF EXISTS ${dropping} WITH (FORCE)`));
  }
}

/** Drops the spare databases of test processes that have ended (vitest's global set-up and teardown). */
export const dropEndedProcessesDatabases = (): Promise<number> => dropAbandonedDatabases(TEST_PG_URL);

/**
 * A database that does not exist yet or has no tables, to restore a backup into: a file path in a new
 * temporary folder, or a new PostgreSQL database made from template0 (no migrations, no tables).
 */
export async function emptyDatabase(
  dialect: DialectName,
  /** PostgreSQL: the new database's name begins with this (letters, digits and _). */
  prefix = 'takt_e_',
): Promise<{ url: string; cleanup(): Promise<void> }> {
  if (dialect === 'sqlite') {
    const dir = mkdtempSync(join(tmpdir(), 'takt-empty-'));
    return { url: join(dir, 'takt.db'), cleanup: async () => rmSync(dir, { recursive: true, force: true }) };
  }
  if (!/^[a-z_][a-z0-9_]*$/.test(prefix)) throw new Error(`not a database name prefix: ${prefix}`);
  const name = `${prefix}${crypto.randomUUID().replace(/-/g, '').slice(0, 16)}`;
  await withAdmin((c) => c.query(`CREATE DATABASE ${name} TEMPLATE template0`));
  return {
    url: urlFor(name),
    cleanup: () =>
      withAdmin((c) => c.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`)).then(() => undefined),
  };
}

/**
 * Rows with start_at and end_at as numbers (PostgreSQL returns bigint columns as strings), an open end left null:
 * what tests compare stored intervals with.
 */
export const spanTimes = <R extends { start_at: unknown; end_at: unknown }>(
  rows: readonly R[],
): Array<Omit<R, 'start_at' | 'end_at'> & { start_at: number; end_at: number | null }> =>
  rows.map((r) => ({
    ...r,
    start_at: Number(r.start_at),
    end_at: r.end_at == null ? null : Number(r.end_at),
  }));

/** Migrates a test database up or down to the named migration (the migration tests). */
export async function migrateTo(db: Kysely<Database>, name: string): Promise<void> {
  const { error } = await new Migrator({ db, provider: { getMigrations: async () => migrations } }).migrateTo(
    name,
  );
  if (error) throw error instanceof Error ? error : new Error(String(error));
}

/** The name of the migration listed before `name`. */
export const migrationBefore = (name: string): string => {
  const names = Object.keys(migrations);
  return names[names.indexOf(name) - 1]!;
};

/** The number of rows in a table. */
export const rowCount = async (db: Kysely<Database>, table: string): Promise<number> =>
  Number((await sql<{ n: number }>`select count(*) as n from ${sql.table(table)}`.execute(db)).rows[0]!.n);

/** A company row with every column given, as the migration tests insert one (no builder of a later schema). */
export const companyRow = (id: string) => ({
  id,
  name: id,
  timezone: 'UTC',
  locale: 'en-US',
  product_tier: 'full' as const,
  is_demo: 0,
  created_at: 1,
});

/** A machine row of `companyId` with every column given, as the migration tests insert one. */
export const machineRow = (id: string, companyId: string) => ({
  id,
  company_id: companyId,
  name: id,
  workcenter_type: 'machine' as const,
  sort_order: 0,
  downtime_failure_delay: 0,
  autostart_behavior: 'disabled' as const,
  adapter_id: null,
  decommissioned_at: null,
  created_at: 1,
  adapter_reset_at: null,
  utilization_warningpercent: null,
  utilization_failurepercent: null,
  dispatch_key: null,
  exclude_from_benchmarking: null,
  ping_monitor: null,
  make: null,
  model: null,
  payer: null,
});

/**
 * Text that an array literal (PostgreSQL's one-statement inserts, decisions 1165 and 1177) or COPY must quote or
 * escape, and null: what tests store and expect back as it was.
 */
export const AWKWARD_TEXT: ReadonlyArray<string | null> = [
  'NULL',
  'a,b',
  '{x}',
  'quote"d',
  'back\\slash',
  '',
  ' spaced ',
  'Ünïcødé ✓',
  'tab\there',
  'line\nbreak',
  null,
];

/**
 * A company's stored week packs (decision 1235) with the rows of its open weeks read after them (decision 1242), and
 * what they should hold, its week rows and reasons as the week index reads them from rows (readWeeks, loadReasons),
 * each as comparable values by machine: a series' rows with their shift ids and computed_at, each in-shift row's
 * reasons in order (slot numbers are a pack's own).
 */
export async function weekPacksAndRows(scope: CompanyScope): Promise<{ packs: unknown[]; rows: unknown[] }> {
  const contentOf = (weeks: Map<string, MachineWeeks>, reasons: Map<string, MachineReasons>) =>
    [...weeks.keys()].sort().map((id) => {
      const { series: s, computedAt } = weeks.get(id)!;
      const r = reasons.get(id);
      return {
        id,
        rows: Array.from({ length: s.length }, (_, i) => [
          s.shift[i]! < 0 ? null : s.shiftIds[s.shift[i]!],
          ...SERIES_COLUMNS.map((c) => s[c][i]),
          computedAt[i],
        ]),
        reasons: Array.from(r?.start ?? [], (start, i) => [
          start,
          r!.shiftIds[r!.shift[i]!],
          Array.from({ length: r!.from[i + 1]! - r!.from[i]! }, (_, k) => {
            const e = r!.from[i]! + k;
            return [r!.reasonKeys[r!.reason[e]!], r!.planned[e], r!.unplanned[e]];
          }),
        ]),
      };
    });
  const [packs, weeks, reasons] = await Promise.all([
    storedWeekPacks(scope),
    readWeeks(scope, null),
    loadReasons(scope, undefined, undefined),
  ]);
  return { packs: contentOf(packs.weeks, packs.reasons), rows: contentOf(weeks, reasons) };
}

/**
 * Mutates: the company's packs replaced by those migration 0073's writer stored before decision 1242 (version 1: no
 * open bound, every row of each span of a machine's rows packed), for the readers and writers that meet them after
 * the upgrade.
 */
export async function writeVersionOnePacks(scope: CompanyScope): Promise<void> {
  await scope.deleteFrom('rollup_week_packs').execute();
  const weeks = await readWeeks(scope, null);
  for (const [id, w] of weeks) {
    const spans = new Set(Array.from(w.series.start, (t) => Math.floor(t / PACK_SPAN_MS) * PACK_SPAN_MS));
    for (const at of spans) {
      const ranges = [{ start: at, end: at + PACK_SPAN_MS }];
      const [span] = (await readWeeks(scope, [id], ranges)).values();
      const [reasons] = (await loadReasons(scope, [id], undefined, ranges)).values();
      // Version 2's header (32 bytes) as version 1's (20): the counts and names, the columns after them.
      const v2 = encodePack(span!, reasons, 0);
      const length = v2.readUInt32LE(16);
      const head = (n: number) => Math.ceil((n + length) / 8) * 8;
      const pack = Buffer.alloc(head(20) + v2.length - head(32));
      v2.copy(pack, 0, 0, 20);
      pack.writeUInt32LE(1, 0);
      v2.copy(pack, 20, 32, 32 + length);
      v2.copy(pack, head(20), head(32));
      await scope.insertInto('rollup_week_packs', { machine_id: id, span_start: at, pack }).execute();
    }
  }
}
