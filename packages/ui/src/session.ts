import type { Me } from '@takt/domain';
import { createContext, useContext } from 'react';
import type { Session } from './AuthGate';

/** The signed-in session (AuthGate's), provided once at the top of each app. */
export const SessionContext = createContext<Session | null>(null);

export function useSession(): Session {
  const s = useContext(SessionContext);
  if (!s) throw new Error('useSession outside the signed-in app');
  return s;
}

/** The company's locale and zone for formatting (UI.md "Both"). */
export const localeZone = (me: Me) => ({ locale: me.company.locale, timeZone: me.company.timezone });
