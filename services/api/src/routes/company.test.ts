import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { companyFlagsSchema } from '@takt/domain';
import { apiHarness } from '../testing/app';
import type { ApiHarness } from '../testing/app';
import { aCompany, aMachine } from '../testing/builders';
import { DIALECTS } from '@takt/db/testing';
import { loginAs } from '../testing/live-builders';
import { aTablet } from '../testing/tablet-builders';

describe.each(DIALECTS)('GET /api/company/flags on %s', (dialect) => {
  let h: ApiHarness;
  beforeEach(async () => {
    h = await apiHarness(dialect);
  });
  afterEach(async () => {
    await h.close();
  });

  const flags = async (cookie: string) => {
    const res = await h.get('/api/company/flags', cookie);
    expect(res.status).toBe(200);
    // Exactly the shape of companyFlagsSchema: no key more, none less.
    return companyFlagsSchema.strict().parse(await res.json());
  };

  it('answers the defaults of a new company, to users of every role and to tablets', async () => {
    const { company, cookie } = await h.tenant();
    const expected = {
      enable_setup_stages: false,
      hide_remove_rejected_parts_checkbox: false,
      areActivitiesEnabled: false,
      cycleinputoption: 'timepercycle',
      enable_tablet_machine_switching: true,
      downtime_list_filter_duration: 120_000,
      currentTimeContext: { offset_millis: 0 },
      product_tier: 'full',
      operator_tracking: true,
      underlay_delay: 30_000,
      underlay_auto_expand: 300_000,
      long_downtime_threshold: 120_000,
    };
    expect(await flags(cookie)).toEqual(expected);
    for (const role of ['manager', 'operator', 'kiosk'] as const) {
      expect(await flags(await loginAs(h, company, role))).toEqual(expected);
    }
    const machine = await aMachine(h.t.db, company);
    expect(await flags((await aTablet(h.t.db, company, machine, h.clock.now)).cookie)).toEqual(expected);
  });

  it("answers the caller's own company's stored settings, never another company's", async () => {
    const mine = await aCompany(h.t.db, { productTier: 'serviceProvider' });
    const theirs = await h.tenant();
    await h.t.db
      .updateTable('companies')
      .set({
        enable_setup_stages: 1,
        hide_remove_rejected_parts_checkbox: 1,
        activities_enabled: 1,
        cycleinputoption: 'partsperhour',
        enable_tablet_machine_switching: 0,
        downtime_list_filter_duration_ms: 300_000,
        time_context_offset_ms: 6 * 3_600_000,
        operator_tracking: 0,
        underlay_delay_ms: 45_000,
        underlay_auto_expand_ms: 600_000,
        long_downtime_threshold_ms: 900_000,
      })
      .where('id', '=', mine.id)
      .execute();
    expect(await flags(await loginAs(h, mine, 'operator'))).toEqual({
      enable_setup_stages: true,
      hide_remove_rejected_parts_checkbox: true,
      areActivitiesEnabled: true,
      cycleinputoption: 'partsperhour',
      enable_tablet_machine_switching: false,
      downtime_list_filter_duration: 300_000,
      currentTimeContext: { offset_millis: 6 * 3_600_000 },
      product_tier: 'serviceProvider',
      operator_tracking: false,
      underlay_delay: 45_000,
      underlay_auto_expand: 600_000,
      long_downtime_threshold: 900_000,
    });
    expect(await flags(theirs.cookie)).toMatchObject({
      enable_setup_stages: false,
      product_tier: 'full',
      currentTimeContext: { offset_millis: 0 },
    });
  });

  it('reports the start of day in force: a scheduled change counts from its date', async () => {
    const { cookie } = await h.tenant();
    const day = 86_400_000;
    // Company time zone America/Chicago; the change takes effect two days from the harness clock.
    const effective = new Date(h.clock.now + 2 * day).toISOString().slice(0, 10);
    const put = await h.send('PUT', '/api/timecontext', cookie, {
      offset_millis: 3_600_000,
      effectivedate: effective,
    });
    expect(put.status, await put.clone().text()).toBe(200);
    expect((await flags(cookie)).currentTimeContext).toEqual({ offset_millis: 0 });
    h.clock.now += 4 * day;
    expect((await flags(cookie)).currentTimeContext).toEqual({ offset_millis: 3_600_000 });
  });

  it('answers 401 without a caller', async () => {
    expect((await h.app.request('/api/company/flags')).status).toBe(401);
  });
});
