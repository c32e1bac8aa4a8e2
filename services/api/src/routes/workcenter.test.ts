import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { workcenterLiveSchema } from '@takt/domain';
import { companyScope } from '../db/scope';
import { apiHarness } from '../testing/app';
import type { ApiHarness } from '../testing/app';
import { aMachine } from '../testing/builders';
import { DIALECTS } from '../testing/db';
import { aJobRun, aRejectReason, MIN, someStates } from '../testing/downtime-builders';

describe.each(DIALECTS)('workcenter live data on %s', (dialect) => {
  let h: ApiHarness;
  beforeEach(async () => {
    h = await apiHarness(dialect);
  });
  afterEach(async () => {
    await h.close();
  });

  it('reports the running job against its goal, with cycle times, utilization and the operator', async () => {
    const { company, cookie } = await h.tenant();
    const machine = await aMachine(h.t.db, company, { name: 'Lathe' });
    const now = h.clock.now;
    const start = now - 60 * MIN;
    // 40 minutes in cycle, 20 idle; a 60 s standard expects 60 parts by now; the machine made 30, one rejected.
    await someStates(h.t.db, company, machine, [
      [start, start + 40 * MIN, 'ACTIVE'],
      [start + 40 * MIN, null, 'INACTIVE'],
    ]);
    const jobName = await aJobRun(h.t.db, company, machine, { start, jobName: 'Flange' });
    const scope = companyScope(h.t.db, company.id);
    await scope
      .insertInto(
        'cycles',
        Array.from({ length: 30 }, (_, i) => ({
          machine_id: machine,
          start_at: start + i * 80_000,
          end_at: start + (i + 1) * 80_000,
          duration: 80_000,
          count: 1,
          source: 'part_count',
          setup: 0,
        })),
      )
      .execute();
    const reason = await aRejectReason(h.t.db, company);
    await scope
      .insertInto('part_adjustments', {
        id: crypto.randomUUID(),
        machine_id: machine,
        adjustment_time: start + 10 * MIN,
        type_id: reason.id,
        scrapcount: 1,
        count: 0,
        message: null,
        reject_behavior: 'scrap',
        deduct_from_good_parts: 1,
        job_run_id: null,
        kind: 'reject',
        created_by: null,
        created_at: 0,
      })
      .execute();
    await scope
      .insertInto('operators', { id: 'op', name: 'Olga', erp_id: null, archived_at: null, created_at: 0 })
      .execute();
    await scope
      .insertInto('operator_runs', {
        id: 'run-op',
        machine_id: machine,
        operator_id: 'op',
        start_at: start,
        end_at: null,
      })
      .execute();

    const res = await h.get(`/api/workcenter/${machine}`, cookie);
    expect(res.status).toBe(200);
    const body = workcenterLiveSchema.parse(await res.json());
    expect(body).toMatchObject({
      scheduled: true,
      jobName,
      actualParts: 30,
      scrapParts: 1,
      jobGoodParts: 29,
      expectedPartsNow: 60,
      lastCycle: 80_000,
      averageCycle: 80_000,
      cycletime: 60_000,
      multiplier: 1,
      operatorRun: { operator: { name: 'Olga' }, startAt: start },
      cardStatus: 'danger',
    });
    expect(body.partPercent).toBeCloseTo((29 / 60) * 100, 6);
    expect(body.lastFew).toEqual([80_000, 80_000, 80_000, 80_000, 80_000]);

    // The dashboard tile shows the same job against the same goal.
    const tiles = (await (await h.get('/api/dashboard', cookie)).json()) as {
      machines: Array<Record<string, unknown>>;
    };
    expect(tiles.machines[0]).toMatchObject({
      id: machine,
      scheduled: true,
      expectedParts: 60,
      actualParts: 29,
      setupSince: null,
    });
    expect(tiles.machines[0]!.progress).toBeCloseTo((29 / 60) * 100, 6);
    expect(tiles.machines[0]!.jobScheduleGroupId).toEqual(expect.any(String));
  });

  it('shows an unscheduled machine without goal, and refuses another company’s machine', async () => {
    const { company, cookie } = await h.tenant();
    const other = await h.tenant();
    const machine = await aMachine(h.t.db, company);
    const theirs = await aMachine(h.t.db, other.company);
    const body = workcenterLiveSchema.parse(await (await h.get(`/api/workcenter/${machine}`, cookie)).json());
    expect(body).toMatchObject({
      scheduled: false,
      jobName: null,
      expectedPartsNow: null,
      cardStatus: 'unavailable',
      stale: true,
    });
    expect((await h.get(`/api/workcenter/${theirs}`, cookie)).status).toBe(404);
  });
});
