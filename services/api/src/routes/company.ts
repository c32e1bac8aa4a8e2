import { Hono } from 'hono';
import { z } from 'zod';
import { REGION_LOCALES } from '@takt/domain';
import type { AppEnv } from '../http/context';
import { callerPermissions, requireAdmin } from '../http/permissions';
import { jsonBody } from '../http/validate';
import { companyFlags, getCompanyAdminSettings, saveCompanyAdminSettings } from '../services/company';
import { inTransaction } from './live-ctx';

// reports-admin §2 "Settings: region list; confirmation to enable setup stages", §9 "Region list of 35 locales".
export const settingsSchema = z.object({
  locale: z.enum(REGION_LOCALES, { error: 'Choose a region from the list' }).optional(),
  enable_setup_stages: z.boolean().optional(),
  companyName: z.string().max(250, 'At most 250 characters').optional(),
});

/**
 * The caller's company (live-operations §3 "Company flags used here"; reports-admin §2 "Settings").
 * GET /api/company/flags → `companyFlagsSchema` of @takt/domain: { enable_setup_stages,
 *   hide_remove_rejected_parts_checkbox, areActivitiesEnabled, cycleinputoption, enable_tablet_machine_switching,
 *   downtime_list_filter_duration (ms), currentTimeContext: { offset_millis }, product_tier }. Any user or
 *   tablet of the company may read it; there is no company id to pass, so no other company can be named.
 * GET /api/company/settings (admins) → `{ name, locale, enable_setup_stages }`
 * PUT /api/company/settings (admins) `{ locale?, enable_setup_stages?, companyName? }` → the same; turning setup
 *   stages on needs companyName equal to the company's name (400 otherwise) and FullProduct (403 otherwise).
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
