import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { companyScope } from '@takt/db';
import { DIALECTS } from '@takt/db/testing';
import { apiHarness } from '../testing/app';
import type { ApiHarness } from '../testing/app';
import { aMachine } from '../testing/builders';
import { aRejectReason, aTenantWithMachine } from '../testing/downtime-builders';
import { aShift, errorOf } from '../testing/live-builders';
import { anAdjustmentRow, aRejectRow } from '../testing/report-plant';

// The reject calls' filters (reports-admin §7 reject queries; decision 0812): one machine, the selected
// shifts' time on the company calendar, category_id=uncategorized for rejects without a reason, and the
// reject list as CSV (every reject of the filter, not one page). Hand-computed, both dialects.

// Thursday 2025-11-20 in America/Chicago (CST = UTC−6), the builders' company zone.
const at = (h: number, m = 0) => Date.UTC(2025, 10, 20, h + 6, m);
const RANGE = `start=${at(0)}&end=${at(24)}`;

interface RejectPage {
  rows: { adjustmenttime: number; machine_name: string; scrapcount: number; category_id: string | null }[];
  count: number;
}
interface Totals {
  rejects: { scrapCount: number; partadjustmentType: { name: string }; machine: { name: string } | null }[];
}

describe.each(DIALECTS)('reject list and totals filters on %s', (dialect) => {
  let h: ApiHarness;
  beforeEach(async () => {
    h = await apiHarness(dialect);
  });
  afterEach(async () => {
    await h.close();
  });

  /**
   * Day 06:00–14:00 and Swing 14:00–22:00. Rejects (time, machine, reason, parts):
   *   05:59 Lathe 1 Burr 1 (no shift) · 06:00 Lathe 1 Burr 2 (Day, its first instant) · 13:59 Lathe 2 Dent 3
   *   (Day) · 14:00 Lathe 2 none 4 (Swing: Day ends before it) · 21:30 Lathe 1 none 5 (Swing) · 22:00 Lathe 1
   *   Dent 7 (no shift). A part correction without a reason at 15:00 is not a reject.
   */
  async function plant() {
    const me = await aTenantWithMachine(h, { machine: { name: 'Lathe 1' } });
    const lathe2 = await aMachine(h.t.db, me.company, { name: 'Lathe 2' });
    const day = await aShift(h.t.db, me.company, {
      name: 'Day',
      startoffsetminutes: 360,
      endoffsetminutes: 840,
    });
    const swing = await aShift(h.t.db, me.company, {
      name: 'Swing',
      startoffsetminutes: 840,
      endoffsetminutes: 1320,
    });
    const burr = await aRejectReason(h.t.db, me.company, { name: 'Burr', reject_behavior: 'scrap' });
    const dent = await aRejectReason(h.t.db, me.company, { name: 'Dent', reject_behavior: 'nonconform' });
    const lathe1 = me.machineId;
    const uncategorized = (machineId: string, when: number, n: number) => ({
      ...anAdjustmentRow(machineId, when, {
        scrapcount: n,
        reject_behavior: 'scrap',
        deduct_from_good_parts: 1,
        kind: 'reject',
      }),
    });
    await companyScope(h.t.db, me.company.id)
      .insertInto('part_adjustments', [
        aRejectRow(lathe1, at(5, 59), { typeId: burr.id, scrapcount: 1 }),
        { ...aRejectRow(lathe1, at(6), { typeId: burr.id, scrapcount: 2 }), message: 'burr, on the bore' },
        aRejectRow(lathe2, at(13, 59), { typeId: dent.id, scrapcount: 3, behavior: 'nonconform' }),
        uncategorized(lathe2, at(14), 4),
        uncategorized(lathe1, at(21, 30), 5),
        aRejectRow(lathe1, at(22), { typeId: dent.id, scrapcount: 7, behavior: 'nonconform' }),
        anAdjustmentRow(lathe1, at(15), { count: 3 }),
      ])
      .execute();
    return { ...me, lathe1, lathe2, day, swing, burr, dent };
  }

  async function list(query: string, cookie: string): Promise<RejectPage> {
    const res = await h.get(`/api/partadjustment/rejects?${RANGE}${query}`, cookie);
    expect(res.status, await res.clone().text()).toBe(200);
    return (await res.json()) as RejectPage;
  }
  /** [hh:mm on 2025-11-20 Chicago, machine, parts] of a list, newest first. */
  const rowsOf = (p: RejectPage) =>
    p.rows.map((r) => {
      const min = (r.adjustmenttime - at(0)) / 60_000;
      const hhmm = `${String(Math.floor(min / 60)).padStart(2, '0')}:${String(min % 60).padStart(2, '0')}`;
      return [hhmm, r.machine_name, r.scrapcount];
    });
  async function totals(query: string, cookie: string) {
    const res = await h.get(`/api/partadjustment/allRejectsByCategory?${RANGE}${query}`, cookie);
    expect(res.status, await res.clone().text()).toBe(200);
    return ((await res.json()) as Totals).rejects.map((r) =>
      r.machine
        ? [r.partadjustmentType.name, r.machine.name, r.scrapCount]
        : [r.partadjustmentType.name, r.scrapCount],
    );
  }

  it('shifts: only rejects whose time falls inside the selected shifts (start in, end out)', async () => {
    const p = await plant();
    expect((await list('', p.cookie)).count).toBe(6);
    expect(rowsOf(await list(`&shifts=${p.day}`, p.cookie))).toEqual([
      ['13:59', 'Lathe 2', 3],
      ['06:00', 'Lathe 1', 2],
    ]);
    expect(rowsOf(await list(`&shifts=${p.swing}`, p.cookie))).toEqual([
      ['21:30', 'Lathe 1', 5],
      ['14:00', 'Lathe 2', 4],
    ]);
    const both = await list(`&shifts=${p.day},${p.swing}`, p.cookie);
    expect(both.count).toBe(4);
    // Paged within the shift filter: the second page of 3 holds the oldest in-shift reject.
    expect(rowsOf(await list(`&shifts=${p.day},${p.swing}&limit=3&page=2`, p.cookie))).toEqual([
      ['06:00', 'Lathe 1', 2],
    ]);
    // An empty value is no filter.
    expect((await list('&shifts=', p.cookie)).count).toBe(6);
    // Two years (the longest range, decision 0980) of Day and Swing shifts: over 1000 occurrences, beyond
    // SQLite's expression depth as a flat OR.
    const years = `start=${at(24) - 2 * 365 * 24 * 3_600_000}&end=${at(24)}&shifts=${p.day},${p.swing}`;
    const long = await h.get(`/api/partadjustment/rejects?${years}`, p.cookie);
    expect(long.status, await long.clone().text()).toBe(200);
    expect(((await long.json()) as RejectPage).count).toBe(4);

    expect(await totals(`&shifts=${p.day}`, p.cookie)).toEqual([
      ['Dent', 3],
      ['Burr', 2],
    ]);
    expect(await totals(`&shifts=${p.swing}&groupByMachine=true`, p.cookie)).toEqual([
      ['Uncategorized', 'Lathe 1', 5],
      ['Uncategorized', 'Lathe 2', 4],
    ]);
  });

  it('machine_id: one machine, alone or with the shift and reason filters', async () => {
    const p = await plant();
    expect(rowsOf(await list(`&machine_id=${p.lathe2}`, p.cookie))).toEqual([
      ['14:00', 'Lathe 2', 4],
      ['13:59', 'Lathe 2', 3],
    ]);
    expect(rowsOf(await list(`&machine_id=${p.lathe1}&shifts=${p.swing}`, p.cookie))).toEqual([
      ['21:30', 'Lathe 1', 5],
    ]);
    expect(rowsOf(await list(`&machine_id=${p.lathe1}&category_id=${p.dent.id}`, p.cookie))).toEqual([
      ['22:00', 'Lathe 1', 7],
    ]);
    expect(await totals(`&machine_id=${p.lathe1}&groupByMachine=true`, p.cookie)).toEqual([
      ['Dent', 'Lathe 1', 7],
      ['Uncategorized', 'Lathe 1', 5],
      ['Burr', 'Lathe 1', 3],
    ]);
  });

  it('category_id=uncategorized: the rejects without a reason (corrections are not rejects)', async () => {
    const p = await plant();
    const none = await list('&category_id=uncategorized', p.cookie);
    expect(none.count).toBe(2);
    expect(none.rows.every((r) => r.category_id === null)).toBe(true);
    expect(rowsOf(none)).toEqual([
      ['21:30', 'Lathe 1', 5],
      ['14:00', 'Lathe 2', 4],
    ]);
    expect((await list(`&category_id=uncategorized&shifts=${p.day}`, p.cookie)).count).toBe(0);
    expect(await totals('', p.cookie)).toEqual([
      ['Dent', 10],
      ['Uncategorized', 9],
      ['Burr', 3],
    ]);
    expect(await totals('&category_id=uncategorized&groupByMachine=true', p.cookie)).toEqual([
      ['Uncategorized', 'Lathe 1', 5],
      ['Uncategorized', 'Lathe 2', 4],
    ]);
    const csv = await h.get(
      `/api/partadjustment/allRejectsByCategory?${RANGE}&category_id=uncategorized&format=csv`,
      p.cookie,
    );
    expect(await csv.text()).toBe('Reason,Scrap Count\r\nUncategorized,9\r\n');
  });

  it('format=csv: every reject of the filter, newest first, not one page, over a ?token= link', async () => {
    const p = await plant();
    const token = ((await (await h.get('/api/user-token', p.cookie)).json()) as { token: string }).token;
    const res = await h.app.request(
      `/api/partadjustment/rejects?${RANGE}&shifts=${p.day},${p.swing}&limit=1&offset=1&format=csv&token=${token}`,
    );
    expect(res.status, await res.clone().text()).toBe(200);
    expect(res.headers.get('content-type')).toMatch(/^text\/csv/);
    expect(res.headers.get('content-disposition')).toContain('rejects.csv');
    expect(await res.text()).toBe(
      'Time,Machine,Reason,Count,Type,Operation,Message\r\n' +
        '2025-11-20 21:30:00,Lathe 1,Uncategorized,5,Scrap,,\r\n' +
        '2025-11-20 14:00:00,Lathe 2,Uncategorized,4,Scrap,,\r\n' +
        '2025-11-20 13:59:00,Lathe 2,Dent,3,Non-Conforming,,\r\n' +
        '2025-11-20 06:00:00,Lathe 1,Burr,2,Scrap,,"burr, on the bore"\r\n',
    );
    // Without the token there is no CSV.
    expect((await h.app.request(`/api/partadjustment/rejects?${RANGE}&format=csv`)).status).toBe(401);
  });

  it('answers bad filters 400 with the list of problems', async () => {
    const p = await plant();
    const problems = async (path: string) => {
      const res = await h.get(`${path}`, p.cookie);
      expect(res.status, path).toBe(400);
      return ((await errorOf(res)).issues ?? []).map((i) => i.message);
    };
    const rejects = `/api/partadjustment/rejects?${RANGE}`;
    const byCategory = `/api/partadjustment/allRejectsByCategory?${RANGE}`;
    expect(await problems(`${rejects}&shifts=${p.day},,${p.swing}`)).toEqual([
      'shifts must be a comma-separated list of shift ids',
    ]);
    expect(await problems(`${rejects}&format=xlsx&machine_id=`)).toEqual([
      'machine_id must be a machine id',
      "format must be 'csv'",
    ]);
    expect(await problems(`${byCategory}&category_id=`)).toEqual([
      "category_id must be a reject reason id or 'uncategorized'",
    ]);
    expect(await problems(`${rejects}&page=0`)).toEqual(['page must be 1 or more']);
  });

  it("tenancy: another company's machine or shift is 404; its rejects are never listed", async () => {
    const p = await plant();
    const other = await aTenantWithMachine(h);
    const theirShift = await aShift(h.t.db, other.company);
    const c = other.cookie;
    for (const path of [
      `/api/partadjustment/rejects?${RANGE}&machine_id=${p.lathe1}`,
      `/api/partadjustment/allRejectsByCategory?${RANGE}&machine_id=${p.lathe1}`,
      `/api/partadjustment/rejects?${RANGE}&machine_id=${p.lathe1}&format=csv`,
    ]) {
      const res = await h.get(path, c);
      expect(res.status, path).toBe(404);
      expect((await errorOf(res)).message).toBe('Machine not found.');
    }
    for (const path of [
      `/api/partadjustment/rejects?${RANGE}&shifts=${p.day}`,
      `/api/partadjustment/allRejectsByCategory?${RANGE}&shifts=${theirShift},${p.day}`,
    ]) {
      const res = await h.get(path, c);
      expect(res.status, path).toBe(404);
      expect((await errorOf(res)).message).toBe('Shift not found.');
    }
    // The owner cannot use the other company's shift either.
    expect((await h.get(`/api/partadjustment/rejects?${RANGE}&shifts=${theirShift}`, p.cookie)).status).toBe(
      404,
    );
    expect(await list('&category_id=uncategorized', c)).toMatchObject({ rows: [], count: 0 });
    expect(await totals('&category_id=uncategorized', c)).toEqual([]);
    const csv = await h.get(`/api/partadjustment/rejects?${RANGE}&format=csv`, c);
    expect(await csv.text()).toBe('Time,Machine,Reason,Count,Type,Operation,Message\r\n');
  });
});
