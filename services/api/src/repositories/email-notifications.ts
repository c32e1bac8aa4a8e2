import type { Selectable } from 'kysely';
import type { EmailPreferencesTable, CompanyScope } from '@takt/db';

// E-mail preferences per user (live-operations §3 Email preferences). SQL only; one mapping function.

export interface EmailPreferences {
  receiveDowntimeEmail: boolean;
  receiveUtilizationEmail: boolean;
  receiveBenchmarkingEmail: boolean;
}

export const toEmailPreferences = (r: Selectable<EmailPreferencesTable>): EmailPreferences => ({
  receiveDowntimeEmail: r.receive_downtime === 1,
  receiveUtilizationEmail: r.receive_utilization === 1,
  receiveBenchmarkingEmail: r.receive_benchmarking === 1,
});

export async function getEmailPreferences(
  scope: CompanyScope,
  userId: string,
): Promise<EmailPreferences | undefined> {
  const row = await scope
    .selectFrom('email_preferences')
    .selectAll()
    .where('user_id', '=', userId)
    .executeTakeFirst();
  return row && toEmailPreferences(row);
}

export async function saveEmailPreferences(
  scope: CompanyScope,
  userId: string,
  prefs: EmailPreferences,
  now: number,
): Promise<void> {
  const values = {
    receive_downtime: prefs.receiveDowntimeEmail ? 1 : 0,
    receive_utilization: prefs.receiveUtilizationEmail ? 1 : 0,
    receive_benchmarking: prefs.receiveBenchmarkingEmail ? 1 : 0,
    updated_at: now,
  };
  await scope
    .insertInto('email_preferences', { user_id: userId, ...values })
    .onConflict((oc) => oc.column('user_id').doUpdateSet(values))
    .execute();
}
