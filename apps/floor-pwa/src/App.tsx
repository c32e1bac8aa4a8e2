import { AuthGate, t, ToastProvider, useLocation, usePeriodicReload } from '@takt/ui';
import { useEffect } from 'react';
import { api } from './api';
import { HomePage } from './pages/HomePage';
import { LiveDashboardPage } from './pages/LiveDashboardPage';
import { NotFoundPage } from './pages/NotFoundPage';
import { WorkcenterPage } from './pages/WorkcenterPage';
import { isTvMode, resolveFloorRoute } from './routes';
import { SessionContext } from './session';

function Screen() {
  const { pathname } = useLocation();
  const route = resolveFloorRoute(pathname);
  switch (route.name) {
    case 'home':
      return <HomePage />;
    case 'dashboard':
      return <LiveDashboardPage type={route.type} />;
    case 'workcenter':
      return <WorkcenterPage machineId={route.machineId} dashboardType={route.dashboardType} />;
    case 'notFound':
      return <NotFoundPage />;
  }
}

export function App() {
  usePeriodicReload();
  const { query } = useLocation();
  const tv = isTvMode(query);

  // TV mode (UI.md "Floor"): dark background and large type, applied to the whole document.
  useEffect(() => {
    const html = document.documentElement;
    html.dataset.theme = tv ? 'dark' : 'light';
    html.classList.toggle('tv', tv);
  }, [tv]);

  return (
    <ToastProvider>
      <AuthGate api={api} appName={t('app.floorName')}>
        {(session) => (
          <SessionContext.Provider value={session}>
            <Screen />
          </SessionContext.Provider>
        )}
      </AuthGate>
    </ToastProvider>
  );
}
