import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { companyScope, insertObservations } from '@takt/db';
import { DIALECTS } from '@takt/db/testing';
import { createAdapter } from '../repositories/adapters';
import type { Company } from '../repositories/company';
import { createShdrSource } from '../repositories/machine-sources';
import {
  AUTO_DISPATCH_PROBLEMS,
  autoJobDispatchSchema,
  keyStatisticsSchema,
  streamInfoSchema,
  unmappedStatusSchema,
} from '../services/machine-streams';
import { machine17PageSchema, machine17Schema } from '../services/machines17';
import type { ApiHarness } from '../testing/app';
import { apiHarness } from '../testing/app';
import { aGroup, aMachine } from '../testing/builders';
import { aJob, errorOf, loginAs } from '../testing/live-builders';

// The version 17 machine and the data-stream calls (issue 29 point 8, decision 1107): GET /api/machines17,
// query17, get17, streamInfo, keyStatistics, unmappedStatus, autoJobDispatch, on both dialects.

const MIN = 60_000;

describe.each(DIALECTS)('machines17 and the data-stream calls on %s', (dialect) => {
  let h: ApiHarness;
  beforeEach(async () => {
    h = await apiHarness(dialect);
  });
  afterEach(async () => {
    await h.close();
  });

  /** A mill on an SHDR adapter in group Cell that sent a few values, and a decommissioned bench. */
  async function plant(company: Company, cookie: string) {
    const scope = companyScope(h.t.db, company.id);
    const adapterId = await createAdapter(
      scope,
      {
        name: 'Mill adapter',
        fields: [
          { name: 'exec', dataItemType: 'EXECUTION', componentName: 'path', componentType: 'Path' },
          { name: 'prog', dataItemType: 'PROGRAM', componentName: 'path', componentType: 'Path' },
        ],
      },
      1,
    );
    const group = await aGroup(h.t.db, company, 'Cell');
    const mill = await aMachine(h.t.db, company, { name: 'Mill', groupIds: [group], sortOrder: 1 });
    const bench = await aMachine(h.t.db, company, { name: 'Bench', sortOrder: 2 });
    await scope.updateTable('machines').set({ adapter_id: adapterId }).where('id', '=', mill).execute();
    await createShdrSource(scope, { machineId: mill, host: '10.0.0.5', port: 7878 }, 1);
    const now = h.clock.now;
    const rows: Array<[number, string, string]> = [
      [now - 30 * MIN, 'exec', 'READY'],
      [now - 20 * MIN, 'door', 'OPEN'],
      [now - 10 * MIN, 'exec', 'ACTIVE'],
      [now - 5 * MIN, 'prog', 'BRACKET-7'],
    ];
    await insertObservations(
      h.t.db,
      rows.map(([ts, key, value]) => ({ company_id: company.id, machine_id: mill, ts, key, value })),
    );
    const decommissioned = await h.send('PUT', `/api/machines/${bench}/decommission`, cookie, {
      name: 'Bench',
    });
    expect(decommissioned.status).toBe(200);
    return { adapterId, group, mill, bench };
  }

  it('lists every machine with its adapter, binding, groups and sources; get17 answers one of them', async () => {
    const { company, cookie } = await h.tenant();
    const { adapterId, group, mill, bench } = await plant(company, cookie);
    const res = await h.get('/api/machines17', cookie);
    expect(res.status, await res.clone().text()).toBe(200);
    const list = machine17Schema.array().parse(await res.json());
    expect(list.map((m) => m.name)).toEqual(['Mill', 'Bench']);
    const [m, b] = list;
    expect(m).toMatchObject({
      id: mill,
      adapter: { id: adapterId, name: 'Mill adapter', class: 'MTConnect' },
      adapterType: 'MTConnect',
      adapterBinding: '10.0.0.5:7878',
      gateway: null,
      integrationType: 'shdr',
      groups: [{ id: group, name: 'Cell' }],
      notifications: [],
      decommissioned: false,
      jobScheduleGroupId: null,
      version: 2,
    });
    expect(m!.sources).toEqual([
      expect.objectContaining({
        newIntegrationType: 'shdr',
        adapterBinding: '10.0.0.5:7878',
        disabled: false,
      }),
    ]);
    expect(b).toMatchObject({
      id: bench,
      decommissioned: true,
      integrationType: 'none',
      adapter: null,
      sources: [],
    });
    expect(machine17Schema.parse(await (await h.get(`/api/machines17/${mill}`, cookie)).json())).toEqual(m);
  });

  it('pages, sorts and filters query17, and refuses an unknown orderBy and unbounded pages', async () => {
    const { company, cookie } = await h.tenant();
    const { mill, bench } = await plant(company, cookie);
    const page = async (q: string) => {
      const res = await h.get(`/api/machines17/query?${q}`, cookie);
      expect(res.status, await res.clone().text()).toBe(200);
      return machine17PageSchema.parse(await res.json());
    };
    const first = await page('orderBy=name&orderDirection=asc&limit=1');
    expect(first).toMatchObject({ total: 2, limit: 1, offset: 0 });
    expect(first.items.map((m) => m.id)).toEqual([bench]);
    expect((await page('orderBy=name&orderDirection=asc&limit=1&offset=1')).items.map((m) => m.id)).toEqual([
      mill,
    ]);
    expect((await page('orderBy=sortOrder&orderDirection=desc')).items.map((m) => m.id)).toEqual([
      bench,
      mill,
    ]);
    // Decommissioned first ascending would be wrong: a machine in service has no date and goes last.
    expect((await page('orderBy=decommissionedAt')).items.map((m) => m.id)).toEqual([bench, mill]);
    const cell = await page('filter=CELL');
    expect(cell.items.map((m) => m.id)).toEqual([mill]);
    expect(cell.total).toBe(1);
    expect((await page('filter=mill%20adapter')).items.map((m) => m.id)).toEqual([mill]);
    const badSort = await h.get('/api/machines17/query?orderBy=payer', cookie);
    expect(badSort.status).toBe(400);
    expect((await errorOf(badSort)).message).toContain('orderBy must be one of sortOrder, name');
    for (const q of ['limit=0', 'limit=101', 'offset=-1', 'orderDirection=up'])
      expect((await h.get(`/api/machines17/query?${q}`, cookie)).status, q).toBe(400);
  });

  it('tells what the data stream carries: sources, counters, each key’s statistics and the unmapped keys', async () => {
    const { company, cookie } = await h.tenant();
    const { mill } = await plant(company, cookie);
    const stats = keyStatisticsSchema.parse(
      await (await h.get(`/api/machines/${mill}/adapter/key-statistics?minutes=60`, cookie)).json(),
    );
    expect(stats.observations).toBe(4);
    expect(stats.keys.map((k) => [k.key, k.count, k.mapped, k.dataItemType, k.lastValue])).toEqual([
      ['door', 1, false, null, 'OPEN'],
      ['exec', 2, true, 'EXECUTION', 'ACTIVE'],
      ['prog', 1, true, 'PROGRAM', 'BRACKET-7'],
    ]);
    expect(stats.keys[1]).toMatchObject({ firstAt: h.clock.now - 30 * MIN, lastAt: h.clock.now - 10 * MIN });
    // A quarter of an hour holds only the program's value and nothing older.
    const recent = keyStatisticsSchema.parse(
      await (await h.get(`/api/machines/${mill}/adapter/key-statistics?minutes=15`, cookie)).json(),
    );
    expect(recent.keys.map((k) => k.key)).toEqual(['exec', 'prog']);
    for (const q of ['minutes=0', 'minutes=1441', 'minutes=x'])
      expect((await h.get(`/api/machines/${mill}/adapter/key-statistics?${q}`, cookie)).status, q).toBe(400);

    const unmapped = unmappedStatusSchema.parse(
      await (await h.get(`/api/machines/${mill}/adapter/unmapped-status`, cookie)).json(),
    );
    expect(unmapped).toMatchObject({ machineId: mill, unmapped: ['door'], checkedAt: h.clock.now });

    const info = streamInfoSchema.parse(
      await (await h.get(`/api/machines/${mill}/stream-info`, cookie)).json(),
    );
    expect(info.sources).toEqual([expect.objectContaining({ kind: 'shdr', enabled: true })]);
    expect(info.lastHour.observations).toBe(4);
    expect(info.connection.words).not.toBe('');
  });

  it('shows what auto dispatch would do with the machine’s data: off, the key, an unknown name, the job', async () => {
    const { company, cookie } = await h.tenant();
    const { mill } = await plant(company, cookie);
    const scope = companyScope(h.t.db, company.id);
    const view = async () =>
      autoJobDispatchSchema.parse(
        await (await h.get(`/api/machines/${mill}/adapter/auto-job-dispatch`, cookie)).json(),
      );
    expect(await view()).toMatchObject({ companyEnabled: false, problem: AUTO_DISPATCH_PROBLEMS.off });
    await h.t.db
      .updateTable('companies')
      .set({ enable_auto_job_dispatch: 1 })
      .where('id', '=', company.id)
      .execute();
    expect(await view()).toMatchObject({
      autostartBehavior: 'disabled',
      problem: AUTO_DISPATCH_PROBLEMS.disabled,
    });
    await scope.updateTable('machines').set({ autostart_behavior: 'mes' }).where('id', '=', mill).execute();
    expect(await view()).toMatchObject({
      key: 'prog',
      lastValue: 'BRACKET-7',
      lastValueAt: h.clock.now - 5 * MIN,
      job: null,
      problem: AUTO_DISPATCH_PROBLEMS.unknown('BRACKET-7'),
    });
    const job = await aJob(h.t.db, company, { name: 'BRACKET-7' });
    expect(await view()).toMatchObject({ job: { id: job, name: 'BRACKET-7' }, problem: null });
    // key mode reads the dispatch key's item, which this machine has not sent.
    await scope
      .updateTable('machines')
      .set({ autostart_behavior: 'key', dispatch_key: 'wo' })
      .where('id', '=', mill)
      .execute();
    expect(await view()).toMatchObject({
      key: 'wo',
      job: null,
      problem: AUTO_DISPATCH_PROBLEMS.notSeen('wo'),
    });
  });

  it("keeps each company's machines to its admins: another company's admin gets 404, a manager 403", async () => {
    const { company, cookie } = await h.tenant();
    const { mill } = await plant(company, cookie);
    const them = await h.tenant();
    const paths = [
      `/api/machines17/${mill}`,
      `/api/machines/${mill}/stream-info`,
      `/api/machines/${mill}/adapter/key-statistics`,
      `/api/machines/${mill}/adapter/unmapped-status`,
      `/api/machines/${mill}/adapter/auto-job-dispatch`,
    ];
    for (const p of paths) expect((await h.get(p, them.cookie)).status, p).toBe(404);
    expect(machine17Schema.array().parse(await (await h.get('/api/machines17', them.cookie)).json())).toEqual(
      [],
    );
    const manager = await loginAs(h, company, 'manager');
    for (const p of ['/api/machines17', '/api/machines17/query', ...paths])
      expect((await h.get(p, manager)).status, p).toBe(403);
  });
});
