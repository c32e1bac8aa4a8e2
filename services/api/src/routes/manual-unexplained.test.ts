import { describe, expect, it } from 'vitest';
import { companyScope } from '@takt/db';
import { DIALECTS } from '@takt/db/testing';
import type { OeeReportResponse } from '@takt/domain';
import { aCompany } from '../testing/builders';
import { aManualWorkcenter, MIN, someStates } from '../testing/downtime-builders';
import { anAdjustmentRow, apiPerTest, aReportTenant } from '../testing/report-plant';

// Decision 1207 (METRICS.md §1, decision 1073): a manual work center has no link, so its unexplained time inside its
// life (from its first Add Part) is Uncategorized, never No data: also while the rollup worker has not derived its
// states from its first counts yet (a pending mark, or counts stored without one). Oracle: a bench whose states and
// rows are derived and a twin with the same counts not derived yet give the same downtime split by reason, to the
// millisecond, in the OEE waterfall from the stored rows and built from the facts (cache=false), the downtime report
// (its Pareto, summary and CSV, stored and from the facts), the timeline, the downtime list and the boards. Another
// company's counts and states under the twin's id are not read. Both dialects.

const HOUR = 60 * MIN;
/** Local time on Monday 2025-11-03 in America/Chicago (CST, UTC−6). */
const mon = (h: number) => Date.UTC(2025, 10, 3, 6) + h * HOUR;
const NOW = mon(12);
/** Add Parts outside any job run, with a gap of 100 minutes: idle from the first on (decision 1073). */
const COUNTS = [mon(8), mon(8) + 10 * MIN, mon(8) + 20 * MIN, mon(10), mon(10.5)];

describe.each(DIALECTS)('a manual work center’s unexplained time on %s', (dialect) => {
  const api = apiPerTest(dialect, NOW);

  async function get<T>(path: string, cookie: string): Promise<T> {
    const res = await api.h.get(path, cookie);
    expect(res.status, await res.clone().text()).toBe(200);
    return (await res.json()) as T;
  }

  interface Report {
    summary: { uncategorizedDuration: number; noDataDuration: number; duration: number };
    data: Array<{ reasonId: string; reason: string; count: number; duration: number }>;
  }

  /** Every screen's downtime of the bench over today so far, by reason. */
  async function screens(cookie: string, machineId: string) {
    const range = `start=${mon(0)}&end=${NOW}&machineId=${machineId}`;
    const losses = (o: OeeReportResponse) =>
      o.waterfall.filter((s) => s.reasonId !== undefined).map((s) => [s.key, s.reasonId, s.ms]);
    const [stored, facts] = await Promise.all([
      get<OeeReportResponse>(`/api/reports/oee?${range}`, cookie),
      get<OeeReportResponse>(`/api/reports/oee?${range}&cache=false`, cookie),
    ]);
    const [report, reportFacts] = await Promise.all([
      get<Report>(`/api/reports/downtime?${range}`, cookie),
      get<Report>(`/api/reports/downtime?${range}&cache=false`, cookie),
    ]);
    const csv = await (await api.h.get(`/api/reports/downtime?${range}&format=csv`, cookie)).text();
    const csvMinutes = (reason: string) =>
      csv
        .split('\n')
        .filter((line) => line.includes(`,${reason},`))
        .reduce((t, line) => t + Number(line.split(',')[1]), 0);
    const timeline = await get<{
      noDataMs: number;
      monitoredFrom: number | null;
      cycleEvents: Array<{ value: string; start: number; end: number | null }>;
    }>(`/api/reports/operation?${range}`, cookie);
    const list = await get<{ items: Array<{ start: number; duration: number; reason: string | null }> }>(
      `/api/downtime?machineId=${machineId}&start=${mon(0)}&end=${NOW}&pinToBounds=true`,
      cookie,
    );
    const boards = await get<Array<{ machineId: string; noDataMs?: number; availability: number | null }>>(
      '/api/dashboard/utilization',
      cookie,
    );
    const board = boards.find((b) => b.machineId === machineId);
    return {
      waterfall: losses(stored),
      waterfallFacts: losses(facts),
      availability: [stored.efficiency.availability, facts.efficiency.availability],
      report: [report.summary, report.data.map((d) => [d.reasonId, d.reason, d.count, d.duration])],
      reportFacts: [
        reportFacts.summary,
        reportFacts.data.map((d) => [d.reasonId, d.reason, d.count, d.duration]),
      ],
      csv: { uncategorized: csvMinutes('Uncategorized'), noData: csvMinutes('No data') },
      timeline: {
        noDataMs: timeline.noDataMs,
        monitoredFrom: timeline.monitoredFrom,
        states: timeline.cycleEvents.map((e) => [e.value, e.start, e.end]),
      },
      list: list.items.map((i) => [i.start, i.duration, i.reason]),
      board: [board?.noDataMs, board?.availability],
    };
  }

  it('is Uncategorized on every screen, derived or not yet, equal to the millisecond', async () => {
    const { company, cookie, scope, recompute } = await aReportTenant(api.h, [['All day', 0, 1440]]);
    const derived = await aManualWorkcenter(api.h.t.db, company, 'Bench derived');
    const pending = await aManualWorkcenter(api.h.t.db, company, 'Bench pending');
    for (const id of [derived, pending])
      await scope
        .insertInto(
          'part_adjustments',
          COUNTS.map((t) => anAdjustmentRow(id, t, { kind: 'manual', count: 1 })),
        )
        .execute();
    // The derived bench as the rollup worker leaves it; the pending one as an Add Part leaves it before the worker runs.
    await recompute([derived], { from: COUNTS[0]!, to: NOW, now: NOW });
    await api.h.t.db.deleteFrom('rollup_dirty').execute();
    await scope
      .insertInto('rollup_dirty', [
        { machine_id: pending, from_at: COUNTS[0]!, marked_at: NOW, claimed_until: null, renewed_from: null },
      ])
      .execute();
    // Another company's machine of the pending bench's id: an earlier count and states, not the bench's.
    const theirs = await aCompany(api.h.t.db);
    await companyScope(api.h.t.db, theirs.id)
      .insertInto('part_adjustments', [anAdjustmentRow(pending, mon(6), { kind: 'manual', count: 1 })])
      .execute();
    await someStates(api.h.t.db, theirs, pending, [[mon(9), null, 'UNAVAILABLE']]);

    const idle = 4 * HOUR; // 08:00 (the first count, its life's start) to now
    const expected = {
      waterfall: [['availabilityLoss', 'uncategorized', idle]],
      waterfallFacts: [['availabilityLoss', 'uncategorized', idle]],
      availability: [0, 0],
      report: [
        { uncategorizedDuration: idle, noDataDuration: 0, duration: idle },
        [['uncategorized', 'Uncategorized', 1, idle]],
      ],
      reportFacts: [
        { uncategorizedDuration: idle, noDataDuration: 0, duration: idle },
        [['uncategorized', 'Uncategorized', 1, idle]],
      ],
      csv: { uncategorized: idle / MIN, noData: 0 },
      timeline: { noDataMs: 0, monitoredFrom: mon(8), states: [['INACTIVE', mon(8), null]] },
      list: [[mon(8), idle, null]],
      board: [0, 0],
    };
    const seen = { derived: await screens(cookie, derived), pending: await screens(cookie, pending) };
    expect(seen.derived).toMatchObject(expected);
    expect(seen.pending).toMatchObject(expected);
    expect(seen.pending).toEqual(seen.derived);
  });
});
