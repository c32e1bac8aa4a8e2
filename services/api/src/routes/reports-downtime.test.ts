import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { BOUND_ELSEWHERE } from '../auth/tablet-binding';
import { companyScope } from '@takt/db';
import type { Company } from '../repositories/company';
import { apiHarness } from '../testing/app';
import type { ApiHarness } from '../testing/app';
import { aCompany, aGroup, aMachine, aUser } from '../testing/builders';
import { DIALECTS } from '@takt/db/testing';
import { aDowntimeReason, aJobRun, anAnnotation, HOUR, MIN, someStates } from '../testing/downtime-builders';
import { aShift, errorOf } from '../testing/live-builders';
import { aTablet } from '../testing/tablet-builders';

// live-operations §7 GET /api/reports/downtime (decision 0700): hand-computed values from seeded facts, each
// filter and validation rule, CSV, and tenancy, on both dialects (split from reports.test.ts).

/** Monday 2025-11-17 00:00 UTC; the harness clock stands on the following Saturday. */
const D = Date.parse('2025-11-17T00:00:00Z');
const DAY = 24 * HOUR;

describe.each(DIALECTS)('downtime report calls on %s', (dialect) => {
  let h: ApiHarness;
  beforeEach(async () => {
    h = await apiHarness(dialect);
  });
  afterEach(async () => {
    await h.close();
  });

  /** A company on UTC (day and hour boundaries at whole UTC hours) with an admin logged in. */
  async function utcTenant(over: { productTier?: Company['productTier'] } = {}) {
    const company = await aCompany(h.t.db, { timezone: 'UTC', ...over });
    const user = await aUser(h.t.db, company);
    return { company, cookie: await h.login(user.email, user.password) };
  }

  async function json<T = Record<string, unknown>>(path: string, cookie: string): Promise<T> {
    const res = await h.get(path, cookie);
    expect(res.status, await res.clone().text()).toBe(200);
    return (await res.json()) as T;
  }

  async function rejected(path: string, cookie: string, status = 400) {
    const res = await h.get(path, cookie);
    expect(res.status, await res.clone().text()).toBe(status);
    return errorOf(res);
  }

  // -------------------------------------------------------------------------------------------------------
  // Downtime

  /**
   * M1: Tooling (unplanned) 1 h at 01:00, 30 min uncategorized fault at 03:00. M2: Break (planned) 1 h at
   * 00:00. Both in cycle otherwise until 04:00.
   */
  async function downtimePlant() {
    const me = await utcTenant();
    const group = await aGroup(h.t.db, me.company, 'Cell 2');
    const m1 = await aMachine(h.t.db, me.company, { name: 'M1', groupIds: [group], sortOrder: 1 });
    const m2 = await aMachine(h.t.db, me.company, { name: 'M2', sortOrder: 2 });
    await someStates(h.t.db, me.company, m1, [
      [D, D + HOUR, 'ACTIVE'],
      [D + HOUR, D + 2 * HOUR, 'INACTIVE'],
      [D + 2 * HOUR, D + 3 * HOUR, 'ACTIVE'],
      [D + 3 * HOUR, D + 3 * HOUR + 30 * MIN, 'FAULT'],
      [D + 3 * HOUR + 30 * MIN, D + 4 * HOUR, 'ACTIVE'],
    ]);
    await someStates(h.t.db, me.company, m2, [
      [D, D + HOUR, 'INACTIVE'],
      [D + HOUR, D + 4 * HOUR, 'ACTIVE'],
    ]);
    const tooling = await aDowntimeReason(h.t.db, me.company, {
      name: 'Tooling',
      plannedBehavior: 'unplanned',
    });
    const brk = await aDowntimeReason(h.t.db, me.company, { name: 'Break', plannedBehavior: 'planned' });
    await anAnnotation(h.t.db, me.company, {
      machineId: m1,
      start: D + HOUR,
      typeId: tooling.id,
      message: 'Insert',
    });
    await anAnnotation(h.t.db, me.company, { machineId: m2, start: D, typeId: brk.id });
    return { ...me, group, m1, m2, tooling, brk };
  }

  interface Tally {
    count: number;
    duration: number;
    annotationType: { id: string; name: string } | null;
  }
  interface DowntimeReport {
    range: { start: number; end: number };
    data: Array<Tally & { reason: string; minutes: string }>;
    summary: {
      count: number;
      duration: number;
      minutes: string;
      plannedDuration: number;
      unplannedDuration: number;
      uncategorizedDuration: number;
    };
    byMachine: Array<{ machineId: string; machine: string; downtime: Tally[] }>;
    items?: Array<{
      start: number;
      duration: number;
      machine: string;
      reason: string;
      planned: boolean | null;
    }>;
  }
  const base = `/api/reports/downtime?start=${D}&end=${D + 4 * HOUR}`;

  it('downtime: Pareto, summary and by machine; setup and time outside the range left out', async () => {
    const { cookie, m1, m2, tooling, brk } = await downtimePlant();
    const r = await json<DowntimeReport>(base, cookie);
    expect(r.range).toEqual({ start: D, end: D + 4 * HOUR });
    expect(r.summary).toEqual({
      count: 3,
      duration: 150 * MIN,
      minutes: '150.00',
      plannedDuration: HOUR,
      unplannedDuration: HOUR,
      uncategorizedDuration: 30 * MIN,
      noDataDuration: 0,
    });
    expect(r.data.map((d) => [d.reason, d.count, d.duration, d.minutes]).sort()).toEqual([
      ['Break', 1, HOUR, '60.00'],
      ['Tooling', 1, HOUR, '60.00'],
      ['Uncategorized', 1, 30 * MIN, '30.00'],
    ]);
    expect(r.data[2]!.reason).toBe('Uncategorized');
    expect(r.byMachine).toEqual([
      {
        machineId: m1,
        machine: 'M1',
        downtime: [
          {
            count: 1,
            duration: HOUR,
            reasonId: tooling.id,
            annotationType: expect.objectContaining({ id: tooling.id, name: 'Tooling' }),
          },
          { count: 1, duration: 30 * MIN, reasonId: 'uncategorized', annotationType: null },
        ],
      },
      {
        machineId: m2,
        machine: 'M2',
        downtime: [
          {
            count: 1,
            duration: HOUR,
            reasonId: brk.id,
            annotationType: expect.objectContaining({ id: brk.id }),
          },
        ],
      },
    ]);
    expect(r.items).toBeUndefined();
    const detail = await json<DowntimeReport>(`${base}&detail=true`, cookie);
    expect(detail.items!.map((i) => [i.start, i.duration, i.machine, i.reason, i.planned])).toEqual([
      [D, HOUR, 'M2', 'Break', true],
      [D + HOUR, HOUR, 'M1', 'Tooling', false],
      [D + 3 * HOUR, 30 * MIN, 'M1', 'Uncategorized', null],
    ]);
  });

  it('downtime: the filters (planned kinds, reason, machine, group, shifts, scheduled, hidden)', async () => {
    const { company, cookie, m1, m2, group, tooling, brk } = await downtimePlant();
    const count = async (query: string) => (await json<DowntimeReport>(`${base}${query}`, cookie)).summary;
    expect((await count('&showPlanned=false')).count).toBe(2);
    expect((await count('&showUnplanned=false')).count).toBe(2);
    expect((await count('&showUncategorized=false')).duration).toBe(2 * HOUR);
    expect(await count(`&categoryId=${tooling.id}`)).toMatchObject({ count: 1, unplannedDuration: HOUR });
    expect(await count(`&machineId=${m2}`)).toMatchObject({ count: 1, plannedDuration: HOUR });
    expect(await count(`&group=${group}`)).toMatchObject({ count: 2, duration: 90 * MIN });
    // A shift 00:00–01:30: Break 60 min and the first 30 min of Tooling.
    const early = await aShift(h.t.db, company, {
      name: 'Early',
      startoffsetminutes: 0,
      endoffsetminutes: 90,
    });
    expect(await count(`&shifts=${early}`)).toMatchObject({ count: 2, duration: 90 * MIN });
    expect((await count('&shifts=')).count).toBe(3);
    const theirShift = await aShift(h.t.db, (await utcTenant()).company);
    expect(await rejected(`${base}&shifts=${early},${theirShift}`, cookie, 404)).toMatchObject({
      message: 'Shift not found.',
    });
    // Only while a job run is on: M1 from 03:00, so just its fault.
    await aJobRun(h.t.db, company, m1, { start: D + 3 * HOUR, end: D + 5 * HOUR });
    expect(await count('&onlyScheduled=true')).toMatchObject({ count: 1, uncategorizedDuration: 30 * MIN });
    // A hidden reason is left out unless asked for.
    await companyScope(h.t.db, company.id)
      .updateTable('annotation_types')
      .set({ hidden: 1 })
      .where('id', '=', brk.id)
      .execute();
    expect((await count('')).count).toBe(2);
    expect((await count('&includeHidden=true')).count).toBe(3);
    expect(m2).toBeTruthy();
  });

  it('downtime: categoryId=uncategorized selects the periods without a reason (decision 0812)', async () => {
    const { company, cookie, m1, m2 } = await downtimePlant();
    // A note without a reason on M1's fault leaves it uncategorized.
    await anAnnotation(h.t.db, company, { machineId: m1, start: D + 3 * HOUR, message: 'Jam' });
    const none = await json<DowntimeReport>(`${base}&categoryId=uncategorized&detail=true`, cookie);
    expect(none.summary).toEqual({
      count: 1,
      duration: 30 * MIN,
      minutes: '30.00',
      plannedDuration: 0,
      unplannedDuration: 0,
      uncategorizedDuration: 30 * MIN,
      noDataDuration: 0,
    });
    expect(none.data.map((d) => [d.reason, d.count, d.duration])).toEqual([['Uncategorized', 1, 30 * MIN]]);
    expect(none.byMachine).toEqual([
      {
        machineId: m1,
        machine: 'M1',
        downtime: [{ count: 1, duration: 30 * MIN, reasonId: 'uncategorized', annotationType: null }],
      },
    ]);
    expect(none.items!.map((i) => [i.start, i.duration, i.reason])).toEqual([
      [D + 3 * HOUR, 30 * MIN, 'Uncategorized'],
    ]);
    const count = async (query: string) =>
      (await json<DowntimeReport>(`${base}&categoryId=uncategorized${query}`, cookie)).summary;
    expect((await count(`&machineId=${m2}`)).count).toBe(0);
    expect((await count('&showUncategorized=false')).count).toBe(0);
    // A shift 03:15–04:00 keeps the fault's last 15 minutes.
    const late = await aShift(h.t.db, company, {
      name: 'Late',
      startoffsetminutes: 195,
      endoffsetminutes: 240,
    });
    expect(await count(`&shifts=${late}`)).toMatchObject({ count: 1, duration: 15 * MIN });
    const csv = await h.get(`${base}&categoryId=uncategorized&shifts=${late}&format=csv`, cookie);
    expect(await csv.text()).toBe(
      'Start,Duration,Machine,Reason,Message,Planned\r\n' +
        '2025-11-17 03:15:00,15.00,M1,Uncategorized,Jam,\r\n',
    );
    expect(await rejected(`${base}&categoryId=`, cookie)).toMatchObject({
      issues: [
        expect.objectContaining({ message: "categoryId must be a downtime reason id or 'uncategorized'" }),
      ],
    });
    // Another company's caller: nothing of this company's.
    const other = await utcTenant();
    expect((await json<DowntimeReport>(`${base}&categoryId=uncategorized`, other.cookie)).summary.count).toBe(
      0,
    );
    expect((await h.get(`${base}&categoryId=uncategorized&machineId=${m1}`, other.cookie)).status).toBe(404);
  });

  it('downtime: CSV grid with minutes to 2 decimals and the planned label', async () => {
    const { cookie } = await downtimePlant();
    const res = await h.get(`${base}&format=csv`, cookie);
    expect(res.headers.get('content-disposition')).toContain('downtime.csv');
    expect(await res.text()).toBe(
      'Start,Duration,Machine,Reason,Message,Planned\r\n' +
        '2025-11-17 00:00:00,60.00,M2,Break,,Planned\r\n' +
        '2025-11-17 01:00:00,60.00,M1,Tooling,Insert,Unplanned\r\n' +
        '2025-11-17 03:00:00,30.00,M1,Uncategorized,,\r\n',
    );
  });

  it('downtime: with areActivitiesEnabled the rows carry the job and activity at their start (decision 1087)', async () => {
    const { company, cookie, m1 } = await downtimePlant();
    await aJobRun(h.t.db, company, m1, { start: D + 2 * HOUR, end: D + 5 * HOUR, jobName: 'Bracket' });
    const off = await json<{ activities: boolean; items: Array<Record<string, unknown>> }>(
      `${base}&detail=true`,
      cookie,
    );
    expect(off.activities).toBe(false);
    expect(off.items.every((i) => !('jobName' in i) && !('activityTypeName' in i))).toBe(true);

    await h.t.db
      .updateTable('companies')
      .set({ activities_enabled: 1 })
      .where('id', '=', company.id)
      .execute();
    const on = await json<{ activities: boolean; items: Array<Record<string, unknown>> }>(
      `${base}&detail=true`,
      cookie,
    );
    expect(on.activities).toBe(true);
    expect(on.items.map((i) => [i.machine, i.reason, i.jobName, i.activityTypeName])).toEqual([
      ['M2', 'Break', null, null],
      ['M1', 'Tooling', null, null],
      ['M1', 'Uncategorized', 'Bracket', 'Production'],
    ]);
    const csv = await (await h.get(`${base}&format=csv`, cookie)).text();
    expect(csv.split('\r\n')[0]).toBe('Start,Duration,Machine,Reason,Message,Planned,Job,Activity');
    expect(csv).toContain('2025-11-17 03:00:00,30.00,M1,Uncategorized,,,Bracket,Production\r\n');
  });

  it('downtime: at most 31 days; start before end; known group', async () => {
    const { cookie } = await utcTenant();
    const other = await utcTenant();
    const otherGroup = await aGroup(h.t.db, other.company);
    expect(await rejected(`/api/reports/downtime?start=${D}&end=${D + 31 * DAY + 1}`, cookie)).toMatchObject({
      message: 'Select up to 31 days',
    });
    expect((await h.get(`/api/reports/downtime?start=${D}&end=${D + 31 * DAY}`, cookie)).status).toBe(200);
    // 31 days on the wall clock of a Chicago company, across the fall-back night: 31 days and 1 hour.
    const chicago = await h.tenant();
    await aMachine(h.t.db, chicago.company);
    const from = Date.parse('2025-11-01T05:00:00Z');
    const to = Date.parse('2025-12-02T06:00:00Z');
    expect(to - from).toBe(31 * DAY + HOUR);
    const dst = await h.get(`/api/reports/downtime?start=${from}&end=${to}`, chicago.cookie);
    expect(dst.status, await dst.clone().text()).toBe(200);
    await rejected(`/api/reports/downtime?start=${from}&end=${to + 1}`, chicago.cookie);
    await rejected(`/api/reports/downtime?start=${D}&end=${D - 1}`, cookie);
    await rejected(`/api/reports/downtime?start=${D}&end=${D + HOUR}&showPlanned=maybe`, cookie);
    expect(
      await rejected(`/api/reports/downtime?start=${D}&end=${D + HOUR}&group=${otherGroup}`, cookie, 404),
    ).toMatchObject({
      message: 'Machine group not found.',
    });
  });

  it("tenancy: another company's caller sees none of the data", async () => {
    const { cookie: _mine, m1 } = await downtimePlant();
    const other = await utcTenant();
    const r = await json<DowntimeReport>(base, other.cookie);
    expect(r.summary.count).toBe(0);
    expect(r.byMachine).toEqual([]);
    expect(
      (
        await json<{ machines: unknown[] }>(
          `/api/reports/utilization?start=${D}&end=${D + 4 * HOUR}`,
          other.cookie,
        )
      ).machines,
    ).toEqual([]);
    expect(
      (
        await json<{ machines: unknown[] }>(
          `/api/reports/partGoals?start=${D}&end=${D + 4 * HOUR}`,
          other.cookie,
        )
      ).machines,
    ).toEqual([]);
    for (const path of [
      `${base}&machineId=${m1}`,
      `/api/reports/utilization?start=${D}&end=${D + HOUR}&machineId=${m1}`,
      `/api/reports/partGoals?start=${D}&end=${D + HOUR}&machineId=${m1}`,
      `/api/reports/operation?start=${D}&end=${D + HOUR}&machineId=${m1}`,
      `/api/reports/subprograms?start=${D}&end=${D + HOUR}&machineId=${m1}`,
    ]) {
      expect((await h.get(path, other.cookie)).status, path).toBe(404);
    }
    expect((await h.get(base, '')).status).toBe(401);
  });

  it('a tablet bound to one machine gets the reports of that machine only', async () => {
    const { company, m1, m2 } = await downtimePlant();
    const { cookie } = await aTablet(h.t.db, company, m1, h.clock.now);
    expect((await h.get(`${base}&machineId=${m1}`, cookie)).status).toBe(200);
    const elsewhere = await h.get(`${base}&machineId=${m2}`, cookie);
    expect(elsewhere.status).toBe(403);
    expect(await errorOf(elsewhere)).toEqual({ code: 'TABLET_BOUND', message: BOUND_ELSEWHERE });
  });
});
