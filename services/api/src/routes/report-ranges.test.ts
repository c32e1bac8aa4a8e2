import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import type { OeeReportResponse, ProductionResponse, WaterfallStep } from '@takt/domain';
import { DIALECTS } from '@takt/db/testing';
import { aMachine } from '../testing/builders';
import { aDowntimeReason, anAnnotation, MIN } from '../testing/downtime-builders';
import {
  aJobWithRun,
  aMachineWithFacts,
  apiPerTest,
  aReportTenant,
  generatedFacts,
  someCycles,
} from '../testing/report-plant';

// Any range, any boundary (issue 27 point 3, decision 1015): the OEE, utilization and parts figures of
// [a, c) are those of [a, b) and [b, c) added (times and parts; ratios from the sums), for edges mid-hour,
// mid-minute, on a shift edge or at now, whether the machine's stored rollups are read (whole buckets plus
// the edge pieces from the facts) or it is built from the facts. Both dialects.

const HOUR = 60 * MIN;
/** Local time (America/Chicago, CST = UTC−6) on Tuesday 2025-11-04. */
const at = (h: number, m = 0, ms = 0) => Date.UTC(2025, 10, 4, h + 6, m) + ms;
/** The machines' facts start at 11:00; now is 16:37:12.345, mid-hour and mid-minute. */
const T0 = at(11);
const NOW = at(16, 37, 12_345);

/** Shifts Day 06:00–14:30 and Swing 14:30–22:00: a shift edge mid-hour. */
const SHIFTS = [
  ['Day', 360, 870],
  ['Swing', 870, 1320],
] as const;

/** One generated machine's facts (a fixed seed: the same plant every run). */
const FACTS = generatedFacts({
  t0: T0,
  now: NOW,
  cuts: 30,
  cycles: 60,
  corrections: 4,
  states: ['ACTIVE', 'ACTIVE', 'INACTIVE', 'FAULT'],
  seed: 27,
});

/** An instant of [T0, NOW]: anywhere (ms), on a minute, on an hour or the shift edge, or now. */
const instant = fc.oneof(
  fc.integer({ min: T0, max: NOW }),
  fc.integer({ min: 0, max: Math.floor((NOW - T0) / MIN) }).map((m) => T0 + m * MIN),
  fc.constantFrom(at(12), at(13), at(14), at(14, 30), at(15), at(16), NOW),
);
const triple = fc
  .tuple(instant, instant, instant)
  .filter(([x, y, z]) => new Set([x, y, z]).size === 3)
  .map((xs) => xs.sort((p, q) => p - q) as [number, number, number]);

/** The waterfall steps that are sums of time (the rest follow from P and Q). */
const ADDITIVE_STEPS: ReadonlySet<WaterfallStep['key']> = new Set([
  'allTime',
  'outsideShift',
  'shiftTime',
  'plannedDowntime',
  'plannedProductionTime',
  'availabilityLoss',
  'runTime',
]);

interface Figures {
  /** Additive waterfall ms by step and reason. */
  steps: Map<string, number>;
  /** The production report by shift (shift-filtered sums): all time and time in cycle by shift. */
  byShift: Map<string, number>;
  availability: number | null;
  inCycleMs: number;
  durationMs: number;
  inCycle: number | null;
  parts: number;
  /** Σ of the hour cells, which must add up to the range. */
  cellInCycleMs: number;
  cellDurationMs: number;
  cellParts: number;
  partsToken: string;
}

const addSteps = (x: Map<string, number>, y: Map<string, number>) => {
  const out = new Map(x);
  for (const [k, v] of y) out.set(k, (out.get(k) ?? 0) + v);
  return out;
};
const nonZero = (m: Map<string, number>) => new Map([...m].filter(([, v]) => v !== 0));

describe.each(DIALECTS)('any range, any boundary on %s', (dialect) => {
  const api = apiPerTest(dialect, NOW);

  async function get<T>(path: string, cookie: string): Promise<T> {
    const res = await api.h.get(path, cookie);
    expect(res.status, await res.clone().text()).toBe(200);
    return (await res.json()) as T;
  }
  async function post<T>(path: string, cookie: string, body: unknown): Promise<T> {
    const res = await api.h.send('POST', path, cookie, body);
    expect(res.status, await res.clone().text()).toBe(200);
    return (await res.json()) as T;
  }

  /** The report figures of one machine over [start, end). */
  async function figures(cookie: string, machineId: string, start: number, end: number) {
    const q = `start=${start}&end=${end}&machineId=${machineId}&interval=hour`;
    type Cell = { inCycleMs: number; durationMs: number; inCycle: number | null };
    const [oee, util, goals, production] = await Promise.all([
      get<OeeReportResponse>(`/api/reports/oee?${q}`, cookie),
      get<{ machines: Array<Cell & { intervals: Cell[] }> }>(`/api/reports/utilization?${q}`, cookie),
      get<{ machines: Array<{ parts: number; intervals: Array<{ parts: number }> }>; cacheToken: string }>(
        `/api/reports/partGoals?${q}`,
        cookie,
      ),
      post<ProductionResponse>('/api/reports/warehouse/production', cookie, {
        start,
        end,
        interval: 'hour',
        data: ['allTime', 'timeInCycle'],
        filter: { machine: [machineId] },
        groupBy: ['shift'],
      }),
    ]);
    const byShift = new Map<string, number>();
    for (const i of production.items) {
      byShift.set(`${i.shift}:allTime`, i.allTime ?? 0);
      byShift.set(`${i.shift}:timeInCycle`, i.timeInCycle ?? 0);
    }
    const steps = new Map<string, number>();
    for (const s of oee.waterfall)
      if (ADDITIVE_STEPS.has(s.key))
        steps.set(`${s.key}:${s.reasonId ?? ''}`, (steps.get(`${s.key}:${s.reasonId ?? ''}`) ?? 0) + s.ms);
    const u = util.machines[0]!;
    const g = goals.machines[0]!;
    return {
      steps,
      byShift,
      availability: oee.efficiency.availability,
      inCycleMs: u.inCycleMs,
      durationMs: u.durationMs,
      inCycle: u.inCycle,
      parts: g.parts,
      cellInCycleMs: u.intervals.reduce((t, c) => t + c.inCycleMs, 0),
      cellDurationMs: u.intervals.reduce((t, c) => t + c.durationMs, 0),
      cellParts: g.intervals.reduce((t, c) => t + c.parts, 0),
      partsToken: goals.cacheToken,
    } satisfies Figures;
  }

  /**
   * Two machines with the same generated facts: `stored` with its rollups computed up to now (read from the
   * stored rows), `facts` without any (built from the facts on every call).
   */
  async function plant() {
    const { company, cookie, recompute } = await aReportTenant(api.h, SHIFTS);
    const brk = await aDowntimeReason(api.h.t.db, company, { name: 'Break', plannedBehavior: 'planned' });
    const jam = await aDowntimeReason(api.h.t.db, company, { name: 'Jam', plannedBehavior: 'unplanned' });
    const ids: string[] = [];
    for (const name of ['Stored', 'Facts']) {
      // Setup first (a run started in planned setup), then the generated states; the last one still open.
      const m = await aMachineWithFacts(api.h, company, name, T0, FACTS);
      ids.push(m.id);
      // The first two downtime intervals annotated: a planned Break and an unplanned Jam.
      for (const [k, d] of m.downtime.slice(0, 2).entries())
        await anAnnotation(api.h.t.db, company, { machineId: m.id, ...d, typeId: (k === 0 ? brk : jam).id });
    }
    const [stored, facts] = ids as [string, string];
    await recompute([stored], { from: T0 - HOUR, to: NOW, now: NOW });
    // The rollup worker has caught up: no pending mark, so reports read the stored rows.
    await api.h.t.db.deleteFrom('rollup_dirty').where('machine_id', '=', stored).execute();
    return { cookie, stored, facts };
  }

  it('[a, c) = [a, b) + [b, c) for the OEE, utilization and parts figures, stored rows or facts (property)', async () => {
    const p = await plant();
    await fc.assert(
      fc.asyncProperty(triple, async ([a, b, c]) => {
        const [ac, ab, bc, facts, uncached] = await Promise.all([
          figures(p.cookie, p.stored, a, c),
          figures(p.cookie, p.stored, a, b),
          figures(p.cookie, p.stored, b, c),
          figures(p.cookie, p.facts, a, c),
          get<{ machines: Array<{ parts: number }>; cacheToken: string }>(
            `/api/reports/partGoals?start=${a}&end=${c}&machineId=${p.stored}&interval=hour&cache=false`,
            p.cookie,
          ),
        ]);
        // Seconds and parts add up.
        expect(nonZero(ac.steps)).toEqual(nonZero(addSteps(ab.steps, bc.steps)));
        expect(ac.inCycleMs).toBe(ab.inCycleMs + bc.inCycleMs);
        expect(nonZero(ac.byShift).size).toBeGreaterThan(0); // [a, c) lies in shift time
        expect(nonZero(ac.byShift)).toEqual(nonZero(addSteps(ab.byShift, bc.byShift)));
        expect(ac.durationMs).toBe(c - a);
        expect(ac.parts).toBe(ab.parts + bc.parts);
        // The report's hour cells (cut at the range's edges) add up to the range.
        for (const f of [ac, ab, bc]) {
          expect(f.cellInCycleMs).toBe(f.inCycleMs);
          expect(f.cellDurationMs).toBe(f.durationMs);
          expect(f.cellParts).toBe(f.parts);
        }
        // Ratios from the sums.
        const run = ac.steps.get('runTime:') ?? 0;
        const ppt = ac.steps.get('plannedProductionTime:') ?? 0;
        if (ppt === 0) expect(ac.availability).toBeNull();
        else expect(ac.availability).toBeCloseTo(run / ppt, 12);
        expect(ac.inCycle).toBeCloseTo(ac.inCycleMs / (c - a), 12);
        // The stored rows and their edges give what the facts give, and so does cache=false.
        expect({ ...ac, partsToken: '' }).toEqual({ ...facts, partsToken: '' });
        expect(uncached.machines[0]!.parts).toBe(ac.parts);
        expect(uncached.cacheToken).not.toBe(ac.partsToken); // the cached call read the stored rows
      }),
      { numRuns: 20, seed: 3, examples: [[[at(14, 5), at(14, 12, 30_500), NOW]]] },
    );
  });

  it('19:05–19:20 inside one stored hour: the run time, utilization and parts of those 15 minutes', async () => {
    const { company, cookie, scope, recompute } = await aReportTenant(api.h, SHIFTS);
    const m = await aMachine(api.h.t.db, company, { name: 'Lathe' });
    // Yesterday evening: in cycle 18:50–19:40 with a 2-minute cycle ending every 2 minutes from 18:52.
    const y = (h: number, mm = 0) => at(h, mm) - 24 * HOUR;
    await scope
      .insertInto('state_intervals', [
        { machine_id: m, start_at: y(18), end_at: y(18, 50), state: 'INACTIVE' },
        { machine_id: m, start_at: y(18, 50), end_at: y(19, 40), state: 'ACTIVE' },
        { machine_id: m, start_at: y(19, 40), end_at: y(21), state: 'INACTIVE' },
      ])
      .execute();
    await aJobWithRun(scope, {
      machineId: m,
      name: 'Shaft',
      expected: 2 * MIN,
      ideal: 2 * MIN,
      jobCreatedAt: y(18),
      start: y(18),
      end: y(21),
    });
    await someCycles(
      scope,
      m,
      Array.from({ length: 25 }, (_, i) => ({ start: y(18, 50 + 2 * i), end: y(18, 52 + 2 * i) })),
    );
    await recompute([m], { from: y(0), to: y(23), now: NOW });
    await api.h.t.db.deleteFrom('rollup_dirty').execute();

    const f = await figures(cookie, m, y(19, 5), y(19, 20));
    expect(f.availability).toBe(1);
    expect(f.steps.get('runTime:')).toBe(15 * MIN);
    expect(f.inCycleMs).toBe(15 * MIN);
    expect(f.inCycle).toBe(1);
    // Cycles ending 19:06, 19:08, …, 19:18.
    expect(f.parts).toBe(7);
    const oee = await get<OeeReportResponse>(
      `/api/reports/oee?start=${y(19, 5)}&end=${y(19, 20)}&machineId=${m}`,
      cookie,
    );
    expect(oee.efficiency.performance).toBeCloseTo((7 * 2) / 15, 12);
  });

  it('stored rows with a gap (a day computed mid-day, the next one later) are not trusted (decision 1016)', async () => {
    const { company, cookie, scope, recompute } = await aReportTenant(api.h, SHIFTS);
    const m = await aMachine(api.h.t.db, company, { name: 'Mill' });
    // In cycle from 08:00 two days ago, a part every hour; its rows computed at 12:00 that day, then
    // yesterday's and today's from yesterday's start, as before decision 1016: no rows from 12:00 to midnight.
    const d = (days: number, h: number) => at(h) - days * 24 * HOUR;
    await scope
      .insertInto('state_intervals', [{ machine_id: m, start_at: d(2, 8), end_at: null, state: 'ACTIVE' }])
      .execute();
    await someCycles(
      scope,
      m,
      Array.from({ length: 40 }, (_, i) => ({ start: d(2, 8) + i * HOUR - MIN, end: d(2, 8) + i * HOUR })),
    );
    await recompute([m], { from: d(2, 8), to: d(2, 12), now: d(2, 12) });
    await recompute([m], { from: d(1, 10), to: NOW, now: NOW });
    await api.h.t.db.deleteFrom('rollup_dirty').execute();

    const [stored, facts] = await Promise.all([
      figures(cookie, m, d(2, 10), d(1, 8)),
      get<{ machines: Array<{ parts: number }> }>(
        `/api/reports/partGoals?start=${d(2, 10)}&end=${d(1, 8)}&machineId=${m}&interval=hour&cache=false`,
        cookie,
      ),
    ]);
    expect(stored.durationMs).toBe(22 * HOUR);
    expect(stored.inCycleMs).toBe(22 * HOUR);
    expect(stored.parts).toBe(22); // 10:00, 11:00, …, 07:00
    expect(facts.machines[0]!.parts).toBe(22);
  });
});
