import { describe, expect, it } from 'vitest';
import { NEW_COMPANY_SETTINGS } from '@takt/domain';
import { SETTING_GROUPS, draftErrors, draftOf, newRegistrationKey, patchOf } from './company-settings';
import type { SettingGroup } from './company-settings';
import type { CompanySettings } from './settings';

const SAVED: CompanySettings = { name: 'Acme', ...NEW_COMPANY_SETTINGS };

const group = (id: SettingGroup['id']): SettingGroup => {
  const g = SETTING_GROUPS.find((x) => x.id === id);
  if (!g) throw new Error(id);
  return g;
};

describe('company settings form (decision 1087)', () => {
  it('puts every setting of the API in exactly one group', () => {
    const keys = SETTING_GROUPS.flatMap((g) => g.fields.map((f) => f.key)).sort();
    const api = Object.keys(SAVED)
      .filter((k) => !['name', 'locale', 'enable_setup_stages'].includes(k))
      .sort();
    expect(keys).toEqual(api);
  });

  it('shows durations in seconds or minutes and sends ms, only the changed fields', () => {
    const g = group('downtime');
    const draft = draftOf(SAVED, g);
    expect(draft).toEqual({
      underlay_delay: '30',
      underlay_auto_expand: '5',
      downtime_list_filter_duration: '120',
      long_downtime_threshold: '2',
    });
    expect(patchOf(g, draft, SAVED)).toEqual({});
    expect(patchOf(g, { ...draft, underlay_delay: '12.5', long_downtime_threshold: '0.5' }, SAVED)).toEqual({
      underlay_delay: 12_500,
      long_downtime_threshold: 30_000,
    });
  });

  it('sends flags, choices and text as the API takes them; empty text and Undecided are null', () => {
    const floor = group('floor');
    expect(
      patchOf(
        floor,
        { ...draftOf(SAVED, floor), operator_tracking: false, cycleinputoption: 'partsperhour' },
        SAVED,
      ),
    ).toEqual({
      operator_tracking: false,
      cycleinputoption: 'partsperhour',
    });
    const company = group('company');
    const saved = { ...SAVED, address: 'Mill Lane', exclude_from_benchmarking: 1 as const };
    expect(draftOf(saved, company)).toEqual({
      address: 'Mill Lane',
      exclude_from_benchmarking: '1',
      tablet_registration_key: '',
    });
    expect(
      patchOf(
        company,
        { address: '  ', exclude_from_benchmarking: '', tablet_registration_key: ' k ' },
        saved,
      ),
    ).toEqual({
      address: null,
      exclude_from_benchmarking: null,
      tablet_registration_key: 'k',
    });
  });

  it('checks ranges and the order of warning and failure percents as the API does', () => {
    const goals = group('goals');
    const draft = draftOf(SAVED, goals);
    expect(draftErrors(goals, draft)).toEqual({});
    expect(draftErrors(goals, { ...draft, warningpercent: '101', utilizationfailurepercent: '4.5' })).toEqual(
      {
        warningpercent: 'admin.settings.percentRange',
        utilizationfailurepercent: 'admin.settings.percentRange',
      },
    );
    expect(draftErrors(goals, { ...draft, failurepercent_oee: '91' })).toEqual({
      failurepercent_oee: 'admin.settings.percentOrder',
    });
    const downtime = group('downtime');
    expect(
      draftErrors(downtime, {
        ...draftOf(SAVED, downtime),
        underlay_auto_expand: '1441',
        underlay_delay: '',
      }),
    ).toEqual({
      underlay_auto_expand: 'admin.settings.durationRange',
      underlay_delay: 'admin.settings.durationRange',
    });
    expect(draftErrors(group('company'), { address: 'x'.repeat(251) })).toEqual({
      address: 'admin.settings.textTooLong',
    });
  });

  it('generates registration keys of 24 unambiguous characters', () => {
    const key = newRegistrationKey();
    expect(key).toMatch(/^[A-HJ-NP-Z2-9]{24}$/);
    expect(newRegistrationKey(() => new Uint8Array(24).fill(32))).toBe('A'.repeat(24));
  });
});
