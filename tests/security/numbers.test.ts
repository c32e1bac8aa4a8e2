import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { companyScope } from '@takt/db';
import { DIALECTS } from '@takt/db/testing';
import { apiHarness } from '../../services/api/src/testing/app';
import type { ApiHarness } from '../../services/api/src/testing/app';
import { aMachine } from '../../services/api/src/testing/builders';
import { aRejectReason, MIN, someStates } from '../../services/api/src/testing/downtime-builders';
import {
  aJobWithRun,
  aRejectRow,
  aReportTenant,
  someCycles,
} from '../../services/api/src/testing/report-plant';
import type { WarehouseJobsReport } from '../../services/api/src/services/jobs-report';

// Issue 26 finding 8, numbers that cannot be absurd (decisions 0997, 0998): "rejects beyond parts made give good
// parts −9 and OEE −0.33 in the jobs report" and "cycle times 0 and 8.64e15 ms are accepted". One API per
// dialect; every test builds its own company.

interface ErrorBody {
  error: { code: string; message: string; issues?: { field: string; message: string }[] };
}

describe.each(DIALECTS)('numbers that cannot be absurd on %s', (dialect) => {
  let h: ApiHarness;
  beforeAll(async () => {
    h = await apiHarness(dialect);
  });
  afterAll(async () => {
    await h.close();
  });

  /**
   * A job run of an hour that ended an hour ago, in cycle all along, with 10 parts made (one every 6 minutes, the
   * expected and ideal cycle time), in a company whose one shift covers the whole day.
   */
  async function aRunWithTenParts() {
    const T = h.clock.now;
    const tenant = await aReportTenant(h, [['All day', 0, 1440]]);
    const machine = await aMachine(h.t.db, tenant.company, { name: 'Lathe' });
    const [start, end] = [T - 120 * MIN, T - 60 * MIN];
    await someStates(h.t.db, tenant.company, machine, [
      [start, end, 'ACTIVE'],
      [end, null, 'INACTIVE'],
    ]);
    await aJobWithRun(tenant.scope, {
      machineId: machine,
      name: 'Flange',
      expected: 6 * MIN,
      ideal: 6 * MIN,
      jobCreatedAt: start,
      start,
      end,
    });
    await someCycles(
      tenant.scope,
      machine,
      // Each ends a second before its 6 minutes are up, so the tenth still ends inside the run.
      Array.from({ length: 10 }, (_, i) => start + (i + 1) * 6 * MIN - 1000).map((e) => ({
        start: e - 6 * MIN,
        end: e,
      })),
    );
    const reason = await aRejectReason(h.t.db, tenant.company, { reject_behavior: 'scrap' });
    const stored = async () =>
      (await tenant.scope.selectFrom('part_adjustments').select('scrapcount').execute()).map(
        (r) => r.scrapcount,
      );
    return {
      ...tenant,
      machine,
      reason,
      at: start + 30 * MIN,
      range: { start: start - MIN, end: T },
      stored,
    };
  }

  it('refuses a reject of N + 9 parts from a run that made N, over HTTP, and stores nothing', async () => {
    const p = await aRunWithTenParts();
    const reject = (scrapcount: number) =>
      h.send('POST', '/api/partadjustment', p.cookie, {
        machine_id: p.machine,
        adjustmenttime: p.at,
        category_id: p.reason.id,
        scrapcount,
        scrap: true,
        deductFromGoodParts: true,
      });
    const over = await reject(19);
    expect(over.status).toBe(400);
    expect(((await over.json()) as ErrorBody).error).toMatchObject({
      message: 'Parts could not be rejected.',
      issues: [{ field: 'scrapcount', message: 'Only 10 good parts to reject from.' }],
    });
    expect(await p.stored()).toEqual([]);
    // A correction may not take more than there is either.
    const correction = await h.send('POST', '/api/partadjustment', p.cookie, {
      machine_id: p.machine,
      adjustmenttime: p.at,
      scrap: false,
      count: -11,
    });
    expect(correction.status).toBe(400);
    expect(((await correction.json()) as ErrorBody).error).toMatchObject({
      message: 'Part adjustment could not be saved.',
      issues: [{ field: 'count', message: 'Only 10 good parts to take away.' }],
    });
    // Every part made may be rejected; then there is nothing left to reject from.
    expect((await reject(10)).status).toBe(201);
    const more = await reject(1);
    expect(((await more.json()) as ErrorBody).error.issues).toEqual([
      { field: 'scrapcount', code: 'too_big', message: 'No good parts to reject from.' },
    ]);
    expect(await p.stored()).toEqual([10]);
  });

  it('answers the same reject queued offline as a rejected command with the text', async () => {
    const p = await aRunWithTenParts();
    const res = await h.send('POST', '/api/sync', p.cookie, {
      commands: [
        {
          id: crypto.randomUUID(),
          type: 'reject_part',
          machineId: p.machine,
          occurredAt: p.at,
          payload: {
            machine_id: p.machine,
            category_id: p.reason.id,
            scrapcount: 19,
            deductFromGoodParts: true,
          },
        },
      ],
    });
    expect(res.status).toBe(200);
    const { results } = (await res.json()) as {
      results: Array<{ status: string; error?: ErrorBody['error'] }>;
    };
    expect(results).toHaveLength(1);
    expect(results[0]).toMatchObject({
      status: 'rejected',
      error: {
        message: 'Parts could not be rejected.',
        issues: [{ field: 'scrapcount', message: 'Only 10 good parts to reject from.' }],
      },
    });
    expect(await p.stored()).toEqual([]);
  });

  it('shows 0 good parts, quality 0 and OEE 0 for an over-reject stored before the rule, never below', async () => {
    const p = await aRunWithTenParts();
    // As an older server stored it: 19 parts rejected (removed from good parts) of the 10 made.
    await p.scope
      .insertInto('part_adjustments', [aRejectRow(p.machine, p.at, { typeId: p.reason.id, scrapcount: 19 })])
      .execute();
    const res = await h.get(
      `/api/reports/warehouse/jobs?start=${p.range.start}&end=${p.range.end}`,
      p.cookie,
    );
    expect(res.status, await res.clone().text()).toBe(200);
    const { jobs } = (await res.json()) as WarehouseJobsReport;
    expect(jobs).toHaveLength(1);
    for (const figures of [jobs[0]!, jobs[0]!.runs[0]!]) {
      expect(figures).toMatchObject({
        good_parts: 0,
        rejected_parts: 19,
        quality: 0,
        oee: 0,
        availability: 1,
        performance: 1,
        percentage_of_parts_goal: 0,
      });
    }
  });

  it('refuses cycle times of 0 and 8.64e15 ms on jobs, job machines and production runs, and stores nothing', async () => {
    const { company, cookie } = await h.tenant();
    const problems = async (res: Response) => {
      expect(res.status).toBe(400);
      return (((await res.json()) as ErrorBody).error.issues ?? []).map((i) => `${i.field}: ${i.message}`);
    };
    const job = (body: Record<string, unknown>) =>
      h.send('POST', '/api/jobs', cookie, { name: 'Probe', ...body });
    expect(await problems(await job({ expectedCycleTime: 0 }))).toEqual([
      'expectedCycleTime: Expected cycle time must be more than 0 ms',
    ]);
    expect(await problems(await job({ expectedCycleTime: 8.64e15, idealCycleTime: 8.64e15 }))).toEqual([
      'expectedCycleTime: Expected cycle time must be at most 7 days (604,800,000 ms)',
      'idealCycleTime: Ideal cycle time must be at most 7 days (604,800,000 ms)',
    ]);
    const machine = await aMachine(h.t.db, company);
    const scope = companyScope(h.t.db, company.id);
    expect(await scope.selectFrom('jobs').select('id').execute()).toEqual([]);

    // "No standard" is said with null (stored as 0, as the goal and the warning read it).
    const none = await job({ expectedCycleTime: null, idealCycleTime: 0 });
    expect(none.status).toBe(201);
    const { id: jobId } = (await none.json()) as { id: string };
    expect(
      await scope.selectFrom('jobs').select(['expected_cycle_time', 'ideal_cycle_time']).execute(),
    ).toEqual([{ expected_cycle_time: 0, ideal_cycle_time: 0 }]);

    for (const expectedCycleTime of [0, 8.64e15]) {
      const res = await h.send('POST', '/api/jobmachines', cookie, {
        job_id: jobId,
        job_machine: { machine_id: machine, expectedCycleTime },
      });
      expect((await problems(res))[0]).toMatch(
        /^job_machine\.expectedCycleTime: Expected cycle time must be/,
      );
    }
    expect(await scope.selectFrom('job_machines').select('id').execute()).toEqual([]);

    const T = h.clock.now;
    const run = await h.send('POST', '/api/productionruns', cookie, {
      job_id: jobId,
      machine_id: machine,
      startdate: T - 60 * MIN,
      enddate: T,
      startInSetup: 'none',
      setupend: null,
      cycletime: 8.64e15,
      idealcycletime: 8.64e15,
      partcount_multiplier: 1,
      actualParts: 1,
    });
    expect(await problems(run)).toEqual([
      'cycletime: Expected cycle time must be at most 7 days (604,800,000 ms)',
      'idealcycletime: Ideal cycle time must be at most 7 days (604,800,000 ms)',
    ]);
    expect(await scope.selectFrom('job_runs').select('id').execute()).toEqual([]);
  });
});
