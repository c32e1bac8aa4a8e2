import { describe, expect, it } from 'vitest';
import type { OeeReportResponse, UtilizationEntry } from '@takt/domain';
import { DIALECTS } from '@takt/db/testing';
import { aMachine } from '../testing/builders';
import { aDowntimeReason, anAnnotation, MIN, someStates } from '../testing/downtime-builders';
import { apiPerTest, aReportTenant, recomputeMarked } from '../testing/report-plant';

// Issue 27 point 1, METRICS.md §1 (decisions 1010–1012): a machine's monitored life starts at its first stored
// observation, so T_all counts from there; UNAVAILABLE time inside it no operator reason covers is No data,
// apart from Uncategorized, with the same total on the OEE waterfall, the downtime report (rows, Pareto, CSV),
// the timeline and the dashboard tile. Both dialects.

const HOUR = 60 * MIN;
/** Local time on Monday 2025-11-03 in America/Chicago (CST, UTC−6). */
const mon = (h: number) => Date.UTC(2025, 10, 3, 6) + h * HOUR;
const NOW = mon(20);

describe.each(DIALECTS)('No data and monitored life on %s', (dialect) => {
  const api = apiPerTest(dialect, NOW);

  async function get<T>(path: string, cookie: string): Promise<T> {
    const res = await api.h.get(path, cookie);
    expect(res.status, await res.clone().text()).toBe(200);
    return (await res.json()) as T;
  }

  it('counts only monitored life and shows the same No data total on every screen', async () => {
    // One shift all day. First observation at 10:30: in cycle to 12:00, disconnected 12:00–14:00, idle
    // 14:00–15:00, UNAVAILABLE 15:00–16:00 of which the operator gave 15:00–15:30 a reason, in cycle after.
    const { company, cookie, recompute } = await aReportTenant(api.h, [['All day', 0, 1440]]);
    const m = await aMachine(api.h.t.db, company, { name: 'Lathe' });
    await someStates(api.h.t.db, company, m, [
      [mon(10.5), mon(12), 'ACTIVE'],
      [mon(12), mon(14), 'UNAVAILABLE'],
      [mon(14), mon(15), 'INACTIVE'],
      [mon(15), mon(16), 'UNAVAILABLE'],
      [mon(16), null, 'ACTIVE'],
    ]);
    const power = await aDowntimeReason(api.h.t.db, company, { name: 'Power' });
    await anAnnotation(api.h.t.db, company, {
      machineId: m,
      start: mon(15),
      end: mon(15.5),
      typeId: power.id,
    });
    await recompute([m], { from: mon(0), to: NOW, now: NOW });
    const range = `start=${mon(0)}&end=${NOW}&machineId=${m}`;
    const NO_DATA = 150 * MIN; // 12:00–14:00 and 15:30–16:00

    // The OEE waterfall: T_all from 10:30, No data apart from Uncategorized.
    const oee = await get<OeeReportResponse>(`/api/reports/oee?${range}`, cookie);
    expect(oee.waterfall[0]).toEqual({ key: 'allTime', kind: 'total', ms: 9.5 * HOUR });
    expect(
      oee.waterfall.filter((s) => s.key === 'availabilityLoss').map((s) => [s.reasonName, s.ms]),
    ).toEqual([
      ['No data', NO_DATA],
      ['Uncategorized', 60 * MIN],
      ['Power', 30 * MIN],
    ]);
    expect(oee.efficiency.availability).toBeCloseTo(5.5 / 9.5, 12);

    // The downtime report: rows, Pareto and summary; No data can be hidden.
    interface Report {
      data: Array<{ reason: string; reasonId: string; count: number; duration: number }>;
      summary: { uncategorizedDuration: number; noDataDuration: number; duration: number };
    }
    const report = await get<Report>(`/api/reports/downtime?${range}`, cookie);
    expect(report.data.map((d) => [d.reason, d.reasonId, d.count, d.duration])).toEqual([
      ['No data', 'nodata', 2, NO_DATA],
      ['Uncategorized', 'uncategorized', 1, 60 * MIN],
      ['Power', power.id, 1, 30 * MIN],
    ]);
    expect(report.summary).toMatchObject({ noDataDuration: NO_DATA, uncategorizedDuration: 60 * MIN });
    const hidden = await get<Report>(`/api/reports/downtime?${range}&showNoData=false`, cookie);
    expect(hidden.data.map((d) => d.reason)).toEqual(['Uncategorized', 'Power']);
    expect(hidden.summary).toMatchObject({ noDataDuration: 0, duration: 90 * MIN });
    const only = await get<Report>(`/api/reports/downtime?${range}&categoryId=nodata`, cookie);
    expect(only.summary).toMatchObject({ noDataDuration: NO_DATA, duration: NO_DATA });

    // The CSV: its No data rows add up to the same minutes.
    /** The downtime CSV's Duration minutes of one reason's rows, summed. */
    const csvMinutes = async (reason: string) =>
      (await (await api.h.get(`/api/reports/downtime?${range}&format=csv`, cookie)).text())
        .split('\n')
        .filter((line) => line.includes(`,${reason},`))
        .reduce((t, line) => t + Number(line.split(',')[1]), 0);
    expect(await csvMinutes('No data')).toBeCloseTo(150, 9);

    // The timeline: blank before 10:30, the same No data.
    const timeline = await get<{ monitoredFrom: number | null; noDataMs: number }>(
      `/api/reports/operation?${range}`,
      cookie,
    );
    expect(timeline).toMatchObject({ monitoredFrom: mon(10.5), noDataMs: NO_DATA });

    // The tile's window (the all-day shift up to now): the same No data.
    const tiles = await get<UtilizationEntry[]>('/api/dashboard/utilization', cookie);
    expect(tiles.find((t) => t.machineId === m)).toMatchObject({ start: mon(0), noDataMs: NO_DATA });

    // The operator gives 12:00–13:00 a reason and the rollups are recomputed: nothing the report kept from the calls
    // above (decision 1254) is given again, and the report, its list, its CSV, the tile and the workcenter card
    // (downtime: the window's monitored time not in cycle, 10:30–20:00 here) agree on the new split.
    await anAnnotation(api.h.t.db, company, { machineId: m, start: mon(12), end: mon(13), typeId: power.id });
    // As the rollup worker answers the annotation's mark (recomputed, the mark cleared: the stored rows are read).
    await recomputeMarked(api.h.t.db, NOW);
    const LEFT = NO_DATA - HOUR;
    const after = await get<Report>(`/api/reports/downtime?${range}`, cookie);
    expect(after.data.map((d) => [d.reason, d.duration])).toEqual([
      ['Power', 90 * MIN],
      ['No data', LEFT],
      ['Uncategorized', 60 * MIN],
    ]);
    expect(after.summary).toMatchObject({ noDataDuration: LEFT, duration: 4 * HOUR });
    const list = await get<Report>(`/api/reports/downtime?${range}&detail=true`, cookie);
    expect({ data: list.data, summary: list.summary }).toEqual({ data: after.data, summary: after.summary });
    expect(await csvMinutes('No data')).toBeCloseTo(LEFT / MIN, 9);
    expect(await csvMinutes('Power')).toBeCloseTo(90, 9);
    const tile = (await get<UtilizationEntry[]>('/api/dashboard/utilization', cookie)).find(
      (t) => t.machineId === m,
    );
    expect(tile).toMatchObject({ noDataMs: LEFT });
    const card = await get<{ totalDowntime: number }>(`/api/workcenter/${m}`, cookie);
    expect(card.totalDowntime).toBe(after.summary.duration);
  });

  it('a machine never monitored has no time base: no downtime, no loss', async () => {
    const { company, cookie, recompute } = await aReportTenant(api.h, [['All day', 0, 1440]]);
    const m = await aMachine(api.h.t.db, company, { name: 'New' });
    await recompute([m], { from: mon(0), to: NOW, now: NOW });
    const oee = await get<OeeReportResponse>(
      `/api/reports/oee?start=${mon(0)}&end=${NOW}&machineId=${m}`,
      cookie,
    );
    expect(oee.waterfall.filter((s) => s.kind === 'total').every((s) => s.ms === 0)).toBe(true);
    expect(oee.efficiency.availability).toBeNull();
  });
});
