import { z } from 'zod';
import { REPORT_INTERVAL_UNITS } from '../calendar/intervals';

// Report preferences on the server (issue 29 point 9, decisions 1115 and 1116): reports-admin §9 "Stored
// preferences per company: last OEE or utilization horizon and selected shifts", and the anonymize option
// (reports-admin §6 "The anonymize option is for root or non-demo accounts").

/** Most shifts one selection may name (a company has a handful; the bound keeps the row small). */
export const MAX_PREFERRED_SHIFTS = 100;

const horizon = z.enum(REPORT_INTERVAL_UNITS, {
  error: `Horizon must be one of ${REPORT_INTERVAL_UNITS.join(', ')}.`,
});

/** GET /api/me/preferences and the answer of PUT: null = nothing chosen yet (the report's default). */
export const userPreferencesSchema = z.object({
  oeeHorizon: horizon.nullable(),
  utilizationHorizon: horizon.nullable(),
  /** The ticked shifts; null: every shift (no filter). */
  shifts: z.array(z.string()).nullable(),
  /** Names shown as "Machine 1", "Operator 1" and "Company" on the office screens and their CSV (1116). */
  anonymize: z.boolean(),
  /** Whether the caller may turn anonymize on: root users and users of a company that is not the demo. */
  anonymizeOffered: z.boolean(),
  /** The name the user's app shows instead of Takt (the brand_override of their invite; decision 1117). */
  brand: z.string().nullable(),
});
export type UserPreferences = z.infer<typeof userPreferencesSchema>;

/** PUT /api/me/preferences: the fields to change; a field the call does not take is refused (400). */
export const userPreferencesUpdateSchema = z.strictObject({
  oeeHorizon: horizon.nullable().optional(),
  utilizationHorizon: horizon.nullable().optional(),
  shifts: z
    .array(z.string().min(1).max(100), { error: 'Shifts must be a list of shift ids.' })
    .max(MAX_PREFERRED_SHIFTS, `At most ${MAX_PREFERRED_SHIFTS} shifts`)
    .refine((ids) => new Set(ids).size === ids.length, 'A shift is named twice.')
    .nullable()
    .optional(),
  anonymize: z.boolean({ error: 'Anonymize must be true or false.' }).optional(),
});
export type UserPreferencesUpdate = z.infer<typeof userPreferencesUpdateSchema>;

/** What a user who never saved a preference gets. */
export const DEFAULT_USER_PREFERENCES: Omit<UserPreferences, 'anonymizeOffered' | 'brand'> = {
  oeeHorizon: null,
  utilizationHorizon: null,
  shifts: null,
  anonymize: false,
};
