import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { companyScope } from '@takt/db';
import { DIALECTS } from '@takt/db/testing';
import { accountLinkSchema, accountUserSchema, inviteSchema } from '@takt/domain';
import { smtpTransport } from '../mail/transport';
import type { ApiHarness } from '../testing/app';
import { apiHarness } from '../testing/app';
import { aUser } from '../testing/builders';
import { errorOf, issueFields, loginAs } from '../testing/live-builders';
import { listOutboxMail } from '../testing/mail-outbox';
import { deadSmtpUrl, smtpListener } from '../testing/smtp';
import type { SmtpListener } from '../testing/smtp';
import { aTablet } from '../testing/tablet-builders';
import type { Company } from '../repositories/company';

// reports-admin §2 accounts (Users, Invites, password set and reset, Profile), §5 password rules, §6
// InviteUsers, §8 E-mail texts; decision 0880. Mail is read from the company's outbox (decision 0701) or
// from a local SMTP server, as the e-mail preference tests do.

const users = z.array(accountUserSchema);
const inviteList = z.array(inviteSchema);
const DAY = 86_400_000;
const GOOD = 'Tr0ub4dor&3';
const SENT = 'Sent. You should get it within the next 10 minutes.';
const FAILED = 'Something went wrong. Please try again.';
const INVALID = 'This link is no longer valid. Ask for a new one.';

/** The token of the newest e-mailed link to `to` in the company's outbox. */
async function linkTokenTo(h: ApiHarness, company: Company, to: string): Promise<string> {
  const mail = (await listOutboxMail(companyScope(h.t.db, company.id))).find((m) => m.to === to);
  const token = mail && /\/app\/set-password#token=([\w-]+)/.exec(mail.text)?.[1];
  if (!token) throw new Error(`no link e-mailed to ${to}`);
  return token;
}

const anonymous = (h: ApiHarness, path: string, body: unknown) =>
  h.app.request(path, {
    method: 'POST',
    headers: { 'content-type': 'application/json', origin: 'http://localhost' },
    body: JSON.stringify(body),
  });

const setPassword = (h: ApiHarness, token: string, password = GOOD, retype = password, extra = {}) =>
  anonymous(h, '/api/account/password', { token, password, retype, ...extra });

const canLogIn = async (h: ApiHarness, email: string, password: string) =>
  (
    await h.app.request('/login', {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ email, password }),
    })
  ).status === 200;

describe.each(DIALECTS)('users admin on %s', (dialect) => {
  let h: ApiHarness;
  beforeEach(async () => {
    h = await apiHarness(dialect);
  });
  afterEach(async () => {
    await h.close();
  });

  it('lists the company users with their live sessions, and edits name and role', async () => {
    const { company, user: admin, cookie } = await h.tenant();
    const maria = await aUser(h.t.db, company, { role: 'manager', displayName: 'Maria' });
    await h.login(maria.email, maria.password);
    await aUser(h.t.db, (await h.tenant()).company, { displayName: 'Elsewhere' });
    const listed = await h.read('/api/users', cookie, users);
    expect(listed.map((u) => [u.displayName, u.role, u.sessions])).toEqual([
      ['Maria', 'manager', 1],
      ['Test User', 'admin', 1],
    ]);
    expect(listed[1]).toMatchObject({ id: admin.id, email: admin.email, locked: false, isRoot: false });

    const res = await h.send('PUT', `/api/users/${maria.id}`, cookie, {
      displayName: ' Maria M ',
      role: 'operator',
    });
    expect(res.status).toBe(200);
    expect(accountUserSchema.parse(await res.json())).toMatchObject({
      displayName: 'Maria M',
      role: 'operator',
    });
    const bad = await h.send('PUT', `/api/users/${maria.id}`, cookie, { displayName: ' ', role: 'boss' });
    expect(bad.status).toBe(400);
    const e = await errorOf(bad);
    expect(issueFields(e)).toEqual(['displayName', 'role']);
    expect(e.message).toContain('Missing required field: Name');
    expect((await h.send('PUT', `/api/users/${maria.id}`, cookie, {})).status).toBe(400);
  });

  it('locks a user out at once and lets them back in when unlocked', async () => {
    const { company, cookie } = await h.tenant();
    const maria = await aUser(h.t.db, company, { role: 'manager' });
    const hers = await h.login(maria.email, maria.password);
    const locked = await h.send('POST', `/api/users/${maria.id}/lock`, cookie);
    expect(accountUserSchema.parse(await locked.json())).toMatchObject({ locked: true, sessions: 0 });
    expect((await h.get('/api/me', hers)).status).toBe(401);
    expect(await canLogIn(h, maria.email, maria.password)).toBe(false);
    const unlocked = await h.send('POST', `/api/users/${maria.id}/unlock`, cookie);
    expect(accountUserSchema.parse(await unlocked.json()).locked).toBe(false);
    // The lock ended the old session for good; a new login works.
    expect((await h.get('/api/me', hers)).status).toBe(401);
    expect(await canLogIn(h, maria.email, maria.password)).toBe(true);
  });

  it("revokes a user's sessions, and deletes a user with what is theirs alone", async () => {
    const { company, cookie } = await h.tenant();
    const maria = await aUser(h.t.db, company, { role: 'manager' });
    const one = await h.login(maria.email, maria.password);
    const two = await h.login(maria.email, maria.password);
    const res = await h.send('POST', `/api/users/${maria.id}/revoke`, cookie);
    expect(await res.json()).toEqual({ revoked: 2 });
    expect((await h.get('/api/me', one)).status).toBe(401);
    expect((await h.get('/api/me', two)).status).toBe(401);

    await h.send('PUT', '/api/emailnotifications', await h.login(maria.email, maria.password), {
      receiveDowntimeEmail: false,
      receiveUtilizationEmail: false,
      receiveBenchmarkingEmail: false,
    });
    expect((await h.send('DELETE', `/api/users/${maria.id}`, cookie)).status).toBe(204);
    expect((await h.send('DELETE', `/api/users/${maria.id}`, cookie)).status).toBe(404);
    expect(await canLogIn(h, maria.email, maria.password)).toBe(false);
    expect(
      await h.t.db
        .selectFrom('email_preferences')
        .select('user_id')
        .where('user_id', '=', maria.id)
        .execute(),
    ).toEqual([]);
  });

  it('keeps an unlocked admin: no locking or deleting oneself, no demoting the last admin', async () => {
    const { company, user: admin, cookie } = await h.tenant();
    const self = await h.send('POST', `/api/users/${admin.id}/lock`, cookie);
    expect(self.status).toBe(400);
    expect(await errorOf(self)).toMatchObject({
      code: 'NOT_YOURSELF',
      message: 'You cannot do that to your own account.',
    });
    expect((await h.send('DELETE', `/api/users/${admin.id}`, cookie)).status).toBe(400);
    const demote = await h.send('PUT', `/api/users/${admin.id}`, cookie, { role: 'manager' });
    expect(demote.status).toBe(400);
    expect(await errorOf(demote)).toMatchObject({
      code: 'LAST_ADMIN',
      message: 'The company needs at least one administrator who is not locked.',
    });
    const other = await aUser(h.t.db, company, { role: 'admin' });
    expect((await h.send('PUT', `/api/users/${admin.id}`, cookie, { role: 'manager' })).status).toBe(200);
    // Now the other admin is the last one; the former admin cannot act at all.
    const otherCookie = await h.login(other.email, other.password);
    expect((await h.send('POST', `/api/users/${other.id}/lock`, otherCookie)).status).toBe(400);
    expect((await h.get('/api/users', cookie)).status).toBe(403);
  });

  it("leaves internal staff's accounts to internal staff", async () => {
    const { company, cookie } = await h.tenant();
    const root = await aUser(h.t.db, company, { role: 'admin', isRoot: true });
    const res = await h.send('POST', `/api/users/${root.id}/lock`, cookie);
    expect(res.status).toBe(403);
    expect((await errorOf(res)).message).toBe('Only internal staff can change this account.');
  });

  describe('who may manage users (admins of the company only)', () => {
    type Who = 'admin' | 'manager' | 'operator' | 'kiosk' | 'tablet' | 'otherAdmin' | 'nobody';
    const expected: Record<Who, number[]> = {
      admin: [200, 200, 200, 204],
      manager: [403, 403, 403, 403],
      operator: [403, 403, 403, 403],
      kiosk: [403, 403, 403, 403],
      tablet: [403, 403, 403, 403],
      otherAdmin: [200, 404, 404, 404],
      nobody: [401, 401, 401, 401],
    };
    it.each(Object.keys(expected) as Who[])('%s', async (who) => {
      const { company, cookie: adminCookie } = await h.tenant();
      const target = await aUser(h.t.db, company, { role: 'operator', displayName: 'Otto' });
      const cookie =
        who === 'admin'
          ? adminCookie
          : who === 'tablet'
            ? (await aTablet(h.t.db, company, null, h.clock.now)).cookie
            : who === 'otherAdmin'
              ? (await h.tenant()).cookie
              : who === 'nobody'
                ? ''
                : await loginAs(h, company, who);
      const got = [
        (await h.get('/api/users', cookie)).status,
        (await h.send('PUT', `/api/users/${target.id}`, cookie, { displayName: 'X' })).status,
        (await h.send('POST', `/api/users/${target.id}/lock`, cookie)).status,
        (await h.send('DELETE', `/api/users/${target.id}`, cookie)).status,
      ];
      expect(got).toEqual(expected[who]);
      if (who === 'otherAdmin') {
        const still = await h.read('/api/users', adminCookie, users);
        expect(still.find((u) => u.id === target.id)).toMatchObject({ displayName: 'Otto', locked: false });
      }
    });
  });
});

describe.each(DIALECTS)('invites on %s', (dialect) => {
  let h: ApiHarness;
  beforeEach(async () => {
    h = await apiHarness(dialect);
  });
  afterEach(async () => {
    await h.close();
  });

  it('invites one address per line, e-mails each a link, and the link makes the user once', async () => {
    const { company, cookie } = await h.tenant();
    const res = await h.send('POST', '/api/invites', cookie, {
      invitees: [' Max@Shop.example ', '', 'kim@shop.example', 'max@shop.example'],
      role: 'manager',
    });
    expect(res.status).toBe(201);
    const { invites, failed } = (await res.json()) as { invites: unknown[]; failed: string[] };
    expect(failed).toEqual([]);
    expect(inviteList.parse(invites).map((i) => [i.email, i.role, i.invitedBy])).toEqual([
      ['max@shop.example', 'manager', 'Test User'],
      ['kim@shop.example', 'manager', 'Test User'],
    ]);
    const listed = await h.read('/api/invites', cookie, inviteList);
    expect(listed.map((i) => i.email).sort()).toEqual(['kim@shop.example', 'max@shop.example']);
    expect(listed[0]).toMatchObject({ sentAt: h.clock.now, expiresAt: h.clock.now + 7 * DAY });

    const mail = await listOutboxMail(companyScope(h.t.db, company.id));
    expect(mail.map((m) => m.to).sort()).toEqual(['kim@shop.example', 'max@shop.example']);
    expect(mail[0]?.subject).toMatch(/^You are invited to .+ on Takt$/);
    expect(mail[0]?.text).toContain('http://localhost:8080/app/set-password#token=');

    const token = await linkTokenTo(h, company, 'max@shop.example');
    const link = await anonymous(h, '/api/account/link', { token });
    expect(accountLinkSchema.parse(await link.json())).toEqual({
      kind: 'invite',
      email: 'max@shop.example',
      companyName: company.name,
    });
    const done = await setPassword(h, token, GOOD, GOOD, { displayName: 'Max Meyer' });
    expect(done.status).toBe(200);
    expect(await done.json()).toEqual({ email: 'max@shop.example' });
    expect(await canLogIn(h, 'max@shop.example', GOOD)).toBe(true);
    const max = (await h.read('/api/users', cookie, users)).find((u) => u.email === 'max@shop.example');
    expect(max).toMatchObject({ displayName: 'Max Meyer', role: 'manager' });
    // Single use: the invite is gone, the link with it.
    expect((await h.read('/api/invites', cookie, inviteList)).map((i) => i.email)).toEqual([
      'kim@shop.example',
    ]);
    const again = await setPassword(h, token, 'An0therOne');
    expect(again.status).toBe(404);
    expect(await errorOf(again)).toMatchObject({ code: 'LINK_INVALID', message: INVALID });
  });

  it('defaults the role to kiosk and refuses bad addresses, accounts and open invites as a list', async () => {
    const { company, user, cookie } = await h.tenant();
    const made = await h.send('POST', '/api/invites', cookie, { invitees: ['kiosk@shop.example'] });
    expect(inviteList.parse(((await made.json()) as { invites: unknown }).invites)[0]?.role).toBe('kiosk');

    const bad = await h.send('POST', '/api/invites', cookie, { invitees: ['not an address'], role: 'boss' });
    expect(bad.status).toBe(400);
    expect(issueFields(await errorOf(bad))).toEqual(['invitees.0', 'role']);
    const empty = await h.send('POST', '/api/invites', cookie, { invitees: [' ', ''] });
    expect((await errorOf(empty)).message).toBe('Missing required field: E-mail addresses');

    const taken = await h.send('POST', '/api/invites', cookie, {
      invitees: ['new@shop.example', user.email.toUpperCase(), 'kiosk@shop.example'],
    });
    expect(taken.status).toBe(400);
    const e = await errorOf(taken);
    expect(e.issues?.map((i) => [i.field, i.message])).toEqual([
      ['invitees.1', `${user.email} already has an account.`],
      ['invitees.2', 'kiosk@shop.example is already invited.'],
    ]);
    // Nothing was made: not even the good address.
    expect((await h.read('/api/invites', cookie, inviteList)).map((i) => i.email)).toEqual([
      'kiosk@shop.example',
    ]);
    expect(await listOutboxMail(companyScope(h.t.db, company.id))).toHaveLength(1);
  });

  it('resends with a new link (the old one stops working) and deletes an invite with its link', async () => {
    const { company, cookie } = await h.tenant();
    await h.send('POST', '/api/invites', cookie, { invitees: ['max@shop.example', 'kim@shop.example'] });
    const [kim, max] = await h
      .read('/api/invites', cookie, inviteList)
      .then((l) => [...l].sort((a, b) => a.email.localeCompare(b.email)));
    const first = await linkTokenTo(h, company, 'max@shop.example');
    h.clock.now += 6 * DAY;
    const resent = await h.send('POST', `/api/invites/${max!.id}/resend`, cookie);
    expect(resent.status).toBe(200);
    expect(await resent.json()).toEqual({ message: SENT });
    const second = await linkTokenTo(h, company, 'max@shop.example');
    expect(second).not.toBe(first);
    expect((await anonymous(h, '/api/account/link', { token: first })).status).toBe(404);
    h.clock.now += 6 * DAY;
    // A week from the resend, not from the first e-mail.
    expect((await anonymous(h, '/api/account/link', { token: second })).status).toBe(200);

    const kimToken = await linkTokenTo(h, company, 'kim@shop.example');
    expect((await h.send('DELETE', `/api/invites/${kim!.id}`, cookie)).status).toBe(204);
    expect((await h.send('DELETE', `/api/invites/${kim!.id}`, cookie)).status).toBe(404);
    expect((await setPassword(h, kimToken)).status).toBe(404);
  });

  it('refuses an expired link and a password that breaks the rules, with the texts', async () => {
    const { company, cookie } = await h.tenant();
    await h.send('POST', '/api/invites', cookie, { invitees: ['max@shop.example'] });
    const token = await linkTokenTo(h, company, 'max@shop.example');
    const weak = await setPassword(h, token, 'short', 'shorts');
    expect(weak.status).toBe(400);
    expect((await errorOf(weak)).issues?.map((i) => i.message)).toEqual([
      'Password must be at least 8 characters.',
      'Password must contain a digit.',
      'Password must contain an uppercase letter.',
      'Retyped password does not match.',
    ]);
    expect((await setPassword(h, '')).status).toBe(400);
    h.clock.now += 7 * DAY;
    expect((await setPassword(h, token)).status).toBe(404);
    expect(await canLogIn(h, 'max@shop.example', GOOD)).toBe(false);
  });

  it("keeps one company's invites from another, and gates them by InviteUsers", async () => {
    const mine = await h.tenant();
    await h.send('POST', '/api/invites', mine.cookie, { invitees: ['max@shop.example'] });
    const [invite] = await h.read('/api/invites', mine.cookie, inviteList);
    const theirs = await h.tenant();
    expect(await h.read('/api/invites', theirs.cookie, inviteList)).toEqual([]);
    expect((await h.send('POST', `/api/invites/${invite!.id}/resend`, theirs.cookie)).status).toBe(404);
    expect((await h.send('DELETE', `/api/invites/${invite!.id}`, theirs.cookie)).status).toBe(404);
    // The same address may be invited by another company; only one of them can become the account.
    expect(
      (await h.send('POST', '/api/invites', theirs.cookie, { invitees: ['max@shop.example'] })).status,
    ).toBe(201);
    expect(await h.read('/api/invites', mine.cookie, inviteList)).toHaveLength(1);

    const manager = await loginAs(h, mine.company, 'manager');
    expect((await h.get('/api/invites', manager)).status).toBe(403);
    expect((await h.send('POST', '/api/invites', manager, { invitees: ['x@shop.example'] })).status).toBe(
      403,
    );
    const tablet = await aTablet(h.t.db, mine.company, null, h.clock.now);
    expect((await h.get('/api/invites', tablet.cookie)).status).toBe(403);
    expect((await h.get('/api/invites', '')).status).toBe(401);
  });
});

describe.each(DIALECTS)('password links on %s', (dialect) => {
  let h: ApiHarness;
  beforeEach(async () => {
    h = await apiHarness(dialect);
  });
  afterEach(async () => {
    await h.close();
  });

  it('an admin-sent link sets a new password once and ends the old sessions', async () => {
    const { company, cookie } = await h.tenant();
    const maria = await aUser(h.t.db, company, { role: 'manager' });
    const hers = await h.login(maria.email, maria.password);
    const res = await h.send('POST', `/api/users/${maria.id}/reset-password`, cookie);
    expect(res.status).toBe(200);
    expect(await res.json()).toEqual({ message: SENT });
    // The old password works until the link is used.
    expect(await canLogIn(h, maria.email, maria.password)).toBe(true);
    const token = await linkTokenTo(h, company, maria.email);
    expect(
      accountLinkSchema.parse(await (await anonymous(h, '/api/account/link', { token })).json()),
    ).toMatchObject({
      kind: 'reset',
      email: maria.email,
    });
    expect((await setPassword(h, token, 'NoDigitsHere')).status).toBe(400);
    expect((await setPassword(h, token, GOOD)).status).toBe(200);
    expect(await canLogIn(h, maria.email, GOOD)).toBe(true);
    expect(await canLogIn(h, maria.email, maria.password)).toBe(false);
    expect((await h.get('/api/me', hers)).status).toBe(401);
    expect((await setPassword(h, token, 'Again4Again')).status).toBe(404);
  });

  it('"forgot password" answers the same for any address and mails only a real, unlocked account', async () => {
    const { company, cookie } = await h.tenant();
    const maria = await aUser(h.t.db, company, { role: 'manager' });
    const say = 'If an account uses that address, an e-mail with a link to set a new password is on its way.';
    for (const email of ['nobody@shop.example', maria.email.toUpperCase()]) {
      const res = await anonymous(h, '/api/account/forgot', { email });
      expect(res.status).toBe(200);
      expect(await res.json()).toEqual({ message: say });
    }
    const mail = await listOutboxMail(companyScope(h.t.db, company.id));
    expect(mail.map((m) => [m.to, m.subject])).toEqual([[maria.email, 'Set a new Takt password']]);
    const first = await linkTokenTo(h, company, maria.email);
    // A second link; using either spends both.
    await anonymous(h, '/api/account/forgot', { email: maria.email });
    const second = await linkTokenTo(h, company, maria.email);
    expect((await setPassword(h, second)).status).toBe(200);
    expect((await setPassword(h, first, 'Other0ne!')).status).toBe(404);

    await h.send('POST', `/api/users/${maria.id}/lock`, cookie);
    await anonymous(h, '/api/account/forgot', { email: maria.email });
    expect(await listOutboxMail(companyScope(h.t.db, company.id))).toHaveLength(2);
    const bad = await anonymous(h, '/api/account/forgot', { email: 'nope' });
    expect(bad.status).toBe(400);
    expect((await errorOf(bad)).message).toBe('Enter a valid e-mail address');
    const expired = await anonymous(h, '/api/account/link', { token: 'x'.repeat(43) });
    expect(await errorOf(expired)).toMatchObject({ code: 'LINK_INVALID', message: INVALID });
  });

  it('"forgot password" sends at most 3 e-mails per address in 15 minutes, answering the same', async () => {
    const { company } = await h.tenant();
    const maria = await aUser(h.t.db, company, { role: 'manager' });
    for (let i = 0; i < 5; i++) {
      const res = await anonymous(h, '/api/account/forgot', { email: maria.email });
      expect(res.status).toBe(200);
    }
    expect(await listOutboxMail(companyScope(h.t.db, company.id))).toHaveLength(3);
    h.clock.now += 15 * 60_000;
    await anonymous(h, '/api/account/forgot', { email: maria.email });
    expect(await listOutboxMail(companyScope(h.t.db, company.id))).toHaveLength(4);
  });

  it('expires after a day', async () => {
    const { company, cookie } = await h.tenant();
    const other = await aUser(h.t.db, company, { role: 'operator' });
    await h.send('POST', `/api/users/${other.id}/reset-password`, cookie);
    const token = await linkTokenTo(h, company, other.email);
    h.clock.now += DAY - 1;
    expect((await anonymous(h, '/api/account/link', { token })).status).toBe(200);
    h.clock.now += 1;
    expect((await setPassword(h, token)).status).toBe(404);
    expect(await canLogIn(h, other.email, GOOD)).toBe(false);
  });
});

describe.each(DIALECTS)('account e-mail over SMTP on %s', (dialect) => {
  let h: ApiHarness | undefined;
  let smtp: SmtpListener | undefined;
  afterEach(async () => {
    await h?.close();
    await smtp?.close();
    h = smtp = undefined;
  });

  it('hands the invite to the SMTP server', async () => {
    smtp = await smtpListener();
    h = await apiHarness(dialect, undefined, { mail: smtpTransport(smtp.url, 'Takt <takt@test.example>') });
    const { cookie } = await h.tenant();
    expect((await h.send('POST', '/api/invites', cookie, { invitees: ['max@shop.example'] })).status).toBe(
      201,
    );
    expect(smtp.received).toHaveLength(1);
    expect(smtp.received[0]).toMatchObject({ to: ['max@shop.example'] });
    // The body is quoted-printable: undo its soft line breaks and `=3D` before looking for the link.
    const body = (smtp.received[0]?.data ?? '').replace(/=\r\n/g, '').replaceAll('=3D', '=');
    expect(body).toMatch(/http:\/\/localhost:8080\/app\/set-password#token=[\w-]{43}/);
  });

  it('answers the failure text when the server cannot be reached, and keeps the invite to resend', async () => {
    h = await apiHarness(dialect, undefined, {
      mail: smtpTransport(await deadSmtpUrl(), 'takt@test.example'),
    });
    const { company, cookie } = await h.tenant();
    const res = await h.send('POST', '/api/invites', cookie, { invitees: ['max@shop.example'] });
    expect(res.status).toBe(502);
    expect(await errorOf(res)).toMatchObject({ code: 'MAIL_FAILED', message: FAILED });
    const [invite] = await h.read('/api/invites', cookie, inviteList);
    expect(invite?.email).toBe('max@shop.example');
    const resend = await h.send('POST', `/api/invites/${invite!.id}/resend`, cookie);
    expect(resend.status).toBe(502);
    const maria = await aUser(h.t.db, company, { role: 'manager' });
    expect((await h.send('POST', `/api/users/${maria.id}/reset-password`, cookie)).status).toBe(502);
  });
});
