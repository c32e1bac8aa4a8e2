import type { EmailPreferences } from '@takt/domain';

// E-mail notification preferences (reports-admin §2 "E-mail notification preferences: toggle downtime,
// utilization, benchmarking e-mails; send a test e-mail"; decision 0904). Every user has their own, so the
// screen is linked from the user's corner of the header, not from the admin-only navigation.

export const EMAIL_PREFERENCES_PATH = '/app/email-notifications';

/** GET and PUT /api/emailnotifications; PUT /api/emailnotifications/sendemail/ (reports-admin §7). */
export const EMAIL_CALLS = {
  preferences: '/api/emailnotifications',
  test: '/api/emailnotifications/sendemail/',
} as const;

export type EmailPreferenceKey = keyof EmailPreferences;

/** The three switches in the spec's order, each with its catalogue key. */
export const EMAIL_SWITCHES: ReadonlyArray<{
  key: EmailPreferenceKey;
  label: 'email.downtime' | 'email.utilization' | 'email.benchmarking';
  hint: 'email.downtimeHint' | 'email.utilizationHint' | 'email.benchmarkingHint';
}> = [
  { key: 'receiveDowntimeEmail', label: 'email.downtime', hint: 'email.downtimeHint' },
  { key: 'receiveUtilizationEmail', label: 'email.utilization', hint: 'email.utilizationHint' },
  { key: 'receiveBenchmarkingEmail', label: 'email.benchmarking', hint: 'email.benchmarkingHint' },
];

/** The body of PUT /api/emailnotifications after flipping one switch: always all three booleans. */
export const toggled = (prefs: EmailPreferences, key: EmailPreferenceKey, on: boolean): EmailPreferences => ({
  receiveDowntimeEmail: prefs.receiveDowntimeEmail,
  receiveUtilizationEmail: prefs.receiveUtilizationEmail,
  receiveBenchmarkingEmail: prefs.receiveBenchmarkingEmail,
  [key]: on,
});
