import { DEFAULT_USER_PREFERENCES } from '@takt/domain';
import type { UserPreferences, UserPreferencesUpdate } from '@takt/domain';
import { ApiError, invalidInput } from '../http/errors';
import { anonymizeOffered } from '../http/anonymize';
import {
  companyShiftIds,
  getUserBrand,
  getUserPreferences,
  saveUserPreferences,
} from '../repositories/user-preferences';
import type { ServiceCtx } from './context';
import { userCallerOf } from './email-notifications';

// Report preferences on the server (issue 29 point 9; decisions 1115, 1116): the last OEE and utilization
// horizon, the ticked shifts and the anonymize option, per user in their company, so they follow the user to
// another device; with the brand the user's app shows (decision 1117). A user's own only: tablets and API keys have none (403).

export const ANONYMIZE_REFUSED = 'The anonymize option is for root or non-demo accounts.';

export async function userPreferences(ctx: ServiceCtx): Promise<UserPreferences> {
  const caller = userCallerOf(ctx);
  const stored = (await getUserPreferences(ctx.scope, caller.user.id)) ?? DEFAULT_USER_PREFERENCES;
  const offered = anonymizeOffered(caller);
  // An option no longer offered (a user moved to the demo company) is off, whatever was stored.
  return {
    ...stored,
    anonymize: stored.anonymize && offered,
    anonymizeOffered: offered,
    brand: await getUserBrand(ctx.scope, caller.user.id),
  };
}

/** Merges `change` into the caller's preferences; shifts must be the company's (400), anonymize offered (403). */
export async function updateUserPreferences(
  ctx: ServiceCtx,
  change: UserPreferencesUpdate,
): Promise<UserPreferences> {
  const caller = userCallerOf(ctx);
  const offered = anonymizeOffered(caller);
  if (change.anonymize && !offered) throw new ApiError(403, 'FORBIDDEN', ANONYMIZE_REFUSED);
  if (change.shifts) {
    const known = await companyShiftIds(ctx.scope, change.shifts);
    const unknown = change.shifts.filter((id) => !known.has(id));
    if (unknown.length > 0)
      throw invalidInput(
        unknown.map((id) => ({ field: 'shifts', code: 'unknown_shift', message: `Shift not found: ${id}` })),
      );
  }
  const stored = (await getUserPreferences(ctx.scope, caller.user.id)) ?? DEFAULT_USER_PREFERENCES;
  const next = {
    oeeHorizon: change.oeeHorizon === undefined ? stored.oeeHorizon : change.oeeHorizon,
    utilizationHorizon:
      change.utilizationHorizon === undefined ? stored.utilizationHorizon : change.utilizationHorizon,
    shifts: change.shifts === undefined ? stored.shifts : change.shifts,
    anonymize: (change.anonymize ?? stored.anonymize) && offered,
  };
  await saveUserPreferences(ctx.scope, caller.user.id, next, ctx.now);
  return { ...next, anonymizeOffered: offered, brand: await getUserBrand(ctx.scope, caller.user.id) };
}
