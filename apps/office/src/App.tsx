import { AuthGate, t, ToastProvider, useLocation, usePeriodicReload } from '@takt/ui';
import { api } from './api';
import { AppShell } from './components/AppShell';
import { MachinesPage } from './pages/MachinesPage';
import { NotFoundPage } from './pages/NotFoundPage';
import { resolveOfficeRoute } from './routes';
import { SessionContext } from './session';

function Screen() {
  const { pathname } = useLocation();
  const route = resolveOfficeRoute(pathname);
  switch (route.name) {
    case 'machines':
      return <MachinesPage />;
    case 'notFound':
      return <NotFoundPage />;
  }
}

export function App() {
  usePeriodicReload();
  return (
    <ToastProvider>
      <AuthGate api={api} appName={t('app.officeName')}>
        {(session) => (
          <SessionContext.Provider value={session}>
            <AppShell>
              <Screen />
            </AppShell>
          </SessionContext.Provider>
        )}
      </AuthGate>
    </ToastProvider>
  );
}
