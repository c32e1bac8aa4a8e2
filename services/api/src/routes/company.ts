import { Hono } from 'hono';
import { z } from 'zod';
import { REGION_LOCALES, cycleInputOptionSchema } from '@takt/domain';
import type { AppEnv } from '../http/context';
import { callerPermissions, requireAdmin } from '../http/permissions';
import { durationMsField, jsonBody } from '../http/validate';
import {
  MAX_SETTING_MS,
  companyFlags,
  getCompanyAdminSettings,
  saveCompanyAdminSettings,
} from '../services/company';
import { inTransaction } from './live-ctx';

// reports-admin §2 "Settings: region list; confirmation to enable setup stages", §9 "Region list of 35 locales",
// and every company setting the specs name (§3 Company, live-operations §2/§3; ranges in decision 1087).
// Strict: a field the call does not take is a 400 naming it, never a silent 200.
const flag = (label: string) => z.boolean({ error: `${label} must be true or false` }).optional();
const percent = (label: string) =>
  z
    .number({ error: `${label} must be a number` })
    .int(`${label} must be a whole number`)
    .min(0, `${label} must be between 0 and 100`)
    .max(100, `${label} must be between 0 and 100`)
    .optional();
const duration = (label: string, maxMs: number) =>
  durationMsField(label)
    .max(maxMs, `${label} must be at most ${maxMs / 60_000} minutes`)
    .optional();
/** Free text of the Company entity: trimmed, at most 250 characters, empty or null clears it. */
const text = z
  .string({ error: 'Must be text' })
  .trim()
  .max(250, 'At most 250 characters')
  .transform((v) => (v === '' ? null : v))
  .nullable()
  .optional();

export const settingsSchema = z
  .object({
    locale: z.enum(REGION_LOCALES, { error: 'Choose a region from the list' }).optional(),
    enable_setup_stages: flag('Setup stages'),
    companyName: z.string().max(250, 'At most 250 characters').optional(),
    hide_remove_rejected_parts_checkbox: flag('Hide "Remove from good parts"'),
    areActivitiesEnabled: flag('Activities'),
    cycleinputoption: z
      .enum(cycleInputOptionSchema.options, { error: 'Choose timepercycle, timeperpart or partsperhour' })
      .optional(),
    enable_tablet_machine_switching: flag('Tablet machine switching'),
    operator_tracking: flag('Operator tracking'),
    downtime_list_filter_duration: duration('Downtime list filter duration', MAX_SETTING_MS),
    underlay_delay: duration('Underlay delay', MAX_SETTING_MS),
    underlay_auto_expand: duration('Underlay auto-expand', MAX_SETTING_MS),
    long_downtime_threshold: duration('Long-downtime threshold', MAX_SETTING_MS),
    warningpercent: percent('Parts goal warning percent'),
    failurepercent: percent('Parts goal failure percent'),
    utilizationwarningpercent: percent('Utilization warning percent'),
    utilizationfailurepercent: percent('Utilization failure percent'),
    warningpercent_oee: percent('OEE warning percent'),
    failurepercent_oee: percent('OEE failure percent'),
    enable_auto_job_dispatch: flag('Auto job dispatch'),
    exclude_from_benchmarking: z
      .union([z.literal(0), z.literal(1), z.null()], {
        error: 'Benchmarking is null (Undecided), 0 (Opt In) or 1 (Opt Out)',
      })
      .optional(),
    tablet_registration_key: text,
    address: text,
  })
  .strict();

/**
 * The caller's company (live-operations §3 "Company flags used here"; reports-admin §2 "Settings").
 * GET /api/company/flags → `companyFlagsSchema` of @takt/domain: { enable_setup_stages,
 *   hide_remove_rejected_parts_checkbox, areActivitiesEnabled, cycleinputoption, enable_tablet_machine_switching,
 *   downtime_list_filter_duration (ms), currentTimeContext: { offset_millis }, product_tier, operator_tracking,
 *   underlay_delay, underlay_auto_expand, long_downtime_threshold (ms) }. Any user or tablet of the company may
 *   read it; there is no company id to pass, so no other company can be named.
 * GET /api/company/settings (admins) → every setting of `settingsSchema` but companyName, plus the name.
 * PUT /api/company/settings (admins) `settingsSchema` → the same; any other field is a 400 naming it. Turning
 *   setup stages on needs companyName equal to the company's name (400 otherwise) and FullProduct (403
 *   otherwise); a failure percent above its warning percent is a 400.
 */
export const companyRoutes = new Hono<AppEnv>()
  .get('/flags', async (c) => {
    const now = c.var.deps.now();
    return c.json(await companyFlags({ scope: c.var.scope, at: now, now, caller: c.var.caller }));
  })
  .get('/settings', requireAdmin, async (c) =>
    c.json(await inTransaction(c, (ctx) => getCompanyAdminSettings(ctx))),
  )
  .put('/settings', requireAdmin, async (c) => {
    const body = await jsonBody(c, settingsSchema);
    const permissions = callerPermissions(c.var.caller, c.var.deps.demoMode);
    return c.json(await inTransaction(c, (ctx) => saveCompanyAdminSettings(ctx, body, permissions)));
  });
