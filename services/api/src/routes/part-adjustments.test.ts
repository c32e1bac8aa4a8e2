import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { partAdjustmentSchema } from '@takt/domain';
import { apiHarness } from '../testing/app';
import type { ApiHarness } from '../testing/app';
import { aGroup, aMachine } from '../testing/builders';
import { DIALECTS } from '@takt/db/testing';
import { companyScope } from '@takt/db';
import type { Company } from '../repositories/company';
import {
  aJobRun,
  aManualWorkcenter,
  aRejectReason,
  aTenantWithMachine,
  HOUR,
  MIN,
} from '../testing/downtime-builders';

// 2025-11-22 02:26:40 in America/Chicago (the builders' company zone): today ends 2025-11-23 00:00 CST.
const END_OF_TODAY = Date.UTC(2025, 10, 23, 6, 0, 0);

describe.each(DIALECTS)('part adjustment routes on %s', (dialect) => {
  let h: ApiHarness;
  let T: number;
  beforeEach(async () => {
    h = await apiHarness(dialect);
    T = h.clock.now;
  });
  afterEach(async () => {
    await h.close();
  });

  /**
   * Parts the machine counted today (one cycle early in the company day, one a minute before T): rejects never
   * take more than were made (METRICS.md §3, decision 0997).
   */
  async function madeParts(company: Company, machineId: string, count = 50) {
    await companyScope(h.t.db, company.id)
      .insertInto(
        'cycles',
        [T - 2 * HOUR - 10 * MIN, T - MIN].map((end) => ({
          machine_id: machineId,
          start_at: end - MIN,
          end_at: end,
          duration: MIN,
          count,
          source: 'part_count',
          setup: 0,
        })),
      )
      .execute();
  }

  async function shop() {
    const me = await aTenantWithMachine(h, { machine: { name: 'Lathe 1' } });
    await madeParts(me.company, me.machineId);
    const scrap = await aRejectReason(h.t.db, me.company, {
      name: 'Oversize',
      reject_behavior: 'scrap',
      color: '#aa0000',
    });
    const nonconform = await aRejectReason(h.t.db, me.company, {
      name: 'Scratch',
      reject_behavior: 'nonconform',
    });
    const operator = await aRejectReason(h.t.db, me.company, {
      name: 'Judgement',
      reject_behavior: 'operator',
    });
    const notScrap = await aRejectReason(h.t.db, me.company, { name: 'Recount', scrap: false });
    return { ...me, scrap, nonconform, operator, notScrap };
  }
  const reject = (cookie: string, body: Record<string, unknown>) =>
    h.send('POST', '/api/partadjustment', cookie, { scrap: true, adjustmenttime: T, ...body });
  const errorOf = async (res: Response) =>
    (await res.json()).error as {
      code: string;
      message: string;
      issues: { field: string; message: string }[];
    };

  it('rejects parts: "remove from good parts" defaults to on, so the count is 0', async () => {
    const s = await shop();
    const jobName = await aJobRun(h.t.db, s.company, s.machineId, { start: T - HOUR, jobName: 'Flange 12' });
    const res = await reject(s.cookie, {
      machine_id: s.machineId,
      category_id: s.scrap.id,
      scrapcount: 3,
      message: 'burr',
    });
    expect(res.status).toBe(201);
    const p = partAdjustmentSchema.parse(await res.json());
    expect(p).toMatchObject({
      adjustmenttime: T,
      machine_id: s.machineId,
      machine_name: 'Lathe 1',
      category_id: s.scrap.id,
      partadjustmentType: { name: 'Oversize', color: '#aa0000' },
      scrapcount: 3,
      count: 0,
      message: 'burr',
      scrap: true,
      jobName,
      deductFromGoodParts: true,
      reject_behavior: 'scrap',
    });
    const kept = await reject(s.cookie, {
      machine_id: s.machineId,
      category_id: s.nonconform.id,
      scrapcount: 2,
      deductFromGoodParts: false,
    });
    expect(await kept.json()).toMatchObject({
      count: 2,
      scrapcount: 2,
      reject_behavior: 'nonconform',
      deductFromGoodParts: false,
    });
  });

  it('lets the operator choose scrap or non-conforming only when the reason says operator', async () => {
    const s = await shop();
    const chosen = await reject(s.cookie, {
      machine_id: s.machineId,
      category_id: s.operator.id,
      scrapcount: 1,
      reject_behavior: 'nonconform',
    });
    expect(await chosen.json()).toMatchObject({ reject_behavior: 'nonconform' });
    const unset = await reject(s.cookie, {
      machine_id: s.machineId,
      category_id: s.operator.id,
      scrapcount: 1,
    });
    expect(await unset.json()).toMatchObject({ reject_behavior: 'scrap' });
    const fromReason = await reject(s.cookie, {
      machine_id: s.machineId,
      category_id: s.scrap.id,
      scrapcount: 1,
      reject_behavior: 'scrap',
    });
    expect(fromReason.status).toBe(201);
    const mismatch = await reject(s.cookie, {
      machine_id: s.machineId,
      category_id: s.scrap.id,
      scrapcount: 1,
      reject_behavior: 'nonconform',
    });
    expect(mismatch.status).toBe(400);
    expect(await errorOf(mismatch)).toMatchObject({
      message: 'Parts could not be rejected.',
      issues: [{ field: 'reject_behavior', message: 'This reason always rejects as Scrap.' }],
    });
    const other = await reject(s.cookie, {
      machine_id: s.machineId,
      category_id: s.nonconform.id,
      scrapcount: 1,
      reject_behavior: 'scrap',
    });
    expect((await errorOf(other)).issues[0]!.message).toBe('This reason always rejects as Non-Conforming.');
  });

  it('refuses bad rejects with "Parts could not be rejected." and the reasons', async () => {
    const s = await shop();
    const m = s.machineId;
    const cases: Array<[Record<string, unknown>, string[]]> = [
      [{ machine_id: m, category_id: s.scrap.id, scrapcount: 0 }, ['Count must be at least 1']],
      [{ machine_id: m, category_id: s.scrap.id }, ['Count is required']],
      [{ machine_id: m, category_id: s.scrap.id, scrapcount: 'two' }, ['Count must be a number']],
      [{ machine_id: m, category_id: s.scrap.id, scrapcount: 1.5 }, ['Count must be a whole number']],
      [{ machine_id: m, scrapcount: 1 }, ['Select a reject reason.']],
      [
        { machine_id: m, category_id: s.notScrap.id, scrapcount: 1 },
        ['Only reasons flagged as scrap can be used to reject parts.'],
      ],
      [
        { machine_id: m, category_id: s.scrap.id, scrapcount: 2, count: 2 },
        ['count must be 0 when removed from good parts, else the scrap count'],
      ],
      [
        { machine_id: m, category_id: s.scrap.id, scrapcount: 1, message: 'x'.repeat(251) },
        ['At most 250 characters'],
      ],
      [
        { machine_id: m, category_id: s.scrap.id, scrapcount: 1, adjustmenttime: END_OF_TODAY },
        ['The adjustment time cannot be after the end of today.'],
      ],
    ];
    for (const [body, messages] of cases) {
      const res = await reject(s.cookie, body);
      expect(res.status, JSON.stringify(body)).toBe(400);
      const err = await errorOf(res);
      expect(err.message).toBe('Parts could not be rejected.');
      expect(
        err.issues.map((i) => i.message),
        JSON.stringify(body),
      ).toEqual(messages);
    }
    const lastMoment = await reject(s.cookie, {
      machine_id: m,
      category_id: s.scrap.id,
      scrapcount: 1,
      adjustmenttime: END_OF_TODAY - 1,
    });
    expect(lastMoment.status).toBe(201);
    const archived = await aRejectReason(h.t.db, s.company, { hidden: true });
    const res = await reject(s.cookie, { machine_id: m, category_id: archived.id, scrapcount: 1 });
    expect((await errorOf(res)).issues.map((i) => i.message)).toEqual(['This reject reason is archived.']);
    expect(
      await (
        await h.get(
          `/api/partadjustment?machine_id=${m}&start=${END_OF_TODAY - 7 * 86_400_000}&end=${END_OF_TODAY}`,
          s.cookie,
        )
      ).json(),
    ).toHaveLength(1);
  });

  it('skips "remove from good parts" on manual work centers (count 0)', async () => {
    const s = await shop();
    const bench = await aManualWorkcenter(h.t.db, s.company);
    await h.send('POST', '/api/partadjustment/manual', s.cookie, { machineId: bench, count: 4 });
    const res = await reject(s.cookie, {
      machine_id: bench,
      category_id: s.scrap.id,
      scrapcount: 4,
      deductFromGoodParts: false,
      count: 4,
    });
    expect(res.status).toBe(201);
    expect(await res.json()).toMatchObject({ scrapcount: 4, count: 0 });
  });

  it('stores part corrections as a signed count, never 0', async () => {
    const s = await shop();
    const res = await h.send('POST', '/api/partadjustment', s.cookie, {
      machine_id: s.machineId,
      adjustmenttime: T - MIN,
      scrap: false,
      count: -3,
      category_id: s.notScrap.id,
    });
    expect(res.status).toBe(201);
    expect(await res.json()).toMatchObject({
      count: -3,
      scrapcount: 0,
      scrap: false,
      reject_behavior: null,
      kind: 'correction',
    });
    const zero = await h.send('POST', '/api/partadjustment', s.cookie, {
      machine_id: s.machineId,
      scrap: false,
      count: 0,
    });
    expect(await errorOf(zero)).toMatchObject({
      message: 'Part adjustment could not be saved.',
      issues: [{ field: 'count', message: 'Count must be a whole number other than 0.' }],
    });
  });

  it("lists a machine's adjustments by range, rejects only with scrap=true, archived reasons with includeHidden", async () => {
    const s = await shop();
    const archivedLater = await aRejectReason(h.t.db, s.company, { name: 'Later archived' });
    await reject(s.cookie, {
      machine_id: s.machineId,
      category_id: s.scrap.id,
      scrapcount: 1,
      adjustmenttime: T - 2 * HOUR,
    });
    await reject(s.cookie, {
      machine_id: s.machineId,
      category_id: archivedLater.id,
      scrapcount: 1,
      adjustmenttime: T - HOUR,
    });
    await h.send('POST', '/api/partadjustment', s.cookie, {
      machine_id: s.machineId,
      scrap: false,
      count: 5,
      adjustmenttime: T - 30 * MIN,
    });
    await h.send('POST', `/api/partadjustmenttypes/${archivedLater.id}/archive`, s.cookie);
    const q = `/api/partadjustment?machine_id=${s.machineId}&start=${T - 3 * HOUR}&end=${T}`;
    const list = async (extra: string) =>
      (await (await h.get(q + extra, s.cookie)).json()) as Array<{ adjustmenttime: number; scrap: boolean }>;
    expect((await list('')).map((p) => p.adjustmenttime)).toEqual([T - 2 * HOUR, T - 30 * MIN]);
    expect((await list('&includeHidden=true')).map((p) => p.adjustmenttime)).toEqual([
      T - 2 * HOUR,
      T - HOUR,
      T - 30 * MIN,
    ]);
    expect((await list('&scrap=true')).map((p) => p.scrap)).toEqual([true]);
    expect((await list('&scrap=false')).map((p) => p.adjustmenttime)).toEqual([T - 30 * MIN]);
    const bad = await h.get(`/api/partadjustment?machine_id=${s.machineId}`, s.cookie);
    expect(bad.status).toBe(400);
    expect((await errorOf(bad)).issues.map((i) => i.field).sort()).toEqual(['end', 'start']);
  });

  it('updates a reject (its count follows the scrap count) and deletes it', async () => {
    const s = await shop();
    const created = await (
      await reject(s.cookie, {
        machine_id: s.machineId,
        category_id: s.scrap.id,
        scrapcount: 2,
        deductFromGoodParts: false,
      })
    ).json();
    const put = await h.send('PUT', `/api/partadjustment/${created.id}`, s.cookie, {
      scrapcount: 5,
      message: 'recounted',
    });
    expect(put.status).toBe(200);
    expect(await put.json()).toMatchObject({
      scrapcount: 5,
      count: 5,
      message: 'recounted',
      reject_behavior: 'scrap',
    });
    const toNonconform = await h.send('PUT', `/api/partadjustment/${created.id}`, s.cookie, {
      category_id: s.nonconform.id,
      deductFromGoodParts: true,
    });
    expect(await toNonconform.json()).toMatchObject({ count: 0, reject_behavior: 'nonconform' });
    const bad = await h.send('PUT', `/api/partadjustment/${created.id}`, s.cookie, { scrapcount: 0 });
    expect(await errorOf(bad)).toMatchObject({ message: 'Parts could not be rejected.' });
    const del = await h.send('DELETE', `/api/partadjustment/${created.id}`, s.cookie);
    expect(await del.json()).toEqual({ id: created.id, deleted: true });
    expect((await h.send('DELETE', `/api/partadjustment/${created.id}`, s.cookie)).status).toBe(404);
  });

  it('sums rejects by reason (and machine), largest first, also as CSV with a header row', async () => {
    const s = await shop();
    const group = await aGroup(h.t.db, s.company, 'Turning');
    const m2 = await aMachine(h.t.db, s.company, { name: 'Lathe 2', groupIds: [group] });
    await madeParts(s.company, m2);
    await reject(s.cookie, { machine_id: s.machineId, category_id: s.scrap.id, scrapcount: 2 });
    await reject(s.cookie, { machine_id: m2, category_id: s.scrap.id, scrapcount: 3 });
    await reject(s.cookie, {
      machine_id: m2,
      category_id: s.nonconform.id,
      scrapcount: 7,
      deductFromGoodParts: false,
    });
    await h.send('POST', '/api/partadjustment', s.cookie, { machine_id: m2, scrap: false, count: 50 });
    const range = `start=${T - HOUR}&end=${T + HOUR}`;
    const all = await (await h.get(`/api/partadjustment/allRejectsByCategory?${range}`, s.cookie)).json();
    expect(all.rejects).toEqual([
      {
        scrapCount: 7,
        partadjustmentType: { id: s.nonconform.id, name: 'Scratch', color: '#654321' },
        category_id: s.nonconform.id,
        machine: null,
      },
      {
        scrapCount: 5,
        partadjustmentType: { id: s.scrap.id, name: 'Oversize', color: '#aa0000' },
        category_id: s.scrap.id,
        machine: null,
      },
    ]);
    const byMachine = await (
      await h.get(
        `/api/partadjustment/allRejectsByCategory?${range}&groupByMachine=true&category_id=${s.scrap.id}`,
        s.cookie,
      )
    ).json();
    expect(
      byMachine.rejects.map((r: { scrapCount: number; machine: { name: string } }) => [
        r.scrapCount,
        r.machine.name,
      ]),
    ).toEqual([
      [3, 'Lathe 2'],
      [2, 'Lathe 1'],
    ]);
    const grouped = await (
      await h.get(`/api/partadjustment/allRejectsByCategory?${range}&group=${group}`, s.cookie)
    ).json();
    expect(grouped.rejects.map((r: { scrapCount: number }) => r.scrapCount)).toEqual([7, 3]);
    const csv = await h.get(
      `/api/partadjustment/allRejectsByCategory?${range}&groupByMachine=true&format=csv`,
      s.cookie,
    );
    expect(csv.headers.get('content-type')).toMatch(/^text\/csv/);
    expect((await csv.text()).split('\r\n')).toEqual([
      'Reason,Machine,Scrap Count',
      'Scratch,Lathe 2,7',
      'Oversize,Lathe 2,3',
      'Oversize,Lathe 1,2',
      '',
    ]);
    const backwards = await h.get(
      `/api/partadjustment/allRejectsByCategory?start=${T}&end=${T - 1}`,
      s.cookie,
    );
    expect((await errorOf(backwards)).issues.map((i) => i.message)).toEqual([
      'Start Date must be before End Date',
    ]);
  });

  it('pages the reject list by 25, newest first, with the total count', async () => {
    const s = await shop();
    for (let i = 0; i < 30; i++) {
      await reject(s.cookie, {
        machine_id: s.machineId,
        category_id: s.scrap.id,
        scrapcount: 1,
        adjustmenttime: T - i * MIN,
      });
    }
    await h.send('POST', '/api/partadjustment', s.cookie, {
      machine_id: s.machineId,
      scrap: false,
      count: 1,
    });
    const range = `start=${T - 2 * HOUR}&end=${T + 1}`;
    const first = await (
      await h.get(`/api/partadjustment/rejects?${range}&machine_id=${s.machineId}`, s.cookie)
    ).json();
    expect(first.count).toBe(30);
    expect(first.rows).toHaveLength(25);
    expect(first.rows[0].adjustmenttime).toBe(T);
    const second = await (await h.get(`/api/partadjustment/rejects?${range}&offset=25`, s.cookie)).json();
    expect(second.rows.map((r: { adjustmenttime: number }) => r.adjustmenttime)).toEqual(
      [25, 26, 27, 28, 29].map((i) => T - i * MIN),
    );
    const page2 = await (await h.get(`/api/partadjustment/rejects?${range}&page=2`, s.cookie)).json();
    expect(page2.rows).toEqual(second.rows);
    const none = await (
      await h.get(`/api/partadjustment/rejects?${range}&category_id=${s.nonconform.id}`, s.cookie)
    ).json();
    expect(none).toMatchObject({ rows: [], count: 0 });
  });

  it('adds parts by hand on manual work centers and undoes the last addition', async () => {
    const s = await shop();
    const bench = await aManualWorkcenter(h.t.db, s.company);
    const add = await h.send('POST', '/api/partadjustment/manual', s.cookie, { machineId: bench, count: 4 });
    expect(add.status).toBe(201);
    expect(await add.json()).toMatchObject({ count: 4, kind: 'manual', adjustmenttime: T });
    h.clock.now += 1000;
    const one = await (
      await h.send('POST', '/api/partadjustment/manual', s.cookie, { machineId: bench })
    ).json();
    expect(one.count).toBe(1);
    const undo = await h.send('POST', '/api/partadjustment/manual/undo', s.cookie, { machineId: bench });
    expect(await undo.json()).toEqual({ id: one.id, deleted: true });
    await h.send('POST', '/api/partadjustment/manual/undo', s.cookie, { machineId: bench });
    const nothing = await h.send('POST', '/api/partadjustment/manual/undo', s.cookie, { machineId: bench });
    expect(nothing.status).toBe(409);
    const notManual = await h.send('POST', '/api/partadjustment/manual', s.cookie, {
      machineId: s.machineId,
      count: 1,
    });
    expect((await errorOf(notManual)).issues.map((i) => i.message)).toEqual([
      'Parts can be added by hand only on manual work centers.',
    ]);
  });

  it('needs FullProduct to reject parts', async () => {
    const { company: util, cookie, machineId } = await aTenantWithMachine(h, { tier: 'utilization' });
    const reason = await aRejectReason(h.t.db, util);
    expect(
      (await reject(cookie, { machine_id: machineId, category_id: reason.id, scrapcount: 1 })).status,
    ).toBe(403);
  });

  it("never shows or changes another company's machines, reasons or adjustments (404)", async () => {
    const s = await shop();
    const created = await (
      await reject(s.cookie, { machine_id: s.machineId, category_id: s.scrap.id, scrapcount: 1 })
    ).json();
    const group = await aGroup(h.t.db, s.company);
    const other = await h.tenant();
    const myMachine = await aMachine(h.t.db, other.company);
    const myReason = await aRejectReason(h.t.db, other.company);
    const c = other.cookie;
    const status = async (p: Promise<Response>) => (await p).status;
    expect(
      await status(reject(c, { machine_id: s.machineId, category_id: myReason.id, scrapcount: 1 })),
    ).toBe(404);
    expect(await status(reject(c, { machine_id: myMachine, category_id: s.scrap.id, scrapcount: 1 }))).toBe(
      404,
    );
    expect(await status(h.send('PUT', `/api/partadjustment/${created.id}`, c, { scrapcount: 9 }))).toBe(404);
    expect(await status(h.send('DELETE', `/api/partadjustment/${created.id}`, c))).toBe(404);
    expect(
      await status(
        h.get(`/api/partadjustment?machine_id=${s.machineId}&start=${T - 86_400_000}&end=${T + 1}`, c),
      ),
    ).toBe(404);
    const range = `start=${T - 86_400_000}&end=${T + 1}`;
    expect(await status(h.get(`/api/partadjustment/rejects?${range}&machine_id=${s.machineId}`, c))).toBe(
      404,
    );
    expect(await status(h.get(`/api/partadjustment/allRejectsByCategory?${range}&group=${group}`, c))).toBe(
      404,
    );
    expect(
      await status(h.get(`/api/partadjustment/allRejectsByCategory?${range}&category_id=${s.scrap.id}`, c)),
    ).toBe(404);
    expect(await (await h.get(`/api/partadjustment/rejects?${range}`, c)).json()).toMatchObject({
      rows: [],
      count: 0,
    });
    expect(await (await h.get(`/api/partadjustment/allRejectsByCategory?${range}`, c)).json()).toEqual({
      rejects: [],
    });
    expect(await status(h.send('POST', '/api/partadjustment/manual', c, { machineId: s.machineId }))).toBe(
      404,
    );
    const row = await h.t.db
      .selectFrom('part_adjustments')
      .select('scrapcount')
      .where('id', '=', created.id)
      .executeTakeFirst();
    expect(row?.scrapcount).toBe(1);
  });
});
