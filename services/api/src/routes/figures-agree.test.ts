import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { HEARTBEAT_TIMEOUT_MS, workcenterLiveSchema } from '@takt/domain';
import type {
  DashboardResponse,
  Efficiency,
  OeeReportResponse,
  PartsEntry,
  ProductionResponse,
  UtilizationEntry,
} from '@takt/domain';
import { companyScope } from '@takt/db';
import type { Company } from '../repositories/company';
import { apiHarness } from '../testing/app';
import type { ApiHarness } from '../testing/app';
import { aCompany, aMachine, aUser } from '../testing/builders';
import { DIALECTS } from '@takt/db/testing';
import { aJobRun, aRejectReason, MIN, someStates } from '../testing/downtime-builders';
import { aCountingMachine, aShift } from '../testing/live-builders';
import { createShdrSource } from '../repositories/machine-sources';

// METRICS.md: "a number can never disagree with itself between two screens". One machine, one range: the
// dashboard tile (GET /api/dashboard, /utilization, /parts), the workcenter card (GET /api/workcenter/:id)
// and the report calls (GET /api/reports/utilization, /partGoals) show the same parts goal, utilization and
// OEE, equal to hand-computed values; the tile and the card in percent (live-operations §3), the reports in
// fractions (reports-admin §3 Efficiency aggregate), on both dialects.

/** Tuesday 2025-11-18 06:00 UTC: the start of the day shift (06:00–14:00); the clock stands at 10:00. */
const S0 = Date.parse('2025-11-18T06:00:00Z');
const at = (minutes: number) => S0 + minutes * MIN;
const NOW = at(240);

/** Hand-computed over the window 06:00–10:00 (METRICS.md §3, §4). */
const A = 120 / 240; // 2 h in cycle of 4 h of planned production time
const P = (12 * 8) / 120; // 12 cycles × 8 min ideal over 120 min run time
const Q = 11 / 12; // 12 parts, 1 rejected
const OEE = A * P * Q;
const EXPECTED = 18; // ⌊ 180 min in production / 10 min expected ⌋ × 1
const GOOD = 11;

describe.each(DIALECTS)('the same figures on every screen on %s', (dialect) => {
  let h: ApiHarness;
  beforeEach(async () => {
    h = await apiHarness(dialect, NOW);
  });
  afterEach(async () => {
    await h.close();
  });

  async function utcTenant(): Promise<{ company: Company; cookie: string }> {
    const company = await aCompany(h.t.db, { timezone: 'UTC', productTier: 'full' });
    await aShift(h.t.db, company, { startoffsetminutes: 360, endoffsetminutes: 840 });
    const user = await aUser(h.t.db, company);
    return { company, cookie: await h.login(user.email, user.password) };
  }

  /**
   * Idle 06:00–07:00, in cycle 07:00–09:00, idle since. Job run in production from 07:00 with a 10 min expected
   * and 8 min ideal cycle; 12 one-part cycles of 10 min in 07:00–09:00; one part rejected and removed from the
   * good parts.
   */
  async function producingMachine(company: Company): Promise<string> {
    const machine = await aMachine(h.t.db, company, { name: 'Mill' });
    const scope = companyScope(h.t.db, company.id);
    await someStates(h.t.db, company, machine, [
      [S0, at(60), 'INACTIVE'],
      [at(60), at(180), 'ACTIVE'],
      [at(180), null, 'INACTIVE'],
    ]);
    await aJobRun(h.t.db, company, machine, { start: at(60) });
    await scope
      .updateTable('job_runs')
      .set({ expected_cycle_time: 10 * MIN, ideal_cycle_time: 8 * MIN })
      .where('machine_id', '=', machine)
      .execute();
    await scope
      .insertInto(
        'cycles',
        Array.from({ length: 12 }, (_, i) => ({
          machine_id: machine,
          start_at: at(60 + i * 10),
          end_at: at(70 + i * 10),
          duration: 10 * MIN,
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
        adjustment_time: at(100),
        type_id: reason.id,
        scrapcount: 1,
        count: 0,
        message: null,
        reject_behavior: 'scrap',
        deduct_from_good_parts: 1,
        job_run_id: null,
        kind: 'reject',
        created_by: null,
        created_at: at(100),
      })
      .execute();
    return machine;
  }

  async function json<T>(path: string, cookie: string): Promise<T> {
    const res = await h.get(path, cookie);
    expect(res.status, await res.clone().text()).toBe(200);
    return (await res.json()) as T;
  }

  const screens = async (machine: string, cookie: string) => ({
    tile: (await json<DashboardResponse>('/api/dashboard', cookie)).machines.find((m) => m.id === machine)!,
    utilization: (await json<UtilizationEntry[]>('/api/dashboard/utilization', cookie)).find(
      (u) => u.machineId === machine,
    )!,
    parts: (await json<PartsEntry[]>('/api/dashboard/parts', cookie)).find((p) => p.machineId === machine)!,
    card: workcenterLiveSchema.parse(await json(`/api/workcenter/${machine}`, cookie)),
  });

  it('parts goal, utilization and OEE agree on the tile, the card and the reports, and equal hand-computed values', async () => {
    const { company, cookie } = await utcTenant();
    const machine = await producingMachine(company);
    const { tile, utilization, parts, card } = await screens(machine, cookie);

    // Parts goal (METRICS.md §4): tile, dashboard parts entry and card.
    expect(tile).toMatchObject({ scheduled: true, expectedParts: EXPECTED, actualParts: GOOD });
    expect(parts).toMatchObject({
      expectedParts: EXPECTED,
      actualParts: GOOD,
      aheadBehind: GOOD - EXPECTED,
      productionRuntimeMs: 180 * MIN,
      status: 'danger',
    });
    expect(card).toMatchObject({
      expectedPartsNow: EXPECTED,
      jobGoodParts: GOOD,
      actualParts: 12,
      scrapParts: 1,
      cardStatus: 'danger',
    });
    for (const percent of [tile.progress, parts.percent, card.partPercent])
      expect(percent).toBeCloseTo((GOOD / EXPECTED) * 100, 9);

    // Utilization and OEE over the window (METRICS.md §3), percents on the tile and the card.
    expect(utilization).toMatchObject({ start: S0, end: NOW, status: 'warning' });
    const percents = (x: {
      utilization: number | null;
      oee: number | null;
      availability: number | null;
      performance: number | null;
      quality: number | null;
    }) => [x.utilization, x.oee, x.availability, x.performance, x.quality];
    const expected = [A * 100, OEE * 100, A * 100, P * 100, Q * 100];
    for (const shown of [percents(utilization), percents(card)])
      shown.forEach((v, i) => expect(v).toBeCloseTo(expected[i]!, 9));
    expect(card.utilizationBar).toBeCloseTo(A * 100, 9);

    // The report calls for the same machine and range, in fractions.
    const range = `start=${S0}&end=${NOW}&machineId=${machine}`;
    const report = await json<{
      machines: Array<{ machineId: string; inCycle: number | null; oee: Efficiency }>;
    }>(`/api/reports/utilization?${range}`, cookie);
    const row = report.machines[0]!;
    expect(row.machineId).toBe(machine);
    expect(row.inCycle).toBeCloseTo(A, 12);
    expect(row.oee.utilization).toBeCloseTo(A, 12);
    expect(row.oee.oee).toBeCloseTo(OEE, 12);
    expect(row.oee.availability).toBeCloseTo(A, 12);
    expect(row.oee.performance).toBeCloseTo(P, 12);
    expect(row.oee.quality).toBeCloseTo(Q, 12);
    const goals = await json<{ machines: Array<{ machineId: string; parts: number; goal: number | null }> }>(
      `/api/reports/partGoals?${range}&interval=day`,
      cookie,
    );
    expect(goals.machines).toEqual([
      expect.objectContaining({ machineId: machine, parts: GOOD, goal: EXPECTED }),
    ]);

    // The OEE report's calls (reports-admin §7): its summary and the production warehouse by machine.
    const oee = await json<OeeReportResponse>(`/api/reports/oee?${range}&interval=hour`, cookie);
    const production = await h.send('POST', '/api/reports/warehouse/production', cookie, {
      start: S0,
      end: NOW,
      data: ['oee', 'availability', 'performance', 'quality', 'utilizationRate'],
      filter: { machine: [machine] },
      groupBy: ['machine'],
    });
    expect(production.status, await production.clone().text()).toBe(200);
    const item = ((await production.json()) as ProductionResponse).items[0]!;
    for (const e of [oee.efficiency, item]) {
      expect(e.oee).toBeCloseTo(OEE, 12);
      expect(e.availability).toBeCloseTo(A, 12);
      expect(e.performance).toBeCloseTo(P, 12);
      expect(e.quality).toBeCloseTo(Q, 12);
    }
    expect(item.utilizationRate).toBeCloseTo(A, 12);
    // The answer's key order (decision 1170: figures written into each item, no spreads): keys in groupBy
    // order, then minExpectedPartTime, missingStandards and the metrics in request order (a repeat in place).
    const ordered = await h.send('POST', '/api/reports/warehouse/production', cookie, {
      start: S0,
      end: NOW,
      interval: 'hour',
      data: ['timeInCycle', 'oee', 'utilizationRate', 'oee'],
      groupBy: ['interval', 'machine'],
    });
    const answer = (await ordered.json()) as ProductionResponse;
    const figureKeys = ['minExpectedPartTime', 'missingStandards', 'timeInCycle', 'oee', 'utilizationRate'];
    expect(answer.items.length).toBeGreaterThan(1);
    for (const i of answer.items) expect(Object.keys(i)).toEqual(['interval', 'machine', ...figureKeys]);
    expect(Object.keys(answer.aggregate)).toEqual(figureKeys);
  });

  it('a job in setup expects nothing yet on the tile and on the card alike', async () => {
    const { company, cookie } = await utcTenant();
    const machine = await producingMachine(company);
    await companyScope(h.t.db, company.id)
      .updateTable('job_runs')
      .set({ setup_end: null })
      .where('machine_id', '=', machine)
      .execute();
    const { tile, parts, card } = await screens(machine, cookie);
    expect(tile).toMatchObject({ status: 'SETUP', expectedParts: null, progress: null });
    expect(parts).toMatchObject({ inSetup: true, expectedParts: null, percent: null, aheadBehind: null });
    expect(card).toMatchObject({ state: 'SETUP', expectedPartsNow: null, partPercent: null, partsBar: null });
    expect(parts.status).toBe(card.cardStatus);
  });

  it('the link heartbeat rule reads the same on the tile, the card and the diagnostics', async () => {
    const { company, cookie } = await utcTenant();
    const machine = await aCountingMachine(h.t.db, company, 'Silent');
    // The ingest worker stopped updating the row 10 minutes ago, with the link still reported up; the machine
    // has a source and reported before (else it reads Not configured or Never Reported, decision 1055).
    const heartbeat = NOW - 10 * MIN;
    await createShdrSource(
      companyScope(h.t.db, company.id),
      { machineId: machine, host: 'h', port: 7878 },
      NOW,
    );
    await companyScope(h.t.db, company.id)
      .insertInto('observations', { machine_id: machine, ts: heartbeat, key: 'execution', value: 'ACTIVE' })
      .execute();
    await companyScope(h.t.db, company.id)
      .insertInto('machine_live', {
        machine_id: machine,
        state: 'ACTIVE',
        state_since: heartbeat - 30 * MIN,
        connection: 'CONNECTED',
        connection_since: heartbeat - 60 * MIN,
        last_heartbeat: heartbeat,
        execution: 'ACTIVE',
        execution_since: heartbeat - 30 * MIN,
        availability: 'AVAILABLE',
        controller_mode: null,
        program: null,
        part_count: null,
        spindle_speed: null,
        fault_since: null,
        fault_message: null,
        in_setup: 0,
        updated_at: heartbeat,
      })
      .execute();
    const { tile, card } = await screens(machine, cookie);
    expect(tile).toMatchObject({
      status: 'UNAVAILABLE',
      statusSince: heartbeat + HEARTBEAT_TIMEOUT_MS,
      connection: 'DISCONNECTED',
      stale: true,
    });
    expect(card).toMatchObject({ state: 'UNAVAILABLE', stale: true });
    const diagnostics = await json<{ connection: unknown }>(`/api/machines/${machine}/diagnostics`, cookie);
    expect(diagnostics.connection).toBe('DISCONNECTED');
  });
});
