import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { markRollupsDirty } from '@takt/db/rollups';
import { DIALECTS } from '@takt/db/testing';
import type { Company } from '../repositories/company';
import { apiHarness } from '../testing/app';
import type { ApiHarness } from '../testing/app';
import { aCompany, aMachine, aUser } from '../testing/builders';
import { HOUR, someStates } from '../testing/downtime-builders';

// Issue 27 point 8 (decision 1004): every report answer lists the machines whose figures in its range are still
// being recomputed (a pending rollup mark from before the range's end), company-scoped; empty when settled.

/** Monday 2025-11-17 00:00 UTC; the harness clock stands on the following Saturday. */
const D = Date.parse('2025-11-17T00:00:00Z');
const DAY = 24 * HOUR;
const range = { start: D, end: D + DAY };
const qs = `start=${range.start}&end=${range.end}`;

describe.each(DIALECTS)('recomputing machines in report answers on %s', (dialect) => {
  let h: ApiHarness;
  let company: Company;
  let cookie: string;
  let other: { company: Company; cookie: string; machine: string };
  const m: Record<'lathe' | 'mill' | 'saw', string> = { lathe: '', mill: '', saw: '' };

  async function tenant() {
    const c = await aCompany(h.t.db, { timezone: 'UTC' });
    const user = await aUser(h.t.db, c);
    return { company: c, cookie: await h.login(user.email, user.password) };
  }

  const mark = (c: Company, machineId: string, from: number) =>
    markRollupsDirty(h.t.db, { companyId: c.id, machineId, from, now: h.clock.now });

  /** The `recomputing` list of every report call for the range (optionally one machine). */
  async function lists(who: string, machineId?: string) {
    const one = machineId ? `&machineId=${machineId}` : '';
    const get = async (path: string) => {
      const res = await h.get(path, who);
      expect(res.status, await res.clone().text()).toBe(200);
      return ((await res.json()) as { recomputing: unknown }).recomputing;
    };
    const post = async (path: string, body: unknown) => {
      const res = await h.send('POST', path, who, body);
      expect(res.status, await res.clone().text()).toBe(200);
      return ((await res.json()) as { recomputing: unknown }).recomputing;
    };
    const body = { ...range, ...(machineId ? { machines: [machineId] } : {}) };
    const answers = [
      await get(`/api/reports/downtime?${qs}${one}`),
      await get(`/api/reports/partGoals?${qs}&interval=day${one}`),
      await get(`/api/reports/utilization?${qs}&interval=day${one}`),
      await get(`/api/reports/oee?${qs}&interval=day${one}`),
      await post('/api/reports/warehouse/production', {
        ...range,
        data: ['oee'],
        ...(machineId ? { filter: { machine: [machineId] } } : {}),
      }),
      await post('/api/oee/bymachine', body),
      await post('/api/oee/byabstractshift', body),
    ];
    // Every call answers the same list.
    for (const a of answers.slice(1)) expect(a).toEqual(answers[0]);
    return answers[0];
  }

  beforeAll(async () => {
    h = await apiHarness(dialect);
    ({ company, cookie } = await tenant());
    m.lathe = await aMachine(h.t.db, company, { name: 'Lathe 1', sortOrder: 1 });
    m.mill = await aMachine(h.t.db, company, { name: 'Mill 2', sortOrder: 2 });
    m.saw = await aMachine(h.t.db, company, { name: 'Saw 3', sortOrder: 3 });
    for (const id of Object.values(m)) await someStates(h.t.db, company, id, [[D, D + 8 * HOUR, 'ACTIVE']]);
    const o = await tenant();
    const machine = await aMachine(h.t.db, o.company, { name: 'Other lathe' });
    other = { ...o, machine };
  });
  afterAll(async () => {
    await h.close();
  });

  it('is empty when no machine has a pending recompute', async () => {
    expect(await lists(cookie)).toEqual([]);
  });

  it('lists a machine whose mark overlaps the range, not one marked after it, nor another company’s', async () => {
    await mark(company, m.lathe, D + 2 * HOUR); // inside the range
    await mark(company, m.mill, D + DAY); // from the range's end on: outside
    await mark(other.company, other.machine, D - DAY); // before the range: overlaps, but another company's
    expect(await lists(cookie)).toEqual([{ machineId: m.lathe, machineName: 'Lathe 1' }]);
    expect(await lists(cookie, m.saw)).toEqual([]);
    expect(await lists(cookie, m.mill)).toEqual([]);
    // A mark from before the range covers it too (the recompute runs from the mark to now).
    await mark(company, m.saw, D - HOUR);
    expect(await lists(cookie)).toEqual([
      { machineId: m.lathe, machineName: 'Lathe 1' },
      { machineId: m.saw, machineName: 'Saw 3' },
    ]);
    // The other company sees its own machine only.
    expect(await lists(other.cookie)).toEqual([{ machineId: other.machine, machineName: 'Other lathe' }]);
  });
});
