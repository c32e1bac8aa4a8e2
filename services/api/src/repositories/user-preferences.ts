import type { Selectable } from 'kysely';
import type { CompanyScope, UserPreferencesTable } from '@takt/db';
import type { UserPreferences } from '@takt/domain';
import { REPORT_INTERVAL_UNITS } from '@takt/domain';

// A user's report preferences in their company (migration 0043, decision 1115). SQL only; one mapping.

export type StoredPreferences = Omit<UserPreferences, 'anonymizeOffered' | 'brand'>;
type Horizon = (typeof REPORT_INTERVAL_UNITS)[number];

const horizonOf = (v: string | null): Horizon | null =>
  (REPORT_INTERVAL_UNITS as readonly string[]).includes(v ?? '') ? (v as Horizon) : null;

const toPreferences = (r: Selectable<UserPreferencesTable>): StoredPreferences => ({
  oeeHorizon: horizonOf(r.oee_horizon),
  utilizationHorizon: horizonOf(r.utilization_horizon),
  shifts: r.shift_ids === null ? null : (JSON.parse(r.shift_ids) as string[]),
  anonymize: r.anonymize === 1,
});

export async function getUserPreferences(
  scope: CompanyScope,
  userId: string,
): Promise<StoredPreferences | undefined> {
  const row = await scope
    .selectFrom('user_preferences')
    .selectAll()
    .where('user_id', '=', userId)
    .executeTakeFirst();
  return row && toPreferences(row);
}

/** Writes the whole set (the service merged the change in). Mutates. */
export async function saveUserPreferences(
  scope: CompanyScope,
  userId: string,
  prefs: StoredPreferences,
  now: number,
): Promise<void> {
  const values = {
    oee_horizon: prefs.oeeHorizon,
    utilization_horizon: prefs.utilizationHorizon,
    shift_ids: prefs.shifts === null ? null : JSON.stringify(prefs.shifts),
    anonymize: prefs.anonymize ? 1 : 0,
    updated_at: now,
  };
  await scope
    .insertInto('user_preferences', { user_id: userId, ...values })
    .onConflict((oc) => oc.columns(['user_id', 'company_id']).doUpdateSet(values))
    .execute();
}

/** Which of `ids` are shifts of the company (any, terminated or not). */
export async function companyShiftIds(scope: CompanyScope, ids: readonly string[]): Promise<Set<string>> {
  if (ids.length === 0) return new Set();
  const rows = await scope.selectFrom('shifts').select('id').where('id', 'in', ids).execute();
  return new Set(rows.map((r) => r.id));
}

/** The brand a user's app shows instead of Takt (decision 1117); null: Takt. */
export async function getUserBrand(scope: CompanyScope, userId: string): Promise<string | null> {
  const row = await scope
    .selectFrom('users')
    .select('brand_override')
    .where('id', '=', userId)
    .executeTakeFirst();
  return row?.brand_override ?? null;
}

/** Gives a user the brand of the invite that made them. Mutates. */
export async function setUserBrand(scope: CompanyScope, userId: string, brand: string | null): Promise<void> {
  await scope.updateTable('users').set({ brand_override: brand }).where('id', '=', userId).execute();
}
