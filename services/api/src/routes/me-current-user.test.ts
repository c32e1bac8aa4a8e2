import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { companyScope } from '@takt/db';
import { DIALECTS } from '@takt/db/testing';
import { apiKeyCreatedSchema, meAnswerSchema } from '@takt/domain';
import { getUserCreatedAt } from '../repositories/users';
import type { ApiHarness } from '../testing/app';
import { apiHarness } from '../testing/app';
import { aShift } from '../testing/live-builders';
import { aTablet } from '../testing/tablet-builders';

// GET /api/me carries reports-admin §3 "Current user: id, email ({email}), displayName, role, isRoot, isAdmin,
// isOperator, company, shifts, notify, hasPassword, hasGoogleOAuth, createdAt" whole (decision 1105).

describe.each(DIALECTS)('the current user on %s', (dialect) => {
  let h: ApiHarness;
  beforeEach(async () => {
    h = await apiHarness(dialect);
  });
  afterEach(async () => {
    await h.close();
  });

  it('answers every field of the spec’s current user, its shifts and password as the profile saves them', async () => {
    const { company, user, cookie } = await h.tenant({ role: 'manager' });
    const created = (await getUserCreatedAt(companyScope(h.t.db, company.id), user.id))!;
    const me = await h.read('/api/me', cookie, meAnswerSchema.strict());
    expect(me).toMatchObject({
      id: user.id,
      email: user.email,
      displayName: user.displayName,
      role: 'manager',
      isRoot: false,
      isAdmin: false,
      isOperator: false,
      company: { id: company.id, name: company.name },
      // Until a choice is saved, notifications come for every shift (decision 0936).
      shifts: [],
      notify: true,
      hasPassword: true,
      hasGoogleOAuth: false,
      createdAt: created,
    });
    const early = await aShift(h.t.db, company, { name: 'Early' });
    const saved = await h.send('PUT', '/api/profile/shift-notifications', cookie, {
      notify: false,
      shifts: [early],
    });
    expect(saved.status).toBe(200);
    await companyScope(h.t.db, company.id)
      .updateTable('users')
      .set({ password_hash: '' })
      .where('id', '=', user.id)
      .execute();
    expect(await h.read('/api/me', cookie, meAnswerSchema)).toMatchObject({
      shifts: [early],
      notify: false,
      hasPassword: false,
    });
  });

  it('gives a tablet and an API key, which are no account, no shifts, no password and no creation time', async () => {
    const { company, cookie } = await h.tenant();
    const tablet = await aTablet(h.t.db, company, null, h.clock.now);
    const none = { shifts: [], notify: false, hasPassword: false, hasGoogleOAuth: false, createdAt: null };
    expect(await h.read('/api/me', tablet.cookie, meAnswerSchema)).toMatchObject(none);
    const key = apiKeyCreatedSchema.parse(
      await (await h.send('POST', '/api/apikeys', cookie, { name: 'ERP', scopes: ['reports:read'] })).json(),
    );
    const res = await h.app.request('/api/me', { headers: { authorization: `Bearer ${key.accessToken}` } });
    expect(res.status).toBe(200);
    expect(meAnswerSchema.parse(await res.json())).toMatchObject(none);
  });
});
