import { Hono } from 'hono';
import type { AppEnv } from '../http/context';
import { companyFlags } from '../services/company';

/**
 * The caller's company (live-operations §3 "Company flags used here").
 * GET /api/company/flags → `companyFlagsSchema` of @takt/domain: { enable_setup_stages,
 *   hide_remove_rejected_parts_checkbox, areActivitiesEnabled, cycleinputoption, enable_tablet_machine_switching,
 *   downtime_list_filter_duration (ms), currentTimeContext: { offset_millis }, product_tier }. Any user or
 *   tablet of the company may read it; there is no company id to pass, so no other company can be named.
 */
export const companyRoutes = new Hono<AppEnv>().get('/flags', async (c) => {
  const now = c.var.deps.now();
  return c.json(await companyFlags({ scope: c.var.scope, at: now, now, caller: c.var.caller }));
});
