import { REGION_LOCALES } from '@takt/domain';
import type { CycleInputOption } from '@takt/domain';

// Settings (reports-admin §2 "Settings: region list; confirmation to enable setup stages", §5 "Enabling setup
// stages requires typing the company name", §9 "Region list of 35 locales").

/** GET/PUT /api/company/settings (decision 1087): durations in ms, percents 0–100. */
export interface CompanySettings {
  name: string;
  locale: string;
  enable_setup_stages: boolean;
  hide_remove_rejected_parts_checkbox: boolean;
  areActivitiesEnabled: boolean;
  cycleinputoption: CycleInputOption;
  enable_tablet_machine_switching: boolean;
  operator_tracking: boolean;
  downtime_list_filter_duration: number;
  underlay_delay: number;
  underlay_auto_expand: number;
  long_downtime_threshold: number;
  warningpercent: number;
  failurepercent: number;
  utilizationwarningpercent: number;
  utilizationfailurepercent: number;
  warningpercent_oee: number;
  failurepercent_oee: number;
  enable_auto_job_dispatch: boolean;
  exclude_from_benchmarking: 0 | 1 | null;
  tablet_registration_key: string | null;
  address: string | null;
}

/** The typed name confirms when it is the company's name (spaces around it do not count). */
export const confirmsName = (typed: string, companyName: string): boolean => typed.trim() === companyName;

/** The region list with each locale's own name for itself in the UI language ("English (United States)"). */
export function regionOptions(displayLocale: string): Array<{ value: string; label: string }> {
  let names: Intl.DisplayNames | null = null;
  try {
    names = new Intl.DisplayNames([displayLocale], { type: 'language' });
  } catch {
    names = null;
  }
  return REGION_LOCALES.map((value) => ({ value, label: `${names?.of(value) ?? value} (${value})` }));
}
