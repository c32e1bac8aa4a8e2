// A company with MACHINES machines × DAYS days of stored rollups (hourly rows as ingest stores them, decision
// 0009, and the day and week rows written with them, decision 0804), for the report benchmarks
// (bench/oee-reports.ts, bench/report-load.ts). America/Chicago, a Day and a Swing shift on weekdays.
import type { CompanyCalendar, EpochMs, Rollup, RollupMeasures } from '@takt/domain';
import { companyDayRange, epochMs, rollupBuckets, shopDateOf } from '@takt/domain';
import { sql } from 'kysely';
import { companyScope } from '@takt/db';
import { loadCalendar, recomputeRollups, writeRollupDays } from '@takt/db/rollups';
import type { ApiHarness } from '../../services/api/src/testing/app';
import { aCompany, aMachine, aUser } from '../../services/api/src/testing/builders';
import { aShift } from '../../services/api/src/testing/live-builders';
import { mulberry32 } from '../../services/ingest/src/demo/demo-script';

/** 2024-01-01 00:00 in Chicago: the first stored day. */
export const YEAR_START = Date.UTC(2024, 0, 1, 6);

/** Plausible measures of one bucket: in cycle a random share, the rest split over planned setup and reasons. */
export function measures(rnd: () => number, durationMs: number, inShift: boolean): RollupMeasures {
  const active = Math.floor(durationMs * rnd());
  const rest = durationMs - active;
  const setup = inShift ? Math.floor(rest * rnd() * 0.3) : 0;
  const jam = Math.floor((rest - setup) * rnd());
  const idle = rest - setup - jam;
  const cycles = Math.floor(active / 60_000);
  const rejected = rnd() < 0.1 ? 1 : 0;
  return {
    durationMs,
    stateMs: { ACTIVE: active, SETUP: setup, INACTIVE: idle, FAULT: jam, UNAVAILABLE: 0 },
    spindleMs: Math.floor(active * 0.9),
    inCutMs: Math.floor(active * 0.7),
    plannedDowntimeMs: setup,
    unplannedDowntimeMs: jam + idle,
    downtimeByReason: {
      setup: { plannedMs: setup, unplannedMs: 0 },
      jam: { plannedMs: 0, unplannedMs: jam },
      uncategorized: { plannedMs: 0, unplannedMs: idle },
    },
    cycles,
    idealMs: cycles * 45_000,
    standardRunMs: active,
    expectedMs: cycles * 60_000,
    parts: cycles,
    adjustmentCount: 0,
    rejected,
    rejectsByType: rejected ? { burr: rejected } : {},
    minExpectedPartTime: 60_000,
  };
}

/**
 * Where the plant's rows end: whole company days, so day-aligned reports may read the day rows (decision 0804),
 * the company-day start nearest `days` days after YEAR_START.
 */
export function plantEnd(calendar: CompanyCalendar, days: number): number {
  const guess = YEAR_START + days * 86_400_000;
  return companyDayRange(calendar, shopDateOf(calendar, epochMs(guess + 7_200_000))).start;
}

/**
 * Seeds the company and its machines' rollups from YEAR_START to the company-day start nearest `days` days
 * on, computed at `now`. Returns the logged-in manager's cookie, the machine ids, where the rows end, the
 * number of hourly rows and how long seeding took.
 */
export async function aYearOfRollups(h: ApiHarness, machines: number, days: number, now: number) {
  const db = h.t.db;
  const company = await aCompany(db, { timezone: 'America/Chicago', productTier: 'full' });
  const user = await aUser(db, company, { role: 'manager' });
  const cookie = await h.login(user.email, user.password);
  for (const [name, startoffsetminutes, endoffsetminutes] of [
    ['Day', 360, 840],
    ['Swing', 840, 1320],
  ] as const)
    await aShift(db, company, { name, startoffsetminutes, endoffsetminutes, byweekday: [0, 1, 2, 3, 4] });
  const calendar = await loadCalendar(db, company.id);
  const end = plantEnd(calendar, days);
  const buckets = rollupBuckets(calendar, { start: YEAR_START as EpochMs, end: end as EpochMs });
  const ids: string[] = [];
  const s0 = performance.now();
  for (let m = 0; m < machines; m++) {
    const id = await aMachine(db, company, { name: `M${String(m).padStart(3, '0')}`, sortOrder: m });
    ids.push(id);
    const rnd = mulberry32(m + 1);
    const domainRows: Rollup[] = buckets.map((b) => ({
      ...measures(rnd, b.end - b.start, b.shiftId !== null),
      machineId: id,
      start: epochMs(b.start),
      end: epochMs(b.end),
      shiftId: b.shiftId,
    }));
    const rows = domainRows.map(({ machineId: _m, start, end: e, shiftId, ...values }) => ({
      machine_id: id,
      start_at: start,
      end_at: e,
      shift_id: shiftId,
      measures: JSON.stringify(values),
      computed_at: now,
    }));
    await db.transaction().execute(async (trx) => {
      const t = companyScope(trx, company.id);
      for (let i = 0; i < rows.length; i += 1000)
        await t.insertInto('rollups', rows.slice(i, i + 1000)).execute();
      // The day and week rows as recomputeRollups writes them (the same writer, same transaction).
      await writeRollupDays(trx, {
        companyId: company.id,
        machineId: id,
        clock: calendar,
        from: YEAR_START,
        to: end,
        rows: domainRows,
        computedAt: now,
      });
    });
  }
  return {
    company,
    user,
    cookie,
    calendar,
    ids,
    end,
    hourlyRows: machines * buckets.length,
    seedMs: performance.now() - s0,
  };
}

/**
 * Each machine's state intervals over the 40 days before `now` (or from `from`; a change every 20 minutes on
 * average, a fixed seed per machine): what the downtime report reads. The last one is open.
 */
export async function fortyDaysOfStates(
  h: ApiHarness,
  companyId: string,
  ids: readonly string[],
  now: number,
  from = now - 40 * 86_400_000,
): Promise<void> {
  const scope = companyScope(h.t.db, companyId);
  for (const [m, id] of ids.entries()) {
    const rnd = mulberry32(1000 + m);
    const rows: Array<{ machine_id: string; start_at: number; end_at: number | null; state: string }> = [];
    for (let t = from; t < now;) {
      const next = Math.min(now, t + Math.floor(rnd() * 40 * 60_000) + 60_000);
      const state = ['ACTIVE', 'ACTIVE', 'INACTIVE', 'FAULT'][Math.floor(rnd() * 4)]!;
      rows.push({ machine_id: id, start_at: t, end_at: next >= now ? null : next, state });
      t = next;
    }
    for (let i = 0; i < rows.length; i += 1000)
      await scope.insertInto('state_intervals', rows.slice(i, i + 1000)).execute();
  }
  // The planner's statistics of the rows just written, as autovacuum takes them within a minute on a live database:
  // without them PostgreSQL reads a machine's states through a bitmap and a sort (decision 1180).
  if (h.t.dialect === 'postgres') await sql`analyze`.execute(h.t.db);
}

/**
 * The machines' last 40 days (or from `at.from`) of rollups (and downtime figures) written by the recompute at `now`
 * (`recompute`).
 */
export async function recomputeFortyDays(
  h: ApiHarness,
  at: { companyId: string; calendar: CompanyCalendar; now: number; from?: number },
  machineIds: readonly string[],
  recompute = recomputeRollups,
): Promise<void> {
  for (const machineId of machineIds)
    await recompute(h.t.db, {
      companyId: at.companyId,
      machineId,
      from: at.from ?? at.now - 40 * 86_400_000,
      to: at.now,
      now: at.now,
      calendar: at.calendar,
    });
}
