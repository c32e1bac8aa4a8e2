import { describe, expect, it } from 'vitest';
import { companyWeekRange, NO_DATA_REASON, selectDowntimeFigures, UNCATEGORIZED_REASON } from '@takt/domain';
import type { CompanyClock, DowntimeFigures, DowntimeReasonFigures } from '@takt/domain';
import type { CompanyScope } from '@takt/db';
import { DIALECTS } from '@takt/db/testing';
import { aDowntimeReason, anAnnotation, HOUR, MIN } from '../testing/downtime-builders';
import {
  aMachineWithFacts,
  aReportTenant,
  apiPerTest,
  generatedFacts,
  recomputeMarked,
} from '../testing/report-plant';
import { loadCalendar, loadDowntimeFigureRows } from '@takt/db/rollups';

// Decision 1188: the downtime report's figures kept with the rollup rows (hourly rows summed into day and week rows
// by the recompute) give, for any selection of whole rows (a range of whole hours, days and weeks; a shift
// selection), exactly the report's summary, Pareto and byMachine durations and counts computed from the states, on
// both dialects; also after a late annotation changes the reason of part of a period the recompute saw before.

/** Thursday 2025-11-13 00:00 in America/Chicago (UTC-6): the plant runs over a week boundary to Tuesday noon. */
const T0 = Date.parse('2025-11-13T06:00:00Z');
const NOW = T0 + 5 * 24 * HOUR + 12 * HOUR;
const SHIFTS = [
  ['Day', 360, 840],
  ['Night', 1320, 1800],
] as const;

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
  const api = apiPerTest(dialect, NOW);

  it('whole hours, days and weeks in any shift selection give the report computed from the states', async () => {
    const { h } = api;
    const tenant = await aReportTenant(h, SHIFTS);
    const { company, cookie, scope, shiftIds } = tenant;
    const planned = await aDowntimeReason(h.t.db, company, { name: 'Break', plannedBehavior: 'planned' });
    const tooling = await aDowntimeReason(h.t.db, company, { name: 'Tooling' });
    const limited = await aDowntimeReason(h.t.db, company, {
      name: 'Meeting',
      plannedBehavior: 'plannedWithLimit',
      plannedLimitMs: 40 * MIN,
    });
    const reasons = [planned, tooling, limited];
    const clock = (await loadCalendar(h.t.db, company.id)) as CompanyClock;
    const monday = companyWeekRange(clock, NOW).start as number;
    const ids: string[] = [];
    for (const [k, name] of ['M1', 'M2', 'M3'].entries()) {
      const facts = generatedFacts({
        t0: T0,
        now: NOW,
        cuts: 90,
        cycles: 1,
        corrections: 1,
        states: ['ACTIVE', 'ACTIVE', 'INACTIVE', 'FAULT', 'UNAVAILABLE', 'INACTIVE'],
        seed: 4242 + k,
      });
      // M1: a long stop without data over the week boundary (Monday 00:00 Chicago), from 23:00 in Sunday's Night
      // shift to Monday 07:00.
      const long = { start: monday - HOUR, end: monday + 7 * HOUR };
      const cuts =
        k === 0
          ? [...facts.cuts.filter((t) => t < long.start || t > long.end), long.start, long.end]
          : [...facts.cuts];
      cuts.sort((a, b) => a - b);
      const states = [
        ...facts.states.slice(0, 2),
        ...cuts.map((t, i) =>
          t === long.start && k === 0
            ? 'UNAVAILABLE'
            : t === long.end && k === 0
              ? 'ACTIVE'
              : facts.states[i + 2]!,
        ),
      ];
      const m = await aMachineWithFacts(h, company, name, T0, { ...facts, cuts, states });
      ids.push(m.id);
      // Every third stop categorized (some annotations reach over two stops, one open), one a split without a reason.
      for (const [i, d] of m.downtime.entries()) {
        if (i % 3 !== 0) continue;
        const end = i % 9 === 0 ? null : i % 6 === 0 ? (m.downtime[i + 1]?.end ?? d.end) : d.end;
        // None over M1's long stop: it stays No data until the late annotation below.
        if (k === 0 && d.start < long.end && (end ?? d.end) > long.start) continue;
        await anAnnotation(h.t.db, company, {
          machineId: m.id,
          start: d.start + (i % 2) * MIN,
          end,
          typeId: i % 15 === 0 ? null : reasons[i % reasons.length]!.id,
        });
      }
    }
    await tenant.recompute(ids, { from: T0, to: NOW, now: NOW });
    await recomputeMarked(h.t.db, NOW);

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
          const q = `/api/reports/downtime?start=${range.start}&end=${range.end}${sel.length ? `&shifts=${sel.join(',')}` : ''}`;
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
    await anAnnotation(h.t.db, company, { machineId: ids[0]!, start: monday + 4 * HOUR, typeId: tooling.id });
    expect(await recomputeMarked(h.t.db, NOW)).toBe(1);
    await check('after a late annotation');
  });
});
