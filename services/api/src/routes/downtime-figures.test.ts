import { describe, expect, it } from 'vitest';
import { NO_DATA_REASON, selectDowntimeFigures, UNCATEGORIZED_REASON } from '@takt/domain';
import type { CompanyClock, DowntimeFigures, DowntimeReasonFigures } from '@takt/domain';
import type { CompanyScope } from '@takt/db';
import { DIALECTS } from '@takt/db/testing';
import { anAnnotation, HOUR } from '../testing/downtime-builders';
import { aDowntimePlant, PLANT_NOW, PLANT_T0 } from '../testing/downtime-plant';
import { apiPerTest, recomputeMarked } from '../testing/report-plant';
import { loadDowntimeFigureRows } from '@takt/db/rollups';

// Decision 1188: the downtime report's figures kept with the rollup rows (hourly rows summed into day and week rows
// by the recompute) give, for any selection of whole rows (a range of whole hours, days and weeks; a shift
// selection), exactly the report's summary, Pareto and byMachine durations and counts computed from the states, on
// both dialects; also after a late annotation changes the reason of part of a period the recompute saw before.

interface Tally {
  count: number;
  duration: number;
  reasonId: string;
}
interface Report {
  data: Tally[];
  summary: {
    count: number;
    duration: number;
    plannedDuration: number;
    unplannedDuration: number;
    uncategorizedDuration: number;
    noDataDuration: number;
  };
  byMachine: Array<{ machineId: string; downtime: Tally[] }>;
}

/** The report's shape of a selection's figures by reason (types' planned and unplanned periods together). */
function tallies(figures: Record<string, DowntimeReasonFigures>): Tally[] {
  return Object.entries(figures)
    .map(([reasonId, f]) => ({
      reasonId,
      count: f.planned + f.unplanned,
      duration: f.plannedMs + f.unplannedMs,
    }))
    .filter((t) => t.count > 0)
    .sort((a, b) => a.reasonId.localeCompare(b.reasonId));
}

const sorted = (ts: readonly Tally[]) =>
  ts
    .map(({ reasonId, count, duration }) => ({ reasonId, count, duration }))
    .sort((a, b) => a.reasonId.localeCompare(b.reasonId));

/** Each machine's stored figures of the range (loadDowntimeFigureRows), every row with its figures. */
async function storedRows(
  scope: CompanyScope,
  clock: CompanyClock,
  machineIds: readonly string[],
  range: { start: number; end: number },
  shifts: ReadonlySet<string | null> | null,
): Promise<Map<string, DowntimeFigures[]>> {
  const rows = await loadDowntimeFigureRows(scope, clock, machineIds, range, shifts);
  for (const [id, figures] of rows) expect(figures, `${id} stored without figures`).not.toBeNull();
  return rows as Map<string, DowntimeFigures[]>;
}

describe.each(DIALECTS)('the downtime report from stored figures on %s (decision 1188)', (dialect) => {
  const api = apiPerTest(dialect, PLANT_NOW);

  it('whole hours, days and weeks in any shift selection give the report computed from the states', async () => {
    const { h } = api;
    const { tenant, ids, clock, monday, reasons } = await aDowntimePlant(h);
    const { cookie, scope, shiftIds } = tenant;
    const { tooling } = reasons;
    const T0 = PLANT_T0;
    const NOW = PLANT_NOW;

    const check = async (label: string) => {
      const ranges = [
        { start: T0, end: NOW },
        { start: T0 + 7 * HOUR, end: NOW - 3 * HOUR },
        { start: monday - 2 * HOUR, end: monday + 2 * HOUR },
        { start: monday, end: monday + 5 * HOUR },
        { start: T0 + 30 * HOUR, end: monday + HOUR },
      ];
      const selections: Array<readonly string[]> = [[], [shiftIds[0]!], [shiftIds[1]!], shiftIds];
      for (const range of ranges)
        for (const sel of selections) {
          const q = `/api/reports/downtime?detail=true&start=${range.start}&end=${range.end}${sel.length ? `&shifts=${sel.join(',')}` : ''}`;
          const res = await h.get(q, cookie);
          expect(res.status, await res.clone().text()).toBe(200);
          const report = (await res.json()) as Report;
          const rows = await storedRows(scope, clock, ids, range, sel.length ? new Set(sel) : null);
          const inSel = (t: number, s: string | null) =>
            t >= range.start && t < range.end && (sel.length === 0 || (s !== null && sel.includes(s)));
          const all: Record<string, DowntimeReasonFigures> = {};
          const byMachine = new Map<string, Tally[]>();
          for (const id of ids) {
            const mine = selectDowntimeFigures(rows.get(id)!, inSel);
            selectDowntimeFigures(rows.get(id)!, inSel, all);
            byMachine.set(id, tallies(mine));
          }
          const where = `${label}: ${new Date(range.start).toISOString()} → ${new Date(range.end).toISOString()} shifts ${sel.length}`;
          expect(tallies(all), where).toEqual(sorted(report.data));
          for (const id of ids)
            expect(byMachine.get(id), `${where} ${id}`).toEqual(
              sorted(report.byMachine.find((m) => m.machineId === id)?.downtime ?? []),
            );
          const sum = (pick: (r: string, f: DowntimeReasonFigures) => number) =>
            Object.entries(all).reduce((t, [r, f]) => t + pick(r, f), 0);
          const typed = (r: string) => r !== UNCATEGORIZED_REASON && r !== NO_DATA_REASON;
          expect(
            {
              count: sum((_r, f) => f.planned + f.unplanned),
              duration: sum((_r, f) => f.plannedMs + f.unplannedMs),
              plannedDuration: sum((r, f) => (typed(r) ? f.plannedMs : 0)),
              unplannedDuration: sum((r, f) => (typed(r) ? f.unplannedMs : 0)),
              uncategorizedDuration: sum((r, f) => (r === UNCATEGORIZED_REASON ? f.unplannedMs : 0)),
              noDataDuration: sum((r, f) => (r === NO_DATA_REASON ? f.unplannedMs : 0)),
            },
            where,
          ).toEqual({
            count: report.summary.count,
            duration: report.summary.duration,
            plannedDuration: report.summary.plannedDuration,
            unplannedDuration: report.summary.unplannedDuration,
            uncategorizedDuration: report.summary.uncategorizedDuration,
            noDataDuration: report.summary.noDataDuration,
          });
        }
    };
    await check('as recomputed');
    // The long stop over the week boundary: one No data period, in progress at Monday's first hourly row, begun in
    // Sunday's Night shift, and counted once over the week boundary (checked above).
    const [first] = (
      await storedRows(scope, clock, [ids[0]!], { start: monday, end: monday + HOUR }, null)
    ).get(ids[0]!)!;
    expect(first!.inProgress).toEqual([
      { at: monday, start: monday - HOUR, startShift: shiftIds[1], reason: NO_DATA_REASON, planned: false },
    ]);

    // A late annotation: Tooling over the long stop's last hours (from Monday 04:00), recomputed from its mark as the
    // worker does; the stop's start and the week before are not recomputed, and the figures still agree.
    await anAnnotation(h.t.db, tenant.company, {
      machineId: ids[0]!,
      start: monday + 4 * HOUR,
      typeId: tooling.id,
    });
    expect(await recomputeMarked(h.t.db, NOW)).toBe(1);
    await check('after a late annotation');
  });
});
