import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { shiftRefSchema, shiftSchema } from '@takt/domain';
import { companyScope } from '@takt/db';
import { insertShiftVersion } from '../repositories/shifts';
import type { ApiHarness } from '../testing/app';
import { apiHarness } from '../testing/app';
import { DIALECTS } from '@takt/db/testing';
import { aShift, errorOf, issueFields, loginAs } from '../testing/live-builders';

// The harness clock: Saturday 2025-11-22 02:26:40 in America/Chicago (CST, UTC−6), the builders' zone.
const currentSchema = shiftRefSchema.extend({ shopDate: z.string() }).nullable();

describe.each(DIALECTS)('shifts on %s', (dialect) => {
  let h: ApiHarness;
  beforeEach(async () => {
    h = await apiHarness(dialect);
  });
  afterEach(async () => {
    await h.close();
  });

  const current = (cookie: string) => h.read('/api/shifts/current', cookie, currentSchema);

  it('lists shifts with the version in force today and the latest (pending) one', async () => {
    const { company, cookie } = await h.tenant();
    const day = await aShift(h.t.db, company, {
      name: 'Day',
      startoffsetminutes: 360,
      endoffsetminutes: 840,
      byweekday: [0, 1, 2, 3, 4],
    });
    await insertShiftVersion(companyScope(h.t.db, company.id), {
      shiftId: day,
      startoffsetminutes: 420,
      endoffsetminutes: 900,
      byweekday: [0, 1, 2, 3],
      effectivedate: '2025-12-01',
      createdAt: 1,
    });
    await aShift(h.t.db, company, {
      name: 'Old',
      effectivedate: '2024-01-01',
      terminationdate: '2025-01-01',
    });
    const shifts = await h.read('/api/shifts', cookie, z.array(shiftSchema));
    expect(shifts.map((s) => [s.name, s.terminated])).toEqual([
      ['Day', false],
      ['Old', true],
    ]);
    expect(shifts[0]).toMatchObject({
      effectivedate: '2020-01-01',
      current: {
        startoffsetminutes: 360,
        endoffsetminutes: 840,
        byweekday: [0, 1, 2, 3, 4],
        is_termination_set: false,
        terminationdate: null,
      },
      latest: { startoffsetminutes: 420, endoffsetminutes: 900, byweekday: [0, 1, 2, 3] },
    });
    expect(shifts[1]?.current).toMatchObject({ is_termination_set: true, terminationdate: '2025-01-01' });
  });

  it('answers the shift running now in the company time zone, overnight included, or null between shifts', async () => {
    const { company, cookie } = await h.tenant();
    await aShift(h.t.db, company, { name: 'Day', startoffsetminutes: 360, endoffsetminutes: 840 });
    expect(await current(cookie)).toBeNull();
    const night = await aShift(h.t.db, company, {
      name: 'Night',
      startoffsetminutes: 1320,
      endoffsetminutes: 360,
    });
    // The night shift that covers Saturday 02:26 started on Friday (shop date 2025-11-21).
    expect(await current(cookie)).toEqual({
      id: night,
      name: 'Night',
      start: Date.parse('2025-11-22T04:00:00Z'),
      end: Date.parse('2025-11-22T12:00:00Z'),
      shopDate: '2025-11-21',
    });
    h.clock.now = Date.parse('2025-11-22T13:00:00Z'); // 07:00 Saturday: the day shift
    expect((await current(cookie))?.name).toBe('Day');
  });

  it('applies the weekdays a shift starts on', async () => {
    const { company, cookie } = await h.tenant();
    // Monday to Thursday nights only: the Friday night shift that would cover Saturday 02:26 does not exist.
    await aShift(h.t.db, company, {
      name: 'Night',
      startoffsetminutes: 1320,
      endoffsetminutes: 360,
      byweekday: [0, 1, 2, 3],
    });
    expect(await current(cookie)).toBeNull();
  });

  it('creates a shift with its first version (admins), effective tomorrow unless said otherwise', async () => {
    const { company, cookie } = await h.tenant();
    const res = await h.send('POST', '/api/shifts', cookie, {
      name: 'Swing',
      startoffsetminutes: 840,
      endoffsetminutes: 1320,
      byweekday: [4, 0, 0],
    });
    expect(res.status).toBe(201);
    expect(shiftSchema.parse(await res.json())).toMatchObject({
      name: 'Swing',
      terminated: false,
      effectivedate: '2025-11-23',
      current: null,
      latest: { startoffsetminutes: 840, endoffsetminutes: 1320, byweekday: [0, 4] },
    });
    const operator = await loginAs(h, company, 'operator');
    expect(
      (
        await h.send('POST', '/api/shifts', operator, {
          name: 'X',
          startoffsetminutes: 0,
          endoffsetminutes: 60,
          byweekday: [0],
        })
      ).status,
    ).toBe(403);
    expect(z.array(shiftSchema).parse(await (await h.get('/api/shifts', operator)).json())).toHaveLength(1);
  });

  it('answers 400 with the problems: no weekday, an empty shift, a bad, past or too late effective date', async () => {
    const { cookie } = await h.tenant();
    const res = await h.send('POST', '/api/shifts', cookie, {
      name: '',
      startoffsetminutes: 60,
      endoffsetminutes: 60,
      byweekday: [],
    });
    expect(res.status).toBe(400);
    const e = await errorOf(res);
    expect(issueFields(e)).toEqual(['byweekday', 'endoffsetminutes', 'name']);
    expect(e.issues?.map((i) => i.message)).toEqual(
      expect.arrayContaining([
        'Select at least one day',
        'A shift cannot be empty',
        'Missing required field: Name',
      ]),
    );
    const base = { name: 'S', startoffsetminutes: 0, endoffsetminutes: 60, byweekday: [0] };
    expect(
      (await h.send('POST', '/api/shifts', cookie, { ...base, effectivedate: '2025-02-30' })).status,
    ).toBe(400);
    // reports-admin §4, §5: from tomorrow to one month ahead.
    for (const effectivedate of ['2025-11-21', '2025-11-22', '2025-12-24']) {
      const refused = await h.send('POST', '/api/shifts', cookie, { ...base, effectivedate });
      expect(refused.status).toBe(400);
      expect((await errorOf(refused)).message).toBe(
        'The effective date must be from tomorrow to one month ahead.',
      );
    }
    expect(
      (await h.send('POST', '/api/shifts', cookie, { ...base, effectivedate: '2025-12-23' })).status,
    ).toBe(201);
  });

  it("never shows another company's shifts", async () => {
    const mine = await h.tenant();
    const theirs = await h.tenant();
    await aShift(h.t.db, theirs.company, { name: 'Night', startoffsetminutes: 1320, endoffsetminutes: 360 });
    expect(await (await h.get('/api/shifts', mine.cookie)).json()).toEqual([]);
    expect(await current(mine.cookie)).toBeNull();
    expect((await current(theirs.cookie))?.name).toBe('Night');
  });
});
