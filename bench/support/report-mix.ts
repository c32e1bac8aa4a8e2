// The report mix of bench/report-load.ts and bench/report-statements.ts: quick links (company days, weeks,
// months) and arbitrary ranges with mid-hour edges (a fixed seed), each as the OEE waterfall, utilization,
// production by machine × interval and (ranges of at most 31 days) the downtime report.
import type { CompanyCalendar, EpochMs } from '@takt/domain';
import { companyDayRange, epochMs, reportIntervals, shopDateOf } from '@takt/domain';
import { sql } from 'kysely';
import type { ApiHarness } from '../../services/api/src/testing/app';
import { mulberry32 } from '../../services/ingest/src/demo/demo-script';
import { recentCounts } from './recent-counts';
import { aYearOfRollups, fortyDaysOfStates, recomputeFortyDays, YEAR_START } from './year-of-rollups';

export interface Req {
  report: 'oee' | 'utilization' | 'production' | 'downtime';
  label: string;
  method: 'GET' | 'POST';
  path: string;
  body?: unknown;
}

/** The mix for a plant whose rows end at `end` (`days` of them), the API's clock at `now`. */
export function reportMix(calendar: CompanyCalendar, now: number, end: number, days: number): Req[] {
  const day = (t: number) => companyDayRange(calendar, shopDateOf(calendar, epochMs(t)));
  const today = day(now);
  const cells = (unit: 'week' | 'month', back: number) =>
    reportIntervals(calendar, { start: (now - back) as EpochMs, end: today.end }, unit);
  const weeks = cells('week', 14 * 86_400_000);
  const months = cells('month', 400 * 86_400_000);
  const ranges: Array<{ label: string; start: number; end: number; interval: string }> = [
    { label: 'today', start: today.start, end: today.end, interval: 'hour' },
    { label: 'yesterday', start: day(today.start - 1).start, end: today.start, interval: 'hour' },
    { label: 'this week', start: weeks.at(-1)!.start, end: weeks.at(-1)!.end, interval: 'day' },
    { label: 'last week', start: weeks.at(-2)!.start, end: weeks.at(-2)!.end, interval: 'day' },
    { label: 'this month', start: months.at(-1)!.start, end: months.at(-1)!.end, interval: 'day' },
    { label: 'last month', start: months.at(-2)!.start, end: months.at(-2)!.end, interval: 'day' },
    { label: 'last 12 months', start: months.at(-13)!.end, end: months.at(-1)!.start, interval: 'month' },
  ];
  const rnd = mulberry32(30);
  for (let i = 0; i < 6; i++) {
    const span = [3, 10, 28, 90, 200, 360][i]!;
    const to = now - Math.floor(rnd() * 20) * 86_400_000 - Math.floor(rnd() * 86_400_000);
    const from = Math.max(end - days * 86_400_000, to - span * 86_400_000 - Math.floor(rnd() * 3_600_000));
    ranges.push({ label: `arbitrary ${span} d`, start: from, end: to, interval: span > 60 ? 'week' : 'day' });
  }
  const data = ['oee', 'availability', 'performance', 'quality', 'timeInCycle', 'utilizationRate'];
  return ranges.flatMap((r): Req[] => {
    const q = `start=${r.start}&end=${r.end}&interval=${r.interval}`;
    return [
      { report: 'oee', label: r.label, method: 'GET', path: `/api/reports/oee?${q}` },
      { report: 'utilization', label: r.label, method: 'GET', path: `/api/reports/utilization?${q}` },
      {
        report: 'production',
        label: r.label,
        method: 'POST',
        path: '/api/reports/warehouse/production',
        body: { start: r.start, end: r.end, interval: r.interval, data, groupBy: ['machine', 'interval'] },
      },
      // The downtime report's range is at most 31 days (live-operations §9).
      ...(r.end - r.start <= 31 * 86_400_000
        ? [
            {
              report: 'downtime',
              label: r.label,
              method: 'GET',
              path: `/api/reports/downtime?start=${r.start}&end=${r.end}`,
            } as Req,
          ]
        : []),
    ];
  });
}

/**
 * Now at 18:43 on the last stored day of a plant whose rows end at `end` (bench/support/year-of-rollups.ts): its rows
 * hold up to now, computed then, and the day is partial. Sets the harness's clock; returns now.
 */
export async function rowsUpToNow(h: ApiHarness, end: number): Promise<number> {
  const now = end - (5 * 60 + 17) * 60_000;
  h.clock.now = now;
  await h.t.db.updateTable('rollup_days').set({ computed_at: now }).execute();
  await h.t.db.updateTable('rollup_weeks').set({ computed_at: now }).execute();
  await h.t.db.updateTable('rollups').set({ computed_at: now }).execute();
  await h.t.db.deleteFrom('rollups').where('start_at', '>=', now).execute();
  return now;
}

/**
 * The plant of bench/report-load.ts and bench/report-statements.ts (decision 1211): `machines` × `days` of stored
 * rollups, now at 18:43 on the last stored day (`rowsUpToNow`), state intervals from the company day holding the
 * mix's earliest downtime range (40 days at least) to now, and the rows over those days rewritten by the product's
 * recompute at now from those states (`recomputeRollups`: measures and downtime figures, hourly, day and week rows,
 * as a plant's worker stores them after migration 0068). So the downtime report reads its stored figures over
 * whole buckets, and they agree with its states path; the rows before the states keep the synthetic measures
 * (no downtime figures: no downtime call of the mix reads them). Returns the plant, now, the mix and timings.
 */
export async function aReportPlant(h: ApiHarness, machines: number, days: number) {
  const plant = await aYearOfRollups(h, machines, days, 0);
  const { calendar, company, ids } = plant;
  const now = await rowsUpToNow(h, plant.end);
  const reqs = reportMix(calendar, now, plant.end, days);
  const starts = reqs
    .filter((r) => r.report === 'downtime')
    .map((r) => Number(new URL(r.path, 'http://mix').searchParams.get('start')));
  const earliest = Math.max(YEAR_START, Math.min(now - 40 * 86_400_000, ...starts));
  const statesFrom = companyDayRange(calendar, shopDateOf(calendar, epochMs(earliest))).start;
  const s0 = performance.now();
  await fortyDaysOfStates(h, company.id, ids, now, statesFrom);
  // Decision 1218: their runs, cycles and part adjustments, made from the states (before the recompute reads them).
  const counts = await recentCounts(h, company, ids, statesFrom, now);
  const factsMs = performance.now() - s0;
  await recomputeFortyDays(h, { companyId: company.id, calendar, now, from: statesFrom }, ids);
  const recomputeMs = performance.now() - s0 - factsMs;
  // The planner's statistics of the rewritten rows too (autovacuum's within a minute on a live database).
  if (h.t.dialect === 'postgres') await sql`analyze`.execute(h.t.db);
  return { plant, now, reqs, statesFrom, counts, factsMs, recomputeMs };
}
