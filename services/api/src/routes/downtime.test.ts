import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { apiHarness } from '../testing/app';
import type { ApiHarness } from '../testing/app';
import { DIALECTS } from '@takt/db/testing';
import { aDowntimeReason, anAnnotation, aTenantWithMachine, HOUR, MIN } from '../testing/downtime-builders';

interface Item {
  start: number;
  end: number | null;
  duration: number;
  isEndSet: boolean;
  reason: string | null;
  color: string | null;
  planned: boolean | null;
  setup: boolean;
  count: number;
  selectable: boolean;
  short: boolean;
  annotation: { id: string } | null;
  annotationType: { id: string; plannedLimitMs: number | null } | null;
}

describe.each(DIALECTS)('downtime routes on %s', (dialect) => {
  let h: ApiHarness;
  let T: number;
  beforeEach(async () => {
    h = await apiHarness(dialect);
    T = h.clock.now;
  });
  afterEach(async () => {
    await h.close();
  });

  /** A machine with two closed downtime periods, a setup, and a live downtime of 30 minutes. */
  const plant = () =>
    aTenantWithMachine(h, {
      machine: { name: 'Mill 1' },
      states: [
        [T - 10 * HOUR, T - 5 * HOUR, 'ACTIVE'],
        [T - 5 * HOUR, T - 4 * HOUR, 'INACTIVE'],
        [T - 4 * HOUR, T - 3 * HOUR, 'FAULT'],
        [T - 3 * HOUR, T - 2 * HOUR, 'ACTIVE'],
        [T - 2 * HOUR, T - 90 * MIN, 'SETUP'],
        [T - 90 * MIN, T - 60 * MIN, 'INACTIVE'],
        [T - 60 * MIN, T - 30 * MIN, 'ACTIVE'],
        // Idle, not UNAVAILABLE: the list shows a machine without data as No data apart (decision 1060,
        // downtime-no-data.test.ts); these periods are stops the operator categorizes.
        [T - 30 * MIN, null, 'INACTIVE'],
      ],
    });
  const items = async (path: string, cookie: string): Promise<Item[]> => {
    const res = await h.get(path, cookie);
    expect(res.status, await res.clone().text()).toBe(200);
    return ((await res.json()) as { items: Item[] }).items;
  };

  it('lists maximal non-ACTIVE runs of the last 24 hours, without setup, the live one open', async () => {
    const { cookie, machineId } = await plant();
    const res = await h.get(`/api/downtime?machineId=${machineId}`, cookie);
    const body = await res.json();
    expect(body.start).toBe(T - 24 * HOUR);
    expect(body.end).toBe(T);
    expect(body.items.map((i: Item) => [i.start, i.end, i.duration, i.reason, i.setup])).toEqual([
      [T - 5 * HOUR, T - 3 * HOUR, 2 * HOUR, null, false],
      [T - 90 * MIN, T - 60 * MIN, 30 * MIN, null, false],
      [T - 30 * MIN, null, 30 * MIN, null, false],
    ]);
    expect(body.items[2]).toMatchObject({ isEndSet: false, machine: 'Mill 1', machineId, selectable: true });
    // The live duration grows with the clock.
    h.clock.now += 5 * MIN;
    const later = await items(`/api/downtime?machineId=${machineId}`, cookie);
    expect(later[2]!.duration).toBe(35 * MIN);
  });

  it('splits and categorizes a period by the annotations that cover part of it', async () => {
    const { company, cookie, machineId } = await plant();
    const reason = await aDowntimeReason(h.t.db, company, { name: 'Tooling', color: '#ff0000' });
    await anAnnotation(h.t.db, company, {
      machineId,
      start: T - 5 * HOUR + 10 * MIN,
      end: T - 4 * HOUR,
      typeId: reason.id,
      planned: false,
    });
    const list = await items(`/api/downtime?machineId=${machineId}`, cookie);
    expect(
      list.slice(0, 3).map((i) => [i.start, i.end, i.reason, i.color, i.isEndSet, i.selectable]),
    ).toEqual([
      [T - 5 * HOUR, T - 5 * HOUR + 10 * MIN, null, null, false, true],
      [T - 5 * HOUR + 10 * MIN, T - 4 * HOUR, 'Tooling', '#ff0000', true, false],
      [T - 4 * HOUR, T - 3 * HOUR, null, null, false, true],
    ]);
    expect(list[1]!.planned).toBe(false);
    expect(list[1]!.annotationType?.id).toBe(reason.id);
  });

  it('leaves out periods annotated as setup', async () => {
    const { company, cookie, machineId } = await plant();
    await anAnnotation(h.t.db, company, { machineId, start: T - 90 * MIN, setup: true });
    const list = await items(`/api/downtime?machineId=${machineId}`, cookie);
    expect(list.map((i) => i.start)).toEqual([T - 5 * HOUR, T - 30 * MIN]);
  });

  it('shows the real start of a period crossing the window start unless pinned to the bounds', async () => {
    const { cookie, machineId } = await plant();
    const start = T - 4.5 * HOUR;
    const real = await items(`/api/downtime?machineId=${machineId}&start=${start}`, cookie);
    expect(real[0]).toMatchObject({ start: T - 5 * HOUR, duration: 2 * HOUR });
    const pinned = await items(
      `/api/downtime?machineId=${machineId}&start=${start}&pinToBounds=true`,
      cookie,
    );
    expect(pinned[0]).toMatchObject({ start, duration: 1.5 * HOUR });
    const windowed = await items(
      `/api/downtime?machineId=${machineId}&start=${T - 6 * HOUR}&end=${T - 2.5 * HOUR}`,
      cookie,
    );
    expect(windowed.map((i) => i.start)).toEqual([T - 5 * HOUR]);
  });

  it('marks and filters short periods by the company filter duration (2 minutes by default)', async () => {
    const me = await aTenantWithMachine(h, {
      states: [
        [T - HOUR, T - HOUR + 2 * MIN, 'INACTIVE'],
        [T - HOUR + 2 * MIN, T - 30 * MIN, 'ACTIVE'],
        [T - 30 * MIN, T - 30 * MIN + 2 * MIN + 1, 'INACTIVE'],
        [T - 30 * MIN + 2 * MIN + 1, null, 'ACTIVE'],
      ],
    });
    const { machineId } = me;
    const all = await items(`/api/downtime?machineId=${machineId}`, me.cookie);
    expect(all.map((i) => i.short)).toEqual([true, false]);
    const long = await items(`/api/downtime?machineId=${machineId}&showShort=false`, me.cookie);
    expect(long.map((i) => i.duration)).toEqual([2 * MIN + 1]);
  });

  it('filters categorized periods and groups by reason when instances=false', async () => {
    const { company, cookie, machineId } = await plant();
    const reason = await aDowntimeReason(h.t.db, company, { name: 'Waiting' });
    await anAnnotation(h.t.db, company, { machineId, start: T - 90 * MIN, typeId: reason.id });
    const uncategorized = await items(`/api/downtime?machineId=${machineId}&onlyUncategorized=true`, cookie);
    expect(uncategorized.map((i) => i.start)).toEqual([T - 5 * HOUR, T - 30 * MIN]);
    const grouped = await items(`/api/downtime?machineId=${machineId}&instances=false`, cookie);
    expect(grouped.map((i) => [i.reason, i.count, i.duration])).toEqual([
      [null, 2, 2 * HOUR + 30 * MIN],
      ['Waiting', 1, 30 * MIN],
    ]);
  });

  it('answers 400 with the problems for a bad query, and limits the range to 31 days', async () => {
    const { cookie, machineId } = await plant();
    const missing = await h.get('/api/downtime', cookie);
    expect(missing.status).toBe(400);
    expect((await missing.json()).error.issues.map((i: { field: string }) => i.field)).toEqual(['machineId']);
    const backwards = await h.get(`/api/downtime?machineId=${machineId}&start=${T}&end=${T - 1}`, cookie);
    expect(backwards.status).toBe(400);
    expect((await backwards.json()).error.message).toBe('Start Date must be before End Date');
    // 31 days on the company's wall clock (America/Chicago): the range crosses the end of daylight saving
    // time on 2 November 2025, so 31 wall-clock days back is 745 hours, one more than 31 × 24.
    expect(new Date(T).toISOString()).toBe('2025-11-22T08:26:40.000Z');
    const wall31 = T - 31 * 24 * HOUR - HOUR;
    const ok = await h.get(`/api/downtime?machineId=${machineId}&start=${wall31}&end=${T}`, cookie);
    expect(ok.status, await ok.clone().text()).toBe(200);
    const tooLong = await h.get(`/api/downtime?machineId=${machineId}&start=${wall31 - 1}&end=${T}`, cookie);
    expect(tooLong.status).toBe(400);
    const error = (await tooLong.json()).error;
    // The same text as every other range check (domain checkRange).
    expect(error.message).toBe('Select up to 31 days');
    expect(error.issues).toEqual([
      { field: 'start', code: 'RANGE_TOO_LONG', message: 'Select up to 31 days' },
    ]);
  });

  it("answers 404 for another company's machine", async () => {
    const { machineId } = await plant();
    const other = await h.tenant();
    const res = await h.get(`/api/downtime?machineId=${machineId}`, other.cookie);
    expect(res.status).toBe(404);
    const split = await h.send('POST', '/api/downtime/split', other.cookie, { machineId });
    expect(split.status).toBe(404);
  });

  it('Split Downtime starts a new uncategorized period from now', async () => {
    const { cookie, machineId } = await plant();
    const res = await h.send('POST', '/api/downtime/split', cookie, { machineId });
    expect(res.status).toBe(200);
    const body = await res.json();
    expect(body.start).toBe(T);
    expect(body.ended).toMatchObject({ start: T - 30 * MIN, end: T, category_id: null });
    h.clock.now += 5 * MIN;
    const list = await items(`/api/downtime?machineId=${machineId}`, cookie);
    expect(list.slice(-2).map((i) => [i.start, i.end, i.duration, i.reason, i.selectable])).toEqual([
      [T - 30 * MIN, T, 30 * MIN, null, true],
      [T, null, 5 * MIN, null, true],
    ]);
  });

  it('Split Downtime ends a categorized live period and restarts the downtime from that end', async () => {
    const { company, cookie, machineId } = await plant();
    const reason = await aDowntimeReason(h.t.db, company, { name: 'Lunch', plannedBehavior: 'planned' });
    const saved = await h.send('POST', '/api/annotations', cookie, {
      machineId,
      start: T - 30 * MIN,
      end: null,
      category_id: reason.id,
    });
    expect(saved.status).toBe(201);
    h.clock.now = T + 10 * MIN;
    expect((await h.send('POST', '/api/downtime/split', cookie, { machineId })).status).toBe(200);
    h.clock.now = T + 12 * MIN;
    const list = await items(`/api/downtime?machineId=${machineId}`, cookie);
    expect(list.slice(-2).map((i) => [i.start, i.end, i.reason, i.isEndSet])).toEqual([
      [T - 30 * MIN, T + 10 * MIN, 'Lunch', true],
      [T + 10 * MIN, null, null, false],
    ]);
  });

  it('refuses to split when the machine is not down, and needs FullProduct', async () => {
    const me = await aTenantWithMachine(h, { states: [[T - HOUR, null, 'ACTIVE']] });
    const { machineId } = me;
    const res = await h.send('POST', '/api/downtime/split', me.cookie, { machineId });
    expect(res.status).toBe(409);
    expect((await res.json()).error).toMatchObject({
      code: 'NO_DOWNTIME',
      message: 'There is no downtime to split at this time.',
    });
    const bad = await h.send('POST', '/api/downtime/split', me.cookie, {});
    expect(bad.status).toBe(400);

    const { cookie, machineId: m2 } = await aTenantWithMachine(h, {
      tier: 'utilization',
      states: [[T - HOUR, null, 'INACTIVE']],
    });
    expect((await h.send('POST', '/api/downtime/split', cookie, { machineId: m2 })).status).toBe(403);
    // Reading downtime needs no FullProduct.
    expect((await h.get(`/api/downtime?machineId=${m2}`, cookie)).status).toBe(200);
  });
});
