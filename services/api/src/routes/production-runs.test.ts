import { describe, expect, it } from 'vitest';
import type { OeeByMachineResponse, ProductionRun } from '@takt/domain';
import { DIALECTS } from '@takt/db/testing';
import { takeDirty } from '@takt/db/rollups';
import { aMachine, aUser } from '../testing/builders';
import { MIN, someStates } from '../testing/downtime-builders';
import { apiPerTest, aJobWithRun, aReportTenant, recomputeMarked, someCycles } from '../testing/report-plant';
import { RUN_RULES } from '../services/production-runs';

// Production runs (reports-admin §2 /reports/production-runs and the production-run editor, §3 Job schedule
// group, §4 start-in-setup; decision 0850) on both dialects. The plant, America/Chicago, Monday 2025-11-03
// (CST = UTC−6), a Day shift 06:00–14:00: Flange runs on the Lathe 06:00–08:00 without setup (expected 10 min,
// ideal 8 min); the Lathe is in cycle 06:00–07:00 with six cycles of 10 min and idle otherwise. Bracket runs on
// the Mill 09:00–10:00. Performance 6 × 8 / 60 = 80 %; with an ideal cycle of 5 min, 6 × 5 / 60 = 50 %.

const mon = (h: number, m = 0) => Date.UTC(2025, 10, 3, h + 6, m);
const START = mon(0);
const END = mon(24);
const NOW = Date.UTC(2025, 10, 5, 12);

describe.each(DIALECTS)('production runs on %s', (dialect) => {
  const api = apiPerTest(dialect, NOW);

  async function plant() {
    const tenant = await aReportTenant(api.h, [['Day', 360, 840]]);
    const { company, scope } = tenant;
    const lathe = await aMachine(api.h.t.db, company, { name: 'Lathe', sortOrder: 1 });
    const mill = await aMachine(api.h.t.db, company, { name: 'Mill', sortOrder: 2 });
    await someStates(api.h.t.db, company, lathe, [
      [START, mon(6), 'INACTIVE'],
      [mon(6), mon(7), 'ACTIVE'],
      [mon(7), END, 'INACTIVE'],
    ]);
    await someStates(api.h.t.db, company, mill, [[START, END, 'INACTIVE']]);
    const job = { expected: 10 * MIN, ideal: 8 * MIN, jobCreatedAt: START };
    const flange = await aJobWithRun(scope, {
      ...job,
      machineId: lathe,
      name: 'Flange',
      start: mon(6),
      end: mon(8),
    });
    await aJobWithRun(scope, { ...job, machineId: mill, name: 'Bracket', start: mon(9), end: mon(10) });
    await someCycles(
      scope,
      lathe,
      [0, 1, 2, 3, 4, 5].map((k) => ({ start: mon(6, k * 10), end: mon(6, (k + 1) * 10) })),
    );
    await tenant.recompute([lathe, mill], { from: START, to: END, now: NOW });
    return { ...tenant, lathe, mill, flange };
  }

  const get = async <T>(path: string, cookie: string, status = 200): Promise<T> => {
    const res = await api.h.get(path, cookie);
    expect(res.status, await res.clone().text()).toBe(status);
    return (await res.json()) as T;
  };
  const put = (id: string, cookie: string, body: unknown) =>
    api.h.send('PUT', `/api/productionruns/${id}`, cookie, body);
  const runs = (cookie: string, q = '') =>
    get<ProductionRun[]>(`/api/productionruns?start=${START}&end=${END}${q}`, cookie);
  /** The editor's body: every field of the run as read, with `over` changed (no schedule fields: 0910, 0940). */
  const edited = (r: ProductionRun, over: Partial<ProductionRun> = {}) => {
    const {
      id: _id,
      job_name: _j,
      machine_name: _m,
      setuptime: _s,
      shifts: _sh,
      partchangeovertime: _pc,
      laborActivities: _la,
      ...fields
    } = { ...r, ...over };
    return fields;
  };
  const recomputeDirty = () => recomputeMarked(api.h.t.db, NOW);

  it('lists the runs of the range by start with their standards, one machine when asked', async () => {
    const p = await plant();
    const all = await runs(p.cookie);
    expect(all.map((r) => [r.machine_name, r.job_name, r.startdate, r.enddate])).toEqual([
      ['Lathe', 'Flange', mon(6), mon(8)],
      ['Mill', 'Bracket', mon(9), mon(10)],
    ]);
    expect(all[0]).toMatchObject({
      job_id: p.flange,
      machine_id: p.lathe,
      startInSetup: 'none',
      setuptime: null,
      setupend: mon(6),
      cycletime: 10 * MIN,
      idealcycletime: 8 * MIN,
      partcount_multiplier: 1,
      actualParts: 1,
    });
    expect((await runs(p.cookie, `&machine_id=${p.mill}`)).map((r) => r.job_name)).toEqual(['Bracket']);
    // A range without runs, and one whose end is not after its start.
    expect(await get(`/api/productionruns?start=${mon(11)}&end=${mon(12)}`, p.cookie)).toEqual([]);
    await get(`/api/productionruns?start=${END}&end=${START}`, p.cookie, 400);
  });

  it('saves an edit, marks the rollups dirty, and the OEE report of the machine changes', async () => {
    const p = await plant();
    // POST /api/oee/bymachine (reports-admin §7): the Lathe's performance over the day.
    const performance = async () => {
      const res = await api.h.send('POST', '/api/oee/bymachine', p.cookie, {
        start: START,
        end: END,
        intervalType: 'day',
        efficiencyMetric: 'performance',
        machines: [p.lathe],
      });
      expect(res.status, await res.clone().text()).toBe(200);
      return ((await res.json()) as OeeByMachineResponse).machines[0]?.value;
    };
    expect(await performance()).toBeCloseTo(0.8, 12);
    const [run] = await runs(p.cookie, `&machine_id=${p.lathe}`);
    const res = await put(run!.id, p.cookie, edited(run!, { idealcycletime: 5 * MIN }));
    expect(res.status, await res.clone().text()).toBe(200);
    expect(await res.json()).toMatchObject({ id: run!.id, idealcycletime: 5 * MIN });
    const marks = await takeDirty(api.h.t.db, 50);
    expect(marks.map((m) => [m.machine_id, Number(m.from_at)])).toEqual([[p.lathe, mon(6)]]);
    await recomputeDirty();
    expect(await performance()).toBeCloseTo(0.5, 12);
  });

  it('starts in planned or unplanned setup, still in setup or ending at a date; none keeps no setup', async () => {
    const p = await plant();
    const [run] = await runs(p.cookie, `&machine_id=${p.lathe}`);
    const save = async (over: Partial<ProductionRun>) => {
      const res = await put(run!.id, p.cookie, edited(run!, over));
      expect(res.status, await res.clone().text()).toBe(200);
      return (await res.json()) as ProductionRun;
    };
    expect(await save({ startInSetup: 'planned', setupend: mon(6, 30) })).toMatchObject({
      startInSetup: 'planned',
      setuptime: 0,
      setupend: mon(6, 30),
    });
    expect(await save({ startInSetup: 'unplanned', setupend: null })).toMatchObject({
      startInSetup: 'unplanned',
      setupend: null,
    });
    expect(await save({ startInSetup: 'none', setupend: mon(7) })).toMatchObject({
      startInSetup: 'none',
      setuptime: null,
      setupend: mon(6),
    });
    // Ends never: the Lathe has no later run.
    expect(await save({ enddate: null })).toMatchObject({ enddate: null });
  });

  it('refuses an end before the start, a setup end outside the run and an overlap, with the problems', async () => {
    const p = await plant();
    const [flange, bracket] = await runs(p.cookie);
    const problems = async (id: string, body: unknown) => {
      const res = await put(id, p.cookie, body);
      expect(res.status).toBe(400);
      return ((await res.json()) as { error: { issues: { message: string }[] } }).error.issues.map(
        (i) => i.message,
      );
    };
    expect(await problems(flange!.id, edited(flange!, { enddate: mon(5) }))).toContain(
      RUN_RULES.endBeforeStart,
    );
    expect(
      await problems(flange!.id, edited(flange!, { startInSetup: 'planned', setupend: mon(9) })),
    ).toEqual([RUN_RULES.setupOutside]);
    // Moving Bracket onto the Lathe over Flange's time.
    expect(
      await problems(
        bracket!.id,
        edited(bracket!, { machine_id: p.lathe, startdate: mon(7), enddate: mon(9) }),
      ),
    ).toEqual([RUN_RULES.overlap]);
    expect(await problems(flange!.id, edited(flange!, { cycletime: 0, actualParts: 0 }))).toEqual([
      'Expected cycle time must be more than 0 ms',
      'Actual parts must be at least 1',
    ]);
  });

  it('is for admins: a manager reads the runs but cannot save; another company sees none', async () => {
    const p = await plant();
    const manager = await aUser(api.h.t.db, p.company, { role: 'manager' });
    const cookie = await api.h.login(manager.email, manager.password);
    const [run] = await runs(cookie);
    expect((await put(run!.id, cookie, edited(run!))).status).toBe(403);
    const other = await api.h.tenant();
    await get(`/api/productionruns/${run!.id}`, other.cookie, 404);
    expect((await put(run!.id, other.cookie, edited(run!))).status).toBe(404);
  });
});
