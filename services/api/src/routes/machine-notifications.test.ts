import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { MachineNotificationsResponse } from '@takt/domain';
import { DIALECTS } from '@takt/db/testing';
import type { ApiHarness } from '../testing/app';
import { apiHarness } from '../testing/app';
import { aMachine, aUser } from '../testing/builders';
import { errorOf, issueFields, loginAs } from '../testing/live-builders';

// The machines admin Notifications panel's calls (reports-admin §2, §3 "Machine notification: accountId, type
// (downtime or utilization), level (2 Failure, otherwise Warning), delayMinutes (default 10)"; decision 0900).

const path = (id: string) => `/api/machines/${id}/notifications`;

describe.each(DIALECTS)('machine notifications on %s', (dialect) => {
  let h: ApiHarness;
  beforeEach(async () => {
    h = await apiHarness(dialect);
  });
  afterEach(async () => {
    await h.close();
  });

  it('lists none at first with the accounts to choose, saves a list and keeps kept ones', async () => {
    const { company, user, cookie } = await h.tenant();
    // Another company's users are never offered.
    await h.tenant();
    const colleague = await aUser(h.t.db, company, { role: 'manager', displayName: 'Ana' });
    const machine = await aMachine(h.t.db, company);
    const first = (await (await h.get(path(machine), cookie)).json()) as MachineNotificationsResponse;
    expect(first.notifications).toEqual([]);
    expect(first.accounts.map((a) => a.id).sort()).toEqual([user.id, colleague.id].sort());

    const put = await h.send('PUT', path(machine), cookie, {
      notifications: [
        { accountId: user.id, type: 'downtime', level: 2 },
        { accountId: colleague.id, type: 'utilization', level: 1, delayMinutes: 30 },
      ],
    });
    expect(put.status).toBe(200);
    const saved = (await put.json()) as MachineNotificationsResponse;
    // delayMinutes defaults to 10 (reports-admin §3).
    expect(saved.notifications.map(({ id: _, ...n }) => n)).toEqual([
      { accountId: user.id, type: 'downtime', level: 2, delayMinutes: 10 },
      { accountId: colleague.id, type: 'utilization', level: 1, delayMinutes: 30 },
    ]);
    const kept = saved.notifications[0]!.id;
    const again = (await (
      await h.send('PUT', path(machine), cookie, {
        notifications: [{ accountId: user.id, type: 'downtime', level: 1, delayMinutes: 5 }],
      })
    ).json()) as MachineNotificationsResponse;
    expect(again.notifications).toEqual([
      { id: kept, accountId: user.id, type: 'downtime', level: 1, delayMinutes: 5 },
    ]);
    expect(
      ((await (await h.get(path(machine), cookie)).json()) as MachineNotificationsResponse).notifications,
    ).toEqual(again.notifications);
  });

  it("leaves out a deleted user's notification, and the next save drops it", async () => {
    const { company, user, cookie } = await h.tenant();
    const gone = await aUser(h.t.db, company, { role: 'manager' });
    const machine = await aMachine(h.t.db, company);
    await h.send('PUT', path(machine), cookie, {
      notifications: [
        { accountId: gone.id, type: 'downtime', level: 1 },
        { accountId: user.id, type: 'downtime', level: 1 },
      ],
    });
    await h.t.db.deleteFrom('users').where('id', '=', gone.id).execute();
    const after = (await (await h.get(path(machine), cookie)).json()) as MachineNotificationsResponse;
    expect(after.notifications.map((n) => n.accountId)).toEqual([user.id]);
    await h.send('PUT', path(machine), cookie, { notifications: after.notifications });
    const rows = await h.t.db.selectFrom('machine_notifications').select('account_id').execute();
    expect(rows.map((r) => r.account_id)).toEqual([user.id]);
  });

  it('answers 400 with the problems for a bad list', async () => {
    const { user, company, cookie } = await h.tenant();
    const machine = await aMachine(h.t.db, company);
    const bad = await h.send('PUT', path(machine), cookie, {
      notifications: [{ accountId: user.id, type: 'benchmarking', level: 1, delayMinutes: -1 }],
    });
    expect(bad.status).toBe(400);
    expect(issueFields(await errorOf(bad))).toEqual(['notifications.0.delayMinutes', 'notifications.0.type']);
    const twice = await h.send('PUT', path(machine), cookie, {
      notifications: [
        { accountId: user.id, type: 'downtime', level: 1 },
        { accountId: user.id, type: 'downtime', level: 2 },
      ],
    });
    expect(twice.status).toBe(400);
    const stranger = await h.send('PUT', path(machine), cookie, {
      notifications: [{ accountId: 'no-such-user', type: 'downtime', level: 1 }],
    });
    expect(stranger.status).toBe(400);
    expect(issueFields(await errorOf(stranger))).toEqual(['notifications.0.accountId']);
  });

  it('is for admins, of their own company, and not for a decommissioned machine', async () => {
    const { company, user, cookie } = await h.tenant();
    const other = await h.tenant();
    const machine = await aMachine(h.t.db, company, { name: 'Gone' });
    const manager = await loginAs(h, company, 'manager');
    expect((await h.get(path(machine), manager)).status).toBe(403);
    expect((await h.get(path(machine), other.cookie)).status).toBe(404);
    expect((await h.send('PUT', path(machine), other.cookie, { notifications: [] })).status).toBe(404);
    expect(
      (await h.send('PUT', `/api/machines/${machine}/decommission`, cookie, { name: 'Gone' })).status,
    ).toBe(200);
    const res = await h.send('PUT', path(machine), cookie, {
      notifications: [{ accountId: user.id, type: 'downtime', level: 1 }],
    });
    expect(res.status).toBe(400);
    expect((await errorOf(res)).message).toBe('This machine is decommissioned.');
  });
});
