import type { CompanyFlags } from '@takt/domain';
import { companySettings } from '../repositories/company';
import type { ServiceCtx } from './context';
import { getTimeContext } from './time-context';

/**
 * GET /api/company/flags: live-operations §3 "Company flags used here", exactly `companyFlagsSchema`.
 * `currentTimeContext` is the start of day in force now (a scheduled change counts from its date,
 * decision 0703); `downtime_list_filter_duration` is in ms.
 */
export async function companyFlags(ctx: ServiceCtx): Promise<CompanyFlags> {
  const [s, time] = await Promise.all([companySettings(ctx.scope), getTimeContext(ctx)]);
  return {
    enable_setup_stages: s.enableSetupStages,
    hide_remove_rejected_parts_checkbox: s.hideRemoveRejectedPartsCheckbox,
    areActivitiesEnabled: s.activitiesEnabled,
    cycleinputoption: s.cycleInputOption,
    enable_tablet_machine_switching: s.enableTabletMachineSwitching,
    downtime_list_filter_duration: s.downtimeListFilterDurationMs,
    currentTimeContext: { offset_millis: time.currentTimeContext.offset_millis },
    product_tier: s.productTier,
  };
}
