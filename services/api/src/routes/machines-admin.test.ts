import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { companyScope } from '@takt/db';
import { DIALECTS } from '@takt/db/testing';
import { adminMachineSchema } from '@takt/domain';
import { createAdapter } from '../repositories/adapters';
import type { ApiHarness } from '../testing/app';
import { apiHarness } from '../testing/app';
import { aMachine } from '../testing/builders';
import { errorOf, issueFields, loginAs } from '../testing/live-builders';
import { aMachineSaveBody } from '../testing/machine-admin-builders';

const machines = z.array(adminMachineSchema);

const body = aMachineSaveBody;

describe.each(DIALECTS)('machines admin on %s', (dialect) => {
  let h: ApiHarness;
  beforeEach(async () => {
    h = await apiHarness(dialect);
  });
  afterEach(async () => {
    await h.close();
  });

  const list = (cookie: string) => h.read('/api/machines', cookie, machines);

  it('creates a machine with an SHDR source last in workcenter order, edits it and moves its source', async () => {
    const { company, cookie } = await h.tenant();
    await aMachine(h.t.db, company, { name: 'Mill 1', sortOrder: 4 });
    const adapterId = await createAdapter(companyScope(h.t.db, company.id), { name: 'Haas', fields: [] }, 1);

    const res = await h.send('POST', '/api/machines', cookie, body({ name: ' Lathe 7 ', adapterId }));
    expect(res.status).toBe(201);
    const lathe = adminMachineSchema.parse(await res.json());
    expect(lathe).toMatchObject({
      name: 'Lathe 7',
      sortOrder: 5,
      adapterId,
      decommissionedAt: null,
      source: { kind: 'shdr', host: '10.0.0.7', port: 7878, baseUrl: null },
    });
    expect((await list(cookie)).map((m) => m.name)).toEqual(['Mill 1', 'Lathe 7']);

    const edited = await h.send(
      'PUT',
      `/api/machines/${lathe.id}`,
      cookie,
      body({
        workcenterType: 'manual',
        downtimeFailureDelay: 30,
        source: { kind: 'agent', baseUrl: 'http://agent.local:5000', agentDevice: 'L7' },
      }),
    );
    expect(edited.status).toBe(200);
    const after = adminMachineSchema.parse(await edited.json());
    expect(after).toMatchObject({
      workcenterType: 'manual',
      downtimeFailureDelay: 30,
      adapterId: null,
      source: { id: lathe.source?.id, kind: 'agent', host: '', port: 0, baseUrl: 'http://agent.local:5000' },
    });

    // No source in the body keeps the machine's source (a gateway binding is changed on the gateway).
    const { source: _omitted, ...withoutSource } = body();
    const kept = await h.send('PUT', `/api/machines/${lathe.id}`, cookie, withoutSource);
    expect(adminMachineSchema.parse(await kept.json()).source).toMatchObject({ kind: 'agent' });

    const cleared = await h.send('PUT', `/api/machines/${lathe.id}`, cookie, body({ source: null }));
    expect(adminMachineSchema.parse(await cleared.json()).source).toBeNull();
    const rows = await h.t.db
      .selectFrom('machine_sources')
      .selectAll()
      .where('machine_id', '=', lathe.id)
      .execute();
    expect(rows).toEqual([]);
  });

  it('refuses what §5 refuses, in its words', async () => {
    const { cookie } = await h.tenant();
    const res = await h.send(
      'POST',
      '/api/machines',
      cookie,
      body({ name: ' ', source: { kind: 'shdr', host: '', port: 70000 } }),
    );
    expect(res.status).toBe(400);
    const err = await errorOf(res);
    expect(issueFields(err)).toEqual(['name', 'source.host', 'source.port']);
    expect(err.issues?.map((i) => i.message)).toContain('Missing required field: Name');
    expect(err.issues?.map((i) => i.message)).toContain('Missing required field: Address');

    const badAdapter = await h.send('POST', '/api/machines', cookie, body({ adapterId: 'nope' }));
    expect(issueFields(await errorOf(badAdapter))).toEqual(['adapterId']);
  });

  it('saves the workcenter order of the machines in service', async () => {
    const { company, cookie } = await h.tenant();
    const a = await aMachine(h.t.db, company, { name: 'A', sortOrder: 0 });
    const b = await aMachine(h.t.db, company, { name: 'B', sortOrder: 1 });
    const c = await aMachine(h.t.db, company, { name: 'C', sortOrder: 2 });
    const res = await h.send('PUT', '/api/machines/order', cookie, { machineIds: [c, a, b] });
    expect(res.status).toBe(200);
    expect(machines.parse(await res.json()).map((m) => m.name)).toEqual(['C', 'A', 'B']);

    const partial = await h.send('PUT', '/api/machines/order', cookie, { machineIds: [a, b] });
    expect(partial.status).toBe(400);
    const twice = await h.send('PUT', '/api/machines/order', cookie, { machineIds: [a, a, b] });
    expect(twice.status).toBe(400);
  });

  it('decommissions only with the machine name typed; the machine keeps its place in the list', async () => {
    const { company, cookie } = await h.tenant();
    const id = await aMachine(h.t.db, company, { name: 'Press 2' });
    await h.send('PUT', `/api/machines/${id}`, cookie, body({ name: 'Press 2' }));

    const wrong = await h.send('PUT', `/api/machines/${id}/decommission`, cookie, { name: 'Press' });
    expect(wrong.status).toBe(400);
    expect((await errorOf(wrong)).message).toBe('Decommission prompt must match machine name.');

    h.clock.now += 1000;
    const ok = await h.send('PUT', `/api/machines/${id}/decommission`, cookie, { name: 'Press 2' });
    expect(ok.status).toBe(200);
    expect(adminMachineSchema.parse(await ok.json()).decommissionedAt).toBe(h.clock.now);
    const source = await h.t.db
      .selectFrom('machine_sources')
      .select('enabled')
      .where('machine_id', '=', id)
      .execute();
    expect(source).toEqual([{ enabled: 0 }]);

    expect((await list(cookie)).map((m) => [m.name, m.decommissionedAt !== null])).toEqual([
      ['Press 2', true],
    ]);
    // Out of service: no longer edited, nor ordered.
    expect((await h.send('PUT', `/api/machines/${id}`, cookie, body())).status).toBe(400);
    expect((await h.send('PUT', '/api/machines/order', cookie, { machineIds: [id] })).status).toBe(404);
  });

  it('is for admins; another company’s machine is not found', async () => {
    const { company, cookie } = await h.tenant();
    const id = await aMachine(h.t.db, company, { name: 'Mine' });
    const manager = await loginAs(h, company, 'manager');
    expect((await h.get('/api/machines', manager)).status).toBe(403);
    expect((await h.send('POST', '/api/machines', manager, body())).status).toBe(403);
    // The live connection status under /api/machines stays open to every user.
    expect((await h.get(`/api/machines/${id}/diagnostics`, manager)).status).toBe(200);

    const other = await h.tenant();
    expect((await h.get(`/api/machines/${id}`, other.cookie)).status).toBe(404);
    expect((await h.send('PUT', `/api/machines/${id}`, other.cookie, body())).status).toBe(404);
    expect(
      (await h.send('PUT', `/api/machines/${id}/decommission`, other.cookie, { name: 'Mine' })).status,
    ).toBe(404);
    expect((await h.send('PUT', '/api/machines/order', other.cookie, { machineIds: [id] })).status).toBe(404);
    expect(await list(other.cookie)).toEqual([]);
    expect((await list(cookie)).map((m) => m.name)).toEqual(['Mine']);
  });
});
