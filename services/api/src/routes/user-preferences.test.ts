import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { companyScope } from '@takt/db';
import { DIALECTS } from '@takt/db/testing';
import { userPreferencesSchema } from '@takt/domain';
import { getUserPreferences, saveUserPreferences } from '../repositories/user-preferences';
import type { ApiHarness } from '../testing/app';
import { apiHarness } from '../testing/app';
import { TEST_PASSWORD, aCompany, aUser } from '../testing/builders';
import { aShift, errorOf, issueFields, loginAs } from '../testing/live-builders';
import { aTablet } from '../testing/tablet-builders';

// Report preferences on the server (issue 29 point 9; decisions 1115, 1116): reports-admin §9 "Stored
// preferences per company: last OEE or utilization horizon and selected shifts", §6 "The anonymize option is
// for root or non-demo accounts".

const PREFS = '/api/me/preferences';
const read = async (h: ApiHarness, cookie: string) => h.read(PREFS, cookie, userPreferencesSchema);

describe.each(DIALECTS)('report preferences on %s', (dialect) => {
  let h: ApiHarness;
  beforeEach(async () => {
    h = await apiHarness(dialect);
  });
  afterEach(async () => {
    await h.close();
  });

  it('answers the defaults, merges each change and keeps it for the next session', async () => {
    const { company, user, cookie } = await h.tenant();
    expect(await read(h, cookie)).toEqual({
      oeeHorizon: null,
      utilizationHorizon: null,
      shifts: null,
      anonymize: false,
      anonymizeOffered: true,
      brand: null,
    });
    const early = await aShift(h.t.db, company, { name: 'Early' });
    const late = await aShift(h.t.db, company, { name: 'Late' });
    const put = await h.send('PUT', PREFS, cookie, { utilizationHorizon: 'week' });
    expect(put.status).toBe(200);
    expect(userPreferencesSchema.parse(await put.json()).utilizationHorizon).toBe('week');
    await h.send('PUT', PREFS, cookie, { oeeHorizon: 'quarter', shifts: [late, early] });
    await h.send('PUT', PREFS, cookie, { anonymize: true });

    // Another device: a new login reads the same set.
    const other = await h.login(user.email, TEST_PASSWORD);
    expect(await read(h, other)).toEqual({
      oeeHorizon: 'quarter',
      utilizationHorizon: 'week',
      shifts: [late, early],
      anonymize: true,
      anonymizeOffered: true,
      brand: null,
    });
    // null clears a choice; a field left out stays.
    await h.send('PUT', PREFS, other, { oeeHorizon: null, shifts: null });
    expect(await read(h, cookie)).toMatchObject({
      oeeHorizon: null,
      utilizationHorizon: 'week',
      shifts: null,
    });
  });

  it('refuses an unknown field, horizon or shift, and too many shifts, with 400', async () => {
    const { company, cookie } = await h.tenant();
    const shift = await aShift(h.t.db, company);
    const theirs = await aShift(h.t.db, await aCompany(h.t.db));
    const unknownField = await h.send('PUT', PREFS, cookie, { utilizationHorizon: 'day', colour: 'red' });
    expect(unknownField.status).toBe(400);
    const err = await errorOf(unknownField);
    expect(err.message).toBe('Unknown field: colour');
    const badHorizon = await h.send('PUT', PREFS, cookie, { oeeHorizon: 'decade' });
    expect(badHorizon.status).toBe(400);
    expect((await errorOf(badHorizon)).message).toBe(
      'Horizon must be one of hour, shift, day, week, month, quarter.',
    );
    // Another company's shift is not found here.
    const foreign = await h.send('PUT', PREFS, cookie, { shifts: [shift, theirs] });
    expect(foreign.status).toBe(400);
    expect((await errorOf(foreign)).message).toBe(`Shift not found: ${theirs}`);
    const twice = await h.send('PUT', PREFS, cookie, { shifts: [shift, shift] });
    expect(issueFields(await errorOf(twice))).toEqual(['shifts']);
    const many = Array.from({ length: 101 }, (_, i) => `s${i}`);
    expect((await h.send('PUT', PREFS, cookie, { shifts: many })).status).toBe(400);
    expect((await h.send('PUT', PREFS, cookie, { anonymize: 'yes' })).status).toBe(400);
    expect((await h.send('PUT', PREFS, cookie, [])).status).toBe(400);
    // Nothing was saved by the refused calls.
    expect(await read(h, cookie)).toMatchObject({ oeeHorizon: null, utilizationHorizon: null, shifts: null });
  });

  it("keeps each user's preferences their own: a colleague and another company see only theirs", async () => {
    const a = await h.tenant();
    const b = await h.tenant();
    await h.send('PUT', PREFS, a.cookie, { utilizationHorizon: 'month', anonymize: true });
    const colleague = await loginAs(h, a.company, 'manager');
    expect(await read(h, colleague)).toMatchObject({ utilizationHorizon: null, anonymize: false });
    expect(await read(h, b.cookie)).toMatchObject({ utilizationHorizon: null, anonymize: false });
    await h.send('PUT', PREFS, b.cookie, { utilizationHorizon: 'hour' });
    expect((await read(h, a.cookie)).utilizationHorizon).toBe('month');
  });

  it('keeps two sets for one user in two companies (one row per user and company)', async () => {
    const { company, user } = await h.tenant();
    const other = await aCompany(h.t.db);
    const base = { oeeHorizon: null, shifts: null, anonymize: false } as const;
    await saveUserPreferences(
      companyScope(h.t.db, company.id),
      user.id,
      {
        ...base,
        utilizationHorizon: 'day',
      },
      1,
    );
    await saveUserPreferences(
      companyScope(h.t.db, other.id),
      user.id,
      {
        ...base,
        utilizationHorizon: 'quarter',
      },
      2,
    );
    expect((await getUserPreferences(companyScope(h.t.db, company.id), user.id))?.utilizationHorizon).toBe(
      'day',
    );
    expect((await getUserPreferences(companyScope(h.t.db, other.id), user.id))?.utilizationHorizon).toBe(
      'quarter',
    );
  });

  it('offers anonymize to root or non-demo accounts only', async () => {
    const demo = await aCompany(h.t.db, { isDemo: true });
    const manager = await aUser(h.t.db, demo, { role: 'admin' });
    const demoCookie = await h.login(manager.email, manager.password);
    expect((await read(h, demoCookie)).anonymizeOffered).toBe(false);
    const refused = await h.send('PUT', PREFS, demoCookie, { anonymize: true });
    expect(refused.status).toBe(403);
    expect((await errorOf(refused)).message).toBe('The anonymize option is for root or non-demo accounts.');
    // Horizons are still theirs to keep.
    expect((await h.send('PUT', PREFS, demoCookie, { oeeHorizon: 'day' })).status).toBe(200);

    const root = await aUser(h.t.db, demo, { role: 'admin', isRoot: true });
    const rootCookie = await h.login(root.email, root.password);
    expect((await read(h, rootCookie)).anonymizeOffered).toBe(true);
    expect((await h.send('PUT', PREFS, rootCookie, { anonymize: true })).status).toBe(200);
    expect((await read(h, rootCookie)).anonymize).toBe(true);
  });

  it('goes with a deleted user', async () => {
    const { company, cookie } = await h.tenant();
    const maria = await aUser(h.t.db, company, { role: 'manager' });
    const hers = await h.login(maria.email, maria.password);
    await h.send('PUT', PREFS, hers, { oeeHorizon: 'week' });
    const rows = () =>
      h.t.db.selectFrom('user_preferences').select('user_id').where('user_id', '=', maria.id).execute();
    expect(await rows()).toHaveLength(1);
    expect((await h.send('DELETE', `/api/users/${maria.id}`, cookie)).status).toBe(204);
    expect(await rows()).toEqual([]);
  });

  it('has none for a tablet (403) and none without a login (401)', async () => {
    const { company } = await h.tenant();
    const tablet = await aTablet(h.t.db, company, null, h.clock.now);
    expect((await h.get(PREFS, tablet.cookie)).status).toBe(403);
    expect((await h.get(PREFS, '')).status).toBe(401);
  });
});
