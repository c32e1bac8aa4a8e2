import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { meSchema } from '@takt/domain';
import { DIALECTS } from '@takt/db/testing';
import type { ApiHarness } from '../testing/app';
import { apiHarness } from '../testing/app';
import { aMachine } from '../testing/builders';
import { issueTabletToken, requestCode } from '../repositories/tablets';

// Issue 28 point 3, decision 1041: a TV is registered like a tablet (a code an admin types) with a live board as
// its dashboardView; its device credential opens that board without a person's login, reads the board's data
// only (GET, its company), and lasts until an admin revokes it.

describe.each(DIALECTS)('TVs (board devices) on %s', (dialect) => {
  let h: ApiHarness;
  beforeAll(async () => {
    h = await apiHarness(dialect);
  });
  afterAll(async () => {
    await h.close();
  });

  /** A device showing a code; an admin registers it with `body`; it activates. */
  async function registerDevice(adminCookie: string, body: Record<string, unknown>) {
    const { tablet, code } = await requestCode(h.t.db, `TV-${crypto.randomUUID().slice(0, 6)}`, h.clock.now);
    const res = await h.send('POST', '/api/tablets/associate', adminCookie, { code, ...body });
    expect(res.status, await res.clone().text()).toBe(200);
    const token = (await issueTabletToken(h.t.db, tablet.id))!;
    const act = await h.app.request('/tablet/activate', {
      method: 'POST',
      headers: { authorization: `Bearer ${token}`, origin: 'http://localhost' },
    });
    expect(act.status).toBe(200);
    const cookie = act.headers.get('set-cookie')!.split(';')[0]!;
    return { id: tablet.id, cookie, answer: (await act.json()) as { redirectTo: string } };
  }

  it('opens its board with the device credential alone, showing its own company only', async () => {
    const { company, cookie: admin } = await h.tenant();
    const mill = await aMachine(h.t.db, company, { name: 'Mill on the wall' });
    const other = await h.tenant();
    const foreign = await aMachine(h.t.db, other.company, { name: 'Foreign lathe' });

    const tv = await registerDevice(admin, { dashboardView: 'downtime', remote_identifier: 'Hall TV' });
    expect(tv.answer.redirectTo).toBe('/dashboards/live/downtime?tv=1');

    const meRes = await h.get('/api/me', tv.cookie);
    expect(meRes.status).toBe(200);
    // The credential's year starts again at every page load: it never runs out on a TV in use.
    expect(meRes.headers.get('set-cookie')).toMatch(/^takt_tablet=.*Max-Age=31536000/);
    const me = meSchema.parse(await meRes.json());
    expect(me).toMatchObject({ board: '/dashboards/live/downtime?tv=1', isAdmin: false });
    expect(me.company.id).toBe(company.id);

    const dash = await h.get('/api/dashboard', tv.cookie);
    expect(dash.status).toBe(200);
    const ids = ((await dash.json()) as { machines: Array<{ id: string }> }).machines.map((m) => m.id);
    expect(ids).toContain(mill);
    expect(ids).not.toContain(foreign);
    for (const path of ['/api/dashboard/utilization', '/api/dashboard/parts', '/api/dashboard/status'])
      expect((await h.get(path, tv.cookie)).status, path).toBe(200);
  });

  it('may call nothing else: no other read, no write, no sync, no admin call', async () => {
    const { company, cookie: admin } = await h.tenant();
    const mill = await aMachine(h.t.db, company);
    const tv = await registerDevice(admin, { dashboardView: 'utilization' });
    for (const path of [
      `/api/workcenter/${mill}`,
      '/api/jobs',
      `/api/reports/downtime?start=${h.clock.now - 3_600_000}&end=${h.clock.now}`,
      '/api/tablets',
      '/api/user-token',
      '/api/operators',
    ])
      expect((await h.get(path, tv.cookie)).status, path).toBe(403);
    const writes: Array<['POST' | 'PUT' | 'DELETE', string, unknown]> = [
      ['POST', '/api/sync', { commands: [] }],
      ['POST', '/api/dashboard', {}],
      ['PUT', `/api/tablets/${tv.id}`, { dashboardView: 'opdash' }],
      ['POST', '/api/annotations', {}],
      ['DELETE', `/api/tablets/${tv.id}`, undefined],
    ];
    for (const [method, path, body] of writes)
      expect((await h.send(method, path, tv.cookie, body)).status, `${method} ${path}`).toBe(403);
    // Still a TV afterwards: it did not change its own view.
    expect(meSchema.parse(await (await h.get('/api/me', tv.cookie)).json()).board).toBe(
      '/dashboards/live/utilization?tv=1',
    );
  });

  it('bound to one machine it opens that machine board; an operator tablet keeps its calls; a bad view is refused', async () => {
    const { company, cookie: admin } = await h.tenant();
    const mill = await aMachine(h.t.db, company);
    const tv = await registerDevice(admin, { dashboardView: 'oee', machineId: mill });
    expect(tv.answer.redirectTo).toBe(`/dashboards/machine/${mill}/oee?tablet=1&switcher=false&tv=1`);

    const tablet = await registerDevice(admin, { machineId: mill });
    expect(tablet.answer.redirectTo).toBe(`/${mill}`);
    expect((await h.get(`/api/workcenter/${mill}`, tablet.cookie)).status).toBe(200);
    expect(meSchema.parse(await (await h.get('/api/me', tablet.cookie)).json()).board).toBeUndefined();

    const bad = await h.send('PUT', `/api/tablets/${tablet.id}`, admin, { dashboardView: 'cinema' });
    expect(bad.status).toBe(400);
    // Turned into a TV from the Tablets screen, the same credential is a TV from its next call.
    expect(
      (await h.send('PUT', `/api/tablets/${tablet.id}`, admin, { dashboardView: 'partsgoal' })).status,
    ).toBe(200);
    expect((await h.get(`/api/workcenter/${mill}`, tablet.cookie)).status).toBe(403);
  });

  it('stops at once when an admin revokes it', async () => {
    const { cookie: admin } = await h.tenant();
    const tv = await registerDevice(admin, { dashboardView: 'utilization' });
    expect((await h.get('/api/dashboard', tv.cookie)).status).toBe(200);
    expect((await h.send('POST', `/api/tablets/${tv.id}/revoke`, admin)).status).toBe(200);
    expect((await h.get('/api/dashboard', tv.cookie)).status).toBe(401);
  });
});
