import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { annotationSchema } from '@takt/domain';
import { apiHarness } from '../testing/app';
import type { ApiHarness } from '../testing/app';
import { aMachine } from '../testing/builders';
import { DIALECTS } from '@takt/db/testing';
import { aDowntimeReason, anAnnotation, aTenantWithMachine, HOUR, MIN } from '../testing/downtime-builders';

interface Changed {
  id: string;
  start: number;
  end: number | null;
  category_id: string | null;
  deleted: boolean;
}

describe.each(DIALECTS)('annotation routes on %s', (dialect) => {
  let h: ApiHarness;
  let T: number;
  beforeEach(async () => {
    h = await apiHarness(dialect);
    T = h.clock.now;
  });
  afterEach(async () => {
    await h.close();
  });

  /** Two closed downtime periods (1 h each) and a live one of 30 minutes. */
  const plant = () =>
    aTenantWithMachine(h, {
      states: [
        [T - 5 * HOUR, T - 4 * HOUR, 'INACTIVE'],
        [T - 4 * HOUR, T - 3 * HOUR, 'ACTIVE'],
        [T - 3 * HOUR, T - 2 * HOUR, 'FAULT'],
        [T - 2 * HOUR, T - 30 * MIN, 'ACTIVE'],
        [T - 30 * MIN, null, 'INACTIVE'],
      ],
    });
  const downtime = async (machineId: string, cookie: string) => {
    const res = await h.get(`/api/downtime?machineId=${machineId}`, cookie);
    return (await res.json()).items as Array<{
      start: number;
      end: number | null;
      reason: string | null;
      planned: boolean | null;
      message: string | null;
    }>;
  };
  const save = (cookie: string, body: unknown) => h.send('POST', '/api/annotations', cookie, body);
  const errorOf = async (res: Response) =>
    (await res.json()).error as {
      code: string;
      message: string;
      issues?: { field: string; message: string }[];
    };

  it('categorizes the live downtime; end stays null when not explicitly set', async () => {
    const { company, cookie, machineId } = await plant();
    const reason = await aDowntimeReason(h.t.db, company, { name: 'Waiting', plannedBehavior: 'unplanned' });
    const res = await save(cookie, {
      machineId,
      start: T - 30 * MIN,
      category_id: reason.id,
      message: 'no bar',
    });
    expect(res.status).toBe(201);
    const a = annotationSchema.parse(await res.json());
    expect(a).toMatchObject({ end: null, category_id: reason.id, planned: false, needstermination: true });
    const live = (await downtime(machineId, cookie)).at(-1)!;
    expect(live).toMatchObject({ start: T - 30 * MIN, end: null, reason: 'Waiting', message: 'no bar' });
  });

  it('stores the planned value of METRICS §5 for every plannedBehavior', async () => {
    const { company, cookie, machineId } = await plant();
    const planned = await aDowntimeReason(h.t.db, company, { plannedBehavior: 'planned' });
    const unplanned = await aDowntimeReason(h.t.db, company, { plannedBehavior: 'unplanned' });
    const operator = await aDowntimeReason(h.t.db, company, { plannedBehavior: 'operator' });
    const limited = await aDowntimeReason(h.t.db, company, { plannedBehavior: 'plannedWithLimit' });
    const cases: Array<[string, number, number | null, boolean | undefined, boolean | null]> = [
      [planned.id, T - 5 * HOUR, T - 5 * HOUR + 10 * MIN, false, true],
      [unplanned.id, T - 5 * HOUR + 10 * MIN, T - 5 * HOUR + 20 * MIN, true, false],
      [operator.id, T - 5 * HOUR + 20 * MIN, T - 5 * HOUR + 30 * MIN, true, true],
      [operator.id, T - 5 * HOUR + 30 * MIN, T - 5 * HOUR + 40 * MIN, undefined, false],
      // plannedWithLimit (5 minutes by default): within the limit planned, beyond it "Exceeded Limit" (null).
      [limited.id, T - 5 * HOUR + 40 * MIN, T - 5 * HOUR + 45 * MIN, undefined, true],
      [limited.id, T - 5 * HOUR + 45 * MIN, T - 5 * HOUR + 50 * MIN + 1, undefined, null],
      // no explicit end: the live period has lasted 30 minutes
      [limited.id, T - 30 * MIN, null, undefined, null],
    ];
    for (const [category_id, start, end, choice, want] of cases) {
      const res = await save(cookie, { machineId, start, end, category_id, planned: choice });
      expect(res.status).toBe(201);
      expect((await res.json()).planned, `${start}`).toBe(want);
    }
    const list = await downtime(machineId, cookie);
    expect(list.map((i) => i.planned)).toEqual([true, false, true, false, true, null, null, null, null]);
  });

  it('answers 409 DUPLICATE_ANNOTATION_START for a second annotation at the same machine and start', async () => {
    const { company, cookie, machineId } = await plant();
    const reason = await aDowntimeReason(h.t.db, company);
    expect((await save(cookie, { machineId, start: T - 30 * MIN, category_id: reason.id })).status).toBe(201);
    const dup = await save(cookie, { machineId, start: T - 30 * MIN, category_id: reason.id });
    expect(dup.status).toBe(409);
    expect(await errorOf(dup)).toMatchObject({
      code: 'DUPLICATE_ANNOTATION_START',
      message: 'Annotation could not be saved',
    });
  });

  it('refuses what live-operations §5 refuses, with the list of problems', async () => {
    const { company, cookie, machineId } = await plant();
    const reason = await aDowntimeReason(h.t.db, company);
    const noReason = await save(cookie, { machineId, start: T - 30 * MIN, end: null, category_id: null });
    expect(noReason.status).toBe(400);
    expect(await errorOf(noReason)).toMatchObject({
      code: 'VALIDATION_ERROR',
      message: 'Annotation could not be saved',
      issues: [{ field: 'category_id', message: 'Select a downtime reason.' }],
    });
    const long = await save(cookie, {
      machineId,
      start: T - 30 * MIN,
      category_id: reason.id,
      message: 'x'.repeat(251),
    });
    expect(long.status).toBe(400);
    expect((await errorOf(long)).issues).toEqual([
      expect.objectContaining({ field: 'message', message: 'At most 250 characters' }),
    ]);
    const fits = await save(cookie, {
      machineId,
      start: T - 30 * MIN,
      category_id: reason.id,
      message: 'x'.repeat(250),
    });
    expect(fits.status).toBe(201);
    const active = await save(cookie, {
      machineId,
      start: T - 5 * HOUR,
      setup: true,
      activesetup: true,
      category_id: null,
    });
    expect((await errorOf(active)).issues?.map((i) => i.message)).toEqual([
      'An active setup annotation cannot be saved.',
    ]);
    const backwards = await save(cookie, {
      machineId,
      start: T - 5 * HOUR,
      end: T - 5 * HOUR,
      category_id: reason.id,
    });
    expect((await errorOf(backwards)).issues?.map((i) => i.message)).toEqual([
      'The end must be after the start.',
    ]);
    const malformed = await save(cookie, { start: 'soon' });
    expect(malformed.status).toBe(400);
    expect((await errorOf(malformed)).issues?.map((i) => i.field).sort()).toEqual(['machineId', 'start']);
  });

  it('saves a setup annotation without its category, and leaves it out of the downtime list', async () => {
    const { company, cookie, machineId } = await plant();
    const reason = await aDowntimeReason(h.t.db, company);
    const res = await save(cookie, {
      machineId,
      start: T - 3 * HOUR,
      end: null,
      category_id: reason.id,
      setup: true,
    });
    expect(res.status).toBe(201);
    expect(await res.json()).toMatchObject({ setup: true, category_id: null, planned: null });
    expect((await downtime(machineId, cookie)).map((i) => i.start)).toEqual([T - 5 * HOUR, T - 30 * MIN]);
  });

  it('categorizes several uncategorized periods together under "Multiple"', async () => {
    const { company, cookie, machineId } = await plant();
    const reason = await aDowntimeReason(h.t.db, company, { name: 'Material' });
    const res = await h.send('POST', '/api/annotations/bulk', cookie, {
      annotations: [
        { machineId, start: T - 5 * HOUR, end: null, category_id: reason.id },
        { machineId, start: T - 3 * HOUR, end: null, category_id: reason.id },
      ],
    });
    expect(res.status).toBe(201);
    const body = await res.json();
    expect(body.label).toBe('Multiple');
    expect(body.annotations).toHaveLength(2);
    expect((await downtime(machineId, cookie)).map((i) => i.reason)).toEqual(['Material', 'Material', null]);

    const one = await h.send('POST', '/api/annotations/bulk', cookie, {
      annotations: [{ machineId, start: T - 30 * MIN, end: null, category_id: reason.id }],
    });
    expect((await one.json()).label).toBe('Material');
  });

  it('refuses an empty selection and a categorized period in a multi-select', async () => {
    const { company, cookie, machineId } = await plant();
    const reason = await aDowntimeReason(h.t.db, company);
    await anAnnotation(h.t.db, company, { machineId, start: T - 5 * HOUR, typeId: reason.id });
    const empty = await h.send('POST', '/api/annotations/bulk', cookie, { annotations: [] });
    expect(empty.status).toBe(400);
    expect((await errorOf(empty)).issues?.map((i) => i.message)).toEqual([
      'Select at least one downtime period.',
    ]);
    const inside = await h.send('POST', '/api/annotations/bulk', cookie, {
      annotations: [
        { machineId, start: T - 30 * MIN, end: null, category_id: reason.id },
        { machineId, start: T - 4.5 * HOUR, end: null, category_id: reason.id },
      ],
    });
    expect(inside.status).toBe(400);
    expect((await errorOf(inside)).issues?.map((i) => i.message)).toEqual([
      'Categorized periods cannot be selected.',
    ]);
    const same = await h.send('POST', '/api/annotations/bulk', cookie, {
      annotations: [{ machineId, start: T - 5 * HOUR, end: null, category_id: reason.id }],
    });
    expect((await errorOf(same)).code).toBe('DUPLICATE_ANNOTATION_START');
    // Nothing of a refused batch is stored.
    expect((await downtime(machineId, cookie)).at(-1)!.reason).toBeNull();
  });

  it('updates an annotation and recomputes its planned value; a start clash is a duplicate', async () => {
    const { company, cookie, machineId } = await plant();
    const planned = await aDowntimeReason(h.t.db, company, { plannedBehavior: 'planned', name: 'PM' });
    const unplanned = await aDowntimeReason(h.t.db, company, { plannedBehavior: 'unplanned' });
    const a = await anAnnotation(h.t.db, company, {
      machineId,
      start: T - 5 * HOUR,
      typeId: unplanned.id,
      planned: false,
    });
    await anAnnotation(h.t.db, company, {
      machineId,
      start: T - 3 * HOUR,
      typeId: unplanned.id,
      planned: false,
    });
    const res = await h.send('PUT', `/api/annotations/${a}`, cookie, {
      category_id: planned.id,
      message: 'PM',
    });
    expect(res.status).toBe(200);
    expect(await res.json()).toMatchObject({ id: a, category_id: planned.id, planned: true, message: 'PM' });
    expect((await downtime(machineId, cookie))[0]).toMatchObject({ reason: 'PM', planned: true });
    const clash = await h.send('PUT', `/api/annotations/${a}`, cookie, { start: T - 3 * HOUR });
    expect((await errorOf(clash)).code).toBe('DUPLICATE_ANNOTATION_START');
    const cleared = await h.send('PUT', `/api/annotations/${a}`, cookie, { category_id: null });
    expect((await errorOf(cleared)).issues?.map((i) => i.message)).toEqual(['Select a downtime reason.']);
    expect((await h.send('PUT', `/api/annotations/${crypto.randomUUID()}`, cookie, {})).status).toBe(404);
  });

  it('setRange replaces the window and answers only what changed, with a deleted flag', async () => {
    const { company, cookie, machineId } = await plant();
    const r1 = await aDowntimeReason(h.t.db, company);
    const r2 = await aDowntimeReason(h.t.db, company);
    const keep = await anAnnotation(h.t.db, company, {
      machineId,
      start: T - 5 * HOUR,
      end: T - 4.5 * HOUR,
      typeId: r1.id,
    });
    const change = await anAnnotation(h.t.db, company, {
      machineId,
      start: T - 4.5 * HOUR,
      end: T - 4 * HOUR,
      typeId: r1.id,
    });
    const drop = await anAnnotation(h.t.db, company, {
      machineId,
      start: T - 3 * HOUR,
      end: T - 2.5 * HOUR,
      typeId: r1.id,
    });
    const outside = await anAnnotation(h.t.db, company, { machineId, start: T - 30 * MIN, typeId: r1.id });
    const res = await h.send('POST', '/api/annotations/setRange', cookie, {
      start: T - 5 * HOUR,
      end: T - 2 * HOUR,
      annotations: [
        {
          machineId,
          start: T - 5 * HOUR,
          end: T - 4.5 * HOUR,
          category_id: r1.id,
          message: null,
          planned: false,
        },
        {
          machineId,
          start: T - 4.5 * HOUR,
          end: T - 4 * HOUR,
          category_id: r2.id,
          message: 'changed',
          planned: false,
        },
        { machineId, start: T - 2.5 * HOUR, end: null, category_id: r2.id, message: null, planned: false },
      ],
    });
    expect(res.status).toBe(200);
    const changed = (await res.json()).annotations as Changed[];
    expect(changed.map((c) => [c.start, c.category_id, c.deleted])).toEqual(
      [
        [T - 3 * HOUR, r1.id, true],
        [T - 2.5 * HOUR, r2.id, false],
        [T - 4.5 * HOUR, r2.id, false],
      ].sort((a, b) => (a[0] as number) - (b[0] as number)),
    );
    expect(changed.find((c) => c.deleted)!.id).toBe(drop);
    expect(changed.find((c) => c.start === T - 4.5 * HOUR)!.id).toBe(change);
    expect(changed.map((c) => c.id)).not.toContain(keep);
    expect(changed.map((c) => c.id)).not.toContain(outside);
    const bad = await h.send('POST', '/api/annotations/setRange', cookie, {
      annotations: [{ machineId, start: T - 5 * HOUR, end: null, category_id: null }],
    });
    expect(bad.status).toBe(400);
  });

  it('splits in half only when half the duration exceeds 10 s', async () => {
    const { company, cookie, machineId } = await plant();
    const reason = await aDowntimeReason(h.t.db, company);
    const s = T - 5 * HOUR;
    const tooShort = await anAnnotation(h.t.db, company, {
      machineId,
      start: s,
      end: s + 20_000,
      typeId: reason.id,
    });
    const res = await h.send('POST', `/api/annotations/${tooShort}/split`, cookie);
    expect(res.status).toBe(400);
    expect((await errorOf(res)).issues?.map((i) => i.message)).toEqual([
      'An annotation can be split only when half of it is longer than 10 seconds.',
    ]);
    const ok = await anAnnotation(h.t.db, company, {
      machineId,
      start: s + MIN,
      end: s + MIN + 20_002,
      typeId: reason.id,
    });
    const split = await h.send('POST', `/api/annotations/${ok}/split`, cookie);
    expect(split.status).toBe(200);
    const halves = (await split.json()).annotations as Changed[];
    expect(halves.map((a) => [a.start, a.end, a.category_id])).toEqual([
      [s + MIN, s + MIN + 10_001, reason.id],
      [s + MIN + 10_001, s + MIN + 20_002, reason.id],
    ]);
    expect(halves[0]!.id).toBe(ok);
    // Without an explicit end the live duration counts (30 min): the second half goes on with the period.
    const live = await anAnnotation(h.t.db, company, { machineId, start: T - 30 * MIN, typeId: reason.id });
    const liveSplit = (await (await h.send('POST', `/api/annotations/${live}/split`, cookie)).json())
      .annotations as Changed[];
    expect(liveSplit.map((a) => [a.start, a.end])).toEqual([
      [T - 30 * MIN, T - 15 * MIN],
      [T - 15 * MIN, null],
    ]);
  });

  it('merges with the next annotation, never into a setup annotation', async () => {
    const { company, cookie, machineId } = await plant();
    const reason = await aDowntimeReason(h.t.db, company, { name: 'First' });
    const s = T - 5 * HOUR;
    const a = await anAnnotation(h.t.db, company, {
      machineId,
      start: s,
      end: s + 10 * MIN,
      typeId: reason.id,
    });
    const b = await anAnnotation(h.t.db, company, { machineId, start: s + 10 * MIN, end: s + 20 * MIN });
    const setup = await anAnnotation(h.t.db, company, {
      machineId,
      start: s + 30 * MIN,
      end: s + 40 * MIN,
      setup: true,
    });
    const res = await h.send('POST', `/api/annotations/${a}/merge`, cookie);
    expect(res.status).toBe(200);
    const changed = (await res.json()).annotations as Changed[];
    expect(changed.map((c) => [c.id, c.start, c.end, c.deleted])).toEqual([
      [a, s, s + 20 * MIN, false],
      [b, s + 10 * MIN, s + 20 * MIN, true],
    ]);
    const intoSetup = await h.send('POST', `/api/annotations/${a}/merge`, cookie);
    expect(intoSetup.status).toBe(400);
    expect((await errorOf(intoSetup)).issues?.map((i) => i.message)).toEqual([
      'A setup annotation cannot be merged into.',
    ]);
    const last = await h.send('POST', `/api/annotations/${setup}/merge`, cookie);
    expect((await errorOf(last)).issues?.map((i) => i.message)).toEqual([
      'There is no next annotation to merge with.',
    ]);
  });

  it('resets an annotation: the period is uncategorized again', async () => {
    const { company, cookie, machineId } = await plant();
    const reason = await aDowntimeReason(h.t.db, company, { name: 'Gone' });
    const a = await anAnnotation(h.t.db, company, { machineId, start: T - 5 * HOUR, typeId: reason.id });
    const res = await h.send('DELETE', `/api/annotations/${a}`, cookie);
    expect(res.status).toBe(200);
    expect((await res.json()).annotations).toEqual([expect.objectContaining({ id: a, deleted: true })]);
    expect((await downtime(machineId, cookie))[0]!.reason).toBeNull();
    expect((await h.send('DELETE', `/api/annotations/${a}`, cookie)).status).toBe(404);
  });

  it('lists annotations of a machine for the timeline grid', async () => {
    const { company, cookie, machineId } = await plant();
    const a = await anAnnotation(h.t.db, company, { machineId, start: T - 5 * HOUR, end: T - 4 * HOUR });
    await anAnnotation(h.t.db, company, { machineId, start: T - 30 * MIN });
    const res = await h.get(
      `/api/annotations?machineId=${machineId}&start=${T - 6 * HOUR}&end=${T - 3 * HOUR}`,
      cookie,
    );
    expect(((await res.json()) as Changed[]).map((x) => x.id)).toEqual([a]);
  });

  it('refuses a timeline list range that is empty, reversed or longer than one day (400)', async () => {
    const { cookie, machineId } = await plant();
    const list = (start: number, end: number) =>
      h.get(`/api/annotations?machineId=${machineId}&start=${start}&end=${end}`, cookie);
    for (const [start, end] of [
      [T, T],
      [T, T - HOUR],
    ]) {
      const res = await list(start!, end!);
      expect(res.status, `${start} → ${end}`).toBe(400);
      const error = await errorOf(res);
      expect(error.code).toBe('VALIDATION_ERROR');
      expect(error.issues).toEqual([
        expect.objectContaining({ field: 'end', message: 'Start Date must be before End Date' }),
      ]);
    }
    // live-operations §5/§9: the timeline list covers at most one day.
    expect((await list(T - 24 * HOUR, T)).status).toBe(200);
    const long = await list(T - 24 * HOUR - 1, T);
    expect(long.status).toBe(400);
    const error = await errorOf(long);
    expect(error).toMatchObject({ code: 'VALIDATION_ERROR', message: 'Select up to 1 day' });
    expect(error.issues).toEqual([
      expect.objectContaining({ field: 'end', code: 'RANGE_TOO_LONG', message: 'Select up to 1 day' }),
    ]);
    // One day on the company's wall clock: the 25-hour day the clocks go back in Chicago is one day.
    const nov2 = Date.UTC(2025, 10, 2, 5);
    const nov3 = Date.UTC(2025, 10, 3, 6);
    expect(nov3 - nov2).toBe(25 * HOUR);
    expect((await list(nov2, nov3)).status).toBe(200);
    expect((await list(nov2, nov3 + 1)).status).toBe(400);
  });

  it("never shows or changes another company's annotations, machines or reasons (404)", async () => {
    const { company, machineId } = await plant();
    const theirReason = await aDowntimeReason(h.t.db, company);
    const theirs = await anAnnotation(h.t.db, company, {
      machineId,
      start: T - 5 * HOUR,
      end: T - 4 * HOUR,
      typeId: theirReason.id,
    });
    const other = await h.tenant();
    const myMachine = await aMachine(h.t.db, other.company);
    const myReason = await aDowntimeReason(h.t.db, other.company);
    const c = other.cookie;
    const status = async (p: Promise<Response>) => (await p).status;
    expect(await status(save(c, { machineId, start: T, category_id: myReason.id }))).toBe(404);
    expect(await status(save(c, { machineId: myMachine, start: T, category_id: theirReason.id }))).toBe(404);
    expect(
      await status(
        h.send('POST', '/api/annotations/bulk', c, {
          annotations: [{ machineId, start: T, category_id: myReason.id }],
        }),
      ),
    ).toBe(404);
    expect(
      await status(
        h.send('POST', '/api/annotations/setRange', c, {
          annotations: [{ machineId, start: T, category_id: myReason.id }],
        }),
      ),
    ).toBe(404);
    expect(await status(h.send('PUT', `/api/annotations/${theirs}`, c, { message: 'x' }))).toBe(404);
    expect(await status(h.send('POST', `/api/annotations/${theirs}/split`, c))).toBe(404);
    expect(await status(h.send('POST', `/api/annotations/${theirs}/merge`, c))).toBe(404);
    expect(await status(h.send('DELETE', `/api/annotations/${theirs}`, c))).toBe(404);
    expect(
      await status(h.get(`/api/annotations?machineId=${machineId}&start=${T - 86_400_000}&end=${T}`, c)),
    ).toBe(404);
    const still = await h.t.db.selectFrom('annotations').select('id').where('id', '=', theirs).execute();
    expect(still).toHaveLength(1);
  });

  it('needs FullProduct to edit annotations', async () => {
    const { company: util, cookie, machineId } = await aTenantWithMachine(h, { tier: 'utilization' });
    const reason = await aDowntimeReason(h.t.db, util);
    const res = await save(cookie, { machineId, start: T, category_id: reason.id });
    expect(res.status).toBe(403);
    expect((await h.send('POST', '/api/annotations/bulk', cookie, { annotations: [] })).status).toBe(403);
  });
});
