import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { DIALECTS } from '@takt/db/testing';
import { NEW_COMPANY_SETTINGS } from '@takt/domain';
import { apiHarness } from '../testing/app';
import type { ApiHarness } from '../testing/app';
import { aCompany } from '../testing/builders';
import { errorOf, issueFields, loginAs } from '../testing/live-builders';

// reports-admin §2 "Settings: region list; confirmation to enable setup stages", §5 "Enabling setup stages
// requires typing the company name", §6 FullProduct gates setup stages; every other company setting the specs
// name (reports-admin §3 Company, live-operations §2/§3; decision 1087).

/** A new company's settings (migrations 0002 and 0040). */
const DEFAULTS = NEW_COMPANY_SETTINGS;

/** Every setting but setup stages (which needs its confirmation) changed from its default. */
const CHANGED = {
  locale: 'de-DE',
  hide_remove_rejected_parts_checkbox: true,
  areActivitiesEnabled: true,
  cycleinputoption: 'partsperhour',
  enable_tablet_machine_switching: false,
  operator_tracking: false,
  downtime_list_filter_duration: 60_000,
  underlay_delay: 10_000,
  underlay_auto_expand: 600_000,
  long_downtime_threshold: 1_800_000,
  warningpercent: 95,
  failurepercent: 80,
  utilizationwarningpercent: 70,
  utilizationfailurepercent: 50,
  warningpercent_oee: 65,
  failurepercent_oee: 45,
  enable_auto_job_dispatch: true,
  exclude_from_benchmarking: 1,
  tablet_registration_key: 'plant-7-key',
  address: '1 Mill Lane, Springfield',
};

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
    expect(await read.json()).toMatchObject({
      name: company.name,
      locale: 'en-US',
      enable_setup_stages: false,
    });

    const region = await h.send('PUT', PATH, cookie, { locale: 'de-DE' });
    expect(await region.json()).toMatchObject({
      name: company.name,
      locale: 'de-DE',
      enable_setup_stages: false,
    });

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

  it('reads every setting, and every one round-trips through PUT, GET and the flags', async () => {
    const { company, cookie } = await h.tenant();
    expect(await (await h.get(PATH, cookie)).json()).toEqual({ name: company.name, ...DEFAULTS });

    const put = await h.send('PUT', PATH, cookie, CHANGED);
    expect(put.status).toBe(200);
    const expected = { name: company.name, ...DEFAULTS, ...CHANGED };
    expect(await put.json()).toEqual(expected);
    expect(await (await h.get(PATH, cookie)).json()).toEqual(expected);
    // The ones the floor app reads are company flags too.
    const floorKeys = [
      'hide_remove_rejected_parts_checkbox',
      'areActivitiesEnabled',
      'cycleinputoption',
      'enable_tablet_machine_switching',
      'operator_tracking',
      'downtime_list_filter_duration',
      'underlay_delay',
      'underlay_auto_expand',
      'long_downtime_threshold',
    ] as const;
    expect(await (await h.get('/api/company/flags', cookie)).json()).toMatchObject(
      Object.fromEntries(floorKeys.map((k) => [k, CHANGED[k]])),
    );

    // One field at a time leaves the others; empty text and null clear the free-text fields.
    const cleared = await h.send('PUT', PATH, cookie, { address: '  ', tablet_registration_key: null });
    expect(await cleared.json()).toEqual({ ...expected, address: null, tablet_registration_key: null });
    const undecided = await h.send('PUT', PATH, cookie, { exclude_from_benchmarking: null });
    expect(await undecided.json()).toMatchObject({
      exclude_from_benchmarking: null,
      operator_tracking: false,
    });
  });

  it.each([
    ['cycleinputoption', 'perhour'],
    ['operator_tracking', 'yes'],
    ['areActivitiesEnabled', 1],
    ['downtime_list_filter_duration', -1],
    ['underlay_delay', 1.5],
    ['underlay_auto_expand', 24 * 3_600_000 + 1],
    ['long_downtime_threshold', '600000'],
    ['warningpercent', 101],
    ['utilizationfailurepercent', -1],
    ['failurepercent_oee', 50.5],
    ['exclude_from_benchmarking', 2],
    ['address', 'x'.repeat(251)],
    ['tablet_registration_key', 42],
  ])('answers 400 naming %s for a bad value (%j), and stores nothing', async (field, value) => {
    const { cookie } = await h.tenant();
    const res = await h.send('PUT', PATH, cookie, { address: 'kept out', [field]: value });
    expect(res.status).toBe(400);
    expect(issueFields(await errorOf(res))).toEqual([field]);
    expect(await (await h.get(PATH, cookie)).json()).toMatchObject({ address: null });
  });

  it('answers 400 naming each field it does not take, instead of 200 and nothing', async () => {
    const { cookie } = await h.tenant();
    const res = await h.send('PUT', PATH, cookie, { address: 'A', warningPercent: 80, timezone: 'UTC' });
    expect(res.status).toBe(400);
    const error = await errorOf(res);
    expect(issueFields(error)).toEqual(['timezone', 'warningPercent']);
    expect(error.message).toContain('Unknown field: warningPercent');
    expect(await (await h.get(PATH, cookie)).json()).toMatchObject({ address: null, warningpercent: 90 });
  });

  it('refuses a failure percent above its warning percent, against the stored one too', async () => {
    const { cookie } = await h.tenant();
    const one = await h.send('PUT', PATH, cookie, { failurepercent_oee: 91 });
    expect(one.status).toBe(400);
    expect(issueFields(await errorOf(one))).toEqual(['failurepercent_oee']);
    const both = await h.send('PUT', PATH, cookie, { utilizationwarningpercent: 30 });
    expect(issueFields(await errorOf(both))).toEqual(['utilizationwarningpercent']);
    const equal = await h.send('PUT', PATH, cookie, { warningpercent: 50, failurepercent: 50 });
    expect(equal.status).toBe(200);
  });

  it("lets only admins read or change them, and only their own company's", async () => {
    const mine = await h.tenant();
    const theirs = await h.tenant();
    for (const role of ['manager', 'operator', 'kiosk'] as const) {
      const cookie = await loginAs(h, mine.company, role);
      expect((await h.get(PATH, cookie)).status).toBe(403);
      expect((await h.send('PUT', PATH, cookie, { operator_tracking: false })).status).toBe(403);
    }
    expect((await h.send('PUT', PATH, mine.cookie, CHANGED)).status).toBe(200);
    expect(await (await h.get(PATH, theirs.cookie)).json()).toEqual({
      name: theirs.company.name,
      ...DEFAULTS,
    });
    expect(await (await h.get('/api/company/flags', theirs.cookie)).json()).toMatchObject({
      operator_tracking: true,
      underlay_delay: 30_000,
    });
  });
});
