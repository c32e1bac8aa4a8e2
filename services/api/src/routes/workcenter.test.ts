import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { workcenterLiveSchema } from '@takt/domain';
import { companyScope } from '@takt/db';
import { apiHarness } from '../testing/app';
import type { ApiHarness } from '../testing/app';
import type { Company } from '../repositories/company';
import { aCompany, aMachine, aUser } from '../testing/builders';
import { DIALECTS } from '@takt/db/testing';
import { aJobRun, aRejectReason, MIN, someStates } from '../testing/downtime-builders';
import { aShift } from '../testing/live-builders';
import { aJobWithRun } from '../testing/report-plant';

describe.each(DIALECTS)('workcenter live data on %s', (dialect) => {
  let h: ApiHarness;
  beforeEach(async () => {
    h = await apiHarness(dialect);
  });
  afterEach(async () => {
    await h.close();
  });

  /**
   * A lathe running job "Flange" for an hour: 40 minutes in cycle, 20 idle; a 60 s standard expects 60 parts by
   * now; the machine made 30 (80 s cycles), one rejected; operator Olga logged in.
   */
  async function runningLathe(company: Company) {
    const machine = await aMachine(h.t.db, company, { name: 'Lathe' });
    const now = h.clock.now;
    const start = now - 60 * MIN;
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
    return { machine, jobName, start };
  }

  it('reports the running job against its goal, with cycle times, utilization and the operator', async () => {
    const { company, cookie } = await h.tenant();
    const { machine, jobName, start } = await runningLathe(company);

    const body = await h.read(`/api/workcenter/${machine}`, cookie, workcenterLiveSchema);
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

  it('blanks the FullProduct fields of the card, the tile and the utilization entry for a service provider', async () => {
    const company = await aCompany(h.t.db, { productTier: 'serviceProvider' });
    const user = await aUser(h.t.db, company);
    const cookie = await h.login(user.email, user.password);
    // A shift around now (the harness clock is 02:26 in Chicago), so the shift's OEE has a value to blank.
    await aShift(h.t.db, company, { startoffsetminutes: 0, endoffsetminutes: 720 });
    const { machine } = await runningLathe(company);

    const res = await h.get(`/api/workcenter/${machine}`, cookie);
    expect(res.status).toBe(200);
    const raw = (await res.json()) as Record<string, unknown>;
    const body = workcenterLiveSchema.parse(raw);
    // live-operations §6: job name, parts goal and parts bar, cycle and OEE section, the operator: blank.
    expect(body).toMatchObject({
      jobName: null,
      quantity: null,
      expectedPartsNow: null,
      partPercent: null,
      partsBar: null,
      cardStatus: null,
      cycletime: null,
      currentCycle: null,
      lastCycle: null,
      lastFew: [],
      averageCycle: null,
      oee: null,
      availability: null,
      performance: null,
      quality: null,
      operatorRun: null,
    });
    // Nothing of them is left anywhere in the answer.
    expect(JSON.stringify(raw)).not.toContain('Olga');
    expect(JSON.stringify(raw)).not.toContain('Flange');
    // The machine's own facts stay: utilization, downtime, counted parts, the run it belongs to.
    expect(body).toMatchObject({ scheduled: true, actualParts: 30, scrapParts: 1, jobGoodParts: 29 });
    expect(body.utilization).toEqual(expect.any(Number));
    expect(body.totalDowntime).toBeGreaterThan(0);
    expect(raw).toMatchObject({
      machineId: machine,
      jobRunId: expect.any(String),
      workcenterType: 'machine',
    });

    // The tile: no job name, no goal, no percent of goal.
    const tiles = (await (await h.get('/api/dashboard', cookie)).json()) as {
      machines: Array<Record<string, unknown>>;
    };
    expect(tiles.machines[0]).toMatchObject({
      id: machine,
      scheduled: true,
      pausedJobName: null,
      progress: null,
      expectedParts: null,
      actualParts: 29,
      setupSince: null,
    });
    // The utilization dashboard keeps utilization and drops the OEE figures (the OEE dashboard is FullProduct).
    const util = (await (await h.get('/api/dashboard/utilization', cookie)).json()) as Array<
      Record<string, unknown>
    >;
    expect(util[0]).toMatchObject({
      machineId: machine,
      oee: null,
      availability: null,
      performance: null,
      quality: null,
      start: expect.any(Number),
    });
    expect(util[0]!.utilization).toBe(body.utilization);
    // The parts dashboard is the Parts Goal: refused outright.
    expect((await h.get('/api/dashboard/parts', cookie)).status).toBe(403);
  });

  it('keeps the OEE figures and the goal for a FullProduct company', async () => {
    const { company, cookie } = await h.tenant();
    await aShift(h.t.db, company, { startoffsetminutes: 0, endoffsetminutes: 720 });
    const { machine } = await runningLathe(company);
    const util = (await (await h.get('/api/dashboard/utilization', cookie)).json()) as Array<
      Record<string, unknown>
    >;
    expect(util[0]).toMatchObject({ machineId: machine });
    const card = workcenterLiveSchema.parse(await (await h.get(`/api/workcenter/${machine}`, cookie)).json());
    expect(card.oee).toEqual(expect.any(Number));
    expect(util[0]!.oee).toEqual(expect.any(Number));
    expect(util[0]!.quality).toEqual(expect.any(Number));
  });

  it('reads P and OEE null with missingStandards on the card and the OEE board when the running job has no ideal cycle time (decision 1031)', async () => {
    const { company, cookie } = await h.tenant();
    await aShift(h.t.db, company, { startoffsetminutes: 0, endoffsetminutes: 720 });
    const { machine: lathe } = await runningLathe(company);
    const press = await aMachine(h.t.db, company, { name: 'Press' });
    const start = h.clock.now - 60 * MIN;
    await someStates(h.t.db, company, press, [
      [start, start + 40 * MIN, 'ACTIVE'],
      [start + 40 * MIN, null, 'INACTIVE'],
    ]);
    await aJobWithRun(companyScope(h.t.db, company.id), {
      machineId: press,
      name: 'No standard',
      expected: 60_000,
      ideal: 0,
      jobCreatedAt: start,
      start,
      end: null,
    });
    const card = async (id: string) =>
      workcenterLiveSchema.parse(await (await h.get(`/api/workcenter/${id}`, cookie)).json());
    // METRICS.md §3: run time without a standard is not slow: P unknown, never 0 %, and the warning flag.
    expect(await card(press)).toMatchObject({ performance: null, oee: null, missingStandards: true });
    expect((await card(press)).availability).toEqual(expect.any(Number));
    expect(await card(lathe)).toMatchObject({ missingStandards: false });
    // The OEE board's entries say the same.
    const util = (await (await h.get('/api/dashboard/utilization', cookie)).json()) as Array<
      Record<string, unknown>
    >;
    expect(util.find((u) => u.machineId === press)).toMatchObject({
      performance: null,
      oee: null,
      missingStandards: true,
    });
    expect(util.find((u) => u.machineId === lathe)).toMatchObject({ missingStandards: false });
  });

  it('names the workcenter type of every machine, on the card and on every tile', async () => {
    const { company, cookie } = await h.tenant();
    const lathe = await aMachine(h.t.db, company, { name: 'Lathe', sortOrder: 0 });
    const bench = await aMachine(h.t.db, company, {
      name: 'Bench',
      sortOrder: 1,
      workcenterType: 'manual',
    });
    const cell = await aMachine(h.t.db, company, { name: 'Cell', sortOrder: 2, workcenterType: 'other' });
    const tiles = (await (await h.get('/api/dashboard', cookie)).json()) as {
      machines: Array<Record<string, unknown>>;
    };
    expect(tiles.machines.map((m) => [m.id, m.workcenterType])).toEqual([
      [lathe, 'machine'],
      [bench, 'manual'],
      [cell, 'other'],
    ]);
    for (const [id, type] of [
      [lathe, 'machine'],
      [bench, 'manual'],
      [cell, 'other'],
    ] as const) {
      const card = (await (await h.get(`/api/workcenter/${id}`, cookie)).json()) as Record<string, unknown>;
      expect(card.workcenterType).toBe(type);
    }
  });
});
