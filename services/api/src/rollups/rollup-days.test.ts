import { describe, expect, it } from 'vitest';
import {
  efficiencyTotals,
  efficiencyTotalsSeries,
  epochMs,
  knownStateMsSeries,
  packRollups,
  reportIntervals,
  sumRollups,
} from '@takt/domain';
import type { Rollup } from '@takt/domain';
import { DIALECTS } from '@takt/db/testing';
import {
  loadCalendar,
  loadRollupCells,
  loadRollupDayDowntimeByReason,
  loadRollupDays,
  loadRollups,
} from '@takt/db/rollups';
import { aMachine } from '../testing/builders';
import { aDowntimeReason, anAnnotation, aRejectReason, MIN, someStates } from '../testing/downtime-builders';
import { apiPerTest, aJobWithRun, aRejectRow, aReportTenant, someCycles } from '../testing/report-plant';

// Decision 0804: the day rows (machine × company day × shift) give exactly the sums of the hourly rows they
// were written with, for a company in America/Chicago across the end of DST (Sunday 2025-11-02 has 25 h)
// with a Day shift (06:00–14:00) and a Night shift crossing midnight (22:00–06:00), on both dialects.

const HOUR = 60 * MIN;
/** Saturday 2025-11-01 00:00 CDT … Monday 2025-11-10 00:00 CST: nine company days, one of 25 h. */
const START = Date.UTC(2025, 10, 1, 5);
const END = Date.UTC(2025, 10, 10, 6);
const NOW = Date.UTC(2025, 10, 12, 12);

describe.each(DIALECTS)('day rollups on %s', (dialect) => {
  const api = apiPerTest(dialect, NOW);

  async function plant() {
    const { company, cookie, scope, shiftIds, recompute } = await aReportTenant(api.h, [
      ['Day', 360, 840],
      ['Night', 1320, 1800],
    ]);
    const [day, night] = shiftIds as [string, string];
    const reason = await aDowntimeReason(api.h.t.db, company, { name: 'Break', plannedBehavior: 'planned' });
    const reject = await aRejectReason(api.h.t.db, company, { name: 'Burr' });
    const machines: string[] = [];
    for (const [k, name] of ['Lathe', 'Mill'].entries()) {
      const machineId = await aMachine(api.h.t.db, company, { name, sortOrder: k });
      machines.push(machineId);
      // States changing every 50 + 7k minutes (not on hour edges), cycling through four states.
      const states = ['ACTIVE', 'INACTIVE', 'ACTIVE', 'FAULT'] as const;
      const rows: Array<[number, number, (typeof states)[number]]> = [];
      const step = (50 + 7 * k) * MIN;
      for (let t = START, i = 0; t < END; t += step, i++)
        rows.push([t, Math.min(t + step, END), states[i % 4]!]);
      await someStates(api.h.t.db, company, machineId, rows);
      // A planned break over the first INACTIVE period of each day-ish stretch.
      for (let i = 1; i < rows.length; i += 40)
        await anAnnotation(api.h.t.db, company, {
          machineId,
          start: rows[i]![0],
          end: rows[i]![1],
          typeId: reason.id,
        });
      await aJobWithRun(scope, {
        machineId,
        name: `Job ${name}`,
        expected: 10 * MIN,
        ideal: 8 * MIN,
        jobCreatedAt: START,
        start: START + 3 * HOUR,
        end: END - 5 * HOUR,
        setupEnd: START + 4 * HOUR,
        runCreatedAt: START,
      });
      const ends = rows.filter((r) => r[2] === 'ACTIVE').map((r) => r[1]);
      await someCycles(
        scope,
        machineId,
        ends.map((end) => ({ start: end - 10 * MIN, end })),
      );
      await scope
        .insertInto(
          'part_adjustments',
          ends
            .filter((_, i) => i % 9 === 0)
            .map((at) =>
              aRejectRow(machineId, at - MIN, { typeId: reject.id, scrapcount: 2, createdAt: at }),
            ),
        )
        .execute();
    }
    await recompute(machines, { from: START, to: END, now: NOW });
    // The annotations marked the machines dirty; the recompute above is what the worker would do for them.
    await api.h.t.db.deleteFrom('rollup_dirty').execute();
    return { company, cookie, scope, day, night, machines, recompute };
  }

  it('sum to exactly what the hourly rows sum to, for every day-aligned cell and shift selection', async () => {
    const p = await plant();
    const calendar = await loadCalendar(api.h.t.db, p.company.id);
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
    // The cells the database sums (one row per machine × shift × cell, packed) add up to the same figures,
    // and the downtime by reason it sums from the JSON equals the maps summed in JS.
    for (const unit of ['day', 'week', 'month'] as const) {
      const intervals = reportIntervals(calendar, span, unit);
      const cells = await loadRollupCells(p.scope, {
        ...range,
        cellStarts: intervals.map((i) => i.start),
        clock: calendar,
      });
      const cellRows = [...cells.series.values()].reduce((t, s) => t + s.length, 0);
      expect(cellRows).toBeLessThanOrEqual(days.length);
      if (unit !== 'day') expect(cellRows).toBeLessThan(days.length);
      expect(cells.computedAt).toEqual(new Map(p.machines.map((id) => [id, NOW])));
      for (const shiftIds of selections) {
        for (const cell of [span, ...intervals]) {
          const filter = { ...cell, shiftIds };
          for (const id of p.machines) {
            const want = packRollups(of(hourly, id));
            expect(efficiencyTotalsSeries(cells.series.get(id)!, filter)).toEqual(
              efficiencyTotalsSeries(want, filter),
            );
            expect(knownStateMsSeries(cells.series.get(id)!, filter)).toBe(knownStateMsSeries(want, filter));
          }
        }
        const byReason = await loadRollupDayDowntimeByReason(p.scope, {
          ...range,
          shiftIds,
          clock: calendar,
        });
        expect(byReason).toEqual(sumRollups(hourly, { ...span, shiftIds }).inShift.downtimeByReason);
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
          api.h.send('POST', '/api/reports/warehouse/production', p.cookie, {
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
          api.h.send('POST', '/api/reports/warehouse/production', p.cookie, {
            start: START,
            end: END,
            interval: 'week',
            data: ['oee', 'timeInCut', 'utilizationRate'],
            groupBy: ['shift', 'interval'],
          }),
      ],
      [
        'bymachine',
        () =>
          api.h.send('POST', '/api/oee/bymachine', p.cookie, { start: START, end: END, intervalType: 'day' }),
      ],
      [
        'byabstractshift',
        () =>
          api.h.send('POST', '/api/oee/byabstractshift', p.cookie, {
            start: START,
            end: END,
            intervalType: 'week',
          }),
      ],
      [
        'utilization',
        () => api.h.get(`/api/reports/utilization?start=${START}&end=${END}&interval=day`, p.cookie),
      ],
      [
        'utilization night',
        () =>
          api.h.get(
            `/api/reports/utilization?start=${START}&end=${END}&interval=week&shifts=${p.night}`,
            p.cookie,
          ),
      ],
      ['oee', () => api.h.get(`/api/reports/oee?start=${START}&end=${END}&interval=day`, p.cookie)],
      [
        'oee day shift',
        () => api.h.get(`/api/reports/oee?start=${START}&end=${END}&interval=week&shifts=${p.day}`, p.cookie),
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
    const hourly = await api.h.t.db.selectFrom('rollups').selectAll().execute();
    await api.h.t.db.deleteFrom('rollups').execute();
    expect(await answers()).toEqual(fromDays);
    await api.h.t.db.insertInto('rollups').values(hourly).execute();
    // Without day and week rows the machines are summed from hourly rows (built from the facts, as the
    // recompute stored them: the hourly path).
    await api.h.t.db.deleteFrom('rollup_days').execute();
    await api.h.t.db.deleteFrom('rollup_weeks').execute();
    expect(await answers()).toEqual(fromDays);
  });

  it('a recompute of one day mid-week keeps the week rows the sum of their days', async () => {
    const p = await plant();
    const calendar = await loadCalendar(api.h.t.db, p.company.id);
    // Wednesday 2025-11-05 (CST): a reject is added, and only that day is recomputed.
    const wednesday = Date.UTC(2025, 10, 5, 6);
    const reject = await aRejectReason(api.h.t.db, p.company, { name: 'Crack' });
    await p.scope
      .insertInto('part_adjustments', [
        aRejectRow(p.machines[0]!, wednesday + 9 * HOUR, { typeId: reject.id, scrapcount: 5 }),
      ])
      .execute();
    await p.recompute(p.machines, { from: wednesday, to: wednesday + 24 * HOUR, now: NOW });
    const range = { machineIds: p.machines, start: START, end: END };
    const hourly = await loadRollups(p.scope, range);
    const span = { start: epochMs(START), end: epochMs(END) };
    for (const unit of ['week', 'month'] as const) {
      const intervals = reportIntervals(calendar, span, unit);
      const cells = await loadRollupCells(p.scope, {
        ...range,
        cellStarts: intervals.map((i) => i.start),
        clock: calendar,
      });
      for (const cell of [span, ...intervals])
        for (const id of p.machines) {
          const want = packRollups(hourly.filter((r) => r.machineId === id));
          expect(efficiencyTotalsSeries(cells.series.get(id)!, { ...cell, shiftIds: null })).toEqual(
            efficiencyTotalsSeries(want, { ...cell, shiftIds: null }),
          );
        }
    }
    // The new reject is in them (the comparison above would pass on stale rows of both kinds too).
    const week = await p.scope
      .selectFrom('rollup_weeks')
      .select((eb) => eb.fn.sum<number>('rejected').as('rejected'))
      .where('machine_id', '=', p.machines[0]!)
      .executeTakeFirstOrThrow();
    expect(Number(week.rejected)).toBe(
      sumRollups(
        hourly.filter((r) => r.machineId === p.machines[0]),
        span,
      ).all.rejected,
    );
  });
});
