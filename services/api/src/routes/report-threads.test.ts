import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { companyScope } from '@takt/db';
import { DIALECTS } from '@takt/db/testing';
import type { Caller } from '../http/context';
import { startNodeReports } from '../node-reports';
import type { NodeReports } from '../node-reports';
import { useSharedAnswers } from '../services/report-shared';
import { useReportThreads } from '../services/report-threads';
import { apiHarness } from '../testing/app';
import type { ApiHarness } from '../testing/app';
import { aMachine } from '../testing/builders';
import { downTwice, someStates } from '../testing/downtime-builders';
import { aReportTenant } from '../testing/report-plant';

// Decision 1253: the reports computed in the node's report threads (node-reports.ts), each on its own database
// handle, answer exactly as the API's loop computes them: the same figures, the same refusals in the spec's words,
// a recompute of the node seen before the next computation, and a thread that dies costs its calls under way only.

const HOUR = 3_600_000;
/** Monday 2025-11-17 00:00 UTC (06:00 in Chicago is 12:00 UTC); the harness clock stands two days later. */
const D = Date.UTC(2025, 10, 17);
const NOW = D + 48 * HOUR;

describe.each(DIALECTS)('reports computed in report threads on %s', (dialect) => {
  let h: ApiHarness;
  let reports: NodeReports;
  /** What the threads' deaths logged. */
  const logged: string[] = [];
  beforeAll(async () => {
    h = await apiHarness(dialect, NOW);
    reports = startNodeReports({ url: h.t.url }, 2, (line) => logged.push(line));
    await reports.started();
  });
  afterAll(async () => {
    useReportThreads(h.t.db, null);
    await reports.stop();
    await h.close();
  });

  /** A company's machine with a day of states (down 01:00–02:00 and 05:00–07:00 UTC), its rollups recomputed. */
  async function plant() {
    const tenant = await aReportTenant(h, [['Day', 0, 720]]);
    const machine = await aMachine(h.t.db, tenant.company, { name: 'Mill' });
    await someStates(h.t.db, tenant.company, machine, downTwice(D));
    await tenant.recompute([machine], { from: D, to: NOW, now: NOW });
    return { ...tenant, machine };
  }

  // A range with mid-hour edges (the partial days' hourly rows a thread keeps) and a whole day.
  const ranges = [
    { start: D + HOUR / 4, end: D + 11 * HOUR + HOUR / 2 },
    { start: D, end: D + 24 * HOUR },
  ];
  const calls = (machine: string) =>
    ranges.flatMap(({ start, end }) => {
      const q = `start=${start}&end=${end}`;
      return [
        { method: 'GET', path: `/api/reports/oee?${q}&interval=hour` },
        { method: 'GET', path: `/api/reports/utilization?${q}&interval=hour` },
        { method: 'GET', path: `/api/reports/downtime?${q}` },
        { method: 'GET', path: `/api/reports/downtime?${q}&machineId=${machine}&format=csv` },
        {
          method: 'POST',
          path: '/api/reports/warehouse/production',
          body: {
            start,
            end,
            interval: 'hour',
            data: ['oee', 'timeInCycle'],
            groupBy: ['machine', 'interval'],
          },
        },
      ];
    });

  /** Every call's status and body, computed in the threads (`threads`) or in the loop; no answer shared before. */
  async function answers(cookie: string, machine: string, threads: boolean) {
    useReportThreads(h.t.db, threads ? reports : null);
    useSharedAnswers(h.t.db, true);
    const out: Array<{ status: number; body: string }> = [];
    for (const c of calls(machine)) {
      const res =
        c.method === 'GET' ? await h.get(c.path, cookie) : await h.send('POST', c.path, cookie, c.body);
      out.push({ status: res.status, body: await res.text() });
    }
    return out;
  }

  it('every report answers the same figures in a thread as in the loop', async () => {
    const a = await plant();
    const loop = await answers(a.cookie, a.machine, false);
    const before = reports.computed();
    const threaded = await answers(a.cookie, a.machine, true);
    // The threads computed them all (the CSV reads the list's answer); the figures are there, and the same.
    expect(reports.computed() - before).toBe(calls(a.machine).length);
    expect(loop.map((x) => x.status)).toEqual(loop.map(() => 200));
    expect(JSON.parse(loop[2]!.body)).toMatchObject({ summary: { count: 2, duration: 3 * HOUR } });
    expect(threaded).toEqual(loop);
  });

  it("a refusal from a thread keeps the spec's status and words", async () => {
    const a = await plant();
    const other = await aReportTenant(h, []);
    const theirs = await aMachine(h.t.db, other.company, { name: 'Lathe' });
    const refused = [
      // Over the downtime report's 31 days (live-operations §9), and a machine of another company.
      `/api/reports/downtime?start=${D - 40 * 24 * HOUR}&end=${D}`,
      `/api/reports/utilization?start=${D}&end=${D + HOUR}&interval=hour&machineId=${theirs}`,
    ];
    for (const path of refused) {
      useReportThreads(h.t.db, null);
      const loop = await h.get(path, a.cookie);
      useReportThreads(h.t.db, reports);
      const before = reports.computed();
      const threaded = await h.get(path, a.cookie);
      expect(reports.computed() - before, path).toBe(1);
      expect(loop.status, path).toBeGreaterThanOrEqual(400);
      expect([threaded.status, await threaded.text()]).toEqual([loop.status, await loop.text()]);
    }
  });

  it('a recompute of the node at the same instant reaches the threads before their next computation', async () => {
    const a = await plant();
    useReportThreads(h.t.db, reports);
    const path = `/api/reports/utilization?start=${D + HOUR / 4}&end=${D + 11 * HOUR + HOUR / 2}&interval=hour`;
    const inCycle = async () =>
      ((await (await h.get(path, a.cookie)).json()) as { InCycleSeconds: number }).InCycleSeconds;
    const before = await inCycle();
    // Every thread has kept this range's partial days (the calls go to each in turn).
    for (let i = 0; i < 3; i++) await inCycle();
    // 02:00–05:00 stopped instead, recomputed at the same computed_at (a fixed clock): only the node's count of
    // its recomputes tells the threads' kept rows apart.
    const scope = companyScope(h.t.db, a.company.id);
    await scope
      .updateTable('state_intervals')
      .set({ state: 'STOPPED' })
      .where('machine_id', '=', a.machine)
      .where('start_at', '=', D + 2 * HOUR)
      .execute();
    await a.recompute([a.machine], { from: D, to: NOW, now: NOW });
    for (let i = 0; i < 2; i++) expect(await inCycle()).toBeCloseTo(before - 3 * 3600, 0);
  });

  it('a thread that ends fails its calls under way; the loop answers until it is started again', async () => {
    const a = await plant();
    useReportThreads(h.t.db, reports);
    const path = `/api/reports/downtime?start=${D}&end=${D + 12 * HOUR}`;
    const expected = await (await h.get(path, a.cookie)).text();
    // A computation handed to a thread as it ends fails with the thread's end, not a hang.
    const restarts = reports.restarts();
    const ending = reports.ready().map((w) => w.terminate());
    const run = reports.run({
      task: {
        call: 'downtime',
        q: { start: D, end: D + 12 * HOUR, showPlanned: true, showUnplanned: true, showUncategorized: true },
        limit: 'downtime',
        keep: true,
      },
      companyId: a.company.id,
      at: NOW,
      now: NOW,
      caller: {
        kind: 'user',
        user: { role: 'manager', isRoot: false },
        company: a.company,
      } as unknown as Caller,
    });
    expect(run).not.toBeNull();
    const failed = expect(run).rejects.toThrow('the report thread ended');
    await Promise.all(ending);
    await failed;
    expect(logged.splice(0)).toEqual([
      expect.stringContaining('[reports] thread ended'),
      expect.stringContaining('[reports] thread ended'),
    ]);
    // No thread ready: the loop computes (the same answer); then the threads are back.
    useSharedAnswers(h.t.db, true);
    const before = reports.computed();
    const res = await h.get(path, a.cookie);
    expect([res.status, await res.text()]).toEqual([200, expected]);
    expect(reports.computed()).toBe(before);
    await reports.started();
    expect(reports.restarts() - restarts).toBe(2);
    useSharedAnswers(h.t.db, true);
    expect(await (await h.get(path, a.cookie)).text()).toBe(expected);
    expect(reports.computed()).toBe(before + 1);
  });
});
