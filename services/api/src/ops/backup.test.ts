import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { OeeByMachineResponse } from '@takt/domain';
import { backupDatabase, insertObservations, openDb, restoreDatabase } from '@takt/db';
import { DIALECTS, emptyDatabase } from '@takt/db/testing';
import type { ApiHarness } from '../testing/app';
import { apiHarness, apiHarnessOn } from '../testing/app';
import { aMachine, aUser } from '../testing/builders';
import { MIN, someStates } from '../testing/downtime-builders';
import { aJobWithRun, aReportTenant, someCycles } from '../testing/report-plant';
import { runBackupCli } from './backup-cli';

// npm run backup / npm run restore (decision 0966): a plant's report figures read the same on a fresh
// database restored from a backup as on the original. Both dialects; no fixed port (app.request).

const HOUR = 60 * MIN;
const START = Date.UTC(2025, 10, 3, 6); // Monday 00:00 in America/Chicago
const END = START + 24 * HOUR;
const NOW = END + 2 * HOUR;

describe.each(DIALECTS)('backup and restore on %s', (dialect) => {
  let h: ApiHarness;
  let dir: string;
  const cleanups: Array<() => Promise<void>> = [];
  beforeEach(async () => {
    h = await apiHarness(dialect, NOW);
    dir = mkdtempSync(join(tmpdir(), 'takt-backup-'));
  });
  afterEach(async () => {
    for (const c of cleanups.splice(0).reverse()) await c();
    await h.close();
    rmSync(dir, { recursive: true, force: true });
  });

  /** A company with two machines, a day of states, a job with cycles, observations and its rollups. */
  async function plant() {
    const { company, scope, recompute } = await aReportTenant(h, [['Day', 360, 840]]);
    const user = await aUser(h.t.db, company, { role: 'admin' });
    const lathe = await aMachine(h.t.db, company, { name: 'Lathe', sortOrder: 1 });
    const mill = await aMachine(h.t.db, company, { name: 'Mill', sortOrder: 2 });
    await someStates(h.t.db, company, lathe, [
      [START, START + 7 * HOUR, 'INACTIVE'],
      [START + 7 * HOUR, START + 11 * HOUR, 'ACTIVE'],
      [START + 11 * HOUR, START + 12 * HOUR, 'FAULT'],
      [START + 12 * HOUR, END, 'INACTIVE'],
    ]);
    await someStates(h.t.db, company, mill, [
      [START, START + 6 * HOUR, 'INACTIVE'],
      [START + 6 * HOUR, START + 14 * HOUR, 'ACTIVE'],
      [START + 14 * HOUR, END, 'INACTIVE'],
    ]);
    await aJobWithRun(scope, {
      machineId: lathe,
      name: 'Flange',
      expected: 10 * MIN,
      ideal: 8 * MIN,
      jobCreatedAt: START,
      start: START + 7 * HOUR,
      end: START + 11 * HOUR,
    });
    await someCycles(
      scope,
      lathe,
      Array.from({ length: 24 }, (_, i) => ({
        start: START + 7 * HOUR + i * 10 * MIN,
        end: START + 7 * HOUR + (i + 1) * 10 * MIN,
      })),
    );
    await h.t.db.transaction().execute((trx) =>
      insertObservations(
        trx,
        Array.from({ length: 300 }, (_, i) => ({
          company_id: company.id,
          machine_id: i % 2 ? lathe : mill,
          ts: START + i * MIN,
          key: i % 3 ? 'execution' : 'message',
          value: i % 3 ? 'ACTIVE' : `tab\there ${i}`,
        })),
      ),
    );
    await recompute([lathe, mill], { from: START, to: END, now: NOW });
    return { user, lathe, mill };
  }

  /** The report figures of the harness's database, read through the app as the office app reads them. */
  async function figures(api: ApiHarness, user: { email: string; password: string }) {
    const cookie = await api.login(user.email, user.password);
    const oee = await api.send('POST', '/api/oee/bymachine', cookie, { start: START, end: END });
    expect(oee.status, await oee.clone().text()).toBe(200);
    const utilization = await api.get(`/api/reports/utilization?start=${START}&end=${END}`, cookie);
    expect(utilization.status, await utilization.clone().text()).toBe(200);
    const observations = await api.t.db
      .selectFrom('observations')
      .select(['machine_id', 'ts', 'key', 'value'])
      .orderBy('ts')
      .execute();
    return {
      oee: (await oee.json()) as OeeByMachineResponse,
      utilization: (await utilization.json()) as { machines: Array<{ machineId: string; inCycle: number }> },
      observations,
    };
  }

  /** An app on the database at `url`, closed after the test (or before, by the test: close() runs once). */
  function appOn(url: string): ApiHarness {
    const db = openDb(url, { poolSize: 2 });
    let closed: Promise<void> | undefined;
    const api = apiHarnessOn({ ...db, url, cleanup: () => (closed ??= db.close()) }, NOW);
    cleanups.push(() => api.close());
    return api;
  }

  /** An app on a fresh database restored from `file`. */
  async function restored(file: string): Promise<{ api: ApiHarness; url: string }> {
    const target = await emptyDatabase(dialect);
    cleanups.push(target.cleanup);
    await restoreDatabase(target.url, file);
    return { api: appOn(target.url), url: target.url };
  }

  it('restores a backup into a fresh database whose reports read the same figures', async () => {
    const p = await plant();
    const before = await figures(h, p.user);
    // The plant is not empty: the comparison below compares figures, not two empty reports.
    expect(before.oee.machines.map((m) => m.machineId).sort()).toEqual([p.lathe, p.mill].sort());
    expect(before.utilization.machines.find((m) => m.machineId === p.mill)?.inCycle).toBeGreaterThan(0);
    expect(before.observations).toHaveLength(300);

    const file = join(dir, dialect === 'sqlite' ? 'takt.sqlite' : 'takt.dump');
    // Backed up while the app's own connections are open, as on a running product.
    const { bytes } = await backupDatabase(h.t.url, file);
    expect(bytes).toBeGreaterThan(0);

    const { api } = await restored(file);
    expect(await figures(api, p.user)).toEqual(before);
  });

  it('refuses a target that is not empty unless forced, then replaces its contents', async () => {
    const p = await plant();
    const before = await figures(h, p.user);
    const file = join(dir, 'backup');
    await backupDatabase(h.t.url, file);
    const { api, url } = await restored(file);
    // A change after the backup, in the restored database: forcing the restore takes it back out.
    await api.t.db.deleteFrom('observation_rows').execute();

    await expect(restoreDatabase(url, file)).rejects.toThrow(
      /is not empty \(\d+ tables\): restore refuses to overwrite it; restore into a new database, or pass --force/,
    );
    await api.close();
    await restoreDatabase(url, file, { force: true });
    expect(await figures(appOn(url), p.user)).toEqual(before);
  });

  it('answers the commands with a message and an exit code', async () => {
    await plant();
    const lines: string[] = [];
    const out = { log: (l: string) => lines.push(l), error: (l: string) => lines.push(`error: ${l}`) };
    const env = { DATABASE_URL: h.t.url };
    const file = join(dir, 'cli-backup');

    expect(await runBackupCli(['backup', file], env, out)).toBe(0);
    expect(lines.pop()).toMatch(
      /^backed up the (SQLite|PostgreSQL) database .* to .*cli-backup \([\d,]+ bytes\)$/,
    );
    // Restoring onto the database it came from: not empty.
    expect(await runBackupCli(['restore', file], env, out)).toBe(1);
    expect(lines.pop()).toMatch(/^error: restore failed: the database at .* is not empty/);
    expect(await runBackupCli(['restore'], env, out)).toBe(2);
    expect(lines.pop()).toBe('error: usage: npm run restore -- <file> [--force]');
    expect(await runBackupCli(['restore', join(dir, 'missing'), '--force'], env, out)).toBe(1);
    expect(lines.pop()).toBe(`error: restore failed: there is no backup file ${join(dir, 'missing')}`);
    const junk = join(dir, 'junk');
    writeFileSync(junk, 'not a backup');
    expect(await runBackupCli(['restore', junk], env, out)).toBe(1);
    expect(lines.pop()).toMatch(/is not a Takt backup/);
    // A backup of the other kind of database is named as such.
    const other = join(dir, 'other');
    writeFileSync(other, dialect === 'sqlite' ? 'PGDMP\x01\x0e' : 'SQLite format 3\0 and more');
    expect(await runBackupCli(['restore', other], env, out)).toBe(1);
    expect(lines.pop()).toMatch(dialect === 'sqlite' ? /is a PostgreSQL backup/ : /is a SQLite backup/);
  });
});
