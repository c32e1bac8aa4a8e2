import type { CompanyFlags, Permission } from '@takt/domain';
import { forbidden, invalidInput } from '../http/errors';
import type { CompanyAdminSettings } from '../repositories/company';
import { companyAdminSettings, companySettings, updateCompanyAdminSettings } from '../repositories/company';
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

/** GET/PUT /api/company/settings as the API answers it (reports-admin §2 "Settings", §3 Company). */
export interface CompanySettingsView {
  name: string;
  locale: string;
  enable_setup_stages: boolean;
}

export interface CompanySettingsInput {
  locale?: string | undefined;
  enable_setup_stages?: boolean | undefined;
  /** reports-admin §5: enabling setup stages requires typing the company name. */
  companyName?: string | undefined;
}

export const COMPANY_NAME_MISMATCH = 'Type the company name exactly to enable setup stages.';

const settingsView = (s: CompanyAdminSettings): CompanySettingsView => ({
  name: s.name,
  locale: s.locale,
  enable_setup_stages: s.enableSetupStages,
});

export async function getCompanyAdminSettings(ctx: ServiceCtx): Promise<CompanySettingsView> {
  return settingsView(await companyAdminSettings(ctx.scope));
}

/**
 * PUT /api/company/settings: the region (locale) and the setup-stages switch. Turning setup stages on needs
 * the typed company name (reports-admin §5) and FullProduct, which gates setup stages (reports-admin §6).
 */
export async function saveCompanyAdminSettings(
  ctx: ServiceCtx,
  input: CompanySettingsInput,
  permissions: readonly Permission[],
): Promise<CompanySettingsView> {
  const current = await companyAdminSettings(ctx.scope);
  const enabling = input.enable_setup_stages === true && !current.enableSetupStages;
  if (input.enable_setup_stages !== undefined && input.enable_setup_stages !== current.enableSetupStages) {
    if (!permissions.includes('FullProduct')) throw forbidden();
  }
  if (enabling && input.companyName?.trim() !== current.name) {
    throw invalidInput([{ field: 'companyName', code: 'mismatch', message: COMPANY_NAME_MISMATCH }]);
  }
  await updateCompanyAdminSettings(ctx.scope, {
    ...(input.locale !== undefined ? { locale: input.locale } : {}),
    ...(input.enable_setup_stages !== undefined ? { enableSetupStages: input.enable_setup_stages } : {}),
  });
  return settingsView(await companyAdminSettings(ctx.scope));
}
