import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { sql } from 'kysely';
import { companyScope } from '@takt/db';
import { reportDataVersion } from '@takt/db/rollups';
import { DIALECTS } from '@takt/db/testing';
import { lockMachine } from '../repositories/dispatch';
import { apiHarness } from '../testing/app';
import type { ApiHarness } from '../testing/app';
import { aCompany, aGroup, aMachine } from '../testing/builders';
import { aDowntimeReason } from '../testing/downtime-builders';
import { aJob, aJobMachine, anOperator, aSetupStage, aShift } from '../testing/live-builders';

// Decision 1159: the configuration part of the report data version is a generation the database's triggers
// bump in the writer's transaction, for every configuration table, whoever writes it; another company's
// writes leave it alone.

const NOW = Date.UTC(2025, 10, 18);
/** The configuration tables besides companies (migration 0057). */
const CONFIG_TABLES = [
  'shifts',
  'shift_versions',
  'machines',
  'machine_groups',
  'machine_group_members',
  'annotation_types',
  'part_adjustment_types',
  'jobs',
  'setup_stages',
  'machine_group_annotation_types',
  'job_machines',
  'operators',
];

describe.each(DIALECTS)('report data version: configuration generation on %s', (dialect) => {
  let h: ApiHarness;
  beforeEach(async () => {
    h = await apiHarness(dialect, NOW);
  });
  afterEach(async () => {
    await h.close();
  });

  it('every configuration table has its triggers', async () => {
    const names =
      dialect === 'postgres'
        ? (
            await sql<{ name: string }>`select tgname as name from pg_trigger where not tgisinternal`.execute(
              h.t.db,
            )
          ).rows
        : (await sql<{ name: string }>`select name from sqlite_master where type = 'trigger'`.execute(h.t.db))
            .rows;
    const have = new Set(names.map((r) => r.name));
    for (const table of ['companies', ...CONFIG_TABLES]) {
      const expected =
        dialect === 'postgres'
          ? [`${table}_report_config`]
          : ['insert', 'update', 'delete'].map((op) => `${table}_report_config_${op}`);
      for (const name of expected) expect(have, name).toContain(name);
    }
  });

  it("an insert, update or delete of configuration gives a new version; reads and another company's writes do not", async () => {
    const company = await aCompany(h.t.db);
    const other = await aCompany(h.t.db);
    const scope = companyScope(h.t.db, company.id);
    const version = async () => (await reportDataVersion(scope, NOW)).version;
    const seen = new Set<string>([await version()]);
    /** `write` must give a version never seen before. */
    const changes = async (what: string, write: () => Promise<unknown>) => {
      await write();
      const v = await version();
      expect(seen.has(v), what).toBe(false);
      seen.add(v);
    };
    const machine = await aMachine(h.t.db, company, { name: 'Lathe' });
    seen.add(await version());
    await changes('machine renamed', () =>
      scope.updateTable('machines').set({ name: 'Lathe 2' }).where('id', '=', machine).execute(),
    );
    await changes('group', () => aGroup(h.t.db, company));
    await changes('shift and its version', () => aShift(h.t.db, company, { name: 'Day' }));
    await changes('downtime reason', () => aDowntimeReason(h.t.db, company, { name: 'Jam' }));
    await changes('setup stage', () => aSetupStage(h.t.db, company));
    await changes('operator', () => anOperator(h.t.db, company));
    const job = await aJob(h.t.db, company);
    seen.add(await version());
    const jm = await aJobMachine(h.t.db, company, job, machine);
    seen.add(await version());
    await changes('job standard removed', () =>
      scope.deleteFrom('job_machines').where('id', '=', jm).execute(),
    );
    await changes('company settings (manual SQL)', () =>
      sql`update companies set timezone = 'Europe/Berlin' where id = ${company.id}`.execute(h.t.db),
    );
    await changes('a rolled back write leaves no trace, a committed one does', async () => {
      await h.t.db
        .transaction()
        .execute(async (trx) => {
          await companyScope(trx, company.id)
            .updateTable('machines')
            .set({ name: 'never' })
            .where('id', '=', machine)
            .execute();
          throw new Error('rollback');
        })
        .catch(() => undefined);
      expect(await version()).toBe([...seen].at(-1));
      await scope.updateTable('machines').set({ name: 'Lathe 3' }).where('id', '=', machine).execute();
    });

    const before = await version();
    // Another company's configuration, and reading this one's, leave the version as it was.
    await aMachine(h.t.db, other);
    await aDowntimeReason(h.t.db, other, { name: 'Other jam' });
    await scope.selectFrom('machines').selectAll().execute();
    expect(await version()).toBe(before);
    // A no-op update (a tablet's job start takes the machine's row lock this way): PostgreSQL does not count it;
    // SQLite may (it serializes writers anyway), which only gives a new answer.
    await lockMachine(scope, machine);
    if (dialect === 'postgres') expect(await version()).toBe(before);
  });
});
