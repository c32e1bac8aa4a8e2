import { mkdirSync } from 'node:fs';
import { dirname, resolve } from 'node:path';
import SQLite from 'better-sqlite3';
import { Kysely, Migrator, PostgresDialect, SqliteDialect } from 'kysely';
import type { SqliteDatabase } from 'kysely';
import pg from 'pg';
import { migrations } from './migrations/index';
import { CopyClient } from './copy';
import { WAL_BOUND_BYTES } from './wal-checkpointer';

/** ARCHITECTURE.md conventions: without DATABASE_URL, a SQLite file under ./data. */
export const DEFAULT_DATABASE_URL = './data/takt.db';
import type { Database } from './schema';

export type DialectName = 'sqlite' | 'postgres';

export interface Db {
  db: Kysely<Database>;
  dialect: DialectName;
  close(): Promise<void>;
}

// pg returns BIGINT (oid 20) as strings; every epoch-ms column is BIGINT, so parse once, here.
// Epoch ms and counters fit easily in a double.
pg.types.setTypeParser(20, (v) => Number(v));
// NUMERIC (oid 1700) likewise, for aggregates such as SUM over BIGINT.
pg.types.setTypeParser(1700, (v) => Number(v));

/** Prepared statements kept per SQLite connection (see withStatementCache). */
const STATEMENT_CACHE_SIZE = 200;

/**
 * The better-sqlite3 handle with the last STATEMENT_CACHE_SIZE prepared statements kept by SQL text. Kysely's
 * SQLite driver prepares every query anew, and for ingest's 1000-row INSERT preparing costs about as much
 * as running it. A statement still being iterated (a streamed query) is not handed out
 * twice: a busy one is prepared afresh.
 *
 * Every transaction begins IMMEDIATE (decision 1226): a node's ingest thread and its API each have a connection to
 * the file. A deferred `begin` takes the write lock only at its first write; when the other connection committed
 * after this transaction's first read, that write fails at once with SQLITE_BUSY_SNAPSHOT, which busy_timeout
 * does not retry. An immediate one waits (busy_timeout) for the lock at its begin, before it reads anything.
 */
function withStatementCache(sqlite: SQLite.Database): SqliteDatabase {
  const cache = new Map<string, SQLite.Statement>();
  return {
    close: () => sqlite.close(),
    prepare(text) {
      // Kysely's SqliteDriver (and the ingest's batch writer) begin with the bare word.
      const sql = /^begin$/i.test(text) ? 'begin immediate' : text;
      const kept = cache.get(sql);
      if (kept?.busy) return sqlite.prepare(sql);
      // Mutates the cache: most recently used last, so the first key is the one to drop.
      if (kept) cache.delete(sql);
      const statement = kept ?? sqlite.prepare(sql);
      cache.set(sql, statement);
      if (cache.size > STATEMENT_CACHE_SIZE) cache.delete(cache.keys().next().value as string);
      return statement;
    },
  };
}

/**
 * Decision 1245: the node's PostgreSQL sessions run without JIT compilation and without parallel workers. Both pay
 * off for long analytic scans on many cores; a report's statements take milliseconds to tens of them and run
 * twenty at once beside the ingest, where a JIT compile (tens to hundreds of ms) or starting two workers for a
 * 3 ms scan costs more than it saves. Statements prepared on their connection (decision 1244) are planned for
 * their values every run (`plan_cache_mode`), as unnamed ones are: a generic plan cannot see a range's width.
 * TAKT_PG_OPTIONS replaces them (libpq's `options`; empty: the server's own).
 */
export const PG_SESSION_OPTIONS =
  '-c jit=off -c max_parallel_workers_per_gather=0 -c plan_cache_mode=force_custom_plan';

export function isPostgresUrl(url: string): boolean {
  return /^postgres(ql)?:\/\//i.test(url);
}

/** The SQLite file a non-PostgreSQL DATABASE_URL names (an optional `file:` or `sqlite:` prefix stripped). */
export const sqliteFilePath = (url: string): string => url.replace(/^(file|sqlite):(\/\/)?/i, '');

/**
 * Open the database named by DATABASE_URL: postgres://… uses pg; anything else is a SQLite file path
 * (an optional `file:` or `sqlite:` prefix is stripped) opened with better-sqlite3 in WAL mode.
 */
export function openDb(
  url: string,
  options: {
    poolSize?: number;
    /**
     * SQLite: who checkpoints the WAL. 'sqlite' (the default, for tests and CLIs): SQLite itself, inside the commit
     * that passes 1,000 pages. 'external': never this connection (wal_autocheckpoint 0); the node's checkpointer
     * thread does it (wal-checkpointer.ts, decision 1229), and a WAL that restarts is cut back to its bound.
     */
    walCheckpoints?: 'sqlite' | 'external';
    /** SQLite: pages read in place from the OS's file cache up to this many bytes of the file (0, the default: none). */
    mmapBytes?: number;
  } = {},
): Db {
  if (isPostgresUrl(url)) {
    // CopyClient: observations are loaded with COPY (copy.ts).
    const sessionOptions = process.env.TAKT_PG_OPTIONS ?? PG_SESSION_OPTIONS;
    const pool = new pg.Pool({
      connectionString: url,
      max: options.poolSize ?? 10,
      Client: CopyClient,
      ...(sessionOptions.trim() === '' ? {} : { options: sessionOptions }),
    });
    // An idle client losing its server must not crash the process; the next query reconnects.
    pool.on('error', (err) => console.error('[db] idle PostgreSQL client error:', err.message));
    const db = new Kysely<Database>({ dialect: new PostgresDialect({ pool }) });
    return { db, dialect: 'postgres', close: () => db.destroy() };
  }
  const path = sqliteFilePath(url);
  if (path !== ':memory:') mkdirSync(dirname(resolve(path)), { recursive: true });
  const sqlite = new SQLite(path);
  sqlite.pragma('journal_mode = WAL');
  sqlite.pragma('synchronous = NORMAL');
  sqlite.pragma('foreign_keys = ON');
  sqlite.pragma('busy_timeout = 5000');
  if (options.mmapBytes) sqlite.pragma(`mmap_size = ${options.mmapBytes}`);
  if (options.walCheckpoints === 'external') {
    sqlite.pragma('wal_autocheckpoint = 0');
    sqlite.pragma(`journal_size_limit = ${WAL_BOUND_BYTES}`);
  }
  const db = new Kysely<Database>({ dialect: new SqliteDialect({ database: withStatementCache(sqlite) }) });
  // Kysely closes the file only if it ever ran a query; a database opened and never used is closed here.
  const close = async () => {
    await db.destroy();
    if (sqlite.open) sqlite.close();
  };
  return { db, dialect: 'sqlite', close };
}

/**
 * Apply every pending migration; throws with the failing migration's name. On PostgreSQL, `schema` names
 * where Kysely keeps its migration tables (it otherwise finds them in any schema of the database).
 */
export async function migrateToLatest(db: Kysely<Database>, schema?: string): Promise<string[]> {
  const migrator = new Migrator({
    db,
    provider: { getMigrations: async () => migrations },
    ...(schema ? { migrationTableSchema: schema } : {}),
  });
  const { error, results } = await migrator.migrateToLatest();
  const failed = results?.find((r) => r.status === 'Error');
  if (error || failed) {
    const name = failed?.migrationName ?? 'unknown';
    throw new Error(`Migration ${name} failed: ${error instanceof Error ? error.message : String(error)}`);
  }
  return (results ?? []).filter((r) => r.status === 'Success').map((r) => r.migrationName);
}

/**
 * The migrations this build knows that the database has not applied (readiness: a node whose schema is behind
 * its code must not take traffic). Reads Kysely's migration table only; changes nothing.
 */
export async function pendingMigrations(db: Kysely<Database>, schema?: string): Promise<string[]> {
  const migrator = new Migrator({
    db,
    provider: { getMigrations: async () => migrations },
    ...(schema ? { migrationTableSchema: schema } : {}),
  });
  const all = await migrator.getMigrations();
  return all.filter((m) => m.executedAt === undefined).map((m) => m.name);
}
