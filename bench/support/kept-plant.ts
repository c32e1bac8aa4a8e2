// A year of rollups seeded once and kept between bench runs (BENCH_KEEP=name in bench/report-answer.ts): seeding
// 100 machines × 365 days takes minutes (17–19 at a high load, decision 1217), and old against new reads the same
// database anyway. The database is `name`: a SQLite file in the temporary folder, or a database of that name on the
// test PostgreSQL server. The company is renamed to its marker only once the seeding finished, so a run stopped
// half-way is not taken for a plant; such a database is refused (drop it and run again).
import { existsSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { migrateToLatest, openDb } from '@takt/db';
import type { DialectName } from '@takt/db';
import { loadCalendar } from '@takt/db/rollups';
import { TEST_PG_URL, withAdmin } from '@takt/db/testing';
import type { TestDb } from '@takt/db/testing';
import { getCompany } from '../../services/api/src/repositories/company';
import type { ApiHarness } from '../../services/api/src/testing/app';
import { aUser } from '../../services/api/src/testing/builders';
import { aYearOfRollups, plantEnd } from './year-of-rollups';

/** The kept database `name` (made and migrated when missing), its handle closed by cleanup (never dropped). */
export async function keptDb(dialect: DialectName, name: string): Promise<TestDb> {
  if (!/^takt_[a-z0-9_]+$/.test(name)) throw new Error(`BENCH_KEEP: ${name} is not a takt_… name`);
  let url: string;
  if (dialect === 'sqlite') url = join(tmpdir(), `${name}.db`);
  else {
    const u = new URL(TEST_PG_URL);
    u.pathname = `/${name}`;
    // As freshDb's: seeding need not wait for the WAL flush.
    url = `${u.toString()}?options=${encodeURIComponent('-c synchronous_commit=off')}`;
    await withAdmin(async (c) => {
      const seen = await c.query('SELECT 1 FROM pg_database WHERE datname = $1', [name]);
      if (seen.rowCount === 0) await c.query(`CREATE DATABASE ${name}`);
    });
  }
  const fresh = dialect === 'sqlite' && !existsSync(url);
  // The API's pool as a node opens it (TAKT_DB_POOL_SIZE unset: 10), as the old checkout's handle is (old-api.ts).
  const db = openDb(url, { poolSize: 10 });
  if (fresh || dialect === 'postgres') await migrateToLatest(db.db);
  return { ...db, url, cleanup: () => db.close() };
}

/**
 * aYearOfRollups on a kept database: the plant seeded there before (same machines and days), a new manager logged
 * in, or seeded now and marked. `reused` says which.
 */
export async function keptYearOfRollups(h: ApiHarness, machines: number, days: number, now: number) {
  const db = h.t.db;
  const marker = `bench year ${machines}x${days} at ${now}`;
  const found = await db.selectFrom('companies').select(['id', 'name']).execute();
  const mine = found.find((c) => c.name === marker);
  if (!mine) {
    if (found.length > 0)
      throw new Error(`BENCH_KEEP: ${h.t.url} holds another or an unfinished plant; drop it first`);
    const plant = await aYearOfRollups(h, machines, days, now);
    await db.updateTable('companies').set({ name: marker }).where('id', '=', plant.company.id).execute();
    return { ...plant, reused: false };
  }
  const company = (await getCompany(db, mine.id))!;
  const user = await aUser(db, company, { role: 'manager' });
  const cookie = await h.login(user.email, user.password);
  const calendar = await loadCalendar(db, company.id);
  const end = plantEnd(calendar, days);
  const ids = (
    await db
      .selectFrom('machines')
      .select('id')
      .where('company_id', '=', company.id)
      .orderBy('sort_order')
      .execute()
  ).map((r) => r.id);
  return { company, user, cookie, calendar, ids, end, hourlyRows: 0, seedMs: 0, reused: true };
}
