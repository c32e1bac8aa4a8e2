import { describe, expect, it } from 'vitest';
import { t } from '@takt/ui';
import { navSection } from '../routes';
import { EMAIL_PREFERENCES_PATH, EMAIL_SWITCHES, toggled } from './email-preferences';

// reports-admin §2 "E-mail notification preferences", §8 "E-mail" (decision 0904).

describe('e-mail preferences', () => {
  const all = { receiveDowntimeEmail: true, receiveUtilizationEmail: true, receiveBenchmarkingEmail: true };

  it('sends all three booleans with one flipped', () => {
    expect(toggled(all, 'receiveUtilizationEmail', false)).toEqual({
      ...all,
      receiveUtilizationEmail: false,
    });
    expect(EMAIL_SWITCHES.map((s) => s.key)).toEqual([
      'receiveDowntimeEmail',
      'receiveUtilizationEmail',
      'receiveBenchmarkingEmail',
    ]);
  });

  it.each([
    ['email.sent', 'Sent. You should get it within the next 10 minutes.'],
    ['email.failed', 'Something went wrong. Please try again.'],
    ['email.saved', 'Your preferences have been updated.'],
  ] as const)('says the §8 text %s verbatim', (key, text) => {
    expect(t(key)).toBe(text);
  });

  it('is a page of its own, outside the admin-only navigation entries', () => {
    expect(navSection(EMAIL_PREFERENCES_PATH)).toBeNull();
  });
});
