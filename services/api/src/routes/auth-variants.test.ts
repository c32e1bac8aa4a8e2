import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { meSchema } from '@takt/domain';
import { DIALECTS } from '@takt/db/testing';
import { smtpTransport } from '../mail/transport';
import type { ApiHarness } from '../testing/app';
import { apiHarness } from '../testing/app';
import { aCompany, aMachine, aUser } from '../testing/builders';
import { errorOf } from '../testing/live-builders';
import { startSmtpServer } from '../testing/smtp-server';
import type { TestSmtpServer } from '../testing/smtp-server';
import { LOGIN_CODE_MAILS_PER_WINDOW, LOGIN_CODE_TTL_MS, LOGIN_TEXTS } from '../services/accounts-login';
import { MAX_FAILURES_PER_PAIR } from '../services/login-throttle';

// The login page's variants (reports-admin §2 "Login: device button and code option depending on query
// parameters"; decision 0935) on both dialects: "Use this device" registers the browser as a tablet of the
// admin's company; the code option signs in with a one-time code e-mailed through a real SMTP server.

const deviceAnswer = z.object({
  tablet: z.object({
    id: z.string(),
    serial_number: z.string(),
    remote_identifier: z.string().nullable(),
    machine_id: z.string().nullable(),
    dashboardView: z.string(),
  }),
  redirectTo: z.string(),
});

describe.each(DIALECTS)('login variants on %s', (dialect) => {
  let h: ApiHarness;
  let smtp: TestSmtpServer;
  beforeAll(async () => {
    smtp = await startSmtpServer();
    h = await apiHarness(dialect, undefined, { mail: smtpTransport(smtp.url, 'Takt <takt@test.example>') });
  });
  afterAll(async () => {
    await h?.close();
    await smtp?.close();
  });

  /** A request without a session, from `address` (the socket's remote address). */
  const post = (path: string, body: unknown, address = '10.1.0.1') =>
    h.app.request(
      path,
      {
        method: 'POST',
        headers: { 'content-type': 'application/json', origin: 'http://localhost' },
        body: JSON.stringify(body),
      },
      { incoming: { socket: { remoteAddress: address } } },
    );
  const cookieOf = (res: Response, name: string) =>
    (res.headers.get('set-cookie') ?? '')
      .split(/,(?=\s*\w+=)/)
      .map((c) => c.trim().split(';')[0]!)
      .find((c) => c.startsWith(`${name}=`));

  describe('Use this device', () => {
    it("registers the browser as an active tablet of the admin's company, bound to the machine asked for", async () => {
      const company = await aCompany(h.t.db);
      const admin = await aUser(h.t.db, company, { role: 'admin' });
      const machine = await aMachine(h.t.db, company, { name: 'Lathe 7' });
      const res = await post('/login/device', {
        email: admin.email,
        password: admin.password,
        serial_number: 'SN-DEVICE-1',
        machineId: machine,
      });
      expect(res.status).toBe(200);
      const answer = deviceAnswer.parse(await res.json());
      expect(answer).toMatchObject({
        tablet: { serial_number: 'SN-DEVICE-1', machine_id: machine, dashboardView: 'opdash' },
        redirectTo: `/${machine}`,
      });
      // A tablet's cookie, no user session: the device acts as the tablet (decision 0500).
      expect(cookieOf(res, 'takt_session')).toBeUndefined();
      const tabletCookie = cookieOf(res, 'takt_tablet');
      expect(tabletCookie).toBeDefined();
      const me = meSchema.parse(await (await h.get('/api/me', tabletCookie!)).json());
      expect(me).toMatchObject({ id: `tablet:${answer.tablet.id}`, role: 'operator', isAdmin: false });
      expect(me.company.id).toBe(company.id);

      // The Tablets screen lists it as active, registered by the admin.
      const adminCookie = await h.login(admin.email, admin.password);
      const listed = z
        .array(z.object({ id: z.string(), state: z.string(), machine_id: z.string().nullable() }))
        .parse(await (await h.get('/api/tablets', adminCookie)).json());
      expect(listed).toEqual([
        expect.objectContaining({ id: answer.tablet.id, state: 'active', machine_id: machine }),
      ]);
    });

    it('is for admins only, checks the password first, and takes only machines of the company', async () => {
      const company = await aCompany(h.t.db);
      const manager = await aUser(h.t.db, company, { role: 'manager' });
      const admin = await aUser(h.t.db, company, { role: 'admin' });
      const refused = await post('/login/device', { email: manager.email, password: manager.password });
      expect(refused.status).toBe(403);
      expect(await errorOf(refused)).toMatchObject({
        code: 'DEVICE_ADMIN_ONLY',
        message: LOGIN_TEXTS.deviceAdminOnly,
      });
      const wrong = await post('/login/device', { email: admin.email, password: 'Wrong-pass1' });
      expect(wrong.status).toBe(401);
      expect(cookieOf(wrong, 'takt_tablet')).toBeUndefined();
      const theirMachine = await aMachine(h.t.db, await aCompany(h.t.db));
      const foreign = await post('/login/device', {
        email: admin.email,
        password: admin.password,
        machineId: theirMachine,
      });
      expect(foreign.status).toBe(400);
      // Nothing was registered by the refused calls; a serial number is made when the browser sends none.
      expect(
        await h.t.db.selectFrom('tablets').where('company_id', '=', company.id).selectAll().execute(),
      ).toEqual([]);
      const ok = deviceAnswer.parse(
        await (await post('/login/device', { email: admin.email, password: admin.password })).json(),
      );
      expect(ok.tablet.serial_number).toMatch(/^WEB-[0-9A-F]{8}$/);
      expect(ok.redirectTo).toBe('/');
    });

    it('counts wrong passwords against the login throttle', async () => {
      const company = await aCompany(h.t.db);
      const admin = await aUser(h.t.db, company, { role: 'admin' });
      for (let i = 0; i < MAX_FAILURES_PER_PAIR; i++)
        expect((await post('/login/device', { email: admin.email, password: 'Wrong-pass1' })).status).toBe(
          401,
        );
      expect((await post('/login/device', { email: admin.email, password: admin.password })).status).toBe(
        429,
      );
      expect((await post('/login', { email: admin.email, password: admin.password })).status).toBe(429);
    });
  });

  describe('Sign in with a code', () => {
    /** The code in the last e-mail to `email` (in the text; never in the subject, issue 26). */
    const codeMailedTo = (email: string) => {
      const mail = smtp.received.filter((m) => m.to.includes(email)).at(-1);
      expect(mail?.subject).toBe('Your Takt sign-in code');
      return /\n {4}(\d{6})\r?\n/.exec(mail?.raw ?? '')?.[1];
    };

    it('e-mails a one-time code that opens a session once', async () => {
      const company = await aCompany(h.t.db);
      const user = await aUser(h.t.db, company, { role: 'operator' });
      const asked = await post('/login/code/request', { email: user.email.toUpperCase() });
      expect(asked.status).toBe(200);
      expect(await asked.json()).toEqual({ message: LOGIN_TEXTS.codeSent });
      const code = codeMailedTo(user.email);
      expect(code).toMatch(/^\d{6}$/);
      // Only a hash is stored.
      const rows = await h.t.db
        .selectFrom('login_codes')
        .selectAll()
        .where('user_id', '=', user.id)
        .execute();
      expect(rows).toHaveLength(1);
      expect(rows[0]!.code_hash).not.toContain(code!);

      const res = await post('/login/code', { email: user.email, code: ` ${code} ` });
      expect(res.status).toBe(200);
      const session = cookieOf(res, 'takt_session');
      expect(meSchema.parse(await (await h.get('/api/me', session!)).json()).id).toBe(user.id);
      // Used once.
      const again = await post('/login/code', { email: user.email, code });
      expect(again.status).toBe(401);
      expect(await errorOf(again)).toMatchObject({ code: 'INVALID_CODE', message: LOGIN_TEXTS.codeWrong });
    });

    it('refuses an expired code, an older code and another account’s code', async () => {
      const company = await aCompany(h.t.db);
      const user = await aUser(h.t.db, company);
      const other = await aUser(h.t.db, company);
      await post('/login/code/request', { email: user.email });
      const first = codeMailedTo(user.email)!;
      await post('/login/code/request', { email: user.email });
      const second = codeMailedTo(user.email)!;
      await post('/login/code/request', { email: other.email });
      const others = codeMailedTo(other.email)!;
      if (first !== second)
        expect((await post('/login/code', { email: user.email, code: first })).status).toBe(401);
      if (others !== second)
        expect((await post('/login/code', { email: user.email, code: others })).status).toBe(401);
      h.clock.now += LOGIN_CODE_TTL_MS;
      expect((await post('/login/code', { email: user.email, code: second })).status).toBe(401);
    });

    it('answers the same for unknown and locked addresses and mails them nothing; limits mails per address', async () => {
      const company = await aCompany(h.t.db);
      const locked = await aUser(h.t.db, company);
      await h.t.db.updateTable('users').set({ locked: 1 }).where('id', '=', locked.id).execute();
      const before = smtp.received.length;
      for (const email of ['nobody@test.example', locked.email]) {
        const res = await post('/login/code/request', { email });
        expect(await res.json()).toEqual({ message: LOGIN_TEXTS.codeSent });
      }
      expect(smtp.received.length).toBe(before);

      const user = await aUser(h.t.db, company);
      for (let i = 0; i < LOGIN_CODE_MAILS_PER_WINDOW + 2; i++)
        expect((await post('/login/code/request', { email: user.email })).status).toBe(200);
      expect(smtp.received.filter((m) => m.to.includes(user.email))).toHaveLength(
        LOGIN_CODE_MAILS_PER_WINDOW,
      );
    });

    it('stops guessing with the login throttle', async () => {
      const company = await aCompany(h.t.db);
      const user = await aUser(h.t.db, company);
      await post('/login/code/request', { email: user.email });
      const code = codeMailedTo(user.email)!;
      const wrong = code === '000000' ? '000001' : '000000';
      for (let i = 0; i < MAX_FAILURES_PER_PAIR; i++)
        expect((await post('/login/code', { email: user.email, code: wrong }, '10.2.0.1')).status).toBe(401);
      const refused = await post('/login/code', { email: user.email, code }, '10.2.0.1');
      expect(refused.status).toBe(429);
      expect((await errorOf(refused)).code).toBe('TOO_MANY_ATTEMPTS');
    });

    it('checks its bodies', async () => {
      const bad = await post('/login/code', { email: 'not-an-address', code: '' });
      expect(bad.status).toBe(400);
      expect((await errorOf(bad)).message).toBe(
        'Enter a valid e-mail address; Enter the code from the e-mail.',
      );
    });
  });
});
