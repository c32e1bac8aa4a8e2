import type { Me, Permission } from '@takt/domain';
import type { MessageKey } from '@takt/ui';

// The plant administration screens (reports-admin §2 "Administration screens") and who may open them
// (reports-admin §6): every screen is for admins; FullProduct also gates downtime reasons (annotation types),
// reject reasons (part adjustment types) and setup stages; the operator calls need FullProduct too
// (live-operations §6, the operator picker).

export const ADMIN_PATHS = {
  index: '/app/admin',
  machines: '/app/admin/machines',
  machineGroups: '/app/admin/machine-groups',
  reasons: '/app/admin/downtime-reasons',
  rejectReasons: '/app/admin/reject-reasons',
  setupStages: '/app/admin/setup-stages',
  settings: '/app/admin/settings',
  shifts: '/app/admin/shifts',
  startOfDay: '/app/admin/start-of-day',
  operators: '/app/admin/operators',
  operatorRuns: '/app/admin/operator-runs',
  tablets: '/app/admin/tablets',
} as const;

export type AdminScreenId = Exclude<keyof typeof ADMIN_PATHS, 'index'>;

export interface AdminScreen {
  id: AdminScreenId;
  path: string;
  /** Needed beyond being an admin; null when being an admin is enough. */
  permission: Permission | null;
  title: MessageKey;
  blurb: MessageKey;
}

export const ADMIN_SCREENS: readonly AdminScreen[] = [
  {
    id: 'machines',
    path: ADMIN_PATHS.machines,
    permission: null,
    title: 'admin.machines.title',
    blurb: 'admin.machines.blurb',
  },
  {
    // The group's downtime reasons inside need FullProduct too; the screen itself is for every admin.
    id: 'machineGroups',
    path: ADMIN_PATHS.machineGroups,
    permission: null,
    title: 'admin.groups.title',
    blurb: 'admin.groups.blurb',
  },
  {
    id: 'reasons',
    path: ADMIN_PATHS.reasons,
    permission: 'FullProduct',
    title: 'admin.reasons.title',
    blurb: 'admin.reasons.blurb',
  },
  {
    id: 'rejectReasons',
    path: ADMIN_PATHS.rejectReasons,
    permission: 'FullProduct',
    title: 'admin.rejects.title',
    blurb: 'admin.rejects.blurb',
  },
  {
    id: 'setupStages',
    path: ADMIN_PATHS.setupStages,
    permission: 'FullProduct',
    title: 'admin.stages.title',
    blurb: 'admin.stages.blurb',
  },
  {
    id: 'settings',
    path: ADMIN_PATHS.settings,
    permission: null,
    title: 'admin.settings.title',
    blurb: 'admin.settings.blurb',
  },
  {
    id: 'shifts',
    path: ADMIN_PATHS.shifts,
    permission: null,
    title: 'admin.shifts.title',
    blurb: 'admin.shifts.blurb',
  },
  {
    id: 'startOfDay',
    path: ADMIN_PATHS.startOfDay,
    permission: null,
    title: 'admin.day.title',
    blurb: 'admin.day.blurb',
  },
  {
    id: 'operators',
    path: ADMIN_PATHS.operators,
    permission: 'FullProduct',
    title: 'admin.operators.title',
    blurb: 'admin.operators.blurb',
  },
  {
    // live-operations §2 "Operator runs (admin, see companion)": review, correct and end runs (decision 1091).
    id: 'operatorRuns',
    path: ADMIN_PATHS.operatorRuns,
    permission: 'FullProduct',
    title: 'admin.operatorRuns.title',
    blurb: 'admin.operatorRuns.blurb',
  },
  {
    // live-operations §2 "Tablet management"; the tablet calls are for every admin (decision 0890).
    id: 'tablets',
    path: ADMIN_PATHS.tablets,
    permission: null,
    title: 'admin.tablets.title',
    blurb: 'admin.tablets.blurb',
  },
];

type Who = Pick<Me, 'isAdmin' | 'isRoot' | 'permissions'>;

/** isAdmin (reports-admin §3 Current user): the API's admin routes accept admins and root users. */
export const isAdminUser = (me: Pick<Me, 'isAdmin' | 'isRoot'>): boolean => me.isAdmin || me.isRoot;

export const mayOpen = (me: Who, screen: Pick<AdminScreen, 'permission'>): boolean =>
  isAdminUser(me) && (screen.permission === null || me.permissions.includes(screen.permission));

/** The screens this user may open, in index order; empty for non-admins. */
export const adminScreensFor = (me: Who): AdminScreen[] => ADMIN_SCREENS.filter((s) => mayOpen(me, s));

/** Whether a path is the administration index or one of its screens (the navigation marks the entry). */
export function isAdminPath(pathname: string): boolean {
  const p = pathname.replace(/\/+$/, '') || '/';
  return p === ADMIN_PATHS.index || p.startsWith(`${ADMIN_PATHS.index}/`);
}
