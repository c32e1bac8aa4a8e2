import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { Kysely } from 'kysely';
import type { Database } from '@takt/db';
import type { ApiHarness } from '../testing/app';
import { apiHarness } from '../testing/app';
import { aMachine } from '../testing/builders';
import { DIALECTS } from '@takt/db/testing';
import { errorOf, issueFields, loginAs } from '../testing/live-builders';

// Start-of-day (time context) save and delete: live-operations §7, reports-admin §3 Company; decision 0703.
// The harness clock: Saturday 2025-11-22 02:26:40 in America/Chicago (CST, UTC−6).

const PATH = '/api/timecontext';
const HOUR = 3_600_000;

const dirtyMarks = (db: Kysely<Database>, companyId: string) =>
  db
    .selectFrom('rollup_dirty')
    .select(['machine_id', 'from_at'])
    .where('company_id', '=', companyId)
    .orderBy('machine_id')
    .execute();

describe.each(DIALECTS)('time context on %s', (dialect) => {
  let h: ApiHarness;
  beforeEach(async () => {
    h = await apiHarness(dialect);
  });
  afterEach(async () => {
    await h.close();
  });

  it('schedules a start-of-day change (admins), replaces it, deletes it', async () => {
    const { company, cookie } = await h.tenant();
    expect(await (await h.get(PATH, cookie)).json()).toEqual({
      currentTimeContext: { offset_millis: 0 },
      futureTimeContext: null,
    });
    const saved = await h.send('PUT', PATH, cookie, { offset_millis: 6 * HOUR, effectivedate: '2025-11-24' });
    expect(saved.status).toBe(200);
    expect(await saved.json()).toEqual({
      currentTimeContext: { offset_millis: 0 },
      futureTimeContext: { offset_millis: 6 * HOUR, effectivedate: '2025-11-24' },
    });
    await h.send('PUT', PATH, cookie, { offset_millis: -30 * 60_000, effectivedate: '2025-11-23' });
    expect((await (await h.get(PATH, cookie)).json()).futureTimeContext).toEqual({
      offset_millis: -30 * 60_000,
      effectivedate: '2025-11-23',
    });
    // Both days start after now: no stored rollup changes.
    await aMachine(h.t.db, company);
    await h.send('PUT', PATH, cookie, { offset_millis: HOUR, effectivedate: '2025-11-25' });
    expect(await dirtyMarks(h.t.db, company.id)).toEqual([]);

    const deleted = await h.send('DELETE', PATH, cookie);
    expect(deleted.status).toBe(200);
    expect((await deleted.json()).futureTimeContext).toBeNull();
    const again = await h.send('DELETE', PATH, cookie);
    expect(again.status).toBe(404);
    expect((await errorOf(again)).message).toBe('There is no pending start-of-day change.');
  });

  it('reports a change whose date has come as the one in force, and folds it on the next save', async () => {
    const { company, cookie } = await h.tenant();
    await h.send('PUT', PATH, cookie, { offset_millis: 2 * HOUR, effectivedate: '2025-11-23' });
    h.clock.now = Date.parse('2025-11-24T12:00:00Z');
    expect(await (await h.get(PATH, cookie)).json()).toEqual({
      currentTimeContext: { offset_millis: 2 * HOUR },
      futureTimeContext: null,
    });
    expect((await h.send('DELETE', PATH, cookie)).status).toBe(404);
    await h.send('PUT', PATH, cookie, { offset_millis: 3 * HOUR, effectivedate: '2025-11-26' });
    const row = await h.t.db
      .selectFrom('companies')
      .select(['time_context_offset_ms', 'future_time_context_offset_ms', 'future_time_context_effective'])
      .where('id', '=', company.id)
      .executeTakeFirstOrThrow();
    expect(row).toEqual({
      time_context_offset_ms: 2 * HOUR,
      future_time_context_offset_ms: 3 * HOUR,
      future_time_context_effective: '2025-11-26',
    });
  });

  it('marks rollups dirty when the changed day has already begun', async () => {
    const { company, cookie } = await h.tenant();
    const machine = await aMachine(h.t.db, company);
    const other = await h.tenant();
    const theirs = await aMachine(h.t.db, other.company);
    // Days start at 06:00, so at 02:26 on Saturday the shop date is still Friday; "tomorrow" (Saturday)
    // would start at Saturday midnight, which has passed.
    await h.t.db
      .updateTable('companies')
      .set({ time_context_offset_ms: 6 * HOUR })
      .where('id', '=', company.id)
      .execute();
    const res = await h.send('PUT', PATH, cookie, { offset_millis: 0, effectivedate: '2025-11-22' });
    expect(res.status).toBe(200);
    // Friday (06:00 CST = 12:00Z) ends earlier now: stale from its start.
    expect(await dirtyMarks(h.t.db, company.id)).toEqual([
      { machine_id: machine, from_at: Date.parse('2025-11-21T12:00:00Z') },
    ]);
    expect(await dirtyMarks(h.t.db, other.company.id)).toEqual([]);
    expect(theirs).toBeTruthy();
  });

  it('puts a change to a day already under way in force at once', async () => {
    const { cookie } = await h.tenant();
    // 22:15 CST on Saturday: "tomorrow" (Sunday) starting at 22:00 the evening before began 15 minutes ago.
    h.clock.now = Date.parse('2025-11-23T04:15:00Z');
    const res = await h.send('PUT', PATH, cookie, { offset_millis: -2 * HOUR, effectivedate: '2025-11-23' });
    expect(res.status).toBe(200);
    const inForce = { currentTimeContext: { offset_millis: -2 * HOUR }, futureTimeContext: null };
    expect(await res.json()).toEqual(inForce);
    expect(await (await h.get(PATH, cookie)).json()).toEqual(inForce);
    // Monday still lies ahead: that change waits.
    const later = await h.send('PUT', PATH, cookie, {
      offset_millis: -2 * HOUR,
      effectivedate: '2025-11-24',
    });
    expect((await later.json()).futureTimeContext).toEqual({
      offset_millis: -2 * HOUR,
      effectivedate: '2025-11-24',
    });
  });

  it('answers 400 with the problems', async () => {
    const { cookie } = await h.tenant();
    const missing = await h.send('PUT', PATH, cookie, {});
    expect(missing.status).toBe(400);
    const e = await errorOf(missing);
    expect(issueFields(e)).toEqual(['effectivedate', 'offset_millis']);
    expect(e.issues?.map((i) => i.message)).toContain('Missing required field: Effective Date');
    const bad = async (body: unknown) => errorOf(await h.send('PUT', PATH, cookie, body));
    expect((await bad({ offset_millis: 13 * HOUR, effectivedate: '2025-11-23' })).message).toBe(
      'The start of day must be within 12 hours of midnight',
    );
    expect((await bad({ offset_millis: 1000, effectivedate: '2025-11-23' })).message).toBe(
      'The start of day must be a whole minute',
    );
    expect((await bad({ offset_millis: 0, effectivedate: '2025-11-31' })).message).toBe('Not a valid date');
    for (const day of ['2025-11-22', '2025-12-24'])
      expect((await bad({ offset_millis: 0, effectivedate: day })).message).toBe(
        'The effective date must be from tomorrow to one month ahead.',
      );
    expect(
      (await h.send('PUT', PATH, cookie, { offset_millis: 0, effectivedate: '2025-12-23' })).status,
    ).toBe(200);
  });

  it('lets only admins change it; another company never sees or changes it', async () => {
    const { company, cookie } = await h.tenant();
    const operator = await loginAs(h, company, 'operator');
    const body = { offset_millis: HOUR, effectivedate: '2025-11-23' };
    expect((await h.send('PUT', PATH, operator, body)).status).toBe(403);
    expect((await h.send('DELETE', PATH, operator)).status).toBe(403);
    await h.send('PUT', PATH, cookie, body);
    expect((await (await h.get(PATH, operator)).json()).futureTimeContext).toEqual(body);

    const other = await h.tenant();
    expect((await (await h.get(PATH, other.cookie)).json()).futureTimeContext).toBeNull();
    expect((await h.send('DELETE', PATH, other.cookie)).status).toBe(404);
    expect((await (await h.get(PATH, cookie)).json()).futureTimeContext).toEqual(body);
  });
});
