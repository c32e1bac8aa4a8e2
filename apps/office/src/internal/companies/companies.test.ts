import { describe, expect, it } from 'vitest';
import type { InternalCompany } from '@takt/domain';
import {
  companyBody,
  companyErrors,
  companyFormOf,
  companyQuery,
  formTrialBounds,
  lastSeenTone,
  newCompanyForm,
  trialEnded,
} from './companies';

// reports-admin §2 "Colour by last seen: over 5 minutes danger, over 2 minutes warning, none muted", §5 trial
// rule, §9 thresholds (decisions 0920, 0921).

const NOW = Date.UTC(2026, 10, 26, 15, 0, 0); // 2026-11-26 09:00 in Chicago
const MIN = 60_000;

describe('lastSeenTone', () => {
  it.each([
    [null, false, 'muted'],
    [NOW, false, 'success'],
    [NOW - 2 * MIN, false, 'success'],
    [NOW - 2 * MIN - 1, false, 'warning'],
    [NOW - 5 * MIN, false, 'warning'],
    [NOW - 5 * MIN - 1, false, 'danger'],
    [NOW - 3 * 86_400_000, false, 'danger'],
    // A muted company is never flagged.
    [NOW - 3 * 86_400_000, true, 'muted'],
    [NOW, true, 'muted'],
  ] as const)('last seen %s, muted %s → %s', (lastSeen, muted, tone) => {
    expect(lastSeenTone(lastSeen, NOW, muted)).toBe(tone);
  });
});

const company = (over: Partial<InternalCompany> = {}): InternalCompany => ({
  id: 'c1',
  name: 'Acme',
  timezone: 'America/Chicago',
  product_tier: 'full',
  erp: null,
  trial_expiration_date: null,
  muted: false,
  annualRecurringRevenue: null,
  machineCount: 0,
  lastSeen: null,
  createdAt: 0,
  ...over,
});

describe('trial dates on the form', () => {
  it('starts a new company with a 14-day trial, today to 365 days ahead', () => {
    const form = newCompanyForm(NOW);
    expect(form.trial).toBe('2026-12-10');
    expect(formTrialBounds(form, null, NOW)).toMatchObject({ min: '2026-11-26', max: '2027-11-26' });
  });

  it('uses the chosen zone’s today: 2026-11-26 15:00 UTC is already the 27th in Kiritimati', () => {
    expect(formTrialBounds({ timezone: 'Pacific/Kiritimati' }, null, NOW).min).toBe('2026-11-27');
  });

  it('keeps a past trial date as the minimum when editing', () => {
    const form = companyFormOf(company({ trial_expiration_date: '2026-09-01' }));
    const bounds = formTrialBounds(form, '2026-09-01', NOW);
    expect(bounds.min).toBe('2026-09-01');
    expect(companyErrors(form, bounds)).toEqual({});
    expect(companyErrors({ ...form, trial: '2026-08-31' }, bounds)).toEqual({
      trial: 'The trial cannot end before 2026-09-01.',
    });
    expect(trialEnded('2026-09-01', 'America/Chicago', NOW)).toBe(true);
    expect(trialEnded('2026-11-26', 'America/Chicago', NOW)).toBe(false);
  });

  it('says what is wrong in clear words', () => {
    const bounds = formTrialBounds({ timezone: 'America/Chicago' }, null, NOW);
    const form = {
      ...newCompanyForm(NOW),
      name: ' ',
      trial: '2027-11-27',
      arr: '-5',
      timezone: 'Nowhere/Else',
    };
    expect(companyErrors(form, bounds)).toEqual({
      name: 'Missing required field: Name',
      timezone: 'Choose a time zone from the list.',
      trial: 'The trial can end at most 365 days ahead: 2027-11-26 at the latest.',
      arr: 'Enter the revenue as whole dollars, 0 or more.',
    });
    expect(companyErrors({ ...newCompanyForm(NOW), name: 'Acme', trial: '' }, bounds)).toEqual({});
  });
});

describe('companyBody and companyQuery', () => {
  it('sends trimmed fields, blanks as null, revenue as a number', () => {
    expect(
      companyBody({
        name: ' Acme ',
        timezone: 'UTC',
        productTier: 'utilization',
        erp: ' ',
        trial: '',
        arr: '12,000',
      }),
    ).toEqual({
      name: 'Acme',
      timezone: 'UTC',
      product_tier: 'utilization',
      erp: null,
      trial_expiration_date: null,
      annualRecurringRevenue: 12000,
    });
  });

  it.each([
    ['all', false, {}],
    ['muted', false, { muted: 'true' }],
    ['active', true, { muted: 'false', rootMachines: 'true' }],
  ] as const)('%s, root machines %s → %o', (filter, root, query) => {
    expect(companyQuery(filter, root)).toEqual(query);
  });
});
