import { SERIES_COLUMNS } from '@takt/domain';
import type { RollupSeries } from '@takt/domain';
import { loadCalendar } from '@takt/db/rollups';
import type { ApiHarness } from './app';
import { aReportTenant, machinesWithFacts } from './report-plant';

// The week index's and the week packs' test plant (week-index.test.ts, week-packs.test.ts): two machines over five
// company weeks and a few days, across the end of DST, with a Day and a Night shift.

export const DAY = 86_400_000;
/** Monday 2025-10-06 00:00 CDT: five company weeks and a few days, across the end of DST. */
export const T0 = Date.UTC(2025, 9, 6, 5);
export const NOW = T0 + 38 * DAY;

/** The tenant, its two machines' generated facts recomputed up to NOW, and its calendar. */
export async function aWeekPlant(h: ApiHarness) {
  const tenant = await aReportTenant(h, [
    ['Day', 360, 840],
    ['Night', 1320, 1800],
  ]);
  const machines = await machinesWithFacts(h, tenant, ['Lathe', 'Mill'], {
    t0: T0,
    now: NOW,
    cuts: 300,
    cycles: 400,
    corrections: 20,
    seed: 11,
  });
  const calendar = await loadCalendar(h.t.db, tenant.company.id);
  return { ...tenant, machines, calendar };
}

/**
 * A series as its rows, each with its shift id (the shift column numbers a series' own shifts; decision 1233's
 * cells of whole weeks are views of the index's columns, numbered as the index's series).
 */
export const seriesRowsOf = (s: RollupSeries | undefined) =>
  s &&
  Array.from({ length: s.length }, (_, i) => [
    s.shift[i]! < 0 ? null : s.shiftIds[s.shift[i]!],
    ...SERIES_COLUMNS.map((c) => s[c][i]),
  ]);
