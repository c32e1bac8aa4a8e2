import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { companyScope } from '@takt/db';
import { markRollupsDirty } from '@takt/db/rollups';
import { DIALECTS } from '@takt/db/testing';
import type { Company } from '../repositories/company';
import { apiHarness } from '../testing/app';
import type { ApiHarness } from '../testing/app';
import { aCompany, aMachine, aUser } from '../testing/builders';
import { HOUR, someStates } from '../testing/downtime-builders';
import { aJobWithRun } from '../testing/report-plant';

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
  /** The job run on each machine over the range's first 8 hours. */
  const jobOf: Record<string, string> = {};

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

  /**
   * The `recomputing` list of the one-machine reports of raw intervals (cycles, timeline, sub-programs, the
   * machine-job report and the machine's Jobs report), which must all agree; and the header of its cycles and
   * jobs CSV downloads (decision 1030).
   */
  async function machineLists(who: string, machineId: string) {
    const get = async (path: string) => {
      const res = await h.get(path, who);
      expect(res.status, await res.clone().text()).toBe(200);
      return ((await res.json()) as { recomputing: unknown }).recomputing;
    };
    const one = `machineId=${machineId}`;
    const answers = [
      await get(`/api/reports/cycles?${qs}&${one}`),
      await get(`/api/reports/operation?${qs}&${one}`),
      // A sub-program window of 2 hours at the end of the runs.
      await get(`/api/reports/subprograms?start=${D + 6 * HOUR}&end=${D + 8 * HOUR}&${one}`),
    ];
    if (jobOf[machineId]) {
      answers.push(
        await get(`/api/reports/warehouse/jobs?${qs}&machine_id=${machineId}`),
        await get(
          `/api/reports/warehouse/jobs/aggregatedbymachine?${qs}&job_id=${jobOf[machineId]}&machine_id=${machineId}`,
        ),
      );
    }
    for (const a of answers.slice(1)) expect(a).toEqual(answers[0]);
    const ids = (answers[0] as Array<{ machineId: string }>).map((x) => x.machineId).join(',');
    for (const csv of [
      `/api/reports/cycles?${qs}&${one}&format=csv`,
      ...(jobOf[machineId] ? [`/api/reports/warehouse/jobs?${qs}&machine_id=${machineId}&format=csv`] : []),
    ]) {
      const res = await h.get(csv, who);
      expect(res.status).toBe(200);
      expect(res.headers.get('X-Takt-Recomputing')).toBe(ids);
      expect((await res.text()).split('\r\n')[0]).not.toContain('Recomputing'); // the body keeps its shape
    }
    return answers[0];
  }

  /** The company-wide job calls: the Jobs report, and one job's report over all its machines. */
  async function jobLists(who: string) {
    const get = async (path: string) => {
      const res = await h.get(path, who);
      expect(res.status, await res.clone().text()).toBe(200);
      return { list: ((await res.json()) as { recomputing: unknown }).recomputing };
    };
    const jobs = await get(`/api/reports/warehouse/jobs?${qs}&limit=1`);
    const csv = await h.get(`/api/reports/warehouse/jobs?${qs}&format=csv`, who);
    expect(csv.headers.get('X-Takt-Recomputing')).toBe(
      (jobs.list as Array<{ machineId: string }>).map((x) => x.machineId).join(','),
    );
    return jobs.list;
  }

  beforeAll(async () => {
    h = await apiHarness(dialect);
    ({ company, cookie } = await tenant());
    m.lathe = await aMachine(h.t.db, company, { name: 'Lathe 1', sortOrder: 1 });
    m.mill = await aMachine(h.t.db, company, { name: 'Mill 2', sortOrder: 2 });
    m.saw = await aMachine(h.t.db, company, { name: 'Saw 3', sortOrder: 3 });
    for (const id of Object.values(m)) {
      await someStates(h.t.db, company, id, [[D, D + 8 * HOUR, 'ACTIVE']]);
      jobOf[id] = await aJobWithRun(companyScope(h.t.db, company.id), {
        machineId: id,
        name: `Job on ${id}`,
        expected: 60_000,
        ideal: 60_000,
        jobCreatedAt: D - DAY,
        start: D,
        end: D + 8 * HOUR,
      });
    }
    const o = await tenant();
    const machine = await aMachine(h.t.db, o.company, { name: 'Other lathe' });
    other = { ...o, machine };
  });
  afterAll(async () => {
    await h.close();
  });

  it('is empty when no machine has a pending recompute', async () => {
    expect(await lists(cookie)).toEqual([]);
    for (const id of Object.values(m)) expect(await machineLists(cookie, id)).toEqual([]);
    expect(await jobLists(cookie)).toEqual([]);
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
    expect(await machineLists(other.cookie, other.machine)).toEqual([
      { machineId: other.machine, machineName: 'Other lathe' },
    ]);
    expect(await jobLists(other.cookie)).toEqual([]);
    // The reports of raw intervals, the job reports and their CSV downloads say the same.
    expect(await machineLists(cookie, m.lathe)).toEqual([{ machineId: m.lathe, machineName: 'Lathe 1' }]);
    expect(await machineLists(cookie, m.mill)).toEqual([]);
    expect(await machineLists(cookie, m.saw)).toEqual([{ machineId: m.saw, machineName: 'Saw 3' }]);
    // The Jobs report names every entry's machines (by name), not only those of the page it answers.
    expect(await jobLists(cookie)).toEqual([
      { machineId: m.lathe, machineName: 'Lathe 1' },
      { machineId: m.saw, machineName: 'Saw 3' },
    ]);
  });
});
