import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { DIALECTS } from '@takt/db/testing';
import { apiHarness } from '../testing/app';
import type { ApiHarness } from '../testing/app';
import { aCompany, aGroup, aMachine, aUser } from '../testing/builders';
import { HOUR, aMachineLive, someStates } from '../testing/downtime-builders';

// GET /api/machines/statuses (reports-admin §7, decision 1096): the tiles' statuses of the caller's company
// only, for any logged-in user (not just the machine administration's admins), on both dialects.

interface Statuses {
  now: number;
  machines: Array<{ id: string; name: string; status: string; statusSince: number | null }>;
}

describe.each(DIALECTS)('machine statuses on %s', (dialect) => {
  let h: ApiHarness;
  beforeEach(async () => {
    h = await apiHarness(dialect);
  });
  afterEach(async () => {
    await h.close();
  });

  async function plant() {
    const company = await aCompany(h.t.db, { timezone: 'UTC' });
    const manager = await aUser(h.t.db, company, { role: 'manager' });
    const cookie = await h.login(manager.email, manager.password);
    const group = await aGroup(h.t.db, company, 'Cell');
    const m1 = await aMachine(h.t.db, company, { name: 'M1', groupIds: [group], sortOrder: 1 });
    const m2 = await aMachine(h.t.db, company, { name: 'M2', sortOrder: 2 });
    const now = h.clock.now;
    for (const [id, state, since] of [
      [m1, 'ACTIVE', now - HOUR],
      [m2, 'INACTIVE', now - 2 * HOUR],
    ] as const) {
      await someStates(h.t.db, company, id, [[since, null, state]]);
      await aMachineLive(h.t.db, company, id, { state, since, connectedSince: now - 3 * HOUR, now });
    }
    return { cookie, group, m1, m2 };
  }

  it('answers each machine’s tile status, as the dashboard shows it', async () => {
    const { cookie, group, m1, m2 } = await plant();
    const res = await h.get('/api/machines/statuses', cookie);
    expect(res.status, await res.clone().text()).toBe(200);
    const r = (await res.json()) as Statuses;
    const tiles = (await (await h.get('/api/dashboard', cookie)).json()) as Statuses;
    expect(r.machines.map((m) => m.id)).toEqual([m1, m2]);
    expect(r.machines).toEqual(
      tiles.machines.map((t) => ({ id: t.id, name: t.name, status: t.status, statusSince: t.statusSince })),
    );
    expect(new Set(r.machines.map((m) => m.status)).size).toBe(2);
    const inGroup = (await (await h.get(`/api/machines/statuses?group=${group}`, cookie)).json()) as Statuses;
    expect(inGroup.machines.map((m) => m.id)).toEqual([m1]);
  });

  it('shows only the caller’s company', async () => {
    const mine = await plant();
    const theirs = await plant();
    const r = (await (await h.get('/api/machines/statuses', mine.cookie)).json()) as Statuses;
    expect(r.machines.map((m) => m.id)).toEqual([mine.m1, mine.m2]);
    const foreignGroup = (await (
      await h.get(`/api/machines/statuses?group=${theirs.group}`, mine.cookie)
    ).json()) as Statuses;
    expect(foreignGroup.machines).toEqual([]);
    expect((await h.get('/api/machines/statuses', '')).status).toBe(401);
  });
});
