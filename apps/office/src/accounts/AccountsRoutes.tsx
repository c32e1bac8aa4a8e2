import { Progress } from '@takt/ui';
import { lazy, Suspense } from 'react';
import type { ReactNode } from 'react';
import { Route } from 'react-router';
import { ACCOUNTS_PATHS } from './paths';

// The account administration routes (reports-admin §2 "API keys"), loaded when first opened.

const ApiKeysPage = lazy(() => import('./ApiKeysPage').then((m) => ({ default: m.ApiKeysPage })));

/** <Route> elements to place inside the app's <Routes>. */
export function accountsRoutes(): ReactNode[] {
  return [
    <Route
      key={ACCOUNTS_PATHS.apiKeys}
      path={ACCOUNTS_PATHS.apiKeys}
      element={
        <Suspense
          fallback={
            <main className="page">
              <Progress />
            </main>
          }
        >
          <ApiKeysPage />
        </Suspense>
      }
    />,
  ];
}
