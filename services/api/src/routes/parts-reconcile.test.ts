import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { workcenterLiveSchema } from '@takt/domain';
import type { DashboardResponse, ProductionRun } from '@takt/domain';
import { companyScope } from '@takt/db';
import { DIALECTS } from '@takt/db/testing';
import type { Company } from '../repositories/company';
import { apiHarness } from '../testing/app';
import type { ApiHarness } from '../testing/app';
import { aCompany, aMachine, aUser } from '../testing/builders';
import { aRejectReason, MIN, someStates } from '../testing/downtime-builders';
import { aJob, aShift } from '../testing/live-builders';

// Issue 27 point 5, "parts that reconcile" (METRICS.md §3 total, rejected, good; decision 1020): one run of a
// manycycles job that started in setup and kept a part of its setup parts, with rejects (removed from the good
// parts and kept in the count) and a correction, shows the same total, rejected and good parts on the tablet
// (GET /api/workcenter/:id), the tile (GET /api/dashboard), the Parts report (GET /api/reports/partGoals),
// Production Runs (GET /api/productionruns), the job report (GET /api/reports/warehouse/jobs) and the Cycles
// report (GET /api/reports/cycles), on both dialects. Each Parts cell equals the Cycles report over its hour.

/** Tuesday 2025-11-18 06:00 UTC: the day shift's start (06:00–14:00); the clock stands at 10:00. */
const S0 = Date.parse('2025-11-18T06:00:00Z');
const at = (minutes: number) => S0 + minutes * MIN;
const NOW = at(240);

/**
 * 3 setup cycles (06:10, 06:20, 06:25) and 8 production cycles (06:40 … 07:50), one count each: 11 cycles of a
 * job whose 2 cycles make 3 parts credit ⌊11 / 2⌋ × 3 = 15 parts, 3 of them in setup. Setup ends at 06:30
 * keeping 1 part (a setup removal of −2), a scrap of 2 removed from the good parts at 07:55, a non-conforming
 * part kept in the count (+1 total) at 07:56 and a correction of +1 at 07:58: total 15 − 2 + 1 + 1 = 15,
 * rejected 3, good 12.
 */
const TOTAL = 15;
const REJECTED = 3;
const GOOD = 12;

describe.each(DIALECTS)('parts reconcile on every screen on %s', (dialect) => {
  let h: ApiHarness;
  beforeEach(async () => {
    h = await apiHarness(dialect, NOW);
  });
  afterEach(async () => {
    await h.close();
  });

  async function json<T>(path: string, cookie: string): Promise<T> {
    const res = await h.get(path, cookie);
    expect(res.status, await res.clone().text()).toBe(200);
    return (await res.json()) as T;
  }

  async function plant(): Promise<{ company: Company; cookie: string; machine: string; job: string }> {
    const company = await aCompany(h.t.db, { timezone: 'UTC', productTier: 'full' });
    await aShift(h.t.db, company, { startoffsetminutes: 360, endoffsetminutes: 840 });
    const user = await aUser(h.t.db, company);
    const cookie = await h.login(user.email, user.password);
    const machine = await aMachine(h.t.db, company, { name: 'Mill' });
    const scope = companyScope(h.t.db, company.id);
    await someStates(h.t.db, company, machine, [
      [S0, at(120), 'ACTIVE'],
      [at(120), null, 'INACTIVE'],
    ]);
    const job = await aJob(h.t.db, company, { name: 'Bracket', expectedCycleTime: 10 * MIN });
    const runId = crypto.randomUUID();
    await scope
      .insertInto('job_runs', {
        id: runId,
        machine_id: machine,
        job_id: job,
        job_machine_id: null,
        start_at: S0,
        end_at: null,
        setup_mode: 'planned',
        setup_end: at(30),
        expected_cycle_time: 10 * MIN,
        ideal_cycle_time: 8 * MIN,
        part_count_multiplier: 1,
        actual_parts: 1,
        reported_parts: 3,
        required_cycles: 2,
        part_behavior: 'manycycles',
        expected_setup_ms: 30 * MIN,
        setup_note: null,
        created_at: S0,
      })
      .execute();
    const ends = [10, 20, 25, ...Array.from({ length: 8 }, (_, i) => 40 + 10 * i)];
    await scope
      .insertInto(
        'cycles',
        ends.map((m) => ({
          machine_id: machine,
          start_at: at(m) - 5 * MIN,
          end_at: at(m),
          duration: 5 * MIN,
          count: 1,
          source: 'part_count',
          setup: m < 30 ? 1 : 0,
        })),
      )
      .execute();
    // Start Production kept 1 of the 3 setup parts: the setup removal, as services/setup.ts stores it.
    await scope
      .insertInto('part_adjustments', {
        id: crypto.randomUUID(),
        machine_id: machine,
        adjustment_time: at(30),
        type_id: null,
        scrapcount: 0,
        count: -2,
        message: null,
        reject_behavior: null,
        deduct_from_good_parts: 0,
        job_run_id: runId,
        kind: 'setup',
        created_by: null,
        created_at: at(30),
      })
      .execute();
    // The floor's rejects and correction through the API (the good-parts rule applies, decision 0997).
    const scrap = await aRejectReason(h.t.db, company, { name: 'Burr', reject_behavior: 'scrap' });
    const nonconform = await aRejectReason(h.t.db, company, {
      name: 'Scratch',
      reject_behavior: 'nonconform',
    });
    const recount = await aRejectReason(h.t.db, company, { name: 'Recount', scrap: false });
    for (const body of [
      { adjustmenttime: at(115), scrap: true, category_id: scrap.id, scrapcount: 2 },
      {
        adjustmenttime: at(116),
        scrap: true,
        category_id: nonconform.id,
        scrapcount: 1,
        deductFromGoodParts: false,
      },
      { adjustmenttime: at(118), scrap: false, category_id: recount.id, count: 1 },
    ]) {
      const res = await h.send('POST', '/api/partadjustment', cookie, { machine_id: machine, ...body });
      expect(res.status, await res.clone().text()).toBe(201);
    }
    return { company, cookie, machine, job };
  }

  interface CyclesAnswer {
    cycles: Array<{ parts: number; scraps: number; nonconforms: number }>;
    parts: { total: number; rejected: number; good: number };
  }
  interface PartGoalsAnswer {
    machines: Array<{
      machineId: string;
      parts: number;
      goal: number | null;
      goalParts: number;
      intervals: Array<{ start: number; end: number; parts: number; goal: number | null }>;
    }>;
  }
  interface JobsAnswer {
    jobs: Array<{
      good_parts: number;
      rejected_parts: number;
      percentage_of_parts_goal: number | null;
      runs: Array<{ good_parts: number; rejected_parts: number }>;
    }>;
  }

  it('the tablet, the tile, the Parts report, Production Runs, the job report and Cycles show the same parts', async () => {
    const { cookie, machine, job } = await plant();
    const range = `start=${S0}&end=${NOW}`;

    const card = workcenterLiveSchema.parse(await json(`/api/workcenter/${machine}`, cookie));
    expect(card).toMatchObject({ actualParts: TOTAL, scrapParts: REJECTED, jobGoodParts: GOOD });
    expect(card.partPercent).not.toBeNull();
    expect(card.partPercent!).toBeGreaterThanOrEqual(0);

    const tile = (await json<DashboardResponse>('/api/dashboard', cookie)).machines.find(
      (m) => m.id === machine,
    )!;
    expect(tile.actualParts).toBe(GOOD);
    expect(tile.progress).toBeCloseTo(card.partPercent!, 9);

    const goals = await json<PartGoalsAnswer>(
      `/api/reports/partGoals?${range}&machineId=${machine}&interval=hour`,
      cookie,
    );
    const row = goals.machines[0]!;
    expect(row).toMatchObject({ machineId: machine, parts: GOOD, goalParts: GOOD });

    const runs = await json<ProductionRun[]>(`/api/productionruns?${range}&machine_id=${machine}`, cookie);
    expect(runs.map((r) => r.parts)).toEqual([{ total: TOTAL, rejected: REJECTED, good: GOOD }]);
    // The standard is a standard: a manycycles run's parts per cycle is no count of parts made.
    expect(runs[0]!.actualParts).toBe(1);
    const one = await json<ProductionRun>(`/api/productionruns/${runs[0]!.id}`, cookie);
    expect(one.parts).toEqual({ total: TOTAL, rejected: REJECTED, good: GOOD });

    const jobs = await json<JobsAnswer>(`/api/reports/warehouse/jobs?${range}&job_id=${job}`, cookie);
    expect(jobs.jobs[0]).toMatchObject({ good_parts: GOOD, rejected_parts: REJECTED });
    expect(jobs.jobs[0]!.runs).toMatchObject([{ good_parts: GOOD, rejected_parts: REJECTED }]);

    const cycles = await json<CyclesAnswer>(`/api/reports/cycles?${range}&machineId=${machine}`, cookie);
    expect(cycles.parts).toEqual({ total: TOTAL, rejected: REJECTED, good: GOOD });
    // The cycles' parts are what the counter credited; the setup removal and the correction are adjustments.
    expect(cycles.cycles.reduce((t, c) => t + c.parts, 0)).toBe(15);

    // Drill-down: each hour of the Parts report is the Cycles report over that hour.
    for (const cell of row.intervals) {
      const list = await json<CyclesAnswer>(
        `/api/reports/cycles?start=${cell.start}&end=${cell.end}&machineId=${machine}`,
        cookie,
      );
      expect([cell.start, list.parts.good]).toEqual([cell.start, cell.parts]);
    }
  });

  it('a reject that would leave fewer than 0 good parts is refused with the spec text; nothing reads negative', async () => {
    const { cookie, machine } = await plant();
    const company = await h.t.db
      .selectFrom('machines')
      .select('company_id')
      .where('id', '=', machine)
      .executeTakeFirstOrThrow();
    const scrap = await aRejectReason(h.t.db, { id: company.company_id } as Company, { name: 'Crack' });
    const res = await h.send('POST', '/api/partadjustment', cookie, {
      machine_id: machine,
      adjustmenttime: at(119),
      scrap: true,
      category_id: scrap.id,
      scrapcount: GOOD + 1,
    });
    expect(res.status).toBe(400);
    const error = ((await res.json()) as { error: { message: string; issues: Array<{ message: string }> } })
      .error;
    expect(error.message).toBe('Parts could not be rejected.');
    expect(error.issues.map((i) => i.message)).toEqual([`Only ${GOOD} good parts to reject from.`]);
    const card = workcenterLiveSchema.parse(await json(`/api/workcenter/${machine}`, cookie));
    expect(card.jobGoodParts).toBe(GOOD);
  });
});
