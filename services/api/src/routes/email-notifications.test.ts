import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { companyScope } from '@takt/db';
import { smtpTransport } from '../mail/transport';
import { listOutboxMail } from '../testing/mail-outbox';
import type { ApiHarness } from '../testing/app';
import { apiHarness } from '../testing/app';
import { DIALECTS } from '@takt/db/testing';
import { errorOf, issueFields, loginAs } from '../testing/live-builders';
import { deadSmtpUrl, smtpListener } from '../testing/smtp';
import type { SmtpListener } from '../testing/smtp';
import { aTablet } from '../testing/tablet-builders';

// live-operations §7 E-mail preferences and the test e-mail, §8 texts; decision 0701.

const PREFS = '/api/emailnotifications';
const SEND = '/api/emailnotifications/sendemail/';

describe.each(DIALECTS)('e-mail preferences on %s', (dialect) => {
  let h: ApiHarness;
  beforeEach(async () => {
    h = await apiHarness(dialect);
  });
  afterEach(async () => {
    await h.close();
  });

  it('answers the defaults, saves per user and says so', async () => {
    const { company, cookie } = await h.tenant();
    const res = await h.get(PREFS, cookie);
    expect(res.status).toBe(200);
    expect(await res.json()).toEqual({
      receiveDowntimeEmail: true,
      receiveUtilizationEmail: true,
      receiveBenchmarkingEmail: true,
    });
    const prefs = {
      receiveDowntimeEmail: false,
      receiveUtilizationEmail: true,
      receiveBenchmarkingEmail: false,
    };
    const put = await h.send('PUT', PREFS, cookie, prefs);
    expect(put.status).toBe(200);
    expect(await put.json()).toEqual({ ...prefs, message: 'Your preferences have been updated.' });
    expect(await (await h.get(PREFS, cookie)).json()).toEqual(prefs);
    // Saving again updates the same row.
    await h.send('PUT', PREFS, cookie, { ...prefs, receiveBenchmarkingEmail: true });
    expect((await (await h.get(PREFS, cookie)).json()).receiveBenchmarkingEmail).toBe(true);

    // Every role has preferences of its own; a colleague's are untouched.
    const operator = await loginAs(h, company, 'operator');
    expect((await (await h.get(PREFS, operator)).json()).receiveDowntimeEmail).toBe(true);
    expect((await h.send('PUT', PREFS, operator, prefs)).status).toBe(200);
  });

  it('answers 400 with the problems for a body without the three booleans', async () => {
    const { cookie } = await h.tenant();
    const res = await h.send('PUT', PREFS, cookie, { receiveDowntimeEmail: 'yes' });
    expect(res.status).toBe(400);
    expect(issueFields(await errorOf(res))).toEqual([
      'receiveBenchmarkingEmail',
      'receiveDowntimeEmail',
      'receiveUtilizationEmail',
    ]);
  });

  it("keeps one company's preferences and mail from another", async () => {
    const mine = await h.tenant();
    const theirs = await h.tenant();
    await h.send('PUT', PREFS, theirs.cookie, {
      receiveDowntimeEmail: false,
      receiveUtilizationEmail: false,
      receiveBenchmarkingEmail: false,
    });
    expect((await (await h.get(PREFS, mine.cookie)).json()).receiveDowntimeEmail).toBe(true);
    await h.send('PUT', SEND, theirs.cookie);
    expect(await listOutboxMail(companyScope(h.t.db, mine.company.id))).toEqual([]);
    expect(await listOutboxMail(companyScope(h.t.db, theirs.company.id))).toHaveLength(1);
  });

  it('keeps the test e-mail in the outbox when no SMTP server is configured', async () => {
    const { company, user, cookie } = await h.tenant();
    const res = await h.send('PUT', SEND, cookie);
    expect(res.status).toBe(200);
    expect(await res.json()).toEqual({ message: 'Sent. You should get it within the next 10 minutes.' });
    // Without the trailing slash too.
    expect((await h.send('PUT', '/api/emailnotifications/sendemail', cookie)).status).toBe(200);
    const mail = await listOutboxMail(companyScope(h.t.db, company.id));
    expect(mail).toHaveLength(2);
    expect(mail[0]).toMatchObject({ to: user.email, userId: user.id, transport: 'outbox', status: 'stored' });
    expect(mail[0]?.subject).toBe('Takt test e-mail');
  });

  it('refuses a tablet caller, which has no address of its own', async () => {
    const { company } = await h.tenant();
    const tablet = await aTablet(h.t.db, company, null, h.clock.now);
    expect((await h.get(PREFS, tablet.cookie)).status).toBe(403);
    expect((await h.send('PUT', SEND, tablet.cookie)).status).toBe(403);
  });
});

describe.each(DIALECTS)('the test e-mail over SMTP on %s', (dialect) => {
  let h: ApiHarness | undefined;
  let smtp: SmtpListener | undefined;
  afterEach(async () => {
    await h?.close();
    await smtp?.close();
    h = smtp = undefined;
  });

  it('hands the message to the SMTP server and records it as sent', async () => {
    smtp = await smtpListener();
    h = await apiHarness(dialect, undefined, { mail: smtpTransport(smtp.url, 'Takt <takt@test.example>') });
    const { company, user, cookie } = await h.tenant();
    const res = await h.send('PUT', SEND, cookie);
    expect(res.status).toBe(200);
    expect(smtp.received).toHaveLength(1);
    expect(smtp.received[0]).toMatchObject({ from: 'takt@test.example', to: [user.email] });
    expect(smtp.received[0]?.data).toContain('Subject: Takt test e-mail');
    const [row] = await listOutboxMail(companyScope(h.t.db, company.id));
    expect(row).toMatchObject({ transport: 'smtp', status: 'sent', error: null });
  });

  it('answers the failure text when the server cannot be reached, and keeps the failed attempt', async () => {
    h = await apiHarness(dialect, undefined, {
      mail: smtpTransport(await deadSmtpUrl(), 'takt@test.example'),
    });
    const { company, cookie } = await h.tenant();
    const res = await h.send('PUT', SEND, cookie);
    expect(res.status).toBe(502);
    expect(await errorOf(res)).toMatchObject({
      code: 'MAIL_FAILED',
      message: 'Something went wrong. Please try again.',
    });
    const [row] = await listOutboxMail(companyScope(h.t.db, company.id));
    expect(row).toMatchObject({ transport: 'smtp', status: 'failed' });
    expect(row?.error).toBeTruthy();
  });
});
