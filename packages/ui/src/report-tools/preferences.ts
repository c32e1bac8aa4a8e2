import { HORIZONS } from '../date-range/model';
import type { Horizon } from '../date-range/model';

// reports-admin §9 "Stored preferences per company: last OEE or utilization horizon and selected shifts".
// The server keeps them per user and company (GET/PUT /api/me/preferences, decision 1115); the browser's
// storage, under a key per company, is the first-paint and offline cache the office app reads first.

export interface ReportPreferences {
  oeeHorizon?: Horizon;
  utilizationHorizon?: Horizon;
  shifts?: string[];
}

export const preferencesKey = (companyId: string): string => `takt:report-preferences:${companyId}`;

const isHorizon = (v: unknown): v is Horizon => (HORIZONS as readonly unknown[]).includes(v);

/** Reads stored JSON leniently: a broken or foreign value gives no preference, never an error. */
export function parsePreferences(text: string | null): ReportPreferences {
  if (!text) return {};
  let data: unknown;
  try {
    data = JSON.parse(text);
  } catch {
    return {};
  }
  if (typeof data !== 'object' || data === null) return {};
  const d = data as Record<string, unknown>;
  const out: ReportPreferences = {};
  if (isHorizon(d.oeeHorizon)) out.oeeHorizon = d.oeeHorizon;
  if (isHorizon(d.utilizationHorizon)) out.utilizationHorizon = d.utilizationHorizon;
  if (Array.isArray(d.shifts)) out.shifts = d.shifts.filter((s): s is string => typeof s === 'string');
  return out;
}

/** The storage the preferences need (window.localStorage, or a Map-backed one in tests). */
export type PreferenceStorage = Pick<Storage, 'getItem' | 'setItem'>;

export function readPreferences(storage: PreferenceStorage | null, companyId: string): ReportPreferences {
  try {
    return parsePreferences(storage?.getItem(preferencesKey(companyId)) ?? null);
  } catch {
    return {}; // storage disabled (private mode): the reports still work with their defaults
  }
}

/** Merges `patch` into the stored preferences. */
export function writePreferences(
  storage: PreferenceStorage | null,
  companyId: string,
  patch: ReportPreferences,
): ReportPreferences {
  const next = { ...readPreferences(storage, companyId), ...patch };
  try {
    storage?.setItem(preferencesKey(companyId), JSON.stringify(next));
  } catch {
    // Quota or disabled storage: the preference is simply not remembered.
  }
  return next;
}

/** window.localStorage when there is one. */
export function browserStorage(): PreferenceStorage | null {
  try {
    return globalThis.localStorage ?? null;
  } catch {
    return null;
  }
}
