import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { DIALECTS } from '@takt/db/testing';
import { apiHarness } from '../testing/app';
import type { ApiHarness } from '../testing/app';
import { aCompany, aGroup, aMachine, aUser } from '../testing/builders';
import {
  aDowntimeReason,
  anAnnotation,
  aRejectReason,
  HOUR,
  MIN,
  someStates,
} from '../testing/downtime-builders';
import { errorOf } from '../testing/live-builders';
import { aRejectRow } from '../testing/report-plant';

// The remaining report calls (reports-admin §7, decision 1096): GET /api/reports/faults and /timelinelist,
// POST /api/reports/warehouse/downtime and /quality. Their figures are the existing reports' (the Downtime
// report's totals, the rejects by reason), checked against those calls; validation, ranges and tenancy, on
// both dialects.

/** Monday 2025-11-17 00:00 UTC; the harness clock stands on the following Saturday. */
const D = Date.parse('2025-11-17T00:00:00Z');
const DAY = 24 * HOUR;

interface Item {
  machineId?: string;
  rejectCount?: number;
  reasonId: string;
  reason: { id: string; name: string; color: string };
  downtimeMs: number;
  recordCount: number;
}
interface Warehouse {
  range: { start: number; end: number };
  items: Item[];
  entities: {
    machines: Record<string, { id: string; name: string }>;
    reasons: Record<string, { id: string; name: string; color: string }>;
  };
}

describe.each(DIALECTS)('remaining report calls on %s', (dialect) => {
  let h: ApiHarness;
  beforeEach(async () => {
    h = await apiHarness(dialect);
  });
  afterEach(async () => {
    await h.close();
  });

  /**
   * M1 (in a group): Tooling 1 h at 01:00, 30 min uncategorized fault at 03:00 (a fault row with it).
   * M2: Break (planned) 1 h at 00:00 and Tooling 30 min at 02:00. In cycle otherwise until 04:00.
   */
  async function plant() {
    const company = await aCompany(h.t.db, { timezone: 'UTC' });
    const user = await aUser(h.t.db, company);
    const cookie = await h.login(user.email, user.password);
    const group = await aGroup(h.t.db, company, 'Cell 2');
    const m1 = await aMachine(h.t.db, company, { name: 'M1', groupIds: [group], sortOrder: 1 });
    const m2 = await aMachine(h.t.db, company, { name: 'M2', sortOrder: 2 });
    await someStates(h.t.db, company, m1, [
      [D, D + HOUR, 'ACTIVE'],
      [D + HOUR, D + 2 * HOUR, 'INACTIVE'],
      [D + 2 * HOUR, D + 3 * HOUR, 'ACTIVE'],
      [D + 3 * HOUR, D + 3 * HOUR + 30 * MIN, 'FAULT'],
      [D + 3 * HOUR + 30 * MIN, D + 4 * HOUR, 'ACTIVE'],
    ]);
    await someStates(h.t.db, company, m2, [
      [D, D + HOUR, 'INACTIVE'],
      [D + HOUR, D + 2 * HOUR, 'ACTIVE'],
      [D + 2 * HOUR, D + 2 * HOUR + 30 * MIN, 'INACTIVE'],
      [D + 2 * HOUR + 30 * MIN, D + 4 * HOUR, 'ACTIVE'],
    ]);
    const tooling = await aDowntimeReason(h.t.db, company, {
      name: 'Tooling',
      plannedBehavior: 'unplanned',
    });
    const brk = await aDowntimeReason(h.t.db, company, { name: 'Break', plannedBehavior: 'planned' });
    await anAnnotation(h.t.db, company, { machineId: m1, start: D + HOUR, typeId: tooling.id });
    await anAnnotation(h.t.db, company, { machineId: m2, start: D, typeId: brk.id });
    await anAnnotation(h.t.db, company, { machineId: m2, start: D + 2 * HOUR, typeId: tooling.id });
    await h.t.db
      .insertInto('faults')
      .values({
        company_id: company.id,
        machine_id: m1,
        item: 'system',
        start_at: D + 3 * HOUR,
        end_at: D + 3 * HOUR + 30 * MIN,
        value: 'Spindle overload',
        nativecode: 'E42',
        type: 'FAULT',
      })
      .execute();
    return { company, cookie, group, m1, m2, tooling, brk };
  }

  const post = async <T = Warehouse>(path: string, cookie: string, body: unknown, status = 200) => {
    const res = await h.send('POST', path, cookie, body);
    expect(res.status, await res.clone().text()).toBe(status);
    return (await res.json()) as T;
  };
  const get = async <T>(path: string, cookie: string, status = 200) => {
    const res = await h.get(path, cookie);
    expect(res.status, await res.clone().text()).toBe(status);
    return (await res.json()) as T;
  };
  const range = { start: D, end: D + 4 * HOUR };

  it('warehouse downtime by reason equals the Downtime report for the same range and filter', async () => {
    const { cookie, group, m1, tooling, brk } = await plant();
    const byReason = await post('/api/reports/warehouse/downtime', cookie, range);
    expect(byReason.items.map((i) => [i.reason.name, i.downtimeMs, i.recordCount])).toEqual([
      ['Tooling', 90 * MIN, 2],
      ['Break', HOUR, 1],
      ['Uncategorized', 30 * MIN, 1],
    ]);
    expect(byReason.items[0]!.reason).toEqual({ id: tooling.id, name: 'Tooling', color: tooling.color });
    expect(byReason.entities.reasons[brk.id]).toEqual({ id: brk.id, name: 'Break', color: brk.color });
    for (const filter of [{}, { machine: m1 }, { machineGroup: group }]) {
      const q = new URLSearchParams({ start: String(D), end: String(D + 4 * HOUR) });
      if ('machine' in filter) q.set('machineId', filter.machine!);
      if ('machineGroup' in filter) q.set('group', filter.machineGroup!);
      const report = await get<{
        summary: { count: number; duration: number };
        data: Array<{ reasonId: string; count: number; duration: number }>;
      }>(`/api/reports/downtime?${q.toString()}`, cookie);
      const wh = await post('/api/reports/warehouse/downtime', cookie, { ...range, filter });
      expect(wh.items.reduce((t, i) => t + i.downtimeMs, 0)).toBe(report.summary.duration);
      expect(wh.items.reduce((t, i) => t + i.recordCount, 0)).toBe(report.summary.count);
      expect(wh.items.map((i) => [i.reasonId, i.downtimeMs, i.recordCount]).sort()).toEqual(
        report.data.map((d) => [d.reasonId, d.duration, d.count]).sort(),
      );
    }
  });

  it('warehouse downtime by machine: each machine’s reasons, the machines named in entities', async () => {
    const { cookie, m1, m2, tooling } = await plant();
    const r = await post('/api/reports/warehouse/downtime', cookie, { ...range, groupBy: 'machine' });
    expect(r.items.map((i) => [i.machineId, i.reason.name, i.downtimeMs]).sort()).toEqual(
      [
        [m1, 'Tooling', HOUR],
        [m1, 'Uncategorized', 30 * MIN],
        [m2, 'Break', HOUR],
        [m2, 'Tooling', 30 * MIN],
      ].sort(),
    );
    expect(r.entities.machines).toEqual({ [m1]: { id: m1, name: 'M1' }, [m2]: { id: m2, name: 'M2' } });
    expect(r.entities.reasons[tooling.id]!.name).toBe('Tooling');
  });

  it('warehouse downtime takes ranges past the report’s 31 days, up to two years', async () => {
    const { cookie } = await plant();
    // Nothing before the machines' monitored life (D) is downtime; after 04:00 they have no data.
    const end = D + 4 * HOUR;
    const long = await post('/api/reports/warehouse/downtime', cookie, { start: D - 60 * DAY, end });
    expect(long.items.reduce((t, i) => t + i.downtimeMs, 0)).toBe(3 * HOUR);
    expect((await h.get(`/api/reports/downtime?start=${D - 60 * DAY}&end=${end}`, cookie)).status).toBe(400);
    const res = await h.send('POST', '/api/reports/warehouse/downtime', cookie, {
      start: D - 800 * DAY,
      end: D,
    });
    expect(res.status).toBe(400);
  });

  it('warehouse quality: rejects by reason, the same counts as the rejects by category', async () => {
    const { company, cookie, m1, m2 } = await plant();
    const chips = await aRejectReason(h.t.db, company, { name: 'Chips', color: '#aa0000' });
    const burr = await aRejectReason(h.t.db, company, { name: 'Burr' });
    const rows = [
      aRejectRow(m1, D + HOUR, { typeId: chips.id, scrapcount: 3 }),
      aRejectRow(m2, D + 2 * HOUR, { typeId: chips.id, scrapcount: 2 }),
      aRejectRow(m2, D + 3 * HOUR, { typeId: burr.id, scrapcount: 4 }),
      // Outside the range.
      aRejectRow(m1, D + 5 * HOUR, { typeId: burr.id, scrapcount: 9 }),
    ];
    await h.t.db
      .insertInto('part_adjustments')
      .values(rows.map((r) => ({ ...r, company_id: company.id })))
      .execute();
    const r = await post<Warehouse & { items: Array<Item & { rejectCount: number }> }>(
      '/api/reports/warehouse/quality',
      cookie,
      range,
    );
    expect(r.items.map((i) => [i.reason.name, i.reason.color, i.rejectCount])).toEqual([
      ['Chips', '#aa0000', 5],
      ['Burr', burr.color, 4],
    ]);
    const same = await get<{ rejects: Array<{ scrapCount: number; category_id: string }> }>(
      `/api/partadjustment/allRejectsByCategory?start=${D}&end=${D + 4 * HOUR}`,
      cookie,
    );
    expect(same.rejects.map((x) => [x.category_id, x.scrapCount])).toEqual(
      r.items.map((i) => [i.reasonId, i.rejectCount]),
    );
    const byMachine = await post<Warehouse & { items: Array<Item & { rejectCount: number }> }>(
      '/api/reports/warehouse/quality',
      cookie,
      { ...range, groupBy: 'machine', filter: { machine: m2 } },
    );
    expect(byMachine.items.map((i) => [i.machineId, i.reason.name, i.rejectCount]).sort()).toEqual(
      [
        [m2, 'Burr', 4],
        [m2, 'Chips', 2],
      ].sort(),
    );
    expect(Object.keys(byMachine.entities.machines)).toEqual([m2]);
  });

  it('faults: one machine’s faults in the range, as the timeline’s fault lane', async () => {
    const { cookie, m1, m2 } = await plant();
    const q = `start=${D}&end=${D + 4 * HOUR}`;
    const r = await get<{ faults: unknown[] }>(`/api/reports/faults?machineId=${m1}&${q}`, cookie);
    expect(r.faults).toEqual([
      {
        start: D + 3 * HOUR,
        end: D + 3 * HOUR + 30 * MIN,
        duration: 30 * MIN,
        value: 'Spindle overload',
        nativecode: 'E42',
        type: 'FAULT',
      },
    ]);
    const timeline = await get<{ faults: unknown[] }>(`/api/reports/operation?machineId=${m1}&${q}`, cookie);
    expect(r.faults).toEqual(timeline.faults);
    expect(
      (await get<{ faults: unknown[] }>(`/api/reports/faults?machineId=${m2}&${q}`, cookie)).faults,
    ).toEqual([]);
    // Before D + 3 h: none.
    const before = await get<{ faults: unknown[] }>(
      `/api/reports/faults?machineId=${m1}&start=${D}&end=${D + 3 * HOUR}`,
      cookie,
    );
    expect(before.faults).toEqual([]);
  });

  it('timeline list: one machine’s downtime rows for at most one day', async () => {
    const { cookie, m2 } = await plant();
    const r = await get<{
      items: Array<{ start: number; duration: number; reason: string; planned: boolean }>;
    }>(`/api/reports/timelinelist?machineId=${m2}&start=${D}&end=${D + 4 * HOUR}`, cookie);
    expect(r.items.map((i) => [i.start, i.duration, i.reason, i.planned])).toEqual([
      [D, HOUR, 'Break', true],
      [D + 2 * HOUR, 30 * MIN, 'Tooling', false],
    ]);
    const res = await h.get(
      `/api/reports/timelinelist?machineId=${m2}&start=${D}&end=${D + DAY + HOUR}`,
      cookie,
    );
    expect(res.status).toBe(400);
    expect((await errorOf(res)).message).toBe('Select up to 1 day');
  });

  it('bad input answers 400 in the spec’s words', async () => {
    const { cookie, m1 } = await plant();
    const send = (body: unknown) => h.send('POST', '/api/reports/warehouse/downtime', cookie, body);
    const backwards = await send({ start: D + HOUR, end: D });
    expect(backwards.status).toBe(400);
    expect(JSON.stringify(await errorOf(backwards))).toContain('Start Date must be before End Date');
    const badGroup = await send({ ...range, groupBy: 'shift' });
    expect(badGroup.status).toBe(400);
    expect(JSON.stringify(await errorOf(badGroup))).toContain('groupBy must be machine or reason.');
    expect((await send({ ...range, extra: 1 })).status).toBe(400);
    expect((await send({ ...range, filter: { machines: [m1] } })).status).toBe(400);
    expect((await h.send('POST', '/api/reports/warehouse/quality', cookie, { start: D })).status).toBe(400);
    expect((await h.get(`/api/reports/faults?start=${D}&end=${D + HOUR}`, cookie)).status).toBe(400);
  });

  it('another company’s machine or group answers 404; its figures never show', async () => {
    const mine = await plant();
    const theirs = await plant();
    const q = `start=${D}&end=${D + 4 * HOUR}`;
    for (const path of ['faults', 'timelinelist'])
      expect((await h.get(`/api/reports/${path}?machineId=${theirs.m1}&${q}`, mine.cookie)).status).toBe(404);
    for (const call of ['downtime', 'quality']) {
      const path = `/api/reports/warehouse/${call}`;
      expect(
        (await h.send('POST', path, mine.cookie, { ...range, filter: { machine: theirs.m1 } })).status,
      ).toBe(404);
      expect(
        (await h.send('POST', path, mine.cookie, { ...range, filter: { machineGroup: theirs.group } }))
          .status,
      ).toBe(404);
    }
    const all = await post('/api/reports/warehouse/downtime', mine.cookie, { ...range, groupBy: 'machine' });
    expect(Object.keys(all.entities.machines).sort()).toEqual([mine.m1, mine.m2].sort());
    expect(all.entities.reasons[theirs.tooling.id]).toBeUndefined();
  });
});
