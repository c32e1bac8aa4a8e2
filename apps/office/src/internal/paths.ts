import type { Me } from '@takt/domain';
import type { MessageKey } from '@takt/ui';

// The internal screens (reports-admin §2 "Internal screens"): for root users only (§6 "Root or internal role
// sees internal screens"); the API answers 403 to everyone else.

export const INTERNAL_PATHS = {
  index: '/app/internal',
  companies: '/app/internal/companies',
  machines: '/app/internal/machines',
  gateways: '/app/internal/gateways',
  /** Opens one adapter directly with ?adapterId= (reports-admin §2 "direct open with adapterId query parameter"). */
  adapters: '/app/internal/adapters',
  system: '/app/internal/system',
} as const;

export type InternalScreenId = Exclude<keyof typeof INTERNAL_PATHS, 'index'>;

export interface InternalScreen {
  id: InternalScreenId;
  path: string;
  title: MessageKey;
  blurb: MessageKey;
}

/** In the index's order. */
export const INTERNAL_SCREENS: readonly InternalScreen[] = [
  {
    id: 'companies',
    path: INTERNAL_PATHS.companies,
    title: 'internal.companies.title',
    blurb: 'internal.companies.blurb',
  },
  {
    id: 'machines',
    path: INTERNAL_PATHS.machines,
    title: 'internal.machines.title',
    blurb: 'internal.machines.blurb',
  },
  {
    id: 'gateways',
    path: INTERNAL_PATHS.gateways,
    title: 'internal.gatewaysEntry.title',
    blurb: 'internal.gatewaysEntry.blurb',
  },
  {
    id: 'adapters',
    path: INTERNAL_PATHS.adapters,
    title: 'internal.adaptersEntry.title',
    blurb: 'internal.adaptersEntry.blurb',
  },
  {
    id: 'system',
    path: INTERNAL_PATHS.system,
    title: 'internal.system.title',
    blurb: 'internal.system.blurb',
  },
];

/** reports-admin §6: only root users see the internal screens. */
export const isRootUser = (me: Pick<Me, 'isRoot'>): boolean => me.isRoot;

/** Whether a path is the internal index or one of its screens (the navigation marks the entry). */
export function isInternalPath(pathname: string): boolean {
  const p = pathname.replace(/\/+$/, '') || '/';
  return p === INTERNAL_PATHS.index || p.startsWith(`${INTERNAL_PATHS.index}/`);
}
