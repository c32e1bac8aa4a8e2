import { describe, expect, it } from 'vitest';
import type { OeeByMachineResponse, ProductionRun } from '@takt/domain';
import { DIALECTS } from '@takt/db/testing';
import { takeDirty } from '@takt/db/rollups';
import { aMachine, aUser } from '../testing/builders';
import { MIN, someStates } from '../testing/downtime-builders';
import { apiPerTest, aJobWithRun, aReportTenant, recomputeMarked, someCycles } from '../testing/report-plant';
import { insertSetupStage } from '../repositories/setup-stages';
import type { WarehouseJobsReport } from '../services/jobs-report';
import { RUN_RULES, SCHEDULE_RULES } from '../services/production-runs';

// The schedule (reports-admin §2 "Schedule (job runs) timeline with zoom, create, edit, duplicate, delete";
// §3 Job schedule group: partchangeovertime, shifts; §5 "Schedule form: at least one shift unless labor
// activities"; decision 0910) over POST/PUT/DELETE /api/productionruns on both dialects. The plant,
// America/Chicago, Monday 2025-11-03 (UTC−6), shifts Day 06:00–14:00 and Night 22:00–06:00: Flange runs on the
// Lathe 06:00–08:00 (expected 10 min, ideal 8 min); the Lathe is in cycle 06:00–07:00 with six cycles of 10 min.
// Performance 6 × 8 / 60 = 80 %; ideal 5 min gives 50 %, 4 min 40 %.

const mon = (h: number, m = 0) => Date.UTC(2025, 10, 3, h + 6, m);
const START = mon(0);
const END = mon(24);
const NOW = Date.UTC(2025, 10, 5, 12);

describe.each(DIALECTS)('the schedule on %s', (dialect) => {
  const api = apiPerTest(dialect, NOW);

  async function plant() {
    const tenant = await aReportTenant(api.h, [
      ['Day', 360, 840],
      ['Night', 1320, 1800],
    ]);
    const { company, scope } = tenant;
    const lathe = await aMachine(api.h.t.db, company, { name: 'Lathe', sortOrder: 1 });
    const mill = await aMachine(api.h.t.db, company, { name: 'Mill', sortOrder: 2 });
    await someStates(api.h.t.db, company, lathe, [
      [START, mon(6), 'INACTIVE'],
      [mon(6), mon(7), 'ACTIVE'],
      [mon(7), END, 'INACTIVE'],
    ]);
    await someStates(api.h.t.db, company, mill, [[START, END, 'INACTIVE']]);
    const flange = await aJobWithRun(scope, {
      expected: 10 * MIN,
      ideal: 8 * MIN,
      jobCreatedAt: START,
      machineId: lathe,
      name: 'Flange',
      start: mon(6),
      end: mon(8),
    });
    await someCycles(
      scope,
      lathe,
      [0, 1, 2, 3, 4, 5].map((k) => ({ start: mon(6, k * 10), end: mon(6, (k + 1) * 10) })),
    );
    await tenant.recompute([lathe, mill], { from: START, to: END, now: NOW });
    const [day, night] = tenant.shiftIds as [string, string];
    return { ...tenant, lathe, mill, flange, day, night };
  }

  const runs = async (cookie: string) => {
    const res = await api.h.get(`/api/productionruns?start=${START}&end=${END}`, cookie);
    expect(res.status).toBe(200);
    return (await res.json()) as ProductionRun[];
  };
  /** The schedule form's body: every field of a run with its shifts. */
  const scheduled = (p: Awaited<ReturnType<typeof plant>>, over: Record<string, unknown> = {}) => ({
    job_id: p.flange,
    machine_id: p.lathe,
    startdate: mon(6),
    enddate: mon(8),
    startInSetup: 'none',
    setupend: null,
    setuptime: null,
    cycletime: 10 * MIN,
    idealcycletime: 5 * MIN,
    partcount_multiplier: 1,
    actualParts: 1,
    partchangeovertime: 30_000,
    shifts: [p.day],
    ...over,
  });
  const issues = async (res: Response) => {
    expect(res.status, await res.clone().text()).toBe(400);
    return ((await res.json()) as { error: { issues: { message: string }[] } }).error.issues.map(
      (i) => i.message,
    );
  };
  const recomputeDirty = () => recomputeMarked(api.h.t.db, NOW);
  /** POST /api/oee/bymachine (reports-admin §7): a figure of the Lathe over the day (performance by default). */
  const performance = async (p: Awaited<ReturnType<typeof plant>>, metric = 'performance') => {
    const res = await api.h.send('POST', '/api/oee/bymachine', p.cookie, {
      start: START,
      end: END,
      intervalType: 'day',
      efficiencyMetric: metric,
      machines: [p.lathe],
    });
    expect(res.status, await res.clone().text()).toBe(200);
    return ((await res.json()) as OeeByMachineResponse).machines[0]?.value;
  };

  it('deletes a run and creates one in its place with its shifts; the OEE report follows each save', async () => {
    const p = await plant();
    expect(await performance(p)).toBeCloseTo(0.8, 12);
    const [old] = await runs(p.cookie);
    expect(old).toMatchObject({ shifts: [], partchangeovertime: 0 });
    const del = await api.h.send('DELETE', `/api/productionruns/${old!.id}`, p.cookie);
    expect(del.status).toBe(204);
    expect(await runs(p.cookie)).toEqual([]);
    expect((await takeDirty(api.h.t.db, 50)).map((m) => [m.machine_id, Number(m.from_at)])).toEqual([
      [p.lathe, mon(6)],
    ]);
    const res = await api.h.send('POST', '/api/productionruns', p.cookie, scheduled(p));
    expect(res.status, await res.clone().text()).toBe(201);
    const made = (await res.json()) as ProductionRun;
    expect(made).toMatchObject({
      job_name: 'Flange',
      machine_name: 'Lathe',
      startdate: mon(6),
      enddate: mon(8),
      idealcycletime: 5 * MIN,
      partchangeovertime: 30_000,
      shifts: [p.day],
      setuptime: null,
    });
    expect((await runs(p.cookie)).map((r) => r.id)).toEqual([made.id]);
    await recomputeDirty();
    expect(await performance(p)).toBeCloseTo(0.5, 12);
    // An edit from the schedule: ideal 4 min, both shifts, a planned setup of 5 min ending at 06:10.
    const put = await api.h.send(
      'PUT',
      `/api/productionruns/${made.id}`,
      p.cookie,
      scheduled(p, {
        idealcycletime: 4 * MIN,
        shifts: [p.night, p.day],
        startInSetup: 'planned',
        setuptime: 5 * MIN,
        setupend: mon(6, 10),
      }),
    );
    expect(put.status, await put.clone().text()).toBe(200);
    expect(await put.json()).toMatchObject({
      idealcycletime: 4 * MIN,
      shifts: [p.day, p.night].sort(),
      startInSetup: 'planned',
      setuptime: 5 * MIN,
      setupend: mon(6, 10),
    });
    await recomputeDirty();
    // Setup 06:00–06:10 leaves five production cycles in 50 min of production: 5 × 4 / 50 = 40 %.
    expect(await performance(p)).toBeCloseTo(0.4, 12);
  });

  it('duplicates a run to another time or machine; a copy over the first is refused', async () => {
    const p = await plant();
    const [flange] = await runs(p.cookie);
    const copy = async (over: Record<string, unknown>) =>
      api.h.send('POST', '/api/productionruns', p.cookie, scheduled(p, over));
    expect(await issues(await copy({ startdate: mon(7), enddate: mon(9) }))).toEqual([RUN_RULES.overlap]);
    expect((await copy({ startdate: mon(9), enddate: mon(10) })).status).toBe(201);
    expect((await copy({ machine_id: p.mill, enddate: null, shifts: [p.night] })).status).toBe(201);
    expect((await runs(p.cookie)).map((r) => [r.machine_name, r.startdate, r.enddate, r.shifts])).toEqual([
      ['Lathe', mon(6), mon(8), []],
      ['Mill', mon(6), null, [p.night]],
      ['Lathe', mon(9), mon(10), [p.day]],
    ]);
    expect(flange!.id).toBeTruthy();
  });

  it('refuses a run without shifts, an unknown shift, and bad fields, with the problems', async () => {
    const p = await plant();
    const post = (over: Record<string, unknown>) =>
      api.h.send(
        'POST',
        '/api/productionruns',
        p.cookie,
        scheduled(p, { startdate: mon(9), enddate: mon(10), ...over }),
      );
    expect(await issues(await post({ shifts: [] }))).toEqual([SCHEDULE_RULES.shiftRequired]);
    const other = await api.h.tenant();
    const foreignShift = await aReportTenant(api.h, [['Elsewhere', 0, 480]]);
    expect(await issues(await post({ shifts: [foreignShift.shiftIds[0]] }))).toEqual([
      SCHEDULE_RULES.unknownShift,
    ]);
    expect(await issues(await post({ partchangeovertime: -1, enddate: mon(8) }))).toEqual([
      'Part changeover time must not be negative',
    ]);
    expect(await issues(await post({ enddate: mon(8) }))).toContain(RUN_RULES.endBeforeStart);
    // The editor's PUT without shifts keeps them; the schedule's PUT with none is refused.
    const [run] = await runs(p.cookie);
    const res = await api.h.send(
      'PUT',
      `/api/productionruns/${run!.id}`,
      p.cookie,
      scheduled(p, { shifts: [] }),
    );
    expect(await issues(res)).toEqual([SCHEDULE_RULES.shiftRequired]);
    expect(other.cookie).toBeTruthy();
  });

  it("is for admins; another company neither sees nor changes the company's runs", async () => {
    const p = await plant();
    const [run] = await runs(p.cookie);
    const manager = await aUser(api.h.t.db, p.company, { role: 'manager' });
    const mcookie = await api.h.login(manager.email, manager.password);
    expect(
      (
        await api.h.send(
          'POST',
          '/api/productionruns',
          mcookie,
          scheduled(p, { startdate: mon(9), enddate: mon(10) }),
        )
      ).status,
    ).toBe(403);
    expect((await api.h.send('DELETE', `/api/productionruns/${run!.id}`, mcookie)).status).toBe(403);
    const other = await api.h.tenant();
    expect((await api.h.send('DELETE', `/api/productionruns/${run!.id}`, other.cookie)).status).toBe(404);
    expect(
      (await api.h.send('PUT', `/api/productionruns/${run!.id}`, other.cookie, scheduled(p))).status,
    ).toBe(404);
    // Creating on the first company's machine and job: not found for the other company.
    expect(
      (
        await api.h.send(
          'POST',
          '/api/productionruns',
          other.cookie,
          scheduled(p, { startdate: mon(9), enddate: mon(10) }),
        )
      ).status,
    ).toBe(404);
    expect((await runs(p.cookie)).map((r) => r.id)).toEqual([run!.id]);
  });

  // ---- The second form: setup-stage labor activities (reports-admin §2, §3 Labor activity, §5; decision 0940).

  /**
   * The plant with setup stages on (Fixture 25 %, First article 75 %, an archived Deburr) and the Lathe as the
   * floor app records a 10-minute setup before the hour in cycle: SETUP 06:00–06:10, ACTIVE 06:10–07:00.
   */
  async function stagePlant() {
    const p = await plant();
    await p.scope.deleteFrom('state_intervals').where('machine_id', '=', p.lathe).execute();
    await someStates(api.h.t.db, p.company, p.lathe, [
      [START, mon(6), 'INACTIVE'],
      [mon(6), mon(6, 10), 'SETUP'],
      [mon(6, 10), mon(7), 'ACTIVE'],
      [mon(7), END, 'INACTIVE'],
    ]);
    await api.h.t.db
      .updateTable('companies')
      .set({ enable_setup_stages: 1 })
      .where('id', '=', p.company.id)
      .execute();
    const fixture = await insertSetupStage(p.scope, { name: 'Fixture', stageOrder: 1, setupPercentage: 25 });
    const article = await insertSetupStage(p.scope, {
      name: 'First article',
      stageOrder: 2,
      setupPercentage: 75,
    });
    const deburr = await insertSetupStage(p.scope, {
      name: 'Deburr',
      stageOrder: 3,
      setupPercentage: 0,
      archivedAt: START,
    });
    const [flange] = await runs(p.cookie);
    expect((await api.h.send('DELETE', `/api/productionruns/${flange!.id}`, p.cookie)).status).toBe(204);
    await p.recompute([p.lathe], { from: START, to: END, now: NOW });
    await recomputeDirty();
    return { ...p, fixture, article, deburr };
  }
  /**
   * A planned setup of 10 min as its stages: Fixture 25 % (2.5 min, 06:00:00–06:02:30), First article 75 %
   * (7.5 min, 06:02:30–06:10), production 06:10–08:00; no shifts.
   */
  const staged = (p: Awaited<ReturnType<typeof stagePlant>>, over: Record<string, unknown> = {}) =>
    scheduled(p, {
      startInSetup: 'planned',
      setuptime: 10 * MIN,
      setupend: mon(6, 10),
      shifts: [],
      laborActivities: [
        { setupStageId: p.fixture, startAt: mon(6), endAt: mon(6) + 150_000 },
        { setupStageId: p.article, startAt: mon(6) + 150_000, endAt: mon(6, 10) },
      ],
      ...over,
    });

  it('plans a run as setup stages then production; the job report setup time and the OEE follow', async () => {
    const p = await stagePlant();
    // Without a run the setup is unplanned downtime: availability 50 min in cycle / 960 min of shift time
    // (Sunday's Night 00:00–06:00, Day 06:00–14:00, Monday's Night 22:00–24:00).
    expect(await performance(p, 'availability')).toBeCloseTo(50 / 960, 12);
    const res = await api.h.send('POST', '/api/productionruns', p.cookie, staged(p));
    expect(res.status, await res.clone().text()).toBe(201);
    const made = (await res.json()) as ProductionRun;
    expect(made).toMatchObject({
      startInSetup: 'planned',
      setuptime: 10 * MIN,
      setupend: mon(6, 10),
      shifts: [],
      laborActivities: [
        { setupStageId: p.fixture, startAt: mon(6), endAt: mon(6) + 150_000, setup: true },
        { setupStageId: p.article, startAt: mon(6) + 150_000, endAt: mon(6, 10), setup: true },
        { setupStageId: null, startAt: mon(6, 10), endAt: mon(8), setup: false },
      ],
    });
    await recomputeDirty();
    // The planned setup (METRICS.md §2 T_pdt) leaves 960 − 10 min of planned production time; the job report's
    // setup time is the stages' 2.5 + 7.5 min.
    expect(await performance(p, 'availability')).toBeCloseTo(50 / 950, 12);
    const report = await api.h.get(`/api/reports/warehouse/jobs?start=${START}&end=${END}`, p.cookie);
    expect(report.status).toBe(200);
    const job = ((await report.json()) as WarehouseJobsReport).jobs[0]!;
    expect(job.runs.map((r) => [r.jobschedulegroup_id, r.setup_ms])).toEqual([[made.id, 10 * MIN]]);
    expect(job.setup_ms).toBe(10 * MIN);

    // The same stages as an unplanned setup (setup time 0, §4): the 10 min count against availability.
    const put = await api.h.send(
      'PUT',
      `/api/productionruns/${made.id}`,
      p.cookie,
      staged(p, { startInSetup: 'unplanned', setuptime: 0 }),
    );
    expect(put.status, await put.clone().text()).toBe(200);
    expect(await put.json()).toMatchObject({ startInSetup: 'unplanned', setuptime: 0 });
    await recomputeDirty();
    expect(await performance(p, 'availability')).toBeCloseTo(50 / 960, 12);

    // The form with shifts may then leave the shifts out: the run has labor activities (§5), kept as saved.
    const kept = await api.h.send('PUT', `/api/productionruns/${made.id}`, p.cookie, {
      ...scheduled(p, { startInSetup: 'planned', setuptime: 10 * MIN, setupend: mon(6, 10) }),
      shifts: [],
    });
    expect(kept.status, await kept.clone().text()).toBe(200);
    expect(((await kept.json()) as ProductionRun).laborActivities).toHaveLength(3);
  });

  it('refuses setup stages that do not plan the setup, and a setup without a stage when stages are on', async () => {
    const p = await stagePlant();
    const post = (over: Record<string, unknown>) =>
      api.h.send('POST', '/api/productionruns', p.cookie, staged(p, over));
    const at = (k: number) => mon(6) + k * 150_000;
    // §5 with setup stages: non-none setup needs a stage, in either form.
    expect(await issues(await post({ laborActivities: [], setupend: mon(6) }))).toEqual([
      SCHEDULE_RULES.stageRequired,
    ]);
    expect(await issues(await post({ laborActivities: undefined, shifts: [p.day] }))).toEqual([
      SCHEDULE_RULES.stageRequired,
    ]);
    expect(
      await issues(await post({ startInSetup: 'none', setuptime: null, setupend: null, shifts: [p.day] })),
    ).toEqual([SCHEDULE_RULES.stageWithoutSetup]);
    expect(
      await issues(
        await post({
          laborActivities: [
            { setupStageId: p.fixture, startAt: at(1), endAt: at(2) },
            { setupStageId: p.article, startAt: at(3), endAt: mon(6, 10) },
          ],
        }),
      ),
    ).toEqual([
      SCHEDULE_RULES.firstStageAtStart,
      SCHEDULE_RULES.stagesInSequence,
      SCHEDULE_RULES.setupTimeIsStagesTotal,
    ]);
    expect(
      await issues(
        await post({ laborActivities: [{ setupStageId: p.fixture, startAt: mon(6), endAt: mon(6) }] }),
      ),
    ).toEqual([
      SCHEDULE_RULES.stageLength,
      SCHEDULE_RULES.setupEndAtLastStage,
      SCHEDULE_RULES.setupTimeIsStagesTotal,
    ]);
    const other = await aReportTenant(api.h, [['Elsewhere', 0, 480]]);
    const foreign = await insertSetupStage(other.scope, {
      name: 'Theirs',
      stageOrder: 1,
      setupPercentage: 100,
    });
    expect(
      await issues(
        await post({ laborActivities: [{ setupStageId: foreign, startAt: mon(6), endAt: mon(6, 10) }] }),
      ),
    ).toEqual([SCHEDULE_RULES.unknownStage]);
    expect(
      await issues(
        await post({ laborActivities: [{ setupStageId: p.deburr, startAt: mon(6), endAt: mon(6, 10) }] }),
      ),
    ).toEqual(['Setup stage Deburr is archived.']);
    // Still in the last stage: the setup has no end yet, and no production follows.
    const open = await post({
      enddate: null,
      setupend: null,
      laborActivities: [{ setupStageId: p.fixture, startAt: mon(6), endAt: null }],
    });
    expect(open.status, await open.clone().text()).toBe(201);
    expect(((await open.json()) as ProductionRun).laborActivities).toEqual([
      { setupStageId: p.fixture, startAt: mon(6), endAt: null, setup: true },
    ]);
    expect(await runs(p.cookie)).toHaveLength(1);
  });
});
