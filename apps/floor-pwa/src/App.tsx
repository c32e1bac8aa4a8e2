import type { Me } from '@takt/domain';
import {
  AuthGate,
  navigate,
  SessionContext,
  t,
  ToastProvider,
  useLocation,
  useNewVersionReload,
  usePeriodicReload,
  useSession,
} from '@takt/ui';
import { lazy, Suspense, useEffect } from 'react';
import { api } from './api';
import { LoadBoundary } from './components/LoadBoundary';
import { floorDb, KV, kvGet, kvPut } from './offline/db';
import { SyncProvider } from './offline/SyncProvider';
import { WorkcenterPage } from './pages/WorkcenterPage';
import { isBoardRoute, isTvMode, resolveFloorRoute } from './routes';
import { useTabletPushes } from './tablet/pushes';
import { tabletDeviceOf, writeTabletDevice } from './tablet/device';
import { deviceSerial } from './tablet/registration';
import type { DeviceRegistration } from '@takt/ui';

// The workcenter route is the tablet's first paint and loads with the entry; the other screens load on first
// use so its initial JavaScript stays within its 150 KB gzip budget.
const HomePage = lazy(() => import('./pages/HomePage').then((m) => ({ default: m.HomePage })));
const LiveDashboardPage = lazy(() =>
  import('./pages/LiveDashboardPage').then((m) => ({ default: m.LiveDashboardPage })),
);
const SwitchMachinesPage = lazy(() =>
  import('./pages/SwitchMachinesPage').then((m) => ({ default: m.SwitchMachinesPage })),
);
const AuthorizeOperatorPage = lazy(() =>
  import('./pages/AuthorizeOperatorPage').then((m) => ({ default: m.AuthorizeOperatorPage })),
);
// The operator host part count (decision 1099).
const PartCountScreen = lazy(() =>
  import('./workcenter/PartCountScreen').then((m) => ({ default: m.PartCountScreen })),
);
const NotFoundPage = lazy(() => import('./pages/NotFoundPage').then((m) => ({ default: m.NotFoundPage })));

// Registration runs before the tablet has any caller, so it sits outside the sign-in gate (own chunk).
const TabletRegisterPage = lazy(() =>
  import('./tablet/TabletRegisterPage').then((m) => ({ default: m.TabletRegisterPage })),
);

function Screen() {
  const { pathname } = useLocation();
  const { me } = useSession();
  const route = resolveFloorRoute(pathname);
  // A TV (decision 1041) shows its board and nothing else: any other page (or its old board, after an admin
  // gave it another) sends it there.
  const strayTv = me.board != null && (!isBoardRoute(route) || pathname !== me.board.split('?')[0]);
  useEffect(() => {
    if (strayTv && me.board) navigate(me.board, { replace: true });
  }, [strayTv, me.board]);
  if (strayTv) return null;
  switch (route.name) {
    case 'home':
      return <HomePage />;
    case 'dashboard':
      return <LiveDashboardPage type={route.type} />;
    case 'machineDashboard':
      return <LiveDashboardPage type={route.type} machineId={route.machineId} />;
    case 'workcenter':
      return <WorkcenterPage machineId={route.machineId} dashboardType={route.dashboardType} />;
    case 'partCount':
      return <PartCountScreen machineId={route.machineId} />;
    case 'tabletRegister':
      return <TabletRegisterPage />;
    case 'switchMachines':
      return <SwitchMachinesPage />;
    case 'authorizeOperator':
      return <AuthorizeOperatorPage />;
    case 'notFound':
      return <NotFoundPage />;
  }
}

// Offline-first start (ARCHITECTURE.md "Offline sync contract"): the user of the last online visit opens the app with the network gone.
const offlineMe = () => kvGet<Me>(floorDb(), KV.me).then((m) => m ?? null);
const rememberMe = (me: Me) => void kvPut(floorDb(), KV.me, me);

// "Use this device" on the login page (?device, decision 0935): the tablet keeps its serial number and, once
// registered, what it is, as the code registration does (tablet/TabletRegisterPage.tsx).
const localStorageOrNull = () => {
  try {
    return window.localStorage;
  } catch {
    return null;
  }
};
const thisDeviceSerial = () => deviceSerial(localStorageOrNull());
const rememberDevice = ({ tablet }: DeviceRegistration) => {
  const device = tabletDeviceOf(tablet);
  if (device) writeTabletDevice(localStorageOrNull(), device);
};

/** live-operations §1, §4: a changed MM-API-Version counts "Reloading in ..." for 30 s, then reloads. */
function VersionWatch() {
  useNewVersionReload(api);
  return null;
}

export function App() {
  usePeriodicReload();
  useTabletPushes();
  const { query, pathname } = useLocation();
  const tv = isTvMode(query);

  // TV mode (UI.md "Floor"): dark background and large type, applied to the whole document.
  useEffect(() => {
    const html = document.documentElement;
    html.dataset.theme = tv ? 'dark' : 'light';
    html.classList.toggle('tv', tv);
  }, [tv]);

  return (
    <ToastProvider>
      <VersionWatch />
      {resolveFloorRoute(pathname).name === 'tabletRegister' ? (
        <Suspense fallback={null}>
          <TabletRegisterPage />
        </Suspense>
      ) : (
        <AuthGate
          api={api}
          appName={t('app.floorName')}
          offlineMe={offlineMe}
          onSignedIn={rememberMe}
          deviceSerial={thisDeviceSerial}
          registerScreenHref="/tablet/register"
          onDeviceRegistered={rememberDevice}
        >
          {(session) => (
            <SessionContext.Provider value={session}>
              <SyncProvider api={api} paused={session.me.board != null}>
                <LoadBoundary resetKey={pathname}>
                  <Suspense fallback={null}>
                    <Screen />
                  </Suspense>
                </LoadBoundary>
              </SyncProvider>
            </SessionContext.Provider>
          )}
        </AuthGate>
      )}
    </ToastProvider>
  );
}
