import { lazy } from 'react';
import type { ComponentType, ReactNode } from 'react';
import { Route } from 'react-router';
import { AdminGate } from './AdminParts';
import { AdminIndexPage } from './AdminIndexPage';
import { ADMIN_PATHS, ADMIN_SCREENS } from './screens';
import type { AdminScreenId } from './screens';
import { SIMULATE_ROUTE } from '../simulate/simulate';

// The administration routes (reports-admin §2 "Administration screens"), each screen loaded when first
// opened and gated by reports-admin §6 (AdminGate).

const screen = <K extends string>(load: () => Promise<Record<K, ComponentType>>, name: K) =>
  lazy(() => load().then((m) => ({ default: m[name] })));

const PAGES: Record<AdminScreenId, ComponentType> = {
  machines: screen(() => import('./MachinesPage'), 'MachinesPage'),
  machineGroups: screen(() => import('./MachineGroupsPage'), 'MachineGroupsPage'),
  reasons: screen(() => import('./ReasonScreens'), 'DowntimeReasonsPage'),
  rejectReasons: screen(() => import('./ReasonScreens'), 'RejectReasonsPage'),
  setupStages: screen(() => import('./SetupStagesPage'), 'SetupStagesPage'),
  settings: screen(() => import('./SettingsPage'), 'SettingsPage'),
  shifts: screen(() => import('./ShiftsPage'), 'ShiftsPage'),
  startOfDay: screen(() => import('./StartOfDayPage'), 'StartOfDayPage'),
  operators: screen(() => import('./OperatorsPage'), 'OperatorsPage'),
  operatorRuns: screen(() => import('../operator-runs/OperatorRunsPage'), 'OperatorRunsPage'),
  tablets: screen(() => import('./TabletsPage'), 'TabletsPage'),
};
const SimulatePage = screen(() => import('../simulate/SimulatePage'), 'SimulatePage');

/**
 * <Route> elements to place inside the app's <Routes> (a function: react-router reads Route elements only);
 * `Lazy` is the app's Suspense frame for pages loaded on first use.
 */
export function adminRoutes(Lazy: ComponentType<{ children: ReactNode }>): ReactNode[] {
  return [
    <Route key={ADMIN_PATHS.index} path={ADMIN_PATHS.index} element={<AdminIndexPage />} />,
    // The test screen for simulated execution of one machine (decision 1100), opened from the machines admin.
    <Route
      key={SIMULATE_ROUTE}
      path={SIMULATE_ROUTE}
      element={
        <AdminGate screen={{ permission: null }}>
          <Lazy>
            <SimulatePage />
          </Lazy>
        </AdminGate>
      }
    />,
    ...ADMIN_SCREENS.map((s) => {
      const Page = PAGES[s.id];
      return (
        <Route
          key={s.path}
          path={s.path}
          element={
            <AdminGate screen={s}>
              <Lazy>
                <Page />
              </Lazy>
            </AdminGate>
          }
        />
      );
    }),
  ];
}
