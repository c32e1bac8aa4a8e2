import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { operatorRunSchema } from '@takt/domain';
import type { ApiHarness } from '../testing/app';
import { apiHarness } from '../testing/app';
import { aCompany, aMachine } from '../testing/builders';
import { DIALECTS } from '@takt/db/testing';
import { anOperator, anOperatorRun, errorOf, issueFields, loginAs } from '../testing/live-builders';

// The operator runs screen's calls (live-operations §2, decision 1091): list by range, machine and operator;
// correct a run's start and end; end an open run. Admins change runs; another company's runs are not found.

const runs = z.array(operatorRunSchema);
const HOUR = 3_600_000;

describe.each(DIALECTS)('operator runs screen calls on %s', (dialect) => {
  let h: ApiHarness;
  beforeEach(async () => {
    h = await apiHarness(dialect);
  });
  afterEach(async () => {
    await h.close();
  });

  /** A machine with Ann's run (T-5h to T-4h) and Bob's open run (from T-2h), and another machine with Ann's. */
  async function plant() {
    const tenant = await h.tenant();
    const { company } = tenant;
    const T = h.clock.now;
    const press = await aMachine(h.t.db, company, { name: 'Press' });
    const lathe = await aMachine(h.t.db, company, { name: 'Lathe' });
    const ann = await anOperator(h.t.db, company, { name: 'Ann' });
    const bob = await anOperator(h.t.db, company, { name: 'Bob' });
    const annPress = await anOperatorRun(h.t.db, company, {
      machineId: press,
      operatorId: ann,
      startAt: T - 5 * HOUR,
      endAt: T - 4 * HOUR,
    });
    const bobPress = await anOperatorRun(h.t.db, company, {
      machineId: press,
      operatorId: bob,
      startAt: T - 2 * HOUR,
    });
    const annLathe = await anOperatorRun(h.t.db, company, {
      machineId: lathe,
      operatorId: ann,
      startAt: T - 3 * HOUR,
      endAt: T - HOUR,
    });
    return { ...tenant, T, press, lathe, ann, bob, annPress, bobPress, annLathe };
  }

  const list = async (cookie: string, query: string) => {
    const res = await h.get(`/api/operatorruns/list?${query}`, cookie);
    expect(res.status, await res.clone().text()).toBe(200);
    return runs.parse(await res.json());
  };
  const correct = (cookie: string, id: string, body: unknown) =>
    h.send('PUT', `/api/operatorruns/${id}`, cookie, body);
  const end = (cookie: string, id: string, body?: unknown) =>
    h.send('POST', `/api/operatorruns/${id}/end`, cookie, body);

  it('lists the runs overlapping a range, newest first, filtered by machine and by operator', async () => {
    const p = await plant();
    const day = `startAt=${p.T - 24 * HOUR}&endAt=${p.T}`;
    expect((await list(p.cookie, day)).map((r) => [r.operator.name, r.machineId, r.endAt])).toEqual([
      ['Bob', p.press, null],
      ['Ann', p.lathe, p.T - HOUR],
      ['Ann', p.press, p.T - 4 * HOUR],
    ]);
    expect((await list(p.cookie, `${day}&machineId=${p.press}`)).map((r) => r.id)).toEqual([
      p.bobPress,
      p.annPress,
    ]);
    expect((await list(p.cookie, `${day}&operatorId=${p.ann}`)).map((r) => r.id)).toEqual([
      p.annLathe,
      p.annPress,
    ]);
    expect(
      (await list(p.cookie, `${day}&operatorId=${p.ann}&machineId=${p.lathe}`)).map((r) => r.id),
    ).toEqual([p.annLathe]);
    // A range that only touches a run's end leaves it out; the open run reaches into any later range.
    expect(
      (await list(p.cookie, `startAt=${p.T - 4 * HOUR}&endAt=${p.T - 3 * HOUR}`)).map((r) => r.id),
    ).toEqual([]);
    expect((await list(p.cookie, `startAt=${p.T - 30 * 60_000}&endAt=${p.T}`)).map((r) => r.id)).toEqual([
      p.bobPress,
    ]);
  });

  it("corrects a run's start and end, keeps an open run open, and ends a run by correcting it", async () => {
    const p = await plant();
    const moved = await correct(p.cookie, p.annPress, { startAt: p.T - 6 * HOUR, endAt: p.T - 2 * HOUR });
    expect(moved.status, await moved.clone().text()).toBe(200);
    expect(operatorRunSchema.parse(await moved.json())).toMatchObject({
      id: p.annPress,
      startAt: p.T - 6 * HOUR,
      endAt: p.T - 2 * HOUR,
      operator: { name: 'Ann' },
    });
    const open = await correct(p.cookie, p.bobPress, { startAt: p.T - 90 * 60_000, endAt: null });
    expect(operatorRunSchema.parse(await open.json())).toMatchObject({
      startAt: p.T - 90 * 60_000,
      endAt: null,
    });
    const ended = await correct(p.cookie, p.bobPress, { startAt: p.T - 90 * 60_000, endAt: p.T - HOUR });
    expect(operatorRunSchema.parse(await ended.json()).endAt).toBe(p.T - HOUR);
    expect(
      (await list(p.cookie, `startAt=${p.T - 24 * HOUR}&endAt=${p.T}&machineId=${p.press}`)).map((r) => [
        r.startAt,
        r.endAt,
      ]),
    ).toEqual([
      [p.T - 90 * 60_000, p.T - HOUR],
      [p.T - 6 * HOUR, p.T - 2 * HOUR],
    ]);
  });

  it('refuses a correction that overlaps another run of the machine (any operator), not one on another machine', async () => {
    const p = await plant();
    const into = await correct(p.cookie, p.annPress, { startAt: p.T - 5 * HOUR, endAt: p.T - HOUR });
    expect(into.status).toBe(409);
    expect(await errorOf(into)).toMatchObject({
      code: 'OPERATOR_RUNS_OVERLAP',
      message: 'That time overlaps the run of Bob on this machine.',
    });
    const back = await correct(p.cookie, p.bobPress, { startAt: p.T - 4.5 * HOUR, endAt: null });
    expect(back.status).toBe(409);
    expect((await errorOf(back)).message).toBe('That time overlaps the run of Ann on this machine.');
    // Ann on the lathe at the same time as on the press is a different machine: allowed.
    const lathe = await correct(p.cookie, p.annLathe, { startAt: p.T - 5 * HOUR, endAt: p.T - HOUR });
    expect(lathe.status).toBe(200);
    // Touching is not overlapping: Ann's press run may end where Bob's starts.
    expect(
      (await correct(p.cookie, p.annPress, { startAt: p.T - 5 * HOUR, endAt: p.T - 2 * HOUR })).status,
    ).toBe(200);
  });

  it('answers 400 in the spec words for an end not after the start, a future time, a missing end or unknown fields', async () => {
    const p = await plant();
    const backwards = await correct(p.cookie, p.annPress, { startAt: p.T - 4 * HOUR, endAt: p.T - 5 * HOUR });
    expect(backwards.status).toBe(400);
    expect((await errorOf(backwards)).issues).toEqual([
      expect.objectContaining({ field: 'endAt', message: 'Start Date must be before End Date' }),
    ]);
    const future = await correct(p.cookie, p.bobPress, { startAt: p.T - HOUR, endAt: p.T + HOUR });
    expect(future.status).toBe(400);
    expect((await errorOf(future)).issues).toEqual([
      expect.objectContaining({ field: 'endAt', message: 'endAt must not be after now' }),
    ]);
    const reopened = await correct(p.cookie, p.annPress, { startAt: p.T - 5 * HOUR, endAt: null });
    expect(reopened.status).toBe(400);
    expect((await errorOf(reopened)).message).toBe('This run has ended: End Date is required');
    const extra = await correct(p.cookie, p.annPress, {
      startAt: p.T - 5 * HOUR,
      endAt: p.T - 4 * HOUR,
      machineId: p.lathe,
    });
    expect(extra.status).toBe(400);
    expect(issueFields(await errorOf(await correct(p.cookie, p.annPress, { startAt: 'soon' })))).toEqual([
      'endAt',
      'startAt',
    ]);
    const query = await h.get(`/api/operatorruns/list?startAt=${p.T}&endAt=${p.T}`, p.cookie);
    expect(query.status).toBe(400);
    expect((await errorOf(query)).issues?.[0]).toMatchObject({
      field: 'endAt',
      message: 'Start Date must be before End Date',
    });
    expect(issueFields(await errorOf(await h.get('/api/operatorruns/list', p.cookie)))).toEqual([
      'endAt',
      'startAt',
    ]);
  });

  it('ends an open run now or at a given time; a finished run cannot be ended again', async () => {
    const p = await plant();
    const early = await end(p.cookie, p.bobPress, { endAt: p.T - 3 * HOUR });
    expect(early.status).toBe(400);
    expect((await errorOf(early)).message).toBe('Start Date must be before End Date');
    const res = await end(p.cookie, p.bobPress);
    expect(res.status, await res.clone().text()).toBe(200);
    expect(operatorRunSchema.parse(await res.json())).toMatchObject({ id: p.bobPress, endAt: p.T });
    const again = await end(p.cookie, p.bobPress);
    expect(again.status).toBe(409);
    expect((await errorOf(again)).message).toBe('This operator run has already ended.');

    const cara = await anOperator(h.t.db, p.company, { name: 'Cara' });
    const open = await anOperatorRun(h.t.db, p.company, {
      machineId: p.lathe,
      operatorId: cara,
      startAt: p.T - 30 * 60_000,
    });
    const at = await end(p.cookie, open, { endAt: p.T - 10 * 60_000 });
    expect(operatorRunSchema.parse(await at.json()).endAt).toBe(p.T - 10 * 60_000);
  });

  it('lets FullProduct users list runs, only admins change them; not without FullProduct', async () => {
    const p = await plant();
    for (const role of ['manager', 'operator'] as const) {
      const cookie = await loginAs(h, p.company, role);
      expect((await list(cookie, `startAt=${p.T - HOUR}&endAt=${p.T}`)).map((r) => r.id)).toEqual([
        p.bobPress,
      ]);
      expect(
        (await correct(cookie, p.annPress, { startAt: p.T - 5 * HOUR, endAt: p.T - 4 * HOUR })).status,
      ).toBe(403);
      expect((await end(cookie, p.bobPress)).status).toBe(403);
    }
    const small = await aCompany(h.t.db, { productTier: 'utilization' });
    const admin = await loginAs(h, small, 'admin');
    expect((await h.get(`/api/operatorruns/list?startAt=${p.T - HOUR}&endAt=${p.T}`, admin)).status).toBe(
      403,
    );
    expect((await end(admin, p.bobPress)).status).toBe(403);
    const unchanged = await list(p.cookie, `startAt=${p.T - 24 * HOUR}&endAt=${p.T}&machineId=${p.press}`);
    expect(unchanged.map((r) => [r.startAt, r.endAt])).toEqual([
      [p.T - 2 * HOUR, null],
      [p.T - 5 * HOUR, p.T - 4 * HOUR],
    ]);
  });

  it("answers 404 for another company's run, machine or operator, never lists its runs and leaves them alone", async () => {
    const mine = await plant();
    const theirs = await plant();
    const range = `startAt=${mine.T - 24 * HOUR}&endAt=${mine.T}`;
    expect((await list(mine.cookie, range)).map((r) => r.id).sort()).toEqual(
      [mine.annPress, mine.bobPress, mine.annLathe].sort(),
    );
    expect(
      (await correct(mine.cookie, theirs.annPress, { startAt: mine.T - 9 * HOUR, endAt: mine.T - 8 * HOUR }))
        .status,
    ).toBe(404);
    expect((await end(mine.cookie, theirs.bobPress)).status).toBe(404);
    expect(
      (await h.get(`/api/operatorruns/list?${range}&machineId=${theirs.press}`, mine.cookie)).status,
    ).toBe(404);
    expect(
      (await h.get(`/api/operatorruns/list?${range}&operatorId=${theirs.ann}`, mine.cookie)).status,
    ).toBe(404);
    const left = await list(theirs.cookie, `${range}&machineId=${theirs.press}`);
    expect(left.map((r) => [r.startAt, r.endAt])).toEqual([
      [theirs.T - 2 * HOUR, null],
      [theirs.T - 5 * HOUR, theirs.T - 4 * HOUR],
    ]);
  });
});
