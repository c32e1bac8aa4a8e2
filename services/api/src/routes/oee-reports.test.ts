import { describe, expect, it } from 'vitest';
import type {
  OeeByMachineResponse,
  OeeByShiftResponse,
  OeeReportResponse,
  ProductionResponse,
  WaterfallStep,
} from '@takt/domain';
import { RANGE_TOO_LONG_MESSAGE, TOO_MANY_INTERVALS_MESSAGE } from '../services/production-report';
import { aCompany, aGroup, aMachine, aUser } from '../testing/builders';
import { DIALECTS } from '@takt/db/testing';
import { aDowntimeReason, anAnnotation, aRejectReason, MIN, someStates } from '../testing/downtime-builders';
import { errorOf } from '../testing/live-builders';
import {
  apiPerTest,
  aJobWithRun,
  anAdjustmentRow,
  aRejectRow,
  aReportTenant,
  someCycles,
} from '../testing/report-plant';

// The OEE and utilization report calls (reports-admin §2, §7; decision 0801) on a hand-computed
// plant in America/Chicago over Saturday 2025-11-01 (24 h, CDT) and Sunday 2025-11-02 (25 h: DST ends at
// 02:00 CDT → 01:00 CST), with a Day (06:00–14:00) and a Swing (14:00–22:00) shift every day. Both dialects.

const HOUR = 60 * MIN;
/** Local time on Sunday 2025-11-02 after the change (CST = UTC−6), h ≥ 2. */
const sun = (h: number, m = 0) => Date.UTC(2025, 10, 2, h + 6, m);
/** Saturday 2025-11-01 00:00 CDT (UTC−5) and Monday 2025-11-03 00:00 CST: 49 h. */
const START = Date.UTC(2025, 10, 1, 5);
const MID = Date.UTC(2025, 10, 2, 5); // Sunday 00:00 CDT
const END = Date.UTC(2025, 10, 3, 6);
const NOW = Date.UTC(2025, 10, 5, 12);

// Lathe (group Cell), minutes. Saturday idle (uncategorized) all day. Sunday Day shift: planned setup
// 06:00–07:00 (run started in planned setup), in cycle 07:00–10:00, Break (planned) 10:00–10:30, Tool change
// (planned up to 10 min, lasted 30: Exceeded Limit → unplanned) 10:30–11:00, in cycle 11:00–13:00, fault
// (uncategorized) 13:00–13:20, in cycle 13:20–14:00. Swing: in cycle 14:00–18:00, idle 18:00–22:00.
// Cycles of 10 min, 8 min ideal, 1 part each: 18 + 12 + 3 on Day, 23 on Swing. Day: scrap reject of 3 and a
// part correction of −1; Swing: a non-conforming reject of 1.
const DAY_SHIFT = {
  shift: 480,
  planned: 60 + 30,
  run: 180 + 120 + 40,
  ideal: 33 * 8,
  total: 33 - 1,
  rejected: 3,
};
const SWING = { shift: 480, planned: 0, run: 240, ideal: 23 * 8, total: 23, rejected: 1 };
// Lathe over the two days: T_all 49 h = 2940 min; T_shift 4 × 480 = 1920; T_pdt 90; T_ppt 1830;
// T_run 340 + 240 = 580; ideal 264 + 184 = 448; total 32 + 23 = 55; rejected 3 + 1 = 4; good 51.
const LATHE = { all: 2940, shift: 1920, ppt: 1830, run: 580, ideal: 448, total: 55, good: 51 };
const LATHE_A = LATHE.run / LATHE.ppt;
const LATHE_P = LATHE.ideal / LATHE.run;
const LATHE_Q = LATHE.good / LATHE.total;
const LATHE_OEE = (448 * 51) / (55 * 1830); // = A × P × Q = 0.2270…
const LATHE_OOE = (448 * 51) / (55 * 1920); // (T_run / T_shift) × P × Q
const LATHE_TEEP = (448 * 51) / (55 * 2940); // (T_run / T_all) × P × Q
// Mill: in cycle during Sunday's Day shift only (480 min), idle otherwise, no job, no cycles: its run time has
// no standard, so P is null (METRICS.md §3, decision 1002: never 0 %), Q null, and the warning shows.
// All machines: T_all 5880; T_shift 3840; T_ppt 3750; T_run 1060, of which 580 with a standard (the Lathe's);
// ideal 448: P = 448 / 580; total 55; good 51.
const ALL_P = 448 / 580;
/** OEE (or OOE, TEEP) of the two machines over a time base: (T_run / base) × P × Q. */
const allOver = (run: number, base: number) => (run / base) * ALL_P * (51 / 55);
const ALL_OEE = allOver(1060, 3750);
/** Day shifts of both machines: T_ppt 1830, run 820 of which 340 with a standard, ideal 264, 29 of 32 good. */
const DAY_BOTH = (820 / 1830) * (264 / 340) * (29 / 32);

const close = (actual: number | null | undefined, expected: number) => {
  expect(actual).not.toBeNull();
  expect(actual!).toBeCloseTo(expected, 12);
};

describe.each(DIALECTS)('OEE and utilization report calls on %s', (dialect) => {
  const api = apiPerTest(dialect, NOW);

  async function plant() {
    const { company, cookie, scope, shiftIds, recompute } = await aReportTenant(api.h, [
      ['Day', 360, 840],
      ['Swing', 840, 1320],
    ]);
    const [day, swing] = shiftIds as [string, string];
    const cell = await aGroup(api.h.t.db, company, 'Cell');
    const lathe = await aMachine(api.h.t.db, company, { name: 'Lathe', groupIds: [cell], sortOrder: 1 });
    const mill = await aMachine(api.h.t.db, company, { name: 'Mill', sortOrder: 2 });

    await someStates(api.h.t.db, company, lathe, [
      [START, sun(6), 'INACTIVE'],
      [sun(6), sun(7), 'SETUP'],
      [sun(7), sun(10), 'ACTIVE'],
      [sun(10), sun(11), 'INACTIVE'],
      [sun(11), sun(13), 'ACTIVE'],
      [sun(13), sun(13, 20), 'FAULT'],
      [sun(13, 20), sun(18), 'ACTIVE'],
      [sun(18), END, 'INACTIVE'],
    ]);
    await someStates(api.h.t.db, company, mill, [
      [START, sun(6), 'INACTIVE'],
      [sun(6), sun(14), 'ACTIVE'],
      [sun(14), END, 'INACTIVE'],
    ]);
    const brk = await aDowntimeReason(api.h.t.db, company, { name: 'Break', plannedBehavior: 'planned' });
    const tool = await aDowntimeReason(api.h.t.db, company, {
      name: 'Tool change',
      plannedBehavior: 'plannedWithLimit',
      plannedLimitMs: 10 * MIN,
    });
    await anAnnotation(api.h.t.db, company, {
      machineId: lathe,
      start: sun(10),
      end: sun(10, 30),
      typeId: brk.id,
    });
    await anAnnotation(api.h.t.db, company, {
      machineId: lathe,
      start: sun(10, 30),
      end: sun(11),
      typeId: tool.id,
    });

    const jobId = await aJobWithRun(scope, {
      machineId: lathe,
      name: 'Flange',
      expected: 10 * MIN,
      ideal: 8 * MIN,
      jobCreatedAt: START,
      start: sun(6),
      end: sun(22),
      setupEnd: sun(7),
    });
    const cycleEnds = [
      ...Array.from({ length: 18 }, (_, i) => sun(7) + (i + 1) * 10 * MIN), // 07:10 … 10:00
      ...Array.from({ length: 12 }, (_, i) => sun(11) + (i + 1) * 10 * MIN), // 11:10 … 13:00
      ...Array.from({ length: 3 }, (_, i) => sun(13, 20) + (i + 1) * 10 * MIN), // 13:30 … 13:50
      ...Array.from({ length: 23 }, (_, i) => sun(14) + (i + 1) * 10 * MIN), // 14:10 … 17:50
    ];
    await someCycles(
      scope,
      lathe,
      cycleEnds.map((end) => ({ start: end - 10 * MIN, end })),
    );
    const reject = await aRejectReason(api.h.t.db, company, { name: 'Burr' });
    await scope
      .insertInto('part_adjustments', [
        aRejectRow(lathe, sun(11, 30), { typeId: reject.id, scrapcount: 3 }),
        anAdjustmentRow(lathe, sun(12), { count: -1 }),
        aRejectRow(lathe, sun(15), { typeId: reject.id, scrapcount: 1, behavior: 'nonconform' }),
      ])
      .execute();
    await recompute([lathe, mill], { from: START, to: END, now: NOW });
    return { company, cookie, day, swing, cell, lathe, mill, jobId, brk, tool };
  }

  async function post<T>(path: string, cookie: string, body: unknown, status = 200): Promise<T> {
    const res = await api.h.send('POST', path, cookie, body);
    expect(res.status, await res.clone().text()).toBe(status);
    return (await res.json()) as T;
  }
  async function get<T>(path: string, cookie: string): Promise<T> {
    const res = await api.h.get(path, cookie);
    expect(res.status, await res.clone().text()).toBe(200);
    return (await res.json()) as T;
  }
  const production = (cookie: string, body: Record<string, unknown>) =>
    post<ProductionResponse>('/api/reports/warehouse/production', cookie, {
      start: START,
      end: END,
      ...body,
    });

  it('production: tiles per machine, the aggregate, utilization times, and the shift filter hiding OOE and TEEP', async () => {
    const p = await plant();
    const r = await production(p.cookie, {
      data: [
        'oee',
        'ooe',
        'teep',
        'availability',
        'performance',
        'quality',
        'timeInCycle',
        'allTime',
        'utilizationRate',
      ],
      groupBy: ['machine'],
    });
    expect(r.range).toEqual({ start: START, end: END });
    expect(r.entities.machines).toEqual([
      { id: p.lathe, name: 'Lathe' },
      { id: p.mill, name: 'Mill' },
    ]);
    expect(r.entities.shifts.map((s) => s.name).sort()).toEqual(['Day', 'Swing']);
    // Day intervals: Saturday (24 h) and Sunday (25 h), on the company's days.
    expect(r.entities.intervals).toEqual([
      { start: START, end: MID, shopDate: '2025-11-01' },
      { start: MID, end: END, shopDate: '2025-11-02' },
    ]);
    const [lathe, mill] = r.items;
    expect(lathe!.machine).toBe(p.lathe);
    close(lathe!.oee, LATHE_OEE);
    close(lathe!.ooe, LATHE_OOE);
    close(lathe!.teep, LATHE_TEEP);
    close(lathe!.availability, LATHE_A); // 580 / 1830
    close(lathe!.performance, LATHE_P); // 448 / 580
    close(lathe!.quality, LATHE_Q); // 51 / 55
    close(lathe!.oee, LATHE_A * LATHE_P * LATHE_Q);
    expect(lathe!.timeInCycle).toBe(580 * MIN);
    expect(lathe!.allTime).toBe(49 * HOUR);
    close(lathe!.utilizationRate, 580 / 2940);
    expect(lathe!.minExpectedPartTime).toBe(10 * MIN);
    expect(lathe!.missingStandards).toBe(false);
    // Mill: 480 min run of its own T_ppt 1920: A = 0.25; no job: P null, not 0 (decision 1002), with the
    // warning; no parts: Q and OEE null.
    expect(mill).toMatchObject({
      machine: p.mill,
      oee: null,
      quality: null,
      performance: null,
      availability: 0.25,
      missingStandards: true,
    });
    expect(mill!.minExpectedPartTime).toBeNull();
    close(r.aggregate.oee, ALL_OEE);
    close(r.aggregate.performance, ALL_P); // the Lathe's standard run time only
    close(r.aggregate.availability, 1060 / 3750);
    close(r.aggregate.teep, allOver(1060, 5880));
    expect(r.aggregate.missingStandards).toBe(true);
    expect(r.aggregate.timeInCycle).toBe(1060 * MIN);
    expect(r.aggregate.minExpectedPartTime).toBe(10 * MIN);
    expect(r.csv).toBeUndefined();

    // Only the Day shift: Lathe T_all = T_shift = 960; T_pdt 90; T_ppt 870; run 340; ideal 264; 29 of 32 good.
    const day = await production(p.cookie, {
      data: ['oee', 'ooe', 'teep', 'allTime'],
      filter: { machine: [p.lathe], shift: [p.day] },
    });
    expect(day.items).toEqual([]);
    expect(day.aggregate.ooe).toBeNull();
    expect(day.aggregate.teep).toBeNull();
    close(day.aggregate.oee, (264 * 29) / (32 * 870)); // = 0.275
    expect(day.aggregate.allTime).toBe(960 * MIN);
    expect(day.entities.machines).toEqual([{ id: p.lathe, name: 'Lathe' }]);
    expect(day.entities.shifts.map((s) => s.id)).toEqual([p.day]);
  });

  it('production: by interval across the DST change, by machine × interval, by group and by shift', async () => {
    const p = await plant();
    const byDay = await production(p.cookie, {
      data: ['oee', 'ooe', 'teep', 'allTime'],
      filter: { machine: [p.lathe] },
      groupBy: ['interval'],
    });
    expect(byDay.items.map((i) => i.interval)).toEqual([START, MID]);
    // Saturday: idle through both shifts: A = 0 / 960 = 0, no run time: P and OEE null.
    expect(byDay.items[0]).toMatchObject({ oee: null, allTime: 24 * HOUR });
    // Sunday (25 h = 1500 min): T_shift 960, T_ppt 870, run 580, ideal 448, 51 of 55 good.
    expect(byDay.items[1]!.allTime).toBe(25 * HOUR);
    close(byDay.items[1]!.oee, (448 * 51) / (55 * 870));
    close(byDay.items[1]!.ooe, (448 * 51) / (55 * 960));
    close(byDay.items[1]!.teep, (448 * 51) / (55 * 1500));

    const sparklines = await production(p.cookie, {
      data: ['timeInCycle'],
      groupBy: ['machine', 'interval'],
    });
    expect(sparklines.items.map((i) => [i.machine, i.interval, i.timeInCycle])).toEqual([
      [p.lathe, START, 0],
      [p.lathe, MID, 580 * MIN],
      [p.mill, START, 0],
      [p.mill, MID, 480 * MIN],
    ]);

    const groups = await production(p.cookie, { data: ['oee'], groupBy: ['machineGroup'] });
    expect(groups.entities.machineGroups).toEqual([{ id: p.cell, name: 'Cell' }]);
    expect(groups.items).toHaveLength(1);
    expect(groups.items[0]!.machineGroup).toBe(p.cell);
    close(groups.items[0]!.oee, LATHE_OEE);

    // By shift (shift time only: OOE and TEEP null). Day, both machines: T_ppt 2 × 960 − 90 = 1830, run
    // 340 + 480 = 820 of which 340 with a standard, ideal 264, 29 of 32 good. Swing: T_ppt 1920, run 240,
    // ideal 184, 22 of 23 good.
    const shifts = await production(p.cookie, { data: ['oee', 'ooe', 'availability'], groupBy: ['shift'] });
    const byShift = new Map(shifts.items.map((i) => [i.shift, i]));
    close(byShift.get(p.day)!.oee, DAY_BOTH);
    close(byShift.get(p.day)!.availability, 820 / 1830);
    expect(byShift.get(p.day)!.ooe).toBeNull();
    close(byShift.get(p.swing)!.oee, (184 * 22) / (23 * 1920));
    // The shift figures of one machine are those of the Lathe's shifts above.
    const latheShifts = await production(p.cookie, {
      data: ['availability', 'performance', 'quality'],
      groupBy: ['machine', 'shift'],
      filter: { machine: [p.lathe] },
    });
    const latheDay = latheShifts.items.find((i) => i.shift === p.day)!;
    close(latheDay.availability, DAY_SHIFT.run / (2 * DAY_SHIFT.shift - DAY_SHIFT.planned)); // 340 / 870
    close(latheDay.performance, DAY_SHIFT.ideal / DAY_SHIFT.run); // 264 / 340
    close(latheDay.quality, (DAY_SHIFT.total - DAY_SHIFT.rejected) / DAY_SHIFT.total); // 29 / 32
    const latheSwing = latheShifts.items.find((i) => i.shift === p.swing)!;
    close(latheSwing.availability, SWING.run / (2 * SWING.shift)); // 240 / 960
    close(latheSwing.quality, (SWING.total - SWING.rejected) / SWING.total); // 22 / 23
  });

  it('production: csv.url is a GET link with a token that answers the same figures as CSV', async () => {
    const p = await plant();
    const r = await production(p.cookie, {
      data: ['oee', 'utilizationRate', 'timeInCycle'],
      groupBy: ['machine'],
      csv: true,
    });
    expect(r.csv?.url).toMatch(/^\/api\/reports\/warehouse\/production\/csv\?request=.*&token=/);
    // The link works without the cookie (a new tab or a spreadsheet).
    const res = await api.h.app.request(r.csv!.url);
    expect(res.status, await res.clone().text()).toBe(200);
    expect(res.headers.get('content-type')).toContain('text/csv');
    // OEE 1 decimal, utilization 0 decimals, in-cycle hours 1 decimal (reports-admin §9):
    // Lathe 22.70 %, 580 / 2940 = 19.7 %, 9.67 h; Mill '-', 480 / 2940 = 16.3 %, 8 h;
    // all: 20.25 % (P of the Lathe's standard run time, decision 1002), 1060 / 5880 = 18.0 %, 17.67 h.
    expect(await res.text()).toBe(
      [
        'Machine,OEE (%),Utilization (%),In-Cycle (h)',
        'Lathe,22.7,20,9.7',
        'Mill,-,16,8.0',
        'Total,20.2,18,17.7',
        '',
      ].join('\r\n'),
    );
    // Without a token or cookie: 401.
    expect((await api.h.app.request(r.csv!.url.replace(/&token=.*/, ''))).status).toBe(401);
  });

  it('oee by machine and by shift: per interval, per machine, per group; jobId keeps the machines that ran it', async () => {
    const p = await plant();
    const body = { start: START, end: END, intervalType: 'day' };
    const byMachine = await post<OeeByMachineResponse>('/api/oee/bymachine', p.cookie, body);
    expect(byMachine.intervals.map((i) => i.shopDate)).toEqual(['2025-11-01', '2025-11-02']);
    close(byMachine.allMachines.value, ALL_OEE);
    // Saturday: no run time anywhere; Sunday: T_ppt 2 × 960 − 90 = 1830, run 1060, ideal 448, 51 of 55.
    expect(byMachine.allMachines.intervalData[0]).toEqual({ start: START, value: null });
    close(byMachine.allMachines.intervalData[1]!.value, allOver(1060, 1830));
    expect(byMachine.machines.map((m) => m.name)).toEqual(['Lathe', 'Mill']);
    close(byMachine.machines[0]!.value, LATHE_OEE);
    expect(byMachine.machines[1]!.value).toBeNull();

    const job = await post<OeeByMachineResponse>('/api/oee/bymachine', p.cookie, {
      ...body,
      jobId: p.jobId,
      efficiencyMetric: 'availability',
    });
    expect(job.machines.map((m) => m.machineId)).toEqual([p.lathe]);
    close(job.allMachines.value, LATHE_A);

    const byShift = await post<OeeByShiftResponse>('/api/oee/byabstractshift', p.cookie, body);
    expect(byShift.shifts.map((s) => s.name).sort()).toEqual(['Day', 'Swing']);
    const value = (list: Array<{ shift: string; value: number | null }>, shift: string) =>
      list.find((v) => v.shift === shift)!.value;
    close(value(byShift.allMachines.byShift, p.day), DAY_BOTH);
    close(value(byShift.allMachines.byShift, p.swing), (184 * 22) / (23 * 1920));
    // Sunday's Day shift of both machines: T_ppt 960 − 90 = 870, run 820 (340 with a standard), ideal 264, 29 of 32.
    const sundayDay = byShift.allMachines.intervalData.find((d) => d.start === MID && d.shift === p.day)!;
    close(sundayDay.value, (820 / 870) * (264 / 340) * (29 / 32));
    expect(byShift.machineGroups.map((g) => g.name)).toEqual(['Cell']);
    close(value(byShift.machineGroups[0]!.byShift, p.swing), (184 * 22) / (23 * 960));
    const ooe = await post<OeeByShiftResponse>('/api/oee/byabstractshift', p.cookie, {
      ...body,
      efficiencyMetric: 'ooe',
    });
    expect(ooe.allMachines.byShift.every((v) => v.value === null)).toBe(true);
  });

  it('oee report: the six tiles, per-interval efficiency and a waterfall whose steps add up to the OEE', async () => {
    const p = await plant();
    const r = await get<OeeReportResponse>(`/api/reports/oee?start=${START}&end=${END}`, p.cookie);
    expect(r.shiftFiltered).toBe(false);
    close(r.efficiency.oee, ALL_OEE);
    close(r.efficiency.ooe, allOver(1060, 3840));
    close(r.efficiency.teep, allOver(1060, 5880));
    close(r.efficiency.availability, 1060 / 3750);
    close(r.efficiency.performance, ALL_P);
    close(r.efficiency.quality, 51 / 55);
    expect(r.efficiency.missingStandards).toBe(true); // the Mill's run time has no job
    expect(r.intervals.map((i) => i.shopDate)).toEqual(['2025-11-01', '2025-11-02']);
    close(r.intervals[1]!.efficiency.oee, allOver(1060, 1830));

    const ms = (key: WaterfallStep['key']) =>
      r.waterfall.filter((s) => s.key === key).reduce((t, s) => t + s.ms, 0);
    const steps = r.waterfall.map((s) => [s.key, s.reasonName ?? null, s.ms]);
    expect(steps.slice(0, 9)).toEqual([
      ['allTime', null, 5880 * MIN],
      ['outsideShift', null, 2040 * MIN], // 5880 − 3840
      ['shiftTime', null, 3840 * MIN],
      ['plannedDowntime', 'Setup', 60 * MIN],
      ['plannedDowntime', 'Break', 30 * MIN],
      ['plannedProductionTime', null, 3750 * MIN],
      // Uncategorized: Saturday's shifts on both (2 × 960), the Lathe's fault (20) and Sunday swing idle
      // (240), the Mill's Sunday swing (480) = 2660; Tool change exceeded its limit: unplanned 30.
      ['availabilityLoss', 'Uncategorized', 2660 * MIN],
      ['availabilityLoss', 'Tool change', 30 * MIN],
      ['runTime', null, 1060 * MIN],
    ]);
    // P (448 / 580) applies to all run time: produced 1060 × P, the rest is performance loss (decision 1002).
    const produced = 1060 * MIN * ALL_P;
    expect(ms('performanceLoss')).toBeCloseTo(1060 * MIN - produced, 6);
    expect(ms('qualityLoss')).toBeCloseTo((produced * 4) / 55, 6);
    expect(ms('fullyProductiveTime') / ms('plannedProductionTime')).toBeCloseTo(r.efficiency.oee!, 12);
    expect(r.waterfall.find((s) => s.reasonName === 'Tool change')).toMatchObject({
      kind: 'loss',
      reasonId: p.tool.id,
      link: { report: 'downtime', reasonId: p.tool.id },
    });

    // One machine, Day shift only: OOE and TEEP hidden.
    const day = await get<OeeReportResponse>(
      `/api/reports/oee?start=${START}&end=${END}&machineId=${p.lathe}&shifts=${p.day}`,
      p.cookie,
    );
    expect(day.shiftFiltered).toBe(true);
    expect([day.efficiency.ooe, day.efficiency.teep]).toEqual([null, null]);
    close(day.efficiency.oee, (264 * 29) / (32 * 870));
    expect(day.waterfall[0]).toEqual({ key: 'allTime', kind: 'total', ms: 960 * MIN });
    expect(day.waterfall[1]!.ms).toBe(0);
  });

  it('a job without ideal cycle time: P null with the warning, never 0 %; a mix: P from the standard part (decision 1002)', async () => {
    const { company, cookie, scope, recompute } = await aReportTenant(api.h, [['Day', 360, 840]]);
    const m = await aMachine(api.h.t.db, company, { name: 'Press' });
    // In cycle 06:00–14:00 on Sunday: a job without ideal cycle time 06:00–10:00, one of 8 min 10:00–14:00
    // with 24 cycles of 10 min ending 10:09 … 13:59 (ideal 192 of 240 min).
    await someStates(api.h.t.db, company, m, [
      [START, sun(6), 'INACTIVE'],
      [sun(6), sun(14), 'ACTIVE'],
      [sun(14), END, 'INACTIVE'],
    ]);
    const job = { machineId: m, expected: 10 * MIN, jobCreatedAt: START };
    await aJobWithRun(scope, { ...job, name: 'No ideal', ideal: 0, start: sun(6), end: sun(10) });
    await aJobWithRun(scope, { ...job, name: 'Bracket', ideal: 8 * MIN, start: sun(10), end: sun(14) });
    const ends = Array.from({ length: 24 }, (_, i) => sun(10, 9) + i * 10 * MIN);
    await someCycles(
      scope,
      m,
      ends.map((end) => ({ start: end - 10 * MIN, end })),
    );
    await recompute([m], { from: START, to: END, now: NOW });
    const report = (start: number, end: number) =>
      get<OeeReportResponse>(`/api/reports/oee?start=${start}&end=${end}&machineId=${m}`, cookie);

    const without = await report(sun(6), sun(10));
    expect(without.efficiency).toMatchObject({
      availability: 1,
      performance: null,
      oee: null,
      ooe: null,
      teep: null,
      missingStandards: true,
    });
    const mix = await report(START, END);
    close(mix.efficiency.performance, 192 / 240);
    close(mix.efficiency.availability, 480 / 960);
    close(mix.efficiency.oee, (480 / 960) * (192 / 240));
    expect(mix.efficiency.missingStandards).toBe(true);
    const standard = await report(sun(10), sun(14));
    close(standard.efficiency.performance, 192 / 240);
    expect(standard.efficiency.missingStandards).toBe(false);
    const figures = await production(cookie, { data: ['performance', 'oee'], filter: { machine: [m] } });
    close(figures.aggregate.performance, 192 / 240);
    expect(figures.aggregate.missingStandards).toBe(true);
  });

  it('utilization: a shift filter and format=csv (0 decimals)', async () => {
    const p = await plant();
    const base = `/api/reports/utilization?start=${START}&end=${END}`;
    const day = await get<{
      shiftFiltered: boolean;
      machines: Array<{ machineId: string; inCycle: number; durationMs: number }>;
    }>(`${base}&shifts=${p.day}`, p.cookie);
    expect(day.shiftFiltered).toBe(true);
    // Day shift time 2 × 480 min: Lathe in cycle 340, Mill 480.
    expect(day.machines.map((m) => [m.machineId, m.durationMs, m.inCycle])).toEqual([
      [p.lathe, 960 * MIN, 340 / 960],
      [p.mill, 960 * MIN, 0.5],
    ]);
    const res = await api.h.get(`${base}&format=csv`, p.cookie);
    expect(res.status).toBe(200);
    expect(await res.text()).toBe(
      [
        'Name,In-Cycle (%),Spindle-Rotating (%),In-Cut (%),In-Cycle (h)',
        'Lathe,20,0,0,9.7', // 580 / 2940
        'Mill,16,0,0,8.0', // 480 / 2940
        'All Machines,18,-,-,17.7', // 1060 / 5880
        '',
      ].join('\r\n'),
    );
  });

  it("answers another company's machine, group, shift and job 404 without any figure", async () => {
    const p = await plant();
    const other = await aCompany(api.h.t.db, { productTier: 'full' });
    const user = await aUser(api.h.t.db, other);
    const cookie = await api.h.login(user.email, user.password);
    const range = { start: START, end: END };
    const cases: Array<[string, Record<string, unknown>]> = [
      ['/api/reports/warehouse/production', { ...range, data: ['oee'], filter: { machine: [p.lathe] } }],
      ['/api/reports/warehouse/production', { ...range, data: ['oee'], filter: { machineGroup: p.cell } }],
      ['/api/reports/warehouse/production', { ...range, data: ['oee'], filter: { shift: [p.day] } }],
      ['/api/oee/bymachine', { ...range, machines: [p.lathe] }],
      ['/api/oee/bymachine', { ...range, jobId: p.jobId }],
      ['/api/oee/byabstractshift', { ...range, group: p.cell }],
      ['/api/oee/byabstractshift', { ...range, shifts: [p.swing] }],
    ];
    for (const [path, body] of cases) {
      const res = await api.h.send('POST', path, cookie, body);
      expect(res.status, `${path} ${JSON.stringify(body)}`).toBe(404);
      expect(Object.keys((await res.json()) as object)).toEqual(['error']);
    }
    for (const q of [`machineId=${p.lathe}`, `group=${p.cell}`, `shifts=${p.day}`]) {
      const res = await api.h.get(`/api/reports/oee?start=${START}&end=${END}&${q}`, cookie);
      expect(res.status, q).toBe(404);
    }
    expect(
      (await api.h.get(`/api/reports/utilization?start=${START}&end=${END}&shifts=${p.day}`, cookie)).status,
    ).toBe(404);
    // Their own (empty) report shows none of the first company's machines.
    const own = await production(cookie, { data: ['oee', 'timeInCycle'], groupBy: ['machine'] });
    expect(own.items).toEqual([]);
    expect(own.aggregate).toMatchObject({ oee: null, timeInCycle: 0 });
  });

  it('refuses bad bodies and queries with 400 and the spec texts, and OEE figures without FullProduct', async () => {
    const p = await plant();
    const bad: Array<[string, unknown, string]> = [
      [
        '/api/reports/warehouse/production',
        { start: END, end: START, data: ['oee'] },
        'Start Date must be before End Date',
      ],
      [
        '/api/reports/warehouse/production',
        { start: START, end: END, data: [] },
        'Select at least one metric',
      ],
      [
        '/api/reports/warehouse/production',
        { start: START, end: END, data: ['oee'], interval: 'fortnight' },
        'Interval must be one of hour, shift, day, week, month, quarter.',
      ],
      [
        '/api/reports/warehouse/production',
        { start: START, end: END, data: ['oee'], groupBy: ['machine', 'shift', 'interval'] },
        '',
      ],
      ['/api/oee/bymachine', { start: END, end: START }, 'Start Date must be before End Date'],
      // decision 0801 limits: at most 2 years, at most 2000 intervals (100 days by hour is 2400).
      [
        '/api/reports/warehouse/production',
        { start: END - 3 * 365 * 24 * HOUR, end: END, data: ['timeInCycle'] },
        RANGE_TOO_LONG_MESSAGE,
      ],
      [
        '/api/oee/bymachine',
        { start: END - 100 * 24 * HOUR, end: END, intervalType: 'hour' },
        TOO_MANY_INTERVALS_MESSAGE,
      ],
      ['/api/oee/byabstractshift', { start: START, end: END, efficiencyMetric: 'speed' }, ''],
    ];
    for (const [path, body, text] of bad) {
      const res = await api.h.send('POST', path, p.cookie, body);
      expect(res.status, JSON.stringify(body)).toBe(400);
      const e = await errorOf(res);
      expect(e.code).toBe('VALIDATION_ERROR');
      if (text) expect(e.issues?.map((i) => i.message)).toContain(text);
    }
    const notJson = await api.h.app.request('/api/oee/bymachine', {
      method: 'POST',
      headers: { cookie: p.cookie, origin: 'http://localhost', 'content-type': 'application/json' },
      body: '{nope',
    });
    expect(notJson.status).toBe(400);
    const q = await api.h.get(`/api/reports/oee?start=${END}&end=${START}`, p.cookie);
    expect(q.status).toBe(400);
    expect((await errorOf(q)).issues?.map((i) => i.message)).toContain('Start Date must be before End Date');

    // A utilization-tier company: utilization figures yes, OEE figures no.
    await api.h.t.db
      .updateTable('companies')
      .set({ product_tier: 'utilization' })
      .where('id', '=', p.company.id)
      .execute();
    const util = await api.h.send('POST', '/api/reports/warehouse/production', p.cookie, {
      start: START,
      end: END,
      data: ['timeInCycle', 'utilizationRate'],
    });
    expect(util.status).toBe(200);
    for (const [path, body] of [
      ['/api/reports/warehouse/production', { start: START, end: END, data: ['timeInCycle', 'oee'] }],
      ['/api/oee/bymachine', { start: START, end: END }],
    ] as const)
      expect((await api.h.send('POST', path, p.cookie, body)).status, path).toBe(403);
    expect((await api.h.get(`/api/reports/oee?start=${START}&end=${END}`, p.cookie)).status).toBe(403);
  });
});
