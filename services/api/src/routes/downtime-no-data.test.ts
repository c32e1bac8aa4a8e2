import { describe, expect, it } from 'vitest';
import { DIALECTS } from '@takt/db/testing';
import { aMachine } from '../testing/builders';
import { aDowntimeReason, anAnnotation, MIN, someStates } from '../testing/downtime-builders';
import { apiPerTest, aReportTenant } from '../testing/report-plant';

// Decision 1060 (issue 27 point 1, METRICS.md §1): GET /api/downtime, the workcenter's "Categorize Downtime"
// list and the timeline's period table, cuts an uncategorized period at its No data spans: the UNAVAILABLE
// part reads "No data" (noData true), apart from the idle part ("Uncategorized", reason null), and is neither
// selectable for "Categorize Multiple" nor listed under "Only Uncategorized". The list's totals per reason
// equal the downtime report's for the same machine and range. Both dialects.

const HOUR = 60 * MIN;
/** Local time on Monday 2025-11-03 in America/Chicago (CST, UTC−6). */
const mon = (h: number) => Date.UTC(2025, 10, 3, 6) + h * HOUR;
const NOW = mon(20);

interface Item {
  start: number;
  end: number | null;
  duration: number;
  reason: string | null;
  noData: boolean;
  selectable: boolean;
  count: number;
  annotationType: { id: string } | null;
}

describe.each(DIALECTS)('the downtime list and No data on %s', (dialect) => {
  const api = apiPerTest(dialect, NOW);

  async function get<T>(path: string, cookie: string): Promise<T> {
    const res = await api.h.get(path, cookie);
    expect(res.status, await res.clone().text()).toBe(200);
    return (await res.json()) as T;
  }

  it('lists the No data part of a period apart, with the downtime report totals', async () => {
    // In cycle 10:30–12:00, then one period 12:00–16:00: UNAVAILABLE 12–14, idle 14–15, UNAVAILABLE 15–16 of
    // which the operator gave 15:00–15:30 a reason; in cycle since 16:00.
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

    const list = `/api/downtime?machineId=${m}&start=${mon(0)}&end=${NOW}`;
    const { items } = await get<{ items: Item[] }>(list, cookie);
    expect(items.map((i) => [i.start, i.end, i.reason, i.noData, i.selectable])).toEqual([
      [mon(12), mon(14), 'No data', true, false],
      [mon(14), mon(15), null, false, true],
      [mon(15), mon(15.5), 'Power', false, false],
      [mon(15.5), mon(16), 'No data', true, false],
    ]);

    // The same totals as the downtime report for the machine and range.
    interface Report {
      summary: { uncategorizedDuration: number; noDataDuration: number; duration: number };
      data: Array<{ reasonId: string; duration: number }>;
    }
    const report = await get<Report>(
      `/api/reports/downtime?start=${mon(0)}&end=${NOW}&machineId=${m}`,
      cookie,
    );
    const sum = (pick: (i: Item) => boolean) => items.filter(pick).reduce((t, i) => t + i.duration, 0);
    expect(sum((i) => i.noData)).toBe(report.summary.noDataDuration);
    expect(sum((i) => i.reason === null)).toBe(report.summary.uncategorizedDuration);
    expect(sum(() => true)).toBe(report.summary.duration);
    expect(report.summary.noDataDuration).toBe(150 * MIN);

    // "Only Uncategorized": the idle stop only; hiding categorized periods keeps No data (it is no category).
    const only = await get<{ items: Item[] }>(`${list}&onlyUncategorized=true`, cookie);
    expect(only.items.map((i) => [i.start, i.reason])).toEqual([[mon(14), null]]);
    const uncategorized = await get<{ items: Item[] }>(`${list}&showCategorized=false`, cookie);
    expect(uncategorized.items.map((i) => i.reason)).toEqual(['No data', null, 'No data']);

    // One row per reason: No data together, apart from the uncategorized row.
    const byReason = await get<{ items: Item[] }>(`${list}&instances=false`, cookie);
    expect(byReason.items.map((i) => [i.reason, i.count, i.duration])).toEqual([
      ['No data', 2, 150 * MIN],
      [null, 1, 60 * MIN],
      ['Power', 1, 30 * MIN],
    ]);

    // A reason saved on the idle piece (its start, end open, as the tablet saves it) covers it up to the next
    // annotation, as categorizing always did; the No data pieces keep reading No data.
    const saved = await api.h.send('POST', '/api/annotations', cookie, {
      machineId: m,
      start: mon(14),
      end: null,
      category_id: power.id,
      message: null,
    });
    expect(saved.status, await saved.clone().text()).toBe(201);
    const after = await get<{ items: Item[] }>(list, cookie);
    expect(after.items.map((i) => [i.start, i.reason, i.noData])).toEqual([
      [mon(12), 'No data', true],
      [mon(14), 'Power', false],
      [mon(15), 'Power', false],
      [mon(15.5), 'No data', true],
    ]);
  });

  it('a period going on now ends in a live No data piece', async () => {
    const { company, cookie } = await aReportTenant(api.h, [['All day', 0, 1440]]);
    const m = await aMachine(api.h.t.db, company, { name: 'Mill' });
    await someStates(api.h.t.db, company, m, [
      [mon(10), mon(18), 'ACTIVE'],
      [mon(18), mon(19), 'INACTIVE'],
      [mon(19), null, 'UNAVAILABLE'],
    ]);
    const { items } = await get<{ items: Item[] }>(`/api/downtime?machineId=${m}&start=${mon(0)}`, cookie);
    expect(items.map((i) => [i.start, i.end, i.duration, i.reason, i.noData])).toEqual([
      [mon(18), mon(19), HOUR, null, false],
      [mon(19), null, HOUR, 'No data', true],
    ]);
  });
});
