import { lazy } from 'react';
import type { ComponentType, ReactNode } from 'react';
import { Route } from 'react-router';
import { InternalIndexPage } from './InternalIndexPage';
import { RootGate } from './InternalParts';
import { INTERNAL_PATHS } from './paths';
import type { InternalScreenId } from './paths';

// The internal routes (reports-admin §2 "Internal screens"), each screen loaded when first opened and gated to
// root users (§6, RootGate).

const PAGES: Record<InternalScreenId, ComponentType> = {
  companies: lazy(() => import('./companies/CompaniesPage').then((m) => ({ default: m.CompaniesPage }))),
  machines: lazy(() =>
    import('./machines/InternalMachinesPage').then((m) => ({ default: m.InternalMachinesPage })),
  ),
  system: lazy(() => import('./system/SystemPage').then((m) => ({ default: m.SystemPage }))),
  gateways: lazy(() => import('./gateways/GatewaysPage')),
  adapters: lazy(() => import('./adapters/AdaptersPage')),
};

/**
 * <Route> elements to place inside the app's <Routes> (a function: react-router reads Route elements only);
 * `Lazy` is the app's Suspense frame for pages loaded on first use.
 */
export function internalRoutes(Lazy: ComponentType<{ children: ReactNode }>): ReactNode[] {
  return [
    <Route key={INTERNAL_PATHS.index} path={INTERNAL_PATHS.index} element={<InternalIndexPage />} />,
    ...(Object.keys(PAGES) as InternalScreenId[]).map((id) => {
      const Page = PAGES[id];
      return (
        <Route
          key={id}
          path={INTERNAL_PATHS[id]}
          element={
            <RootGate>
              <Lazy>
                <Page />
              </Lazy>
            </RootGate>
          }
        />
      );
    }),
  ];
}
