import type { CompanyFlags, Permission } from '@takt/domain';
import { forbidden, invalidInput } from '../http/errors';
import type { CompanyAdminPatch, CompanyAdminSettings } from '../repositories/company';
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
    operator_tracking: s.operatorTracking,
    underlay_delay: s.underlayDelayMs,
    underlay_auto_expand: s.underlayAutoExpandMs,
    long_downtime_threshold: s.longDowntimeThresholdMs,
  };
}

/** GET/PUT /api/company/settings as the API answers it (reports-admin §2 "Settings", §3 Company). */
export type CompanySettingsView = CompanyAdminSettings;

export interface CompanySettingsInput extends CompanyAdminPatch {
  /** reports-admin §5: enabling setup stages requires typing the company name. */
  companyName?: string | undefined;
}

export const COMPANY_NAME_MISMATCH = 'Type the company name exactly to enable setup stages.';

/** The longest duration setting (downtime list filter, underlay delay and auto-expand, long downtime): a day. */
export const MAX_SETTING_MS = 24 * 60 * 60_000;

/** Each pair whose failure percent may not be above its warning percent (live-operations §4 statuses). */
const PERCENT_PAIRS = [
  ['warningpercent', 'failurepercent', 'Parts goal'],
  ['utilizationwarningpercent', 'utilizationfailurepercent', 'Utilization'],
  ['warningpercent_oee', 'failurepercent_oee', 'OEE'],
] as const;

export async function getCompanyAdminSettings(ctx: ServiceCtx): Promise<CompanySettingsView> {
  return companyAdminSettings(ctx.scope);
}

/**
 * PUT /api/company/settings. Turning setup stages on needs the typed company name (reports-admin §5) and
 * FullProduct, which gates setup stages (reports-admin §6). The warning and failure percents are checked
 * together with the stored ones: a failure percent above its warning percent would skip the warning colour.
 */
export async function saveCompanyAdminSettings(
  ctx: ServiceCtx,
  input: CompanySettingsInput,
  permissions: readonly Permission[],
): Promise<CompanySettingsView> {
  const current = await companyAdminSettings(ctx.scope);
  const { companyName, ...patch } = input;
  const enabling = patch.enable_setup_stages === true && !current.enable_setup_stages;
  if (patch.enable_setup_stages !== undefined && patch.enable_setup_stages !== current.enable_setup_stages) {
    if (!permissions.includes('FullProduct')) throw forbidden();
  }
  if (enabling && companyName?.trim() !== current.name) {
    throw invalidInput([{ field: 'companyName', code: 'mismatch', message: COMPANY_NAME_MISMATCH }]);
  }
  const issues = PERCENT_PAIRS.flatMap(([warning, failure, label]) => {
    const w = patch[warning] ?? current[warning];
    const f = patch[failure] ?? current[failure];
    if (f <= w) return [];
    return [
      {
        field: patch[failure] !== undefined ? failure : warning,
        code: 'out_of_order',
        message: `${label} failure percent (${f}) must not be above its warning percent (${w})`,
      },
    ];
  });
  if (issues.length > 0) throw invalidInput(issues);
  await updateCompanyAdminSettings(ctx.scope, patch);
  return companyAdminSettings(ctx.scope);
}
