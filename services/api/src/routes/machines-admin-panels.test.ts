import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { companyScope } from '@takt/db';
import { DIALECTS } from '@takt/db/testing';
import { adapterStatusSchema, adminMachineSchema } from '@takt/domain';
import { createAdapter } from '../repositories/adapters';
import type { ApiHarness } from '../testing/app';
import { apiHarness } from '../testing/app';
import { errorOf, issueFields, loginAs } from '../testing/live-builders';
import { aMachineSaveBody } from '../testing/machine-admin-builders';
import { ADAPTER_GATHER_MS, matchAdapter } from '../services/machines-admin';

// The machines admin form's Software and Utilization panels (decision 0892) and the adapter reset with its
// status poll (reports-admin §4 "Adapter reset sets adapter to none then polls mapping", §7 "Adapters: reset",
// "Machine form polls adapter status every 3 s", §8 "Machine adapter status shows the server problem message";
// decision 0891).

const body = aMachineSaveBody;

const field = (name: string) => ({
  name,
  dataItemType: 'EXECUTION',
  componentName: 'path',
  componentType: 'Path',
});

describe('matchAdapter', () => {
  const adapters = [
    { id: 'a', name: 'Haas', fields: ['execution', 'part_count', 'program'] },
    { id: 'b', name: 'Okuma', fields: ['exec', 'PartCountAct'] },
    { id: 'c', name: 'Okuma copy', fields: ['exec', 'PartCountAct'] },
  ];
  it.each([
    [['execution', 'part_count', 'avail'], { id: 'a', name: 'Haas' }],
    [['avail'], null],
    [[], null],
    [['exec'], { ambiguous: ['Okuma', 'Okuma copy'] }],
  ])('keys %j match %j', (keys, expected) => {
    expect(matchAdapter(keys, adapters)).toEqual(expected);
  });
});

describe.each(DIALECTS)('machines admin panels and adapter reset on %s', (dialect) => {
  let h: ApiHarness;
  beforeEach(async () => {
    h = await apiHarness(dialect);
  });
  afterEach(async () => {
    await h.close();
  });

  const status = (id: string, cookie: string) =>
    h.read(`/api/machines/${id}/adapter-status`, cookie, adapterStatusSchema);

  async function aMachineWithSource(cookie: string, over: Record<string, unknown> = {}) {
    const res = await h.send('POST', '/api/machines', cookie, body(over));
    expect(res.status).toBe(201);
    return adminMachineSchema.parse(await res.json());
  }

  /** The machine's source hears lines at `ts` carrying `keys` (what ingest stores). */
  async function sends(companyId: string, machineId: string, ts: number, keys: string[]) {
    await h.t.db
      .updateTable('machine_sources')
      .set({ last_line_at: ts })
      .where('machine_id', '=', machineId)
      .execute();
    if (keys.length)
      await h.t.db
        .insertInto('observations')
        .values(keys.map((key) => ({ company_id: companyId, machine_id: machineId, ts, key, value: 'x' })))
        .execute();
  }

  // The ping monitor is root's (decision 1112): machines-admin-root.test.ts.
  it('saves the Software and Utilization panels; left out keeps them, null clears them', async () => {
    const { cookie } = await h.tenant();
    const m = await aMachineWithSource(cookie, {
      dispatchKey: ' O1234 ',
      excludeFromBenchmarking: 1,
      utilizationWarningPercent: 60,
      utilizationFailurePercent: 40,
    });
    expect(m).toMatchObject({
      dispatchKey: 'O1234',
      excludeFromBenchmarking: 1,
      utilizationWarningPercent: 60,
      utilizationFailurePercent: 40,
    });
    const kept = await h.send('PUT', `/api/machines/${m.id}`, cookie, body({ name: 'Lathe 8' }));
    expect(await kept.json()).toMatchObject({
      name: 'Lathe 8',
      dispatchKey: 'O1234',
      utilizationWarningPercent: 60,
    });
    const cleared = await h.send(
      'PUT',
      `/api/machines/${m.id}`,
      cookie,
      body({
        dispatchKey: '',
        excludeFromBenchmarking: null,
        utilizationWarningPercent: null,
        utilizationFailurePercent: null,
      }),
    );
    expect(await cleared.json()).toMatchObject({
      dispatchKey: null,
      excludeFromBenchmarking: null,
      utilizationWarningPercent: null,
      utilizationFailurePercent: null,
    });
  });

  it('refuses percents outside 0–100 and a failure percent above the warning percent', async () => {
    const { cookie } = await h.tenant();
    const res = await h.send(
      'POST',
      '/api/machines',
      cookie,
      body({ utilizationWarningPercent: 101, excludeFromBenchmarking: 2 }),
    );
    expect(res.status).toBe(400);
    const err = await errorOf(res);
    expect(issueFields(err)).toEqual(['excludeFromBenchmarking', 'utilizationWarningPercent']);
    expect(err.issues?.map((i) => i.message)).toContain('Utilization warning percent must be from 0 to 100');
    const order = await h.send(
      'POST',
      '/api/machines',
      cookie,
      body({ utilizationWarningPercent: 50, utilizationFailurePercent: 70 }),
    );
    expect(order.status).toBe(400);
    expect((await errorOf(order)).issues?.map((i) => i.message)).toEqual([
      'Utilization failure percent must not be above the warning percent',
    ]);
  });

  it('resets the adapter to none, waits for the workcenter, gathers, then maps the adapter that fits', async () => {
    const { company, cookie } = await h.tenant();
    const scope = companyScope(h.t.db, company.id);
    const haas = await createAdapter(
      scope,
      { name: 'Haas', fields: [field('execution'), field('part_count')] },
      1,
    );
    await createAdapter(scope, { name: 'Okuma', fields: [field('exec')] }, 1);
    const m = await aMachineWithSource(cookie, { adapterId: haas });
    expect(await status(m.id, cookie)).toMatchObject({
      status: 'mapped',
      adapterId: haas,
      adapterName: 'Haas',
    });

    const reset = await h.send('POST', `/api/machines/${m.id}/adapter/reset`, cookie);
    expect(reset.status).toBe(200);
    expect(adapterStatusSchema.parse(await reset.json())).toEqual({
      status: 'waiting',
      adapterId: null,
      adapterName: null,
      message: null,
      resetAt: h.clock.now,
    });
    expect((await h.read(`/api/machines/${m.id}`, cookie, adminMachineSchema)).adapterId).toBeNull();

    // Lines arrive, but nothing an adapter knows yet: gathering.
    h.clock.now += 3000;
    await sends(company.id, m.id, h.clock.now, ['avail']);
    expect(await status(m.id, cookie)).toMatchObject({ status: 'gathering', adapterId: null });
    // Then the keys of one adapter: it is mapped, and the machine keeps it.
    h.clock.now += 3000;
    await sends(company.id, m.id, h.clock.now, ['execution', 'part_count']);
    expect(await status(m.id, cookie)).toMatchObject({
      status: 'mapped',
      adapterId: haas,
      adapterName: 'Haas',
    });
    expect((await h.read(`/api/machines/${m.id}`, cookie, adminMachineSchema)).adapterId).toBe(haas);
  });

  it('says the problem: no source, or nothing matches once the gathering time is over', async () => {
    const { company, cookie } = await h.tenant();
    const none = await aMachineWithSource(cookie, { name: 'Bench', source: null });
    const res = await h.send('POST', `/api/machines/${none.id}/adapter/reset`, cookie);
    expect(await res.json()).toMatchObject({
      status: 'problem',
      message: 'This machine has no data source. Add one under Sources.',
    });

    const m = await aMachineWithSource(cookie);
    await h.send('POST', `/api/machines/${m.id}/adapter/reset`, cookie);
    h.clock.now += 1000;
    await sends(company.id, m.id, h.clock.now, ['avail', 'mode']);
    expect((await status(m.id, cookie)).status).toBe('gathering');
    h.clock.now += ADAPTER_GATHER_MS;
    expect(await status(m.id, cookie)).toMatchObject({
      status: 'problem',
      message: 'No adapter matches the 2 data items this machine sends.',
    });
  });

  it('is for admins of the machine’s company', async () => {
    const { company, cookie } = await h.tenant();
    const m = await aMachineWithSource(cookie);
    const manager = await loginAs(h, company, 'manager');
    expect((await h.send('POST', `/api/machines/${m.id}/adapter/reset`, manager)).status).toBe(403);
    expect((await h.get(`/api/machines/${m.id}/adapter-status`, manager)).status).toBe(403);
    const other = await h.tenant();
    expect((await h.send('POST', `/api/machines/${m.id}/adapter/reset`, other.cookie)).status).toBe(404);
    expect((await h.get(`/api/machines/${m.id}/adapter-status`, other.cookie)).status).toBe(404);
    expect(
      (await h.send('PUT', `/api/machines/${m.id}`, other.cookie, body({ dispatchKey: 'x' }))).status,
    ).toBe(404);
    // Nothing of the first company changed.
    expect(await status(m.id, cookie)).toMatchObject({ status: 'waiting' });
  });
});
