import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { buildRollups, epochMs, rollupBuckets, sumRollups, UNCATEGORIZED_REASON } from '@takt/domain';
import type { RollupMeasures } from '@takt/domain';
import { companyScope } from '@takt/db';
import { apiHarness } from '../testing/app';
import type { ApiHarness } from '../testing/app';
import { DIALECTS } from '@takt/db/testing';
import { aDowntimeReason, aTenantWithMachine, MIN } from '../testing/downtime-builders';
import type { StateRows } from '../testing/downtime-builders';
import { loadRollups, loadCalendar, loadRollupSource, recomputeRollups } from '@takt/db/rollups';

// "A number can never disagree with itself between two screens": the rollups behind OEE and the downtime
// list (GET /api/downtime) split and judge downtime the same way (METRICS.md §1, §5).

interface Item {
  start: number;
  end: number | null;
  duration: number;
  planned: boolean | null;
  annotationType: { id: string } | null;
}

describe.each(DIALECTS)('rollups and the downtime list agree on %s', (dialect) => {
  let h: ApiHarness;
  let T: number;
  beforeEach(async () => {
    h = await apiHarness(dialect);
    T = h.clock.now;
  });
  afterEach(async () => {
    await h.close();
  });

  const list = async (machineId: string, cookie: string, start: number): Promise<Item[]> => {
    const res = await h.get(`/api/downtime?machineId=${machineId}&start=${start}&end=${h.clock.now}`, cookie);
    expect(res.status, await res.clone().text()).toBe(200);
    return ((await res.json()) as { items: Item[] }).items;
  };

  /** Planned / unplanned ms by reason as the list shows it (uncategorized under UNCATEGORIZED_REASON). */
  const fromList = (items: Item[]) => {
    const out: Record<string, { plannedMs: number; unplannedMs: number }> = {};
    for (const i of items) {
      const d = (out[i.annotationType?.id ?? UNCATEGORIZED_REASON] ??= { plannedMs: 0, unplannedMs: 0 });
      if (i.planned === true) d.plannedMs += i.duration;
      else d.unplannedMs += i.duration;
    }
    return out;
  };

  /** The same from the rollups: computed live from stored facts, and stored by the rollup worker. */
  const fromRollups = async (companyId: string, machineId: string, start: number) => {
    const now = h.clock.now;
    const calendar = await loadCalendar(h.t.db, companyId);
    const range = { start: epochMs(start), end: epochMs(now) };
    const source = await loadRollupSource({ db: h.t.db, companyId }, machineId, range, { now });
    const live = sumRollups(buildRollups(source, rollupBuckets(calendar, range)), range).all;
    await recomputeRollups(h.t.db, { companyId, machineId, from: start, to: now, now });
    // Stored rows are whole buckets; nothing happens on the machine before `start` but ACTIVE time.
    const rows = await loadRollups(companyScope(h.t.db, companyId), { machineIds: [machineId], ...range });
    const stored = sumRollups(rows, { start: epochMs(0), end: epochMs(Number.MAX_SAFE_INTEGER) }).all;
    return { live, stored };
  };

  const nonZero = (m: RollupMeasures) =>
    Object.fromEntries(
      Object.entries(m.downtimeByReason).filter(([, d]) => d.plannedMs > 0 || d.unplannedMs > 0),
    );

  const plant = (states: StateRows) => aTenantWithMachine(h, { states });

  it('an open annotation covers only the downtime it was made for, not the next one', async () => {
    const t0 = T - 60 * MIN;
    const { company, cookie, machineId } = await plant([
      [t0 - 10 * MIN, t0, 'ACTIVE'],
      [t0, t0 + 10 * MIN, 'INACTIVE'],
      [t0 + 10 * MIN, t0 + 20 * MIN, 'ACTIVE'],
      [t0 + 20 * MIN, null, 'INACTIVE'],
    ]);
    const reason = await aDowntimeReason(h.t.db, company, { name: 'Break', plannedBehavior: 'planned' });
    // The underlay categorizes the current downtime (end null) while it goes on, at t0 + 5 min.
    h.clock.now = t0 + 5 * MIN;
    const saved = await h.send('POST', '/api/annotations', cookie, {
      machineId,
      start: t0,
      category_id: reason.id,
    });
    expect(saved.status, await saved.clone().text()).toBe(201);
    expect((await saved.json()).end).toBeNull();

    h.clock.now = t0 + 60 * MIN;
    const items = await list(machineId, cookie, t0);
    expect(items.map((i) => [i.start, i.end, i.annotationType?.id ?? null, i.planned])).toEqual([
      [t0, t0 + 10 * MIN, reason.id, true],
      [t0 + 20 * MIN, null, null, null],
    ]);
    const want = {
      [reason.id]: { plannedMs: 10 * MIN, unplannedMs: 0 },
      [UNCATEGORIZED_REASON]: { plannedMs: 0, unplannedMs: 40 * MIN },
    };
    expect(fromList(items)).toEqual(want);
    const { live, stored } = await fromRollups(company.id, machineId, t0);
    for (const m of [live, stored]) {
      expect(nonZero(m)).toEqual(want);
      expect(m.plannedDowntimeMs).toBe(10 * MIN);
      expect(m.unplannedDowntimeMs).toBe(40 * MIN);
    }
  });

  it('a plannedWithLimit period saved early counts as unplanned once it runs past the limit', async () => {
    const t0 = T - 60 * MIN;
    const { company, cookie, machineId } = await plant([
      [t0 - 10 * MIN, t0, 'ACTIVE'],
      [t0, null, 'INACTIVE'],
    ]);
    const reason = await aDowntimeReason(h.t.db, company, {
      name: 'Short break',
      plannedBehavior: 'plannedWithLimit',
      plannedLimitMs: 5 * MIN,
    });
    h.clock.now = t0 + 2 * MIN;
    const saved = await h.send('POST', '/api/annotations', cookie, {
      machineId,
      start: t0,
      category_id: reason.id,
    });
    expect(saved.status, await saved.clone().text()).toBe(201);
    // Within the limit when saved: planned, on the list and in the rollups.
    expect((await list(machineId, cookie, t0)).map((i) => i.planned)).toEqual([true]);
    const early = await fromRollups(company.id, machineId, t0);
    expect(early.live.plannedDowntimeMs).toBe(2 * MIN);
    expect(early.stored.plannedDowntimeMs).toBe(2 * MIN);

    // Still going 30 minutes later: "Exceeded Limit" (null) on the list, unplanned in OEE.
    h.clock.now = t0 + 30 * MIN;
    const items = await list(machineId, cookie, t0);
    expect(items.map((i) => [i.start, i.end, i.planned])).toEqual([[t0, null, null]]);
    const want = { [reason.id]: { plannedMs: 0, unplannedMs: 30 * MIN } };
    expect(fromList(items)).toEqual(want);
    const late = await fromRollups(company.id, machineId, t0);
    for (const m of [late.live, late.stored]) {
      expect(nonZero(m)).toEqual(want);
      expect(m.plannedDowntimeMs).toBe(0);
    }

    // The machine runs again, then idles: the ended period stays exceeded, the new one is uncategorized.
    await companyScope(h.t.db, company.id)
      .updateTable('state_intervals')
      .set({ end_at: t0 + 40 * MIN })
      .where('machine_id', '=', machineId)
      .where('start_at', '=', t0)
      .execute();
    await companyScope(h.t.db, company.id)
      .insertInto('state_intervals', [
        { machine_id: machineId, start_at: t0 + 40 * MIN, end_at: t0 + 45 * MIN, state: 'ACTIVE' },
        { machine_id: machineId, start_at: t0 + 45 * MIN, end_at: null, state: 'INACTIVE' },
      ])
      .execute();
    h.clock.now = t0 + 50 * MIN;
    const after = await list(machineId, cookie, t0);
    expect(after.map((i) => [i.start, i.end, i.annotationType?.id ?? null, i.planned])).toEqual([
      [t0, t0 + 40 * MIN, reason.id, null],
      [t0 + 45 * MIN, null, null, null],
    ]);
    const wantAfter = {
      [reason.id]: { plannedMs: 0, unplannedMs: 40 * MIN },
      [UNCATEGORIZED_REASON]: { plannedMs: 0, unplannedMs: 5 * MIN },
    };
    expect(fromList(after)).toEqual(wantAfter);
    const done = await fromRollups(company.id, machineId, t0);
    for (const m of [done.live, done.stored]) expect(nonZero(m)).toEqual(wantAfter);
  });
});
