import { spawn } from 'node:child_process';
import { closeSync, existsSync, openSync, readSync, renameSync, rmSync, statSync } from 'node:fs';
import SQLite from 'better-sqlite3';
import pg from 'pg';
import type { DialectName } from './connect';
import { isPostgresUrl, sqliteFilePath } from './connect';

// Backup and restore of a whole Takt database (`npm run backup` / `npm run restore`, decision 0966).
// SQLite: SQLite's online backup API (better-sqlite3's db.backup), so a running product can be backed up: the
// copy is one read transaction, a consistent snapshot that does not hold up the product's writes (WAL).
// PostgreSQL: pg_dump in its custom format, restored with pg_restore in one transaction.
// Restore refuses a target that holds any table unless forced: it never mixes a backup into live data.

/** A failure to report as it is: its message says what went wrong and what to do. */
export class BackupError extends Error {}

const SQLITE_MAGIC = 'SQLite format 3\0';
const PG_DUMP_MAGIC = 'PGDMP';
/** Kysely's migration table: every Takt database has it, so a backup without it is something else. */
const MIGRATION_TABLE = 'kysely_migration';
/** Pages copied per backup step: all of them, in one read transaction (a consistent snapshot). */
const ALL_PAGES = 2 ** 31 - 1;

/** The URL with its password left out, for messages. */
export function redactUrl(url: string): string {
  if (!isPostgresUrl(url)) return url;
  const u = new URL(url);
  if (u.password) u.password = '***';
  return u.toString();
}

function fileKind(file: string): 'sqlite' | 'postgres' | 'unknown' {
  const fd = openSync(file, 'r');
  try {
    const head = Buffer.alloc(16);
    const n = readSync(fd, head, 0, 16, 0);
    const text = head.subarray(0, n).toString('latin1');
    if (text === SQLITE_MAGIC) return 'sqlite';
    if (text.startsWith(PG_DUMP_MAGIC)) return 'postgres';
    return 'unknown';
  } finally {
    closeSync(fd);
  }
}

/** Writes to `<file>.partial` and renames it to `file` only when complete: a failed backup leaves no file. */
async function intoFile(file: string, write: (partial: string) => Promise<void>): Promise<number> {
  const partial = `${file}.partial`;
  rmSync(partial, { force: true });
  try {
    await write(partial);
    renameSync(partial, file);
  } finally {
    rmSync(partial, { force: true });
  }
  return statSync(file).size;
}

/** Runs a PostgreSQL client program; rejects with its error output. The password goes by environment. */
function runPgTool(program: string, url: string, args: readonly string[]): Promise<void> {
  const u = new URL(url);
  const env = { ...process.env };
  if (u.password) {
    env.PGPASSWORD = decodeURIComponent(u.password);
    u.password = '';
  }
  return new Promise((resolve, reject) => {
    const child = spawn(program, [...args, `--dbname=${u.toString()}`], {
      env,
      stdio: ['ignore', 'ignore', 'pipe'],
    });
    let stderr = '';
    child.stderr.setEncoding('utf8');
    child.stderr.on('data', (d: string) => (stderr += d));
    child.on('error', (err: NodeJS.ErrnoException) =>
      reject(
        new BackupError(
          err.code === 'ENOENT'
            ? `${program} was not found: install the PostgreSQL client programs of the server's version (Debian: postgresql-client)`
            : `${program} could not start: ${err.message}`,
        ),
      ),
    );
    child.on('close', (code) => {
      if (code === 0) resolve();
      else reject(new BackupError(`${program} failed (exit ${code}): ${stderr.trim() || 'no message'}`));
    });
  });
}

async function withPg<T>(url: string, work: (c: pg.Client) => Promise<T>): Promise<T> {
  const c = new pg.Client({ connectionString: url });
  try {
    await c.connect();
  } catch (err) {
    throw new BackupError(`cannot connect to ${redactUrl(url)}: ${(err as Error).message}`);
  }
  try {
    return await work(c);
  } finally {
    await c.end();
  }
}

/** Tables of the target database (0: empty, a restore may go in). */
async function tableCount(url: string): Promise<number> {
  if (isPostgresUrl(url))
    return withPg(url, async (c) => {
      const r = await c.query<{ n: string }>(
        `select count(*) as n from information_schema.tables
          where table_schema not in ('pg_catalog', 'information_schema')`,
      );
      return Number(r.rows[0]?.n ?? 0);
    });
  const path = sqliteFilePath(url);
  if (!existsSync(path) || statSync(path).size === 0) return 0;
  const db = new SQLite(path, { readonly: true, fileMustExist: true });
  try {
    const row = db
      .prepare("select count(*) as n from sqlite_master where type = 'table' and name not like 'sqlite_%'")
      .get() as { n: number };
    return row.n;
  } finally {
    db.close();
  }
}

export interface BackupResult {
  dialect: DialectName;
  bytes: number;
}

/** Backs up the database at `url` (DATABASE_URL) into `file`, while the product may be running on it. */
export async function backupDatabase(url: string, file: string): Promise<BackupResult> {
  if (isPostgresUrl(url)) {
    // Fails early with a clear message when the server does not answer.
    await withPg(url, async () => {});
    const bytes = await intoFile(file, (partial) =>
      runPgTool('pg_dump', url, ['--format=custom', `--file=${partial}`]),
    );
    return { dialect: 'postgres', bytes };
  }
  const path = sqliteFilePath(url);
  if (!existsSync(path)) throw new BackupError(`there is no SQLite database at ${path}`);
  const bytes = await intoFile(file, async (partial) => {
    const source = new SQLite(path, { fileMustExist: true });
    try {
      source.pragma('busy_timeout = 5000');
      await source.backup(partial, { progress: () => ALL_PAGES });
    } finally {
      source.close();
    }
    // One self-contained file (no -wal beside it), checked before it counts as a backup.
    const copy = new SQLite(partial);
    try {
      copy.pragma('journal_mode = DELETE');
      const check = copy.pragma('quick_check', { simple: true });
      if (check !== 'ok') throw new BackupError(`the backup failed its check: ${String(check)}`);
    } finally {
      copy.close();
    }
  });
  return { dialect: 'sqlite', bytes };
}

/**
 * Restores `file` (a backup of the same kind of database) into the database at `url`. Refuses a target that
 * has any table, unless `force`: then the backup replaces what is there.
 */
export async function restoreDatabase(
  url: string,
  file: string,
  options: { force?: boolean } = {},
): Promise<{ dialect: DialectName }> {
  if (!existsSync(file)) throw new BackupError(`there is no backup file ${file}`);
  const dialect: DialectName = isPostgresUrl(url) ? 'postgres' : 'sqlite';
  const kind = fileKind(file);
  if (kind === 'unknown')
    throw new BackupError(
      `${file} is not a Takt backup (neither a SQLite database nor a pg_dump custom-format file)`,
    );
  if (kind !== dialect)
    throw new BackupError(
      kind === 'postgres'
        ? `${file} is a PostgreSQL backup (pg_dump): restore it with DATABASE_URL set to a postgres://… database`
        : `${file} is a SQLite backup: restore it with DATABASE_URL set to a SQLite file`,
    );
  const tables = await tableCount(url);
  if (tables > 0 && !options.force)
    throw new BackupError(
      `the database at ${redactUrl(url)} is not empty (${tables} tables): restore refuses to overwrite it; ` +
        'restore into a new database, or pass --force to replace its contents with the backup',
    );

  if (dialect === 'postgres') {
    await runPgTool('pg_restore', url, [
      '--no-owner',
      '--no-privileges',
      '--exit-on-error',
      '--single-transaction',
      ...(tables > 0 ? ['--clean', '--if-exists'] : []),
      file,
    ]);
    return { dialect };
  }

  const backup = new SQLite(file, { readonly: true, fileMustExist: true });
  try {
    const takt = backup
      .prepare("select 1 from sqlite_master where type = 'table' and name = ?")
      .get(MIGRATION_TABLE);
    if (!takt)
      throw new BackupError(`${file} is a SQLite database but not a Takt backup (it has no migrations)`);
    // The backup API copies every page into the target under SQLite's own locks (the reverse of a backup).
    await backup.backup(sqliteFilePath(url), { progress: () => ALL_PAGES });
  } finally {
    backup.close();
  }
  return { dialect };
}
