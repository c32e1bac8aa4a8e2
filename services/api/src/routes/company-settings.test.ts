import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { DIALECTS } from '@takt/db/testing';
import { apiHarness } from '../testing/app';
import type { ApiHarness } from '../testing/app';
import { aCompany } from '../testing/builders';
import { errorOf, issueFields, loginAs } from '../testing/live-builders';

// reports-admin §2 "Settings: region list; confirmation to enable setup stages", §5 "Enabling setup stages
// requires typing the company name", §6 FullProduct gates setup stages.

const PATH = '/api/company/settings';

describe.each(DIALECTS)('company settings on %s', (dialect) => {
  let h: ApiHarness;
  beforeEach(async () => {
    h = await apiHarness(dialect);
  });
  afterEach(async () => {
    await h.close();
  });

  it('reads and saves the region; enabling setup stages needs the typed company name', async () => {
    const { company, cookie } = await h.tenant();
    const read = await h.get(PATH, cookie);
    expect(await read.json()).toEqual({ name: company.name, locale: 'en-US', enable_setup_stages: false });

    const region = await h.send('PUT', PATH, cookie, { locale: 'de-DE' });
    expect(await region.json()).toEqual({ name: company.name, locale: 'de-DE', enable_setup_stages: false });

    const wrong = await h.send('PUT', PATH, cookie, { enable_setup_stages: true, companyName: 'nope' });
    expect(wrong.status).toBe(400);
    expect(issueFields(await errorOf(wrong))).toEqual(['companyName']);

    const on = await h.send('PUT', PATH, cookie, {
      enable_setup_stages: true,
      companyName: ` ${company.name} `,
    });
    expect(on.status).toBe(200);
    expect(((await on.json()) as { enable_setup_stages: boolean }).enable_setup_stages).toBe(true);
    const flags = (await (await h.get('/api/company/flags', cookie)).json()) as {
      enable_setup_stages: boolean;
    };
    expect(flags.enable_setup_stages).toBe(true);

    // Turning them off needs no confirmation.
    const off = await h.send('PUT', PATH, cookie, { enable_setup_stages: false });
    expect(((await off.json()) as { enable_setup_stages: boolean }).enable_setup_stages).toBe(false);
  });

  it('refuses a region outside the list, non-admins, and setup stages without FullProduct', async () => {
    const { company, cookie } = await h.tenant();
    const bad = await h.send('PUT', PATH, cookie, { locale: 'xx-XX' });
    expect(bad.status).toBe(400);
    expect(issueFields(await errorOf(bad))).toEqual(['locale']);

    const manager = await loginAs(h, company, 'manager');
    expect((await h.get(PATH, manager)).status).toBe(403);
    expect((await h.send('PUT', PATH, manager, { locale: 'en-GB' })).status).toBe(403);

    const small = await aCompany(h.t.db, { productTier: 'utilization' });
    const admin = await loginAs(h, small, 'admin');
    expect((await h.send('PUT', PATH, admin, { locale: 'en-GB' })).status).toBe(200);
    const stages = await h.send('PUT', PATH, admin, { enable_setup_stages: true, companyName: small.name });
    expect(stages.status).toBe(403);
  });
});
