import { userPreferencesSchema } from '@takt/domain';
import type { UserPreferences, UserPreferencesUpdate } from '@takt/domain';
import { browserStorage, preferencesKey, readPreferences, useSession } from '@takt/ui';
import type { ReportPreferences } from '@takt/ui';
import { createContext, useCallback, useContext, useEffect, useMemo, useRef, useState } from 'react';
import type { ReactNode } from 'react';
import { api } from '../api';

// The user's report preferences (reports-admin §9 "Stored preferences per company: last OEE or utilization
// horizon and selected shifts") and the anonymize option (§6), kept on the server per user and company
// (decisions 1115, 1116). The browser's storage is the first-paint and offline cache: the page starts from it,
// and the server's answer wins when it arrives.

export const PREFERENCES_CALL = '/api/me/preferences';

export interface Preferences {
  /** The report choices: from the cache at first, then the server's. */
  report: ReportPreferences;
  anonymize: boolean;
  anonymizeOffered: boolean;
  /** The name the header shows instead of Takt (decision 1117); null until known, or none. */
  brand: string | null;
  /** Saves a change here, in the cache and on the server; resolves false when the server refused it. */
  update: (change: UserPreferencesUpdate) => Promise<boolean>;
}

/** The server's answer as the cache keeps it (null: nothing chosen, so no key). */
export function reportPreferencesOf(p: UserPreferences): ReportPreferences {
  const out: ReportPreferences = {};
  if (p.oeeHorizon) out.oeeHorizon = p.oeeHorizon;
  if (p.utilizationHorizon) out.utilizationHorizon = p.utilizationHorizon;
  if (p.shifts) out.shifts = p.shifts;
  return out;
}

/** A change as the cache keeps it: a cleared choice (null) removes its key. */
function cachedChange(current: ReportPreferences, change: UserPreferencesUpdate): ReportPreferences {
  const next: ReportPreferences = { ...current };
  for (const key of ['oeeHorizon', 'utilizationHorizon', 'shifts'] as const) {
    if (!(key in change)) continue;
    const value = change[key];
    if (value === null || value === undefined) delete next[key];
    else (next as Record<string, unknown>)[key] = value;
  }
  return next;
}

/** Writes the whole set to the cache, so a choice cleared on another device is cleared here too. */
function cache(companyId: string, next: ReportPreferences): void {
  try {
    browserStorage()?.setItem(preferencesKey(companyId), JSON.stringify(next));
  } catch {
    // Storage disabled or full: the server still has them.
  }
}

const PreferencesContext = createContext<Preferences | null>(null);

/** Loads the preferences once per session and offers them to the pages under it. */
export function PreferencesProvider({ children }: { children: ReactNode }) {
  const { me } = useSession();
  const companyId = me.company.id;
  const [report, setReport] = useState<ReportPreferences>(() => readPreferences(browserStorage(), companyId));
  const [server, setServer] = useState<Pick<Preferences, 'anonymize' | 'anonymizeOffered' | 'brand'>>({
    anonymize: false,
    anonymizeOffered: false,
    brand: null,
  });
  // A choice made while the first answer was on its way is newer than that answer: the answer does not undo it.
  const changed = useRef(false);
  const remember = useCallback(
    (next: ReportPreferences) => {
      if (changed.current) return;
      setReport(next);
      cache(companyId, next);
    },
    [companyId],
  );
  useEffect(() => {
    const controller = new AbortController();
    api
      .request(PREFERENCES_CALL, { signal: controller.signal, parse: (v) => userPreferencesSchema.parse(v) })
      .then((p) => {
        remember(reportPreferencesOf(p));
        setServer({ anonymize: p.anonymize, anonymizeOffered: p.anonymizeOffered, brand: p.brand });
      })
      .catch(() => {
        // Offline or refused: the cached choices stay.
      });
    return () => controller.abort();
  }, [remember]);
  const update = useCallback(
    async (change: UserPreferencesUpdate) => {
      changed.current = true;
      setReport((current) => {
        const next = cachedChange(current, change);
        cache(companyId, next);
        return next;
      });
      try {
        const saved = await api.request(PREFERENCES_CALL, {
          method: 'PUT',
          body: change,
          parse: (v) => userPreferencesSchema.parse(v),
        });
        setServer({
          anonymize: saved.anonymize,
          anonymizeOffered: saved.anonymizeOffered,
          brand: saved.brand,
        });
        return true;
      } catch {
        return false;
      }
    },
    [companyId],
  );
  const value = useMemo(() => ({ report, ...server, update }), [report, server, update]);
  return <PreferencesContext.Provider value={value}>{children}</PreferencesContext.Provider>;
}

/** The preferences; outside a provider (a page rendered alone), the browser's cache only. */
export function usePreferences(): Preferences {
  const context = useContext(PreferencesContext);
  const { me } = useSession();
  const companyId = me.company.id;
  const [report, setReport] = useState<ReportPreferences>(() => readPreferences(browserStorage(), companyId));
  const update = useCallback(
    (change: UserPreferencesUpdate) => {
      setReport((current) => {
        const next = cachedChange(current, change);
        cache(companyId, next);
        return next;
      });
      return Promise.resolve(true);
    },
    [companyId],
  );
  const local = useMemo(
    () => ({ report, anonymize: false, anonymizeOffered: false, brand: null, update }),
    [report, update],
  );
  return context ?? local;
}
