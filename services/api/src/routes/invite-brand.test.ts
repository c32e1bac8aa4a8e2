import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { companyScope } from '@takt/db';
import { DIALECTS } from '@takt/db/testing';
import { inviteSchema, userPreferencesSchema } from '@takt/domain';
import type { ApiHarness } from '../testing/app';
import { apiHarness } from '../testing/app';
import { aCompany, aUser } from '../testing/builders';
import { errorOf } from '../testing/live-builders';
import { listOutboxMail } from '../testing/mail-outbox';

// reports-admin §3 "Invitee: invitees list, role, brand_override" (decision 1117): a root user or a service
// provider may give an invite a brand; the invitation e-mail and the invited user's app name it instead of
// Takt.

const inviteList = z.array(inviteSchema);
const RULE = "A brand is at most 40 letters, digits, spaces and . , & ' ( ) -";

describe.each(DIALECTS)('invite brand on %s', (dialect) => {
  let h: ApiHarness;
  beforeEach(async () => {
    h = await apiHarness(dialect);
  });
  afterEach(async () => {
    await h.close();
  });

  async function rootOf(tier: 'full' | 'serviceProvider' = 'full', isRoot = true) {
    const company = await aCompany(h.t.db, { productTier: tier });
    const user = await aUser(h.t.db, company, { role: 'admin', isRoot });
    return { company, cookie: await h.login(user.email, user.password) };
  }

  /** Accepts the invite e-mailed to `to` (the link that still works); answers the new user's login cookie. */
  async function accept(companyId: string, to: string): Promise<string> {
    const mails = (await listOutboxMail(companyScope(h.t.db, companyId))).filter((m) => m.to === to);
    const statuses: number[] = [];
    for (const mail of mails) {
      const token = /#token=([\w-]+)/.exec(mail.text)?.[1];
      const res = await h.app.request('/api/account/password', {
        method: 'POST',
        headers: { 'content-type': 'application/json', origin: 'http://localhost' },
        body: JSON.stringify({ token, password: 'Tr0ub4dor&3', retype: 'Tr0ub4dor&3' }),
      });
      statuses.push(res.status);
    }
    // One link made the user; a resent invite's older link no longer works.
    expect(statuses.filter((s) => s === 200)).toHaveLength(1);
    return h.login(to, 'Tr0ub4dor&3');
  }

  it("a root user's brand goes on the invite, its e-mail and the invited user's app", async () => {
    const { company, cookie } = await rootOf();
    const res = await h.send('POST', '/api/invites', cookie, {
      invitees: ['max@shop.example'],
      role: 'manager',
      brandOverride: '  Acme  Monitoring ',
    });
    expect(res.status).toBe(201);
    const listed = await h.read('/api/invites', cookie, inviteList);
    expect(listed.map((i) => [i.email, i.brandOverride])).toEqual([['max@shop.example', 'Acme Monitoring']]);
    const [mail] = await listOutboxMail(companyScope(h.t.db, company.id));
    expect(mail?.subject).toBe(`You are invited to ${company.name} on Acme Monitoring`);
    expect(mail?.text).toContain(`invited you to ${company.name} on Acme Monitoring (role: manager)`);
    expect(mail?.text).not.toContain('Takt');

    // A resend keeps the brand.
    await h.send('POST', `/api/invites/${listed[0]!.id}/resend`, cookie);
    const mails = await listOutboxMail(companyScope(h.t.db, company.id));
    expect(mails.map((m) => m.subject)).toEqual([
      `You are invited to ${company.name} on Acme Monitoring`,
      `You are invited to ${company.name} on Acme Monitoring`,
    ]);

    const max = await accept(company.id, 'max@shop.example');
    expect((await h.read('/api/me/preferences', max, userPreferencesSchema)).brand).toBe('Acme Monitoring');
    // The inviter keeps Takt.
    expect((await h.read('/api/me/preferences', cookie, userPreferencesSchema)).brand).toBeNull();
  });

  it("a service provider's admin may brand; another company's admin may not (403), and unbranded is Takt", async () => {
    const provider = await rootOf('serviceProvider', false);
    const branded = await h.send('POST', '/api/invites', provider.cookie, {
      invitees: ['kim@shop.example'],
      brandOverride: "O'Neil & Sons (Tools)",
    });
    expect(branded.status).toBe(201);

    const plain = await rootOf('full', false);
    const refused = await h.send('POST', '/api/invites', plain.cookie, {
      invitees: ['ann@shop.example'],
      brandOverride: 'Mine',
    });
    expect(refused.status).toBe(403);
    expect((await errorOf(refused)).message).toBe('Only root users and service providers may set a brand.');
    expect(await h.read('/api/invites', plain.cookie, inviteList)).toEqual([]);
    // Without a brand (or an empty one) the invite says Takt and the user gets none.
    const made = await h.send('POST', '/api/invites', plain.cookie, {
      invitees: ['ann@shop.example'],
      brandOverride: '  ',
    });
    expect(made.status).toBe(201);
    const [mail] = await listOutboxMail(companyScope(h.t.db, plain.company.id));
    expect(mail?.subject).toBe(`You are invited to ${plain.company.name} on Takt`);
    const ann = await accept(plain.company.id, 'ann@shop.example');
    expect((await h.read('/api/me/preferences', ann, userPreferencesSchema)).brand).toBeNull();
    // One company's invites are not another's.
    expect((await h.read('/api/invites', plain.cookie, inviteList)).map((i) => i.email)).toEqual([]);
    expect((await h.read('/api/invites', provider.cookie, inviteList)).map((i) => i.brandOverride)).toEqual([
      "O'Neil & Sons (Tools)",
    ]);
  });

  it('refuses a brand that is too long or has other characters, in the rule’s words', async () => {
    const { cookie } = await rootOf();
    for (const brandOverride of ['x'.repeat(41), '<b>Acme</b>', 'Acme\nTakt', 'Acme: Tools', 7]) {
      const res = await h.send('POST', '/api/invites', cookie, {
        invitees: ['max@shop.example'],
        brandOverride,
      });
      expect(res.status).toBe(400);
      expect((await errorOf(res)).message).toBe(RULE);
    }
    expect(await h.read('/api/invites', cookie, inviteList)).toEqual([]);
    const okay = await h.send('POST', '/api/invites', cookie, {
      invitees: ['max@shop.example'],
      brandOverride: 'Überwachung 2000 – GmbH'.replace('–', '-'),
    });
    expect(okay.status).toBe(201);
  });
});
