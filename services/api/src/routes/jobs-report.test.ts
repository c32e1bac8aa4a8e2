import { describe, expect, it } from 'vitest';
import { companyScope } from '@takt/db';
import { DIALECTS } from '@takt/db/testing';
import type { JobByMachineReport, JobsWithoutRunsReport, WarehouseJobsReport } from '../services/jobs-report';
import { aCompany, aGroup, aMachine, aUser } from '../testing/builders';
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

// The warehouse job calls (reports-admin §2 Jobs report, §3 Job report, §7; decision 0813) on the
// OEE report tests' plant (oee-reports.test.ts) in America/Chicago over Saturday 2025-11-01 and Sunday
// 2025-11-02 (DST ends 02:00), Day (06:00–14:00) and Swing (14:00–22:00) shifts. Both dialects.

/** Local time on Sunday 2025-11-02 after the change (CST = UTC−6), h ≥ 2. */
const sun = (h: number, m = 0) => Date.UTC(2025, 10, 2, h + 6, m);
const START = Date.UTC(2025, 10, 1, 5); // Saturday 00:00 CDT
const END = Date.UTC(2025, 10, 3, 6); // Monday 00:00 CST
const NOW = Date.UTC(2025, 10, 5, 12);

// Job Flange (expected 10 min, ideal 8 min, one part a cycle):
// - on Lathe, run Sunday 06:00–22:00 started in planned setup until 07:00. Lathe: setup 06:00–07:00, in
//   cycle 07:00–10:00, Break (planned) 10:00–10:30, Tool change (limit 10 min, lasted 30: unplanned)
//   10:30–11:00, in cycle 11:00–13:00, fault 13:00–13:20, in cycle 13:20–18:00, idle 18:00–22:00. Cycles of
//   10 min ending 07:10…10:00 (18), 11:10…13:00 (12), 13:30…13:50 (3), 14:10…17:50 (23) = 56. Scrap 3 at
//   11:30, correction −1 at 12:00, non-conforming 1 at 15:00.
// - on Mill, run Sunday 12:00–14:00 started in production; Mill in cycle 06:00–14:00, no cycles.
// Job Bracket: never run.
//
// Lathe run, whole range → span 06:00–22:00 = 960 min, all shift time:
//   setup 60; in cycle 180 + 120 + 280 = 580; downtime 960 − 60 − 580 = 320.
//   T_pdt = setup 60 (planned mode) + Break 30 = 90; T_ppt = 960 − 90 = 870; T_run 580.
//   ideal 56 × 8 = 448; total 56 − 1 = 55; rejected 3 + 1 = 4; good 51.
//   A = 580/870, P = 448/580, Q = 51/55, OEE = 448 × 51 / (55 × 870).
//   expected: production 07:00–22:00 = 900 min − Break 30 = 870 min → ⌊870 / 10⌋ = 87; goal 51/87 × 100.
//   average cycle 10 min.
const LATHE = { shift: 960, ppt: 870, run: 580, ideal: 448, total: 55, rejected: 4, good: 51, expected: 87 };
// Mill run → span 12:00–14:00 = 120 min, Day shift: in cycle 120, setup 0, downtime 0; T_ppt 120; ideal 0
//   (no cycles): P = 0/120 = 0; total 0: Q null → OEE null. expected ⌊120 / 10⌋ = 12; good 0 → 0 %.
// The job over both: T_ppt 870 + 120 = 990; T_run 700; ideal 448; total 55; good 51; expected 99.
//   A = 700/990, P = 448/700, Q = 51/55, OEE = 448 × 51 / (55 × 990); goal 51/99 × 100.

const close = (actual: number | null | undefined, expected: number) => {
  expect(actual).not.toBeNull();
  expect(actual!).toBeCloseTo(expected, 12);
};

describe.each(DIALECTS)('warehouse job calls on %s', (dialect) => {
  const api = apiPerTest(dialect, NOW);

  async function plant() {
    const { company, cookie, scope, recompute, shiftIds } = await aReportTenant(api.h, [
      ['Day', 360, 840],
      ['Swing', 840, 1320],
    ]);
    const lathe = await aMachine(api.h.t.db, company, { name: 'Lathe', sortOrder: 1 });
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
    const millRun = crypto.randomUUID();
    await scope
      .insertInto('job_runs', {
        id: millRun,
        machine_id: mill,
        job_id: jobId,
        job_machine_id: null,
        start_at: sun(12),
        end_at: sun(14),
        setup_mode: 'none',
        setup_end: sun(12),
        expected_cycle_time: 10 * MIN,
        ideal_cycle_time: 8 * MIN,
        part_count_multiplier: 1,
        actual_parts: 1,
        reported_parts: null,
        required_cycles: null,
        part_behavior: 'one',
        expected_setup_ms: null,
        setup_note: null,
        created_at: sun(12),
      })
      .execute();
    const bracket = crypto.randomUUID();
    await scope
      .insertInto('jobs', {
        id: bracket,
        name: 'Bracket',
        erp_job_id: null,
        expected_cycle_time: 60_000,
        ideal_cycle_time: 60_000,
        part_count_multiplier: 1,
        actual_parts: 1,
        setuptime: null,
        quantity: null,
        hidden: 0,
        created_at: START,
      })
      .execute();
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
    return {
      company,
      cookie,
      lathe,
      mill,
      jobId,
      millRun,
      bracket,
      shiftIds,
      reasons: { brk: brk.id, tool: tool.id, burr: reject.id },
    };
  }

  async function get<T>(path: string, cookie: string): Promise<T> {
    const res = await api.h.get(path, cookie);
    expect(res.status, await res.clone().text()).toBe(200);
    return (await res.json()) as T;
  }

  it('jobs: each job with its runs, the Job report figures of each run and of the job', async () => {
    const p = await plant();
    const r = await get<WarehouseJobsReport>(
      `/api/reports/warehouse/jobs?start=${START}&end=${END}`,
      p.cookie,
    );
    expect(r.range).toEqual({ start: START, end: END });
    // The company's parts-goal status cut-offs (reports-admin §4) come with the jobs: the defaults here.
    expect(r.limits).toEqual({ warningPercent: 90, failurePercent: 75 });
    expect(r.jobs.map((j) => j.job_name)).toEqual(['Flange']);
    const job = r.jobs[0]!;
    expect(job).toMatchObject({
      job_id: p.jobId,
      start_at: sun(6),
      end_at: sun(22),
      expected_parts: 99, // 87 + 12
      good_parts: 51,
      rejected_parts: 4,
      setup_ms: 60 * MIN,
      production_in_cycle_ms: 700 * MIN, // 580 + 120
      production_downtime_ms: 320 * MIN, // 320 + 0
    });
    close(job.availability, 700 / 990);
    close(job.performance, 448 / 700);
    close(job.quality, 51 / 55);
    close(job.oee, (448 * 51) / (55 * 990));
    close(job.percentage_of_parts_goal, (51 / 99) * 100);

    const [lathe, mill] = job.runs;
    expect(lathe).toMatchObject({
      machine_id: p.lathe,
      machine_name: 'Lathe',
      job_id: p.jobId,
      start_at: sun(6),
      end_at: sun(22),
      expected_cycle_time_ms: 10 * MIN,
      ideal_cycle_time_ms: 8 * MIN,
      average_cycle_ms: 10 * MIN,
      expected_parts: LATHE.expected,
      good_parts: LATHE.good,
      rejected_parts: LATHE.rejected,
      setup_ms: 60 * MIN,
      production_in_cycle_ms: 580 * MIN,
      production_downtime_ms: 320 * MIN, // 960 − 60 − 580
    });
    expect(typeof lathe!.jobschedulegroup_id).toBe('string');
    close(lathe!.availability, LATHE.run / LATHE.ppt);
    close(lathe!.performance, LATHE.ideal / LATHE.run);
    close(lathe!.quality, LATHE.good / LATHE.total);
    close(lathe!.oee, (448 * 51) / (55 * 870));
    close(lathe!.percentage_of_parts_goal, (51 / 87) * 100);
    expect(mill).toMatchObject({
      jobschedulegroup_id: p.millRun,
      machine_name: 'Mill',
      average_cycle_ms: null,
      expected_parts: 12,
      good_parts: 0,
      percentage_of_parts_goal: 0,
      availability: 1, // 120 / 120
      performance: 0, // 0 / 120
      quality: null,
      oee: null,
      setup_ms: 0,
      production_in_cycle_ms: 120 * MIN,
      production_downtime_ms: 0,
    });

    // machine_id keeps that machine's runs; job_id that job.
    const onMill = await get<WarehouseJobsReport>(
      `/api/reports/warehouse/jobs?start=${START}&end=${END}&machine_id=${p.mill}`,
      p.cookie,
    );
    expect(onMill.jobs[0]!.runs.map((x) => x.machine_name)).toEqual(['Mill']);
    expect(onMill.jobs[0]).toMatchObject({
      expected_parts: 12,
      good_parts: 0,
      start_at: sun(12),
      end_at: sun(14),
    });
    const one = await get<WarehouseJobsReport>(
      `/api/reports/warehouse/jobs?start=${START}&end=${END}&job_id=${p.bracket}`,
      p.cookie,
    );
    expect(one.jobs).toEqual([]);

    // group (reports-admin §2 "Jobs report reads group"): only the runs on the group's machines, the Mill's.
    const cell = await aGroup(api.h.t.db, p.company, 'Cell');
    await api.h.t.db
      .insertInto('machine_group_members')
      .values({ company_id: p.company.id, group_id: cell, machine_id: p.mill })
      .execute();
    const inCell = await get<WarehouseJobsReport>(
      `/api/reports/warehouse/jobs?start=${START}&end=${END}&group=${cell}`,
      p.cookie,
    );
    expect(inCell.jobs.map((j) => j.runs.map((x) => x.machine_name))).toEqual([['Mill']]);
    expect(inCell.jobs[0]).toMatchObject({ expected_parts: 12, good_parts: 0 });
    // A group of another company is not found.
    const other = await aCompany(api.h.t.db, { name: 'Other shop' });
    const theirs = await aGroup(api.h.t.db, other, 'Theirs');
    const res = await api.h.get(
      `/api/reports/warehouse/jobs?start=${START}&end=${END}&group=${theirs}`,
      p.cookie,
    );
    expect(res.status).toBe(404);
  });

  it('jobs: a range cutting a run inside hours counts only the run’s minutes in it', async () => {
    const p = await plant();
    // [09:30, 12:00) of the Lathe run = 150 min, Day shift: in cycle 09:30–10:00 and 11:00–12:00 = 90;
    // Break 30 (planned) + Tool change 30 (unplanned) → downtime 60; T_ppt 150 − 30 = 120; A = 90/120.
    // Cycles ending in it: 09:30, 09:40, 09:50, 10:00, 11:10 … 11:50 = 9 → ideal 72 min, P = 72/90. Scrap 3
    // at 11:30 (the −1 at 12:00 is outside): total 9, good 6, Q = 6/9. Expected ⌊(150 − 30) / 10⌋ = 12.
    // The Mill run (12:00–14:00) is outside.
    const r = await get<WarehouseJobsReport>(
      `/api/reports/warehouse/jobs?start=${sun(9, 30)}&end=${sun(12)}&job_id=${p.jobId}`,
      p.cookie,
    );
    expect(r.jobs).toHaveLength(1);
    const [run] = r.jobs[0]!.runs;
    expect(r.jobs[0]!.runs).toHaveLength(1);
    expect(run).toMatchObject({
      machine_name: 'Lathe',
      setup_ms: 0,
      production_in_cycle_ms: 90 * MIN,
      production_downtime_ms: 60 * MIN,
      good_parts: 6,
      rejected_parts: 3,
      expected_parts: 12,
      average_cycle_ms: 10 * MIN,
    });
    close(run!.availability, 90 / 120);
    close(run!.performance, 72 / 90);
    close(run!.quality, 6 / 9);
    close(run!.oee, (90 / 120) * (72 / 90) * (6 / 9));
    close(run!.percentage_of_parts_goal, (6 / 12) * 100);
  });

  it('aggregatedbymachine: one job per machine and the job total, as JSON and CSV over a ?token= link', async () => {
    const p = await plant();
    const base = `/api/reports/warehouse/jobs/aggregatedbymachine?start=${START}&end=${END}&job_id=${p.jobId}`;
    const r = await get<JobByMachineReport>(base, p.cookie);
    expect(r.job).toMatchObject({ job_id: p.jobId, job_name: 'Flange', expected_parts: 99, good_parts: 51 });
    close(r.job.oee, (448 * 51) / (55 * 990));
    expect(r.machines.map((m) => m.machine_name)).toEqual(['Lathe', 'Mill']);
    expect(r.machines[0]).toMatchObject({
      machine_id: p.lathe,
      expected_parts: 87,
      average_cycle_ms: 10 * MIN,
    });
    close(r.machines[0]!.oee, (448 * 51) / (55 * 870));
    expect(r.machines[1]).toMatchObject({ machine_id: p.mill, expected_parts: 12, oee: null });

    const { token } = await get<{ token: string }>('/api/user-token', p.cookie);
    const res = await api.h.app.request(`${base}&format=csv&token=${token}`);
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toContain('text/csv');
    const lines = (await res.text()).trim().split('\r\n');
    expect(lines[0]).toBe(
      'Machine,Start,End,Parts Goal (%),Expected Parts,Good Parts,Rejected Parts,OEE (%),Availability (%),Performance (%),Quality (%),Setup (h),In-Cycle (h),Downtime (min)',
    );
    // Lathe: 51/87 = 58.6 %; OEE 22 848 / 47 850 = 47.7 %; A 66.7 %; P 77.2 %; Q 92.7 %; setup 1.0 h;
    // in cycle 580 min = 9.7 h; downtime 320.00 min.
    expect(lines[1]).toBe(
      'Lathe,2025-11-02 06:00:00,2025-11-02 22:00:00,58.6,87,51,4,47.7,66.7,77.2,92.7,1.0,9.7,320.00',
    );
    expect(lines[2]).toBe(
      'Mill,2025-11-02 12:00:00,2025-11-02 14:00:00,0.0,12,0,0,-,100.0,0.0,-,0.0,2.0,0.00',
    );
    // Total: 51/99 = 51.5 %; OEE 22 848 / 54 450 = 42.0 %; A 70.7 %; P 64.0 %; in cycle 700 min = 11.7 h.
    expect(lines[3]).toBe(
      'Total,2025-11-02 06:00:00,2025-11-02 22:00:00,51.5,99,51,4,42.0,70.7,64.0,92.7,1.0,11.7,320.00',
    );
    const jobsCsv = await api.h.get(
      `/api/reports/warehouse/jobs?start=${START}&end=${END}&format=csv`,
      p.cookie,
    );
    expect((await jobsCsv.text()).split('\r\n')[1]).toBe(
      'Flange,2025-11-02 06:00:00,2025-11-02 22:00:00,51.5,99,51,4,42.0,70.7,64.0,92.7,1.0,11.7,320.00',
    );
  });

  // The job detail (decision 0820) from the same runs' rollups:
  // OEE by shift. Day (06:00–14:00): Lathe setup 60 (planned), Break 30 → T_ppt 390, T_run 180 + 120 + 40 =
  //   340, cycles ending 07:10…13:50 = 33 → ideal 264, total 33 − 1 = 32, rejected 3; Mill T_ppt 120, T_run
  //   120. Job: A = 460/510, P = 264/460, Q = 29/32. Swing (14:00–22:00), Lathe only: T_ppt 480, T_run 240,
  //   23 cycles → ideal 184, total 23, rejected 1: A = 240/480, P = 184/240, Q = 22/23. (Sums: 990, 700, 448,
  //   55, 51, as the job's.)
  // Downtime by reason over all the runs' time: uncategorized fault 20 + idle 240 = 260 (unplanned), setup 60
  //   (planned mode), Break 30 (planned), Tool change 30 (over its 10-minute limit: unplanned) = 380 = setup 60
  //   + production downtime 320. Rejects by reason: Burr 3 + 1 = 4 (the correction is no reject).
  it('aggregatedbymachine: the job detail, OEE by shift and downtime and rejects by reason, per job or machine', async () => {
    const p = await plant();
    const base = `/api/reports/warehouse/jobs/aggregatedbymachine?start=${START}&end=${END}&job_id=${p.jobId}`;
    const r = await get<JobByMachineReport>(base, p.cookie);
    expect(r.shifts.map((s) => [s.shift_id, s.shift_name])).toEqual([
      [p.shiftIds[0], 'Day'],
      [p.shiftIds[1], 'Swing'],
    ]);
    const [day, swing] = r.shifts;
    close(day!.availability, 460 / 510);
    close(day!.performance, 264 / 460);
    close(day!.quality, 29 / 32);
    close(day!.oee, (264 * 29) / (32 * 510));
    close(swing!.availability, 240 / 480);
    close(swing!.performance, 184 / 240);
    close(swing!.quality, 22 / 23);
    close(swing!.oee, (184 * 22) / (23 * 480));

    expect(r.downtime[0]).toEqual({
      reason_id: 'uncategorized',
      reason_name: null,
      color: null,
      planned_ms: 0,
      unplanned_ms: 260 * MIN,
      downtime_ms: 260 * MIN,
    });
    expect(r.downtime[1]).toMatchObject({ reason_id: 'setup', reason_name: null, planned_ms: 60 * MIN });
    expect(
      r.downtime.slice(2).map((d) => [d.reason_name, d.planned_ms, d.unplanned_ms, d.color !== null]),
    ).toEqual(
      expect.arrayContaining([
        ['Break', 30 * MIN, 0, true],
        ['Tool change', 0, 30 * MIN, true],
      ]),
    );
    expect(r.downtime).toHaveLength(4);
    expect(r.downtime.reduce((t, d) => t + d.downtime_ms, 0)).toBe(
      r.job.setup_ms + r.job.production_downtime_ms,
    );
    expect(r.rejects).toEqual([
      { reason_id: p.reasons.burr, reason_name: 'Burr', color: expect.any(String), rejected_parts: 4 },
    ]);

    // One machine (the machine-job report): Mill ran 12:00–14:00 in the Day shift, in cycle, without cycles.
    const mill = await get<JobByMachineReport>(`${base}&machine_id=${p.mill}`, p.cookie);
    expect(mill.machines.map((m) => m.machine_name)).toEqual(['Mill']);
    expect(mill.job).toMatchObject({ expected_parts: 12, good_parts: 0, production_in_cycle_ms: 120 * MIN });
    expect(mill.shifts).toEqual([
      {
        shift_id: p.shiftIds[0],
        shift_name: 'Day',
        oee: null,
        availability: 1,
        performance: 0,
        quality: null,
        // The run has an ideal cycle time: slow, not without a standard (decision 1031).
        missing_standards: false,
      },
    ]);
    expect(mill.downtime).toEqual([]);
    expect(mill.rejects).toEqual([]);
    // Its CSV: the machine's row and the Total, the same figures.
    const { token } = await get<{ token: string }>('/api/user-token', p.cookie);
    const csv = await api.h.app.request(`${base}&machine_id=${p.mill}&format=csv&token=${token}`);
    expect((await csv.text()).trim().split('\r\n').slice(1)).toEqual([
      'Mill,2025-11-02 12:00:00,2025-11-02 14:00:00,0.0,12,0,0,-,100.0,0.0,-,0.0,2.0,0.00',
      'Total,2025-11-02 12:00:00,2025-11-02 14:00:00,0.0,12,0,0,-,100.0,0.0,-,0.0,2.0,0.00',
    ]);

    // A range inside the Swing shift cuts the Lathe run: 15:00–16:00, in cycle, 6 cycles, the reject of 15:00.
    const hour = await get<JobByMachineReport>(
      `/api/reports/warehouse/jobs/aggregatedbymachine?start=${sun(15)}&end=${sun(16)}&job_id=${p.jobId}`,
      p.cookie,
    );
    expect(hour.shifts.map((s) => s.shift_name)).toEqual(['Swing']);
    close(hour.shifts[0]!.availability, 1);
    close(hour.shifts[0]!.performance, 48 / 60);
    close(hour.shifts[0]!.quality, 5 / 6);
    expect(hour.downtime).toEqual([]);
    expect(hour.rejects.map((x) => x.rejected_parts)).toEqual([1]);
  });

  it('jobs: Aggregate By machine and pages of entries (limit, offset) with the total', async () => {
    const p = await plant();
    // Axle, a second job, on the Mill Sunday 15:00–16:00 (idle): entries by job name, then machine name.
    await aJobWithRun(companyScope(api.h.t.db, p.company.id), {
      machineId: p.mill,
      name: 'Axle',
      expected: 10 * MIN,
      ideal: 10 * MIN,
      jobCreatedAt: START,
      start: sun(15),
      end: sun(16),
    });
    const base = `/api/reports/warehouse/jobs?start=${START}&end=${END}`;
    const all = await get<WarehouseJobsReport>(base, p.cookie);
    expect([all.total, all.jobs.map((j) => j.job_name)]).toEqual([2, ['Axle', 'Flange']]);
    const second = await get<WarehouseJobsReport>(`${base}&limit=1&offset=1`, p.cookie);
    expect([second.total, second.jobs.map((j) => j.job_name)]).toEqual([2, ['Flange']]);
    // A page's entries have the figures they have unpaged.
    expect(second.jobs[0]).toEqual(all.jobs[1]);
    expect((await get<WarehouseJobsReport>(`${base}&limit=5&offset=2`, p.cookie)).jobs).toEqual([]);

    // By machine: a job on each machine it ran on, its runs there summed (the Lathe's: LATHE's figures).
    const byMachine = await get<WarehouseJobsReport>(`${base}&aggregate_by=machine`, p.cookie);
    expect(byMachine.total).toBe(3);
    expect(byMachine.jobs.map((j) => [j.job_name, j.machine_name, j.runs.length])).toEqual([
      ['Axle', 'Mill', 1],
      ['Flange', 'Lathe', 1],
      ['Flange', 'Mill', 1],
    ]);
    const lathe = byMachine.jobs[1]!;
    expect(lathe).toMatchObject({
      machine_id: p.lathe,
      expected_parts: 87,
      good_parts: 51,
      rejected_parts: 4,
    });
    close(lathe.oee, (448 * 51) / (55 * 870));
    expect(byMachine.jobs[2]).toMatchObject({ machine_id: p.mill, expected_parts: 12, oee: null });
    const page = await get<WarehouseJobsReport>(`${base}&aggregate_by=machine&limit=2&offset=1`, p.cookie);
    expect(page.jobs).toEqual(byMachine.jobs.slice(1));
    const csv = await api.h.get(`${base}&aggregate_by=machine&format=csv`, p.cookie);
    const lines = (await csv.text()).trim().split('\r\n');
    expect(lines[0]!.startsWith('Job,Machine,Start,End,Parts Goal (%)')).toBe(true);
    expect(lines[2]).toBe(
      'Flange,Lathe,2025-11-02 06:00:00,2025-11-02 22:00:00,58.6,87,51,4,47.7,66.7,77.2,92.7,1.0,9.7,320.00',
    );

    for (const [q, message] of [
      ['aggregate_by=run', 'aggregate_by must be job or machine'],
      ['limit=0', 'limit must be 1 or more'],
      ['limit=101', 'limit must be 100 or less'],
      ['offset=-1', 'offset must be 0 or more'],
    ] as const) {
      const res = await api.h.get(`${base}&${q}`, p.cookie);
      expect(res.status, q).toBe(400);
      expect((await errorOf(res)).issues?.map((i) => i.message)).toContain(message);
    }
  });

  it('withoutruns: the jobs not run in the range, on all machines, one machine or a group', async () => {
    const p = await plant();
    const all = await get<JobsWithoutRunsReport>(
      `/api/reports/warehouse/jobs/withoutruns?start=${START}&end=${END}`,
      p.cookie,
    );
    expect(all.jobs).toEqual([{ job_id: p.bracket, job_name: 'Bracket' }]);
    // Before 12:00 Flange ran on Lathe only: on Mill neither job ran.
    const mill = await get<JobsWithoutRunsReport>(
      `/api/reports/warehouse/jobs/withoutruns?start=${START}&end=${sun(12)}&machine_id=${p.mill}`,
      p.cookie,
    );
    expect(mill.jobs.map((j) => j.job_name)).toEqual(['Bracket', 'Flange']);
    // The same on a group of Mill.
    const cell = await aGroup(api.h.t.db, p.company, 'Cell');
    await api.h.t.db
      .insertInto('machine_group_members')
      .values({ company_id: p.company.id, group_id: cell, machine_id: p.mill })
      .execute();
    const group = await get<JobsWithoutRunsReport>(
      `/api/reports/warehouse/jobs/withoutruns?start=${START}&end=${sun(12)}&group=${cell}`,
      p.cookie,
    );
    expect(group.jobs.map((j) => j.job_name)).toEqual(['Bracket', 'Flange']);
    // A run ending at the range's start is not in it.
    const after = await get<JobsWithoutRunsReport>(
      `/api/reports/warehouse/jobs/withoutruns?start=${sun(22)}&end=${END}`,
      p.cookie,
    );
    expect(after.jobs.map((j) => j.job_name)).toEqual(['Bracket', 'Flange']);
  });

  it("answers another company's job or machine 404, and bad queries 400 with the spec's text", async () => {
    const p = await plant();
    const other = await aCompany(api.h.t.db, { productTier: 'full' });
    const user = await aUser(api.h.t.db, other);
    const cookie = await api.h.login(user.email, user.password);
    const range = `start=${START}&end=${END}`;
    for (const path of [
      `/api/reports/warehouse/jobs?${range}&job_id=${p.jobId}`,
      `/api/reports/warehouse/jobs?${range}&machine_id=${p.lathe}`,
      `/api/reports/warehouse/jobs/aggregatedbymachine?${range}&job_id=${p.jobId}`,
      `/api/reports/warehouse/jobs/withoutruns?${range}&machine_id=${p.lathe}`,
    ]) {
      const res = await api.h.get(path, cookie);
      expect(res.status, path).toBe(404);
      expect(Object.keys((await res.json()) as object)).toEqual(['error']);
    }
    // The job's own company asking for another company's machine: 404 too.
    const theirs = await aMachine(api.h.t.db, other, { name: 'Their lathe' });
    const foreign = await api.h.get(
      `/api/reports/warehouse/jobs/aggregatedbymachine?${range}&job_id=${p.jobId}&machine_id=${theirs}`,
      p.cookie,
    );
    expect(foreign.status).toBe(404);
    // Their own reports list nothing of the first company.
    expect((await get<WarehouseJobsReport>(`/api/reports/warehouse/jobs?${range}`, cookie)).jobs).toEqual([]);
    expect(
      (await get<JobsWithoutRunsReport>(`/api/reports/warehouse/jobs/withoutruns?${range}`, cookie)).jobs,
    ).toEqual([]);

    for (const path of [
      `/api/reports/warehouse/jobs?start=${END}&end=${START}`,
      `/api/reports/warehouse/jobs/aggregatedbymachine?start=${END}&end=${END}&job_id=${p.jobId}`,
      `/api/reports/warehouse/jobs/withoutruns?start=${END}&end=${START}`,
    ]) {
      const res = await api.h.get(path, p.cookie);
      expect(res.status, path).toBe(400);
      expect((await errorOf(res)).issues?.map((i) => i.message)).toContain(
        'Start Date must be before End Date',
      );
    }
    const noJob = await api.h.get(`/api/reports/warehouse/jobs/aggregatedbymachine?${range}`, p.cookie);
    expect(noJob.status).toBe(400);
    expect((await errorOf(noJob)).issues?.map((i) => i.message)).toContain('job_id is required');
    expect((await api.h.get(`/api/reports/warehouse/jobs?${range}&format=xls`, p.cookie)).status).toBe(400);
    // A ?token= free CSV link without a cookie: 401.
    expect((await api.h.app.request(`/api/reports/warehouse/jobs?${range}&format=csv`)).status).toBe(401);
  });
});
