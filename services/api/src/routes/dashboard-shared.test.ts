import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { DashboardResponse } from '@takt/domain';
import { companyScope } from '@takt/db';
import { markRollupsDirty } from '@takt/db/rollups';
import { DIALECTS } from '@takt/db/testing';
import { DASHBOARD_REUSE_MS, DashboardAnswers } from '../services/dashboard-shared';
import { apiHarness } from '../testing/app';
import type { ApiHarness } from '../testing/app';
import { aGroup, aMachine, aUser } from '../testing/builders';
import { aJobRun, aMachineLive, HOUR, MIN } from '../testing/downtime-builders';

// Decision 1200: GET /api/dashboard computed once for the callers of a company and view while its live data version
// stays the same: a stored line (its live row written, even within the same millisecond), a job started, a fact
// with its rollup mark, each gives a new answer on the next call; companies and views never get each other's.

describe.each(DIALECTS)('shared dashboard answers on %s', (dialect) => {
  let h: ApiHarness;
  let answers: DashboardAnswers;
  beforeEach(async () => {
    answers = new DashboardAnswers();
    h = await apiHarness(dialect, undefined, { dashboardAnswers: answers });
  });
  afterEach(async () => {
    await h.close();
  });

  const tiles = async (cookie: string, query = '') => {
    const res = await h.get(`/api/dashboard${query}`, cookie);
    expect(res.status).toBe(200);
    return (await res.json()) as DashboardResponse;
  };

  /** A company with two machines, live since an hour ago, the second one in a group. */
  async function plant(name: string) {
    const tenant = await h.tenant();
    const now = h.clock.now;
    const group = await aGroup(h.t.db, tenant.company, `${name} group`);
    const first = await aMachine(h.t.db, tenant.company, { name: `${name} 1`, sortOrder: 1 });
    const second = await aMachine(h.t.db, tenant.company, {
      name: `${name} 2`,
      sortOrder: 2,
      groupIds: [group],
    });
    for (const m of [first, second])
      await aMachineLive(h.t.db, tenant.company, m, {
        state: 'ACTIVE',
        since: now - HOUR,
        connectedSince: now - HOUR,
        now,
      });
    return { ...tenant, group, first, second };
  }

  it('gives a kept answer again only while nothing changed, and a stored line on the very next call', async () => {
    const a = await plant('A');
    const first = await tiles(a.cookie);
    expect(first.machines.map((m) => m.program)).toEqual([null, null]);
    expect(await tiles(a.cookie)).toEqual(first);
    expect(answers.computed).toBe(1);

    // A line stored at the same millisecond (the clock stands still): the live row's content changes the version.
    await companyScope(h.t.db, a.company.id)
      .updateTable('machine_live')
      .set({ program: 'O1000', state: 'FAULT', state_since: h.clock.now })
      .where('machine_id', '=', a.first)
      .execute();
    const next = await tiles(a.cookie);
    expect(next.machines[0]).toMatchObject({ program: 'O1000', status: 'FAULT', statusSince: h.clock.now });
    expect(answers.computed).toBe(2);

    // A job started on the second machine.
    await aJobRun(h.t.db, a.company, a.second, { start: h.clock.now - 30 * MIN });
    expect((await tiles(a.cookie)).machines[1]!.scheduled).toBe(true);
    expect(answers.computed).toBe(3);

    // A fact written with its rollup mark (as every writer does) changes the version too.
    await markRollupsDirty(h.t.db, {
      companyId: a.company.id,
      machineId: a.first,
      from: h.clock.now - MIN,
      now: h.clock.now,
    });
    await tiles(a.cookie);
    expect(answers.computed).toBe(4);
  });

  it('joins a computation in flight only while no line was stored since it began', async () => {
    const a = await plant('A');
    const scope = companyScope(h.t.db, a.company.id);
    /** A computation held until released, once it has begun (its version read). */
    const held = async (view: string, answer: string) => {
      let release = () => {};
      const gate = new Promise<void>((r) => (release = r));
      const before = answers.computed;
      const text = answers.json(scope, view, h.clock.now, () => gate.then(() => ({ answer })));
      while (answers.computed === before) await new Promise((r) => setImmediate(r));
      return { text, release };
    };
    // Nothing changed: a caller arriving while it is computed waits for it.
    const first = await held('all', 'first');
    const joined = answers.json(scope, 'all', h.clock.now, async () => ({ answer: 'joined' }));
    first.release();
    expect(JSON.parse(await joined)).toEqual({ answer: 'first' });
    expect(answers.computed).toBe(1);
    // A line stored while one is computed: the next caller does not take the answer begun before it.
    const second = await held('group', 'second');
    await scope
      .updateTable('machine_live')
      .set({ program: 'O2000' })
      .where('machine_id', '=', a.first)
      .execute();
    const after = answers.json(scope, 'group', h.clock.now, async () => ({ answer: 'after' }));
    second.release();
    expect([await second.text, await after].map((t) => JSON.parse(t))).toEqual([
      { answer: 'second' },
      { answer: 'after' },
    ]);
    expect(answers.computed).toBe(3);
  });

  it('computes again once the reuse time has passed, and never gives a later answer to an earlier now', async () => {
    const a = await plant('A');
    const at = h.clock.now;
    await tiles(a.cookie);
    h.clock.now = at + DASHBOARD_REUSE_MS;
    expect((await tiles(a.cookie)).now).toBe(at);
    h.clock.now = at + DASHBOARD_REUSE_MS + 1;
    expect((await tiles(a.cookie)).now).toBe(at + DASHBOARD_REUSE_MS + 1);
    h.clock.now = at;
    expect((await tiles(a.cookie)).now).toBe(at);
    expect(answers.computed).toBe(3);
  });

  it('never gives one company or view the answer of another, and computes concurrent callers once', async () => {
    const a = await plant('A');
    const b = await plant('B');
    const manager = await aUser(h.t.db, a.company, { role: 'manager' });
    const other = await h.login(manager.email, manager.password);
    const [a1, a2, b1] = await Promise.all([tiles(a.cookie), tiles(other), tiles(b.cookie)]);
    expect(a1).toEqual(a2);
    expect(a1.machines.map((m) => m.name)).toEqual(['A 1', 'A 2']);
    expect(b1.machines.map((m) => m.name)).toEqual(['B 1', 'B 2']);
    expect(answers.computed).toBe(2);
    // Another view of the same company: one group only.
    const grouped = await tiles(other, `?group=${a.group}`);
    expect(grouped.machines.map((m) => m.name)).toEqual(['A 2']);
    expect((await tiles(a.cookie)).machines.map((m) => m.name)).toEqual(['A 1', 'A 2']);
    expect((await tiles(b.cookie, `?group=${a.group}`)).machines).toEqual([]);
    expect(answers.computed).toBe(4);
    // The view is in the key: the same company at the same version and now, another view, another computation.
    const scope = companyScope(h.t.db, a.company.id);
    const full = await answers.json(scope, 'full', h.clock.now, async () => ({ view: 'full' }));
    const plain = await answers.json(scope, 'plain', h.clock.now, async () => ({ view: 'plain' }));
    expect([JSON.parse(full), JSON.parse(plain)]).toEqual([{ view: 'full' }, { view: 'plain' }]);
    expect(await answers.json(scope, 'full', h.clock.now, async () => ({ view: 'again' }))).toBe(full);
    expect(answers.computed).toBe(6);
  });
});
