import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { companyScope } from '@takt/db';
import type { Company } from '../repositories/company';
import { markRollupsDirty, recomputeRollups } from '@takt/db/rollups';
import { SUBPROGRAM_WINDOW_TOO_LONG } from '../services/report-timeline';
import { apiHarness } from '../testing/app';
import type { ApiHarness } from '../testing/app';
import { aCompany, aGroup, aMachine, aUser } from '../testing/builders';
import { DIALECTS } from '@takt/db/testing';
import { aJobRun, aRejectReason, HOUR, MIN, someStates } from '../testing/downtime-builders';
import { errorOf } from '../testing/live-builders';

// live-operations §7 report calls (decision 0700): hand-computed values from seeded facts, each validation
// rule, CSV, and tenancy, on both dialects.

/** Monday 2025-11-17 00:00 UTC; the harness clock stands on the following Saturday. */
const D = Date.parse('2025-11-17T00:00:00Z');
const DAY = 24 * HOUR;

describe.each(DIALECTS)('report calls on %s', (dialect) => {
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

  const recompute = (company: Company, machineId: string, from = D, to = D + DAY) =>
    recomputeRollups(h.t.db, { companyId: company.id, machineId, from, to, now: h.clock.now });

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
  // Utilization

  /** A: 6 h in cycle of 8 h (75 %); B: 2 h of 8 h (25 %); C: no data. */
  async function utilizationPlant() {
    const me = await utcTenant();
    const group = await aGroup(h.t.db, me.company, 'Cell 1');
    const a = await aMachine(h.t.db, me.company, { name: 'A', groupIds: [group], sortOrder: 1 });
    const b = await aMachine(h.t.db, me.company, { name: 'B', sortOrder: 2 });
    const c = await aMachine(h.t.db, me.company, { name: 'C', sortOrder: 3 });
    await someStates(h.t.db, me.company, a, [
      [D, D + 6 * HOUR, 'ACTIVE'],
      [D + 6 * HOUR, D + 8 * HOUR, 'INACTIVE'],
    ]);
    await someStates(h.t.db, me.company, b, [
      [D, D + 2 * HOUR, 'ACTIVE'],
      [D + 2 * HOUR, D + 8 * HOUR, 'INACTIVE'],
    ]);
    for (const id of [a, b, c]) await recompute(me.company, id);
    return { ...me, group, a, b, c };
  }

  interface UtilCell {
    start: number;
    inCycleMs: number;
    durationMs: number;
    inCycle: number | null;
    value: string;
  }
  interface UtilMachine extends UtilCell {
    machineId: string;
    machineName: string;
    intervals: UtilCell[];
  }
  interface UtilReport {
    range: { start: number; end: number };
    machines: UtilMachine[];
    machineAggregate: UtilCell & { intervals: UtilCell[] };
    machineContextErrors: Array<{ machineId: string; message: string }>;
    cacheToken: string;
    intervals: Array<{ start: number; shopDate: string }>;
    InCyclePerc: number | null;
    InCycleSeconds: number;
  }

  it('utilization: 6 h in cycle of 8 h is 75 %, per machine, per interval and in aggregate', async () => {
    const { cookie, a, b, c } = await utilizationPlant();
    const r = await json<UtilReport>(`/api/reports/utilization?start=${D}&end=${D + 8 * HOUR}`, cookie);
    expect(r.range).toEqual({ start: D, end: D + 8 * HOUR });
    expect(r.intervals).toEqual([expect.objectContaining({ start: D, shopDate: '2025-11-17' })]);
    expect(r.machines.map((m) => [m.machineId, m.inCycle, m.value])).toEqual([
      [a, 0.75, '75'],
      [b, 0.25, '25'],
      // C never reported: no monitored life, no time base (METRICS.md §1, decision 1010).
      [c, null, '-'],
    ]);
    expect(r.machines[0]).toMatchObject({ machineName: 'A', inCycleMs: 6 * HOUR, durationMs: 8 * HOUR });
    // 8 h in cycle of 16 monitored machine-hours (C's hours are in no time base).
    expect(r.machineAggregate).toMatchObject({ inCycleMs: 8 * HOUR, durationMs: 16 * HOUR, value: '50' });
    expect(r.InCyclePerc).toBe(50);
    expect(r.InCycleSeconds).toBe(8 * 3600);
    expect(r.machineContextErrors).toEqual([
      { machineId: c, machineName: 'C', message: 'No utilization data in this range.' },
    ]);
    expect(r.cacheToken).toMatch(/^[0-9a-f]{20}$/);
  });

  it('utilization: hour intervals, unit hour (1 decimal), one machine, a group', async () => {
    const { cookie, a, group } = await utilizationPlant();
    const hours = await json<UtilReport>(
      `/api/reports/utilization?start=${D}&end=${D + 8 * HOUR}&interval=hour&unit=hour&machineId=${a}`,
      cookie,
    );
    expect(hours.machines).toHaveLength(1);
    expect(hours.machines[0]!.value).toBe('6.0');
    expect(hours.machines[0]!.intervals.map((i) => i.value)).toEqual([
      '1.0',
      '1.0',
      '1.0',
      '1.0',
      '1.0',
      '1.0',
      '0.0',
      '0.0',
    ]);
    const cell = await json<UtilReport>(
      `/api/reports/utilization?start=${D}&end=${D + 8 * HOUR}&group=${group}`,
      cookie,
    );
    expect(cell.machines.map((m) => m.machineName)).toEqual(['A']);
    expect(cell.InCyclePerc).toBe(75);
  });

  it('utilization: a machine with facts not yet recomputed is built from its facts; the token changes', async () => {
    const { company, cookie, a } = await utilizationPlant();
    const path = `/api/reports/utilization?start=${D}&end=${D + 8 * HOUR}&machineId=${a}`;
    const before = await json<UtilReport>(path, cookie);
    // Late data: the last 2 hours were in cycle after all; ingest marks the rollups dirty.
    await companyScope(h.t.db, company.id)
      .updateTable('state_intervals')
      .set({ state: 'ACTIVE' })
      .where('machine_id', '=', a)
      .where('start_at', '=', D + 6 * HOUR)
      .execute();
    await markRollupsDirty(h.t.db, {
      companyId: company.id,
      machineId: a,
      from: D + 6 * HOUR,
      now: h.clock.now,
    });
    const after = await json<UtilReport>(path, cookie);
    expect(after.machines[0]!.value).toBe('100');
    expect(after.cacheToken).not.toBe(before.cacheToken);
  });

  it('utilization: rows computed before the range ends are not trusted; the live end is built from facts', async () => {
    const me = await utcTenant();
    const m = await aMachine(h.t.db, me.company);
    await someStates(h.t.db, me.company, m, [[D, null, 'ACTIVE']]);
    // The worker last ran at 04:00; the machine has been in cycle ever since without a new fact.
    await recomputeRollups(h.t.db, {
      companyId: me.company.id,
      machineId: m,
      from: D,
      to: D + DAY,
      now: D + 4 * HOUR,
    });
    const r = await json<UtilReport>(
      `/api/reports/utilization?start=${D}&end=${D + 8 * HOUR}&machineId=${m}`,
      me.cookie,
    );
    expect(r.machines[0]).toMatchObject({ inCycleMs: 8 * HOUR, value: '100' });
  });

  it('utilization: refuses a bad interval, unit or range', async () => {
    const { cookie } = await utcTenant();
    const base = `/api/reports/utilization?start=${D}&end=${D + HOUR}`;
    expect((await rejected(`${base}&interval=fortnight`, cookie)).message).toBe(
      'Interval must be one of hour, shift, day, week, month, quarter.',
    );
    expect((await rejected(`${base}&unit=minutes`, cookie)).message).toBe('Unit must be hour or percent.');
    const backwards = await rejected(`/api/reports/utilization?start=${D}&end=${D}`, cookie);
    expect(backwards).toMatchObject({
      code: 'VALIDATION_ERROR',
      message: 'Start Date must be before End Date',
    });
    expect((await rejected(`/api/reports/utilization?end=${D}`, cookie)).issues?.[0]?.field).toBe('start');
  });

  // -------------------------------------------------------------------------------------------------------
  // Parts goal and cycles

  /**
   * One run [D, D+2h) with a 60 s standard: 45 cycles in the first hour, 60 in the second; 5 scrapped in the
   * first hour and 2 non-conforming in the second, both removed from good parts. Goal 60 an hour.
   */
  async function partsPlant() {
    const me = await utcTenant();
    const m = await aMachine(h.t.db, me.company, { name: 'Lathe' });
    const jobName = await aJobRun(h.t.db, me.company, m, { start: D, end: D + 2 * HOUR, jobName: 'Flange' });
    const scope = companyScope(h.t.db, me.company.id);
    const cycle = (end: number, duration: number) => ({
      machine_id: m,
      start_at: end - duration,
      end_at: end,
      duration,
      count: 1,
      source: 'part_count',
      setup: 0,
    });
    await scope
      .insertInto('cycles', [
        ...Array.from({ length: 45 }, (_, i) => cycle(D + i * 80_000 + 60_000, 60_000)),
        ...Array.from({ length: 60 }, (_, i) => cycle(D + HOUR + i * 60_000 + 59_000, 59_000)),
      ])
      .execute();
    const scrap = await aRejectReason(h.t.db, me.company, { reject_behavior: 'scrap' });
    const reject = (at: number, n: number, behavior: 'scrap' | 'nonconform') => ({
      id: crypto.randomUUID(),
      machine_id: m,
      adjustment_time: at,
      type_id: scrap.id,
      scrapcount: n,
      count: 0,
      message: null,
      reject_behavior: behavior,
      deduct_from_good_parts: 1,
      job_run_id: null,
      kind: 'reject' as const,
      created_by: null,
      created_at: at,
    });
    await scope
      .insertInto('part_adjustments', [
        reject(D + 30 * MIN, 5, 'scrap'),
        reject(D + 90 * MIN, 2, 'nonconform'),
      ])
      .execute();
    await recompute(me.company, m);
    return { ...me, m, jobName };
  }

  interface GoalCell {
    start: number;
    parts: number;
    goal: number | null;
  }
  interface GoalReport {
    range: { start: number; end: number };
    machines: Array<{
      machineId: string;
      machineName: string;
      parts: number;
      goal: number | null;
      goalParts: number;
      intervals: GoalCell[];
    }>;
    cacheToken: string;
  }

  it('partGoals: good parts and the expected parts of each hour', async () => {
    const { cookie, m, company } = await partsPlant();
    const companyId = company.id;
    const path = `/api/reports/partGoals?start=${D}&end=${D + 2 * HOUR}&interval=hour`;
    const r = await json<GoalReport>(path, cookie);
    expect(r.range).toEqual({ start: D, end: D + 2 * HOUR });
    expect(r.machines).toEqual([
      {
        machineId: m,
        machineName: 'Lathe',
        parts: 98,
        goal: 120,
        // Decision 1021: the good parts of the intervals with a goal (both hours here), against that goal.
        goalParts: 98,
        intervals: [
          expect.objectContaining({ start: D, parts: 40, goal: 60 }),
          expect.objectContaining({ start: D + HOUR, parts: 58, goal: 60 }),
        ],
      },
    ]);
    // A fact changed behind the rollups' back (no dirty mark): the stored rollups still answer, cache=false
    // reads the facts.
    await companyScope(h.t.db, companyId)
      .deleteFrom('cycles')
      .where('machine_id', '=', m)
      .where('end_at', '=', D + HOUR + 59_000)
      .execute();
    expect((await json<GoalReport>(path, cookie)).machines[0]!.parts).toBe(98);
    const fresh = await json<GoalReport>(`${path}&cache=false`, cookie);
    expect(fresh.machines[0]!.intervals.map((i) => i.parts)).toEqual([40, 57]);
    expect(fresh.cacheToken).not.toBe(r.cacheToken);
  });

  it('partGoals: CSV, one row per machine and interval, over a ?token= link', async () => {
    const { cookie } = await partsPlant();
    const { token } = await json<{ token: string }>('/api/user-token', cookie);
    const res = await h.app.request(
      `/api/reports/partGoals?start=${D}&end=${D + 2 * HOUR}&interval=hour&format=csv&token=${token}`,
    );
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toContain('text/csv');
    expect(res.headers.get('content-disposition')).toContain('part-goals.csv');
    expect(await res.text()).toBe(
      'Machine,Start,End,Parts,Goal\r\n' +
        'Lathe,2025-11-17 00:00:00,2025-11-17 01:00:00,40,60\r\n' +
        'Lathe,2025-11-17 01:00:00,2025-11-17 02:00:00,58,60\r\n',
    );
  });

  it('partGoals: at most 7 days, a known interval, start before end; FullProduct only', async () => {
    const { cookie } = await utcTenant();
    const tooLong = await rejected(`/api/reports/partGoals?start=${D}&end=${D + 7 * DAY + HOUR}`, cookie);
    expect(tooLong).toMatchObject({ code: 'VALIDATION_ERROR', message: 'Select up to 7 days' });
    expect(tooLong.issues).toEqual([
      { field: 'end', code: 'RANGE_TOO_LONG', message: 'Select up to 7 days' },
    ]);
    expect((await h.get(`/api/reports/partGoals?start=${D}&end=${D + 7 * DAY}`, cookie)).status).toBe(200);
    await rejected(`/api/reports/partGoals?start=${D}&end=${D + HOUR}&interval=minute`, cookie);
    await rejected(`/api/reports/partGoals?start=${D + HOUR}&end=${D}`, cookie);
    const small = await utcTenant({ productTier: 'utilization' });
    await rejected(`/api/reports/partGoals?start=${D}&end=${D + HOUR}`, small.cookie, 403);
    expect((await h.get(`/api/reports/utilization?start=${D}&end=${D + HOUR}`, small.cookie)).status).toBe(
      200,
    );
  });

  interface CycleRow {
    timestamp: number;
    duration: number;
    expectedCycleTime: number;
    idealCycleTime: number;
    parts: number;
    scraps: number;
    nonconforms: number;
    job: { name: string } | null;
  }

  it('cycles: the grid rows with standards, scrap and non-conforming counts, and as CSV', async () => {
    const { cookie, m } = await partsPlant();
    const path = `/api/reports/cycles?machineId=${m}&start=${D}&end=${D + 2 * HOUR}`;
    const r = await json<{ machineId: string; cycles: CycleRow[] }>(path, cookie);
    expect(r.machineId).toBe(m);
    expect(r.cycles).toHaveLength(105);
    expect(r.cycles[22]).toMatchObject({
      timestamp: D + 22 * 80_000 + 60_000,
      duration: 60_000,
      expectedCycleTime: 60_000,
      idealCycleTime: 60_000,
      parts: 1,
      scraps: 5,
      nonconforms: 0,
      job: { name: 'Flange' },
    });
    expect(r.cycles[45 + 30]).toMatchObject({ scraps: 0, nonconforms: 2 });
    expect(r.cycles.reduce((t, c) => t + c.scraps + c.nonconforms, 0)).toBe(7);

    const csv = await (await h.get(`${path}&format=csv`, cookie)).text();
    const lines = csv.trimEnd().split('\r\n');
    expect(lines[0]).toBe('Time,Duration,Expected,Ideal,Parts,Scrap,Non-Conform,Operation');
    expect(lines).toHaveLength(106);
    expect(lines[23]).toBe('2025-11-17 00:30:20,60000,60000,60000,1,5,0,Flange');
  });

  it('cycles: needs a machine of the caller and a range', async () => {
    const { cookie, m } = await partsPlant();
    const other = await utcTenant();
    await rejected(`/api/reports/cycles?start=${D}&end=${D + HOUR}`, cookie);
    await rejected(`/api/reports/cycles?machineId=${m}&start=${D + HOUR}&end=${D}`, cookie);
    expect(
      await rejected(`/api/reports/cycles?machineId=${m}&start=${D}&end=${D + HOUR}`, other.cookie, 404),
    ).toEqual({
      code: 'NOT_FOUND',
      message: 'Machine not found.',
    });
  });

  // -------------------------------------------------------------------------------------------------------
  // Timeline and sub-programs

  async function timelinePlant() {
    const me = await utcTenant();
    const m = await aMachine(h.t.db, me.company, { name: 'Mill' });
    const scope = companyScope(h.t.db, me.company.id);
    await someStates(h.t.db, me.company, m, [
      [D, D + HOUR, 'SETUP'],
      [D + HOUR, D + 3 * HOUR, 'ACTIVE'],
      [D + 3 * HOUR, D + 4 * HOUR, 'FAULT'],
    ]);
    await aJobRun(h.t.db, me.company, m, { start: D, end: D + 4 * HOUR, jobName: 'Bracket' });
    const run = await scope
      .selectFrom('job_runs')
      .select('id')
      .where('machine_id', '=', m)
      .executeTakeFirstOrThrow();
    await scope
      .insertInto('labor_activities', [
        {
          id: crypto.randomUUID(),
          job_run_id: run.id,
          start_at: D,
          end_at: D + HOUR,
          setup_stage_id: null,
          setup: 1,
        },
        {
          id: crypto.randomUUID(),
          job_run_id: run.id,
          start_at: D + HOUR,
          end_at: D + 4 * HOUR,
          setup_stage_id: null,
          setup: 0,
        },
      ])
      .execute();
    await scope
      .insertInto('program_intervals', [
        { machine_id: m, sub: 0, start_at: D + HOUR, end_at: D + 3 * HOUR, name: 'O1000' },
        { machine_id: m, sub: 0, start_at: D + 3 * HOUR, end_at: D + 3 * HOUR + 60_000, name: 'O9' },
        { machine_id: m, sub: 1, start_at: D + HOUR + 10 * MIN, end_at: D + HOUR + 20 * MIN, name: 'SUB1' },
      ])
      .execute();
    await scope
      .insertInto('faults', {
        machine_id: m,
        item: 'system',
        start_at: D + 3 * HOUR,
        end_at: D + 4 * HOUR,
        value: 'Spindle overload',
        nativecode: 'E42',
        type: 'SYSTEM',
      })
      .execute();
    await scope
      .insertInto('cycles', [
        {
          machine_id: m,
          start_at: D + 50 * MIN,
          end_at: D + 55 * MIN,
          duration: 5 * MIN,
          count: 1,
          source: 'part_count',
          setup: 1,
        },
        {
          machine_id: m,
          start_at: D + HOUR,
          end_at: D + HOUR + MIN,
          duration: MIN,
          count: 1,
          source: 'part_count',
          setup: 0,
        },
      ])
      .execute();
    await scope
      .insertInto('part_adjustments', {
        id: crypto.randomUUID(),
        machine_id: m,
        adjustment_time: D + 2 * HOUR,
        type_id: null,
        scrapcount: 0,
        count: 3,
        message: 'Recount',
        reject_behavior: null,
        deduct_from_good_parts: 0,
        job_run_id: null,
        kind: 'correction',
        created_by: null,
        created_at: D + 2 * HOUR,
      })
      .execute();
    return { ...me, m, run: run.id };
  }

  it('operation: every lane of the machine timeline', async () => {
    const { cookie, m, run } = await timelinePlant();
    // The window starts at 00:30, so the setup interval is pinned to it.
    const start = D + 30 * MIN;
    const r = await json<Record<string, unknown[] | unknown>>(
      `/api/reports/operation?machineId=${m}&start=${start}&end=${D + 4 * HOUR}`,
      cookie,
    );
    expect(r).toMatchObject({
      range: { start, end: D + 4 * HOUR },
      start,
      end: D + 4 * HOUR,
      hasSubprogram: true,
    });
    expect(r.cycleEvents).toEqual([
      {
        value: 'SETUP',
        start: D,
        end: D + HOUR,
        duration: HOUR,
        pinnedStart: start,
        pinnedEnd: D + HOUR,
        pinnedDuration: 30 * MIN,
      },
      {
        value: 'ACTIVE',
        start: D + HOUR,
        end: D + 3 * HOUR,
        duration: 2 * HOUR,
        pinnedStart: D + HOUR,
        pinnedEnd: D + 3 * HOUR,
        pinnedDuration: 2 * HOUR,
      },
      {
        value: 'FAULT',
        start: D + 3 * HOUR,
        end: D + 4 * HOUR,
        duration: HOUR,
        pinnedStart: D + 3 * HOUR,
        pinnedEnd: D + 4 * HOUR,
        pinnedDuration: HOUR,
      },
    ]);
    // O9 lasts 1 min of a 210-min window (< 1/150): shown only with instances.
    expect((r.programs as Array<{ name: string }>).map((p) => p.name)).toEqual(['O1000']);
    expect(r.parts).toEqual([
      { start: D + 55 * MIN, duration: 5 * MIN, parts: 1, expectedCycleTime: 60_000, setup: true },
      { start: D + HOUR + MIN, duration: MIN, parts: 1, expectedCycleTime: 60_000, setup: false },
    ]);
    expect(r.runs).toEqual([
      { jobId: expect.any(String), jobName: 'Bracket', start: D, end: D + 4 * HOUR, jsgId: run },
    ]);
    expect(
      (r.activities as Array<{ activityMode: string; activitySetRef: string; jobName: string }>).map((a) => [
        a.activityMode,
        a.activitySetRef,
        a.jobName,
      ]),
    ).toEqual([
      ['setup', run, 'Bracket'],
      ['production', run, 'Bracket'],
    ]);
    expect(r.resets).toEqual([
      { resetdate: D + 2 * HOUR, message: 'Recount', count: 3, account: { displayName: '' } },
    ]);
    expect(r.faults).toEqual([
      {
        start: D + 3 * HOUR,
        end: D + 4 * HOUR,
        duration: HOUR,
        value: 'Spindle overload',
        nativecode: 'E42',
        type: 'SYSTEM',
      },
    ]);

    const all = await json<{ programs: Array<{ name: string }>; parts: unknown[]; activities: unknown[] }>(
      `/api/reports/operation?machineId=${m}&start=${start}&end=${D + 4 * HOUR}&instances=true&includeSetup=false`,
      cookie,
    );
    expect(all.programs.map((p) => p.name)).toEqual(['O1000', 'O9']);
    expect(all.parts).toHaveLength(1);
    expect(all.activities).toHaveLength(1);
  });

  it('operation: at most 7 days, start before end, a machine', async () => {
    const { cookie, m } = await timelinePlant();
    expect(
      await rejected(`/api/reports/operation?machineId=${m}&start=${D}&end=${D + 7 * DAY + 1}`, cookie),
    ).toMatchObject({
      message: 'Select up to 7 days',
    });
    await rejected(`/api/reports/operation?machineId=${m}&start=${D}&end=${D}`, cookie);
    await rejected(`/api/reports/operation?start=${D}&end=${D + HOUR}`, cookie);
  });

  it('subprograms: a window of at most 2 hours, padded to 2 hours around its middle', async () => {
    const { cookie, m } = await timelinePlant();
    const r = await json<{ range: { start: number; end: number }; subprograms: unknown[] }>(
      `/api/reports/subprograms?machineId=${m}&start=${D + 3 * HOUR}&end=${D + 4 * HOUR}`,
      cookie,
    );
    // [03:00, 04:00) padded to [02:30, 04:30): SUB1 (01:10–01:20) is outside.
    expect(r).toEqual({
      range: { start: D + 2 * HOUR + 30 * MIN, end: D + 4 * HOUR + 30 * MIN },
      recomputing: [],
      subprograms: [],
    });
    const near = await json<{ subprograms: unknown[] }>(
      `/api/reports/subprograms?machineId=${m}&start=${D + HOUR}&end=${D + HOUR + 20 * MIN}`,
      cookie,
    );
    expect(near.subprograms).toEqual([
      { name: 'SUB1', start: D + HOUR + 10 * MIN, end: D + HOUR + 20 * MIN, duration: 10 * MIN },
    ]);
    expect(
      await rejected(`/api/reports/subprograms?machineId=${m}&start=${D}&end=${D + 2 * HOUR + 1}`, cookie),
    ).toMatchObject({
      message: SUBPROGRAM_WINDOW_TOO_LONG,
    });
    await rejected(`/api/reports/subprograms?machineId=${m}&start=${D + HOUR}&end=${D}`, cookie);
  });
});
