import { REGION_LOCALES } from '@takt/domain';

// Settings (reports-admin §2 "Settings: region list; confirmation to enable setup stages", §5 "Enabling setup
// stages requires typing the company name", §9 "Region list of 35 locales").

/** GET/PUT /api/company/settings. */
export interface CompanySettings {
  name: string;
  locale: string;
  enable_setup_stages: boolean;
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
