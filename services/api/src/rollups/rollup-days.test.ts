import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import {
  efficiencyTotals,
  efficiencyTotalsSeries,
  epochMs,
  packRollups,
  reportIntervals,
  sumRollups,
} from '@takt/domain';
import type { Rollup } from '@takt/domain';
import { companyScope } from '@takt/db';
import { DIALECTS } from '@takt/db/testing';
import { loadCalendar, loadRollupDays, loadRollups, recomputeRollups } from '@takt/db/rollups';
import { apiHarness } from '../testing/app';
import type { ApiHarness } from '../testing/app';
import { aCompany, aMachine, aUser } from '../testing/builders';
import { aDowntimeReason, anAnnotation, aRejectReason, MIN, someStates } from '../testing/downtime-builders';
import { aShift } from '../testing/live-builders';

// Decision 0804: the day rows (machine × company day × shift) give exactly the sums of the hourly rows they
// were written with, for a company in America/Chicago across the end of DST (Sunday 2025-11-02 has 25 h)
// with a Day shift (06:00–14:00) and a Night shift crossing midnight (22:00–06:00), on both dialects.

const HOUR = 60 * MIN;
/** Saturday 2025-11-01 00:00 CDT … Monday 2025-11-10 00:00 CST: nine company days, one of 25 h. */
const START = Date.UTC(2025, 10, 1, 5);
const END = Date.UTC(2025, 10, 10, 6);
const NOW = Date.UTC(2025, 10, 12, 12);

describe.each(DIALECTS)('day rollups on %s', (dialect) => {
  let h: ApiHarness;
  beforeEach(async () => {
    h = await apiHarness(dialect, NOW);
  });
  afterEach(async () => {
    await h.close();
  });

  async function plant() {
    const company = await aCompany(h.t.db, { timezone: 'America/Chicago', productTier: 'full' });
    const user = await aUser(h.t.db, company);
    const cookie = await h.login(user.email, user.password);
    const day = await aShift(h.t.db, company, {
      name: 'Day',
      startoffsetminutes: 360,
      endoffsetminutes: 840,
    });
    const night = await aShift(h.t.db, company, {
      name: 'Night',
      startoffsetminutes: 1320,
      endoffsetminutes: 1800,
    });
    const scope = companyScope(h.t.db, company.id);
    const reason = await aDowntimeReason(h.t.db, company, { name: 'Break', plannedBehavior: 'planned' });
    const reject = await aRejectReason(h.t.db, company, { name: 'Burr' });
    const machines: string[] = [];
    for (const [k, name] of ['Lathe', 'Mill'].entries()) {
      const machineId = await aMachine(h.t.db, company, { name, sortOrder: k });
      machines.push(machineId);
      // States changing every 50 + 7k minutes (not on hour edges), cycling through four states.
      const states = ['ACTIVE', 'INACTIVE', 'ACTIVE', 'FAULT'] as const;
      const rows: Array<[number, number, (typeof states)[number]]> = [];
      const step = (50 + 7 * k) * MIN;
      for (let t = START, i = 0; t < END; t += step, i++)
        rows.push([t, Math.min(t + step, END), states[i % 4]!]);
      await someStates(h.t.db, company, machineId, rows);
      // A planned break over the first INACTIVE period of each day-ish stretch.
      for (let i = 1; i < rows.length; i += 40)
        await anAnnotation(h.t.db, company, {
          machineId,
          start: rows[i]![0],
          end: rows[i]![1],
          typeId: reason.id,
        });
      const jobId = crypto.randomUUID();
      await scope
        .insertInto('jobs', {
          id: jobId,
          name: `Job ${name}`,
          erp_job_id: null,
          expected_cycle_time: 10 * MIN,
          ideal_cycle_time: 8 * MIN,
          part_count_multiplier: 1,
          actual_parts: 1,
          setuptime: null,
          quantity: null,
          hidden: 0,
          created_at: START,
        })
        .execute();
      await scope
        .insertInto('job_runs', {
          id: crypto.randomUUID(),
          machine_id: machineId,
          job_id: jobId,
          job_machine_id: null,
          start_at: START + 3 * HOUR,
          end_at: END - 5 * HOUR,
          setup_mode: 'planned',
          setup_end: START + 4 * HOUR,
          expected_cycle_time: 10 * MIN,
          ideal_cycle_time: 8 * MIN,
          part_count_multiplier: 1,
          actual_parts: 1,
          reported_parts: null,
          required_cycles: null,
          part_behavior: 'one',
          expected_setup_ms: null,
          setup_note: null,
          created_at: START,
        })
        .execute();
      const ends = rows.filter((r) => r[2] === 'ACTIVE').map((r) => r[1]);
      await scope
        .insertInto(
          'cycles',
          ends.map((end) => ({
            machine_id: machineId,
            start_at: end - 10 * MIN,
            end_at: end,
            duration: 10 * MIN,
            count: 1,
            source: 'part_count',
            setup: 0,
          })),
        )
        .execute();
      await scope
        .insertInto(
          'part_adjustments',
          ends
            .filter((_, i) => i % 9 === 0)
            .map((at) => ({
              id: crypto.randomUUID(),
              machine_id: machineId,
              adjustment_time: at - MIN,
              type_id: reject.id,
              scrapcount: 2,
              count: 0,
              message: null,
              reject_behavior: 'scrap' as const,
              deduct_from_good_parts: 1,
              job_run_id: null,
              kind: 'reject' as const,
              created_by: null,
              created_at: at,
            })),
        )
        .execute();
      await recomputeRollups(h.t.db, { companyId: company.id, machineId, from: START, to: END, now: NOW });
    }
    // The annotations marked the machines dirty; the recompute above is what the worker would do for them.
    await h.t.db.deleteFrom('rollup_dirty').execute();
    return { company, cookie, scope, day, night, machines };
  }

  it('sum to exactly what the hourly rows sum to, for every day-aligned cell and shift selection', async () => {
    const p = await plant();
    const calendar = await loadCalendar(h.t.db, p.company.id);
    const range = { machineIds: p.machines, start: START, end: END };
    const hourly = await loadRollups(p.scope, range);
    const days = await loadRollupDays(p.scope, { ...range, reasons: true });
    const numeric = await loadRollupDays(p.scope, { ...range, reasons: false });
    expect(days.length).toBeLessThan(hourly.length / 5);
    const of = (rows: Rollup[], id: string) => rows.filter((r) => r.machineId === id);
    const span = { start: epochMs(START), end: epochMs(END) };
    const selections = [null, new Set([p.day]), new Set([p.night]), new Set([p.day, p.night])];
    for (const unit of ['day', 'week', 'month'] as const) {
      const cells = [span, ...reportIntervals(calendar, span, unit)];
      for (const shiftIds of selections)
        for (const cell of cells) {
          const filter = { ...cell, shiftIds };
          // All machines together, with every measure and per-reason map.
          expect(sumRollups(days, filter)).toEqual(sumRollups(hourly, filter));
          for (const id of p.machines) {
            const want = efficiencyTotalsSeries(packRollups(of(hourly, id)), filter);
            expect(efficiencyTotalsSeries(packRollups(of(days, id)), filter)).toEqual(want);
            expect(efficiencyTotals(sumRollups(of(numeric, id), filter))).toEqual(want);
          }
        }
    }
    // Figures that are not all zero (the comparison above would pass on empty rows too).
    const all = sumRollups(days, span);
    expect(all.all.durationMs).toBe(p.machines.length * (END - START));
    expect(all.inShift.stateMs.ACTIVE).toBeGreaterThan(0);
    expect(all.inShift.rejected).toBeGreaterThan(0);
    expect(all.inShift.downtimeByReason[await reasonId(p)]?.plannedMs).toBeGreaterThan(0);
  });

  async function reasonId(p: Awaited<ReturnType<typeof plant>>) {
    const row = await p.scope
      .selectFrom('annotation_types')
      .select('id')
      .where('name', '=', 'Break')
      .executeTakeFirstOrThrow();
    return row.id;
  }

  it('the report calls answer the same from the day rows as from hourly rows', async () => {
    const p = await plant();
    const calls: Array<[string, () => Promise<Response>]> = [
      [
        'production',
        () =>
          h.send('POST', '/api/reports/warehouse/production', p.cookie, {
            start: START,
            end: END,
            interval: 'day',
            data: ['oee', 'ooe', 'teep', 'availability', 'performance', 'quality', 'timeInCycle', 'allTime'],
            groupBy: ['machine', 'interval'],
          }),
      ],
      [
        'production by shift',
        () =>
          h.send('POST', '/api/reports/warehouse/production', p.cookie, {
            start: START,
            end: END,
            interval: 'week',
            data: ['oee', 'timeInCut', 'utilizationRate'],
            groupBy: ['shift', 'interval'],
          }),
      ],
      [
        'bymachine',
        () => h.send('POST', '/api/oee/bymachine', p.cookie, { start: START, end: END, intervalType: 'day' }),
      ],
      [
        'byabstractshift',
        () =>
          h.send('POST', '/api/oee/byabstractshift', p.cookie, {
            start: START,
            end: END,
            intervalType: 'week',
          }),
      ],
      [
        'utilization',
        () => h.get(`/api/reports/utilization?start=${START}&end=${END}&interval=day`, p.cookie),
      ],
      [
        'utilization night',
        () =>
          h.get(
            `/api/reports/utilization?start=${START}&end=${END}&interval=week&shifts=${p.night}`,
            p.cookie,
          ),
      ],
      ['oee', () => h.get(`/api/reports/oee?start=${START}&end=${END}&interval=day`, p.cookie)],
      [
        'oee day shift',
        () => h.get(`/api/reports/oee?start=${START}&end=${END}&interval=week&shifts=${p.day}`, p.cookie),
      ],
    ];
    const answers = async () => {
      const out: Record<string, unknown> = {};
      for (const [name, call] of calls) {
        const res = await call();
        expect(res.status, `${name}: ${await res.clone().text()}`).toBe(200);
        const body = (await res.json()) as Record<string, unknown>;
        delete body.cacheToken; // fingerprints which rows were read, not the figures
        out[name] = body;
      }
      return out;
    };
    const fromDays = await answers();
    // The day rows alone serve these calls: without the hourly rows the answers stay.
    const hourly = await h.t.db.selectFrom('rollups').selectAll().execute();
    await h.t.db.deleteFrom('rollups').execute();
    expect(await answers()).toEqual(fromDays);
    await h.t.db.insertInto('rollups').values(hourly).execute();
    // Without day rows the machines are summed from hourly rows (built from the facts, as the recompute
    // stored them: the hourly path).
    await h.t.db.deleteFrom('rollup_days').execute();
    expect(await answers()).toEqual(fromDays);
  });
});
