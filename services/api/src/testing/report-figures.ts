import { expect } from 'vitest';
import type { OeeReportResponse, ProductionResponse } from '@takt/domain';
import type { ApiHarness } from './app';

// One machine's report figures through the HTTP API, for the tests that compare two ways of reading the same
// facts (stored rows against facts: decisions 1015, 1067, 1125).

/**
 * The figures of one machine over [start, end) by `interval`: the OEE report's waterfall and efficiency, the
 * utilization report's cells, and the production call's items of `data` grouped by each of `groupBys`.
 */
export async function machineFigures(
  h: ApiHarness,
  cookie: string,
  q: { machineId: string; start: number; end: number; interval: string },
  production: { data: readonly string[]; groupBys: ReadonlyArray<readonly string[]> },
) {
  const ok = async <T>(res: Response): Promise<T> => {
    expect(res.status, await res.clone().text()).toBe(200);
    return (await res.json()) as T;
  };
  const query = `start=${q.start}&end=${q.end}&machineId=${q.machineId}&interval=${q.interval}`;
  type Cell = { inCycleMs: number; durationMs: number };
  const [oee, util, ...items] = await Promise.all([
    h.get(`/api/reports/oee?${query}`, cookie).then((r) => ok<OeeReportResponse>(r)),
    h
      .get(`/api/reports/utilization?${query}`, cookie)
      .then((r) => ok<{ machines: Array<Cell & { intervals: Cell[] }> }>(r)),
    ...production.groupBys.map((groupBy) =>
      h
        .send('POST', '/api/reports/warehouse/production', cookie, {
          start: q.start,
          end: q.end,
          interval: q.interval,
          data: production.data,
          filter: { machine: [q.machineId] },
          groupBy,
        })
        .then((r) => ok<ProductionResponse>(r)),
    ),
  ]);
  return {
    waterfall: oee.waterfall.map((s) => [s.key, s.reasonId ?? '', s.ms]),
    efficiency: oee.efficiency,
    utilization: util.machines[0]!.intervals.map((c) => [c.inCycleMs, c.durationMs]),
    production: items.map((p) => ({ items: p.items, aggregate: p.aggregate })),
  };
}
