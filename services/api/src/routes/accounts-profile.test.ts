import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { companyScope } from '@takt/db';
import { DIALECTS } from '@takt/db/testing';
import { profileSchema } from '@takt/domain';
import { getUserCreatedAt } from '../repositories/users';
import type { ApiHarness } from '../testing/app';
import { apiHarness } from '../testing/app';
import { TEST_PASSWORD } from '../testing/builders';
import { aShift, errorOf, issueFields } from '../testing/live-builders';
import { listOutboxMail } from '../testing/mail-outbox';
import { aTablet } from '../testing/tablet-builders';

// reports-admin §2 Profile (shift notifications, revoke sessions, reset password) and §7 Current user's
// hasPassword, hasGoogleOAuth, createdAt (decision 1097); split from accounts-users.test.ts.

const SENT = 'Sent. You should get it within the next 10 minutes.';

describe.each(DIALECTS)('the profile on %s', (dialect) => {
  let h: ApiHarness;
  beforeEach(async () => {
    h = await apiHarness(dialect);
  });
  afterEach(async () => {
    await h.close();
  });

  it('saves shift notifications for shifts of the company only', async () => {
    const { company, user, cookie } = await h.tenant();
    const early = await aShift(h.t.db, company, { name: 'Early' });
    const theirs = await aShift(h.t.db, (await h.tenant()).company, { name: 'Theirs' });
    const created = (await getUserCreatedAt(companyScope(h.t.db, company.id), user.id))!;
    expect(await h.read('/api/profile', cookie, profileSchema)).toEqual({
      email: user.email,
      displayName: user.displayName,
      role: 'admin',
      notify: true,
      shifts: [],
      sessions: 1,
      hasPassword: true,
      hasGoogleOAuth: false,
      createdAt: created,
    });
    const res = await h.send('PUT', '/api/profile/shift-notifications', cookie, {
      notify: true,
      shifts: [early],
    });
    expect(profileSchema.parse(await res.json())).toMatchObject({ notify: true, shifts: [early] });
    const foreign = await h.send('PUT', '/api/profile/shift-notifications', cookie, {
      notify: true,
      shifts: [early, theirs],
    });
    expect(foreign.status).toBe(400);
    expect(issueFields(await errorOf(foreign))).toEqual(['shifts.1']);
    const bad = await h.send('PUT', '/api/profile/shift-notifications', cookie, { notify: 'yes' });
    expect(issueFields(await errorOf(bad))).toEqual(['notify', 'shifts']);
    expect((await h.read('/api/profile', cookie, profileSchema)).shifts).toEqual([early]);
  });

  it('tells whether the account has a password (an empty hash: none)', async () => {
    const { company, user, cookie } = await h.tenant();
    await companyScope(h.t.db, company.id)
      .updateTable('users')
      .set({ password_hash: '' })
      .where('id', '=', user.id)
      .execute();
    expect(await h.read('/api/profile', cookie, profileSchema)).toMatchObject({
      hasPassword: false,
      hasGoogleOAuth: false,
    });
  });

  it('revokes every other session and keeps this one; mails a link to oneself', async () => {
    const { company, user, cookie } = await h.tenant();
    const phone = await h.login(user.email, TEST_PASSWORD);
    const res = await h.send('POST', '/api/profile/revoke-sessions', cookie);
    expect(await res.json()).toEqual({ revoked: 1 });
    expect((await h.get('/api/me', phone)).status).toBe(401);
    expect((await h.get('/api/me', cookie)).status).toBe(200);
    const mail = await h.send('POST', '/api/profile/reset-password', cookie);
    expect(await mail.json()).toEqual({ message: SENT });
    const mailed = await listOutboxMail(companyScope(h.t.db, company.id));
    expect(mailed.find((m) => m.to === user.email)?.text).toMatch(/\/app\/set-password#token=[\w-]+/);
    const tablet = await aTablet(h.t.db, company, null, h.clock.now);
    expect((await h.get('/api/profile', tablet.cookie)).status).toBe(403);
  });
});
