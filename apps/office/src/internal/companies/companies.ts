import type { InternalCompany, InternalCompanyBody, TileStatus, TrialBounds } from '@takt/domain';
import { epochMs, isTimeZone, parseDay, toWall, trialBounds, trialProblem } from '@takt/domain';
import { t } from '@takt/ui';

// The internal company admin's rules (reports-admin §2 "Colour by last seen: over 5 minutes danger, over 2
// minutes warning, none muted", §5 trial rule, §9 "Company last seen thresholds 2 and 5 minutes"; decisions
// 0920, 0921).

export const LAST_SEEN_WARNING_MS = 2 * 60_000;
export const LAST_SEEN_DANGER_MS = 5 * 60_000;

export type LastSeenTone = 'success' | 'warning' | 'danger' | 'muted';

/**
 * The colour of a company's last data: over 5 minutes danger, over 2 warning, never muted. A muted company
 * (decision 0920) is muted whatever its data: staff chose not to be alarmed about it.
 */
export function lastSeenTone(lastSeen: number | null, now: number, mutedCompany = false): LastSeenTone {
  if (mutedCompany || lastSeen === null) return 'muted';
  const age = now - lastSeen;
  if (age > LAST_SEEN_DANGER_MS) return 'danger';
  if (age > LAST_SEEN_WARNING_MS) return 'warning';
  return 'success';
}

/** The shared status token each tone is drawn with (packages/ui: colour plus shape plus words). */
export const TONE_STATUS: Record<LastSeenTone, TileStatus> = {
  success: 'success',
  warning: 'warning',
  danger: 'danger',
  muted: 'unavailable',
};

export function lastSeenWords(tone: LastSeenTone, lastSeen: number | null): string {
  if (tone === 'muted')
    return t(lastSeen === null ? 'internal.companies.seenNone' : 'internal.companies.seenMuted');
  return t(
    tone === 'success'
      ? 'internal.companies.seenOk'
      : tone === 'warning'
        ? 'internal.companies.seenWarning'
        : 'internal.companies.seenDanger',
  );
}

/** "3 min. ago" (locale-aware), or "Never". */
export function agoText(lastSeen: number | null, now: number, locale = 'en'): string {
  if (lastSeen === null) return t('internal.companies.never');
  const s = Math.max(0, Math.round((now - lastSeen) / 1000));
  const rtf = new Intl.RelativeTimeFormat(locale, { style: 'short', numeric: 'always' });
  if (s < 60) return rtf.format(-s, 'second');
  if (s < 3600) return rtf.format(-Math.floor(s / 60), 'minute');
  if (s < 48 * 3600) return rtf.format(-Math.floor(s / 3600), 'hour');
  return rtf.format(-Math.floor(s / 86_400), 'day');
}

export const formatDollars = (amount: number, locale = 'en-US'): string =>
  new Intl.NumberFormat(locale, { style: 'currency', currency: 'USD', maximumFractionDigits: 0 }).format(
    amount,
  );

export const TIERS = ['serviceProvider', 'utilization', 'full'] as const;

/** Every IANA zone this browser knows (the API checks the same way), with the stored one kept if unknown here. */
export function timeZones(current?: string): string[] {
  const known =
    typeof Intl.supportedValuesOf === 'function'
      ? Intl.supportedValuesOf('timeZone')
      : ['UTC', 'America/Chicago'];
  const all = new Set(['UTC', ...known]);
  if (current) all.add(current);
  return [...all].sort((a, b) => (a === 'UTC' ? -1 : b === 'UTC' ? 1 : a.localeCompare(b)));
}

export interface CompanyForm {
  name: string;
  timezone: string;
  productTier: InternalCompany['product_tier'];
  erp: string;
  /** 'YYYY-MM-DD', or '' for no trial. */
  trial: string;
  /** Whole dollars as typed, or ''. */
  arr: string;
}

/** The company's calendar day now, in the zone chosen on the form (decision 0921). */
function todayIn(timezone: string, now: number) {
  return toWall(isTimeZone(timezone) ? timezone : 'UTC', epochMs(now)).day;
}

export const formTrialBounds = (
  form: Pick<CompanyForm, 'timezone'>,
  stored: string | null,
  now: number,
): TrialBounds => trialBounds(todayIn(form.timezone, now), stored);

/** Whether a stored trial date is already past in the company's zone (it may then be kept, §5). */
export function trialEnded(trial: string | null, timezone: string, now: number): boolean {
  if (!trial) return false;
  try {
    return parseDay(trial) < todayIn(timezone, now);
  } catch {
    return false;
  }
}

/** reports-admin §5 / §9: a new company starts with a 14-day trial. */
export function newCompanyForm(now: number, timezone = 'America/Chicago'): CompanyForm {
  return {
    name: '',
    timezone,
    productTier: 'full',
    erp: '',
    trial: formTrialBounds({ timezone }, null, now).suggested,
    arr: '',
  };
}

export const companyFormOf = (c: InternalCompany): CompanyForm => ({
  name: c.name,
  timezone: c.timezone,
  productTier: c.product_tier,
  erp: c.erp ?? '',
  trial: c.trial_expiration_date ?? '',
  arr: c.annualRecurringRevenue === null ? '' : String(c.annualRecurringRevenue),
});

export type CompanyErrors = Partial<Record<'name' | 'timezone' | 'erp' | 'trial' | 'arr', string>>;

export function companyErrors(form: CompanyForm, bounds: TrialBounds): CompanyErrors {
  const e: CompanyErrors = {};
  if (form.name.trim() === '') e.name = t('internal.companies.err.name');
  else if (form.name.trim().length > 250) e.name = t('internal.companies.err.nameLong');
  if (!isTimeZone(form.timezone)) e.timezone = t('internal.companies.err.timezone');
  if (form.erp.trim().length > 250) e.erp = t('internal.companies.err.erpLong');
  const problem = trialProblem(form.trial, bounds);
  if (problem?.kind === 'invalid') e.trial = t('internal.companies.err.trialInvalid');
  if (problem?.kind === 'beforeMin') e.trial = t('internal.companies.err.trialBefore', { min: problem.min });
  if (problem?.kind === 'afterMax') e.trial = t('internal.companies.err.trialAfter', { max: problem.max });
  if (form.arr.trim() !== '' && !/^\d{1,10}$/.test(form.arr.trim().replace(/[,\s]/g, '')))
    e.arr = t('internal.companies.err.arr');
  return e;
}

export function companyBody(form: CompanyForm): InternalCompanyBody {
  const arr = form.arr.trim().replace(/[,\s]/g, '');
  return {
    name: form.name.trim(),
    timezone: form.timezone,
    product_tier: form.productTier,
    erp: form.erp.trim() || null,
    trial_expiration_date: form.trial || null,
    annualRecurringRevenue: arr === '' ? null : Number(arr),
  };
}

export type MutedFilter = 'all' | 'active' | 'muted';

/** reports-admin §7 "company query (muted, rootMachines)". */
export function companyQuery(filter: MutedFilter, rootMachines: boolean): Record<string, string> {
  return {
    ...(filter === 'all' ? {} : { muted: filter === 'muted' ? 'true' : 'false' }),
    ...(rootMachines ? { rootMachines: 'true' } : {}),
  };
}
