import {
  AuthGate,
  SessionContext,
  t,
  ToastProvider,
  useNewVersionReload,
  useOfflineToast,
  usePeriodicReload,
} from '@takt/ui';
import { lazy } from 'react';
import type { ReactNode } from 'react';
import { BrowserRouter, Navigate, Route, Routes, useLocation, useParams } from 'react-router';
import { accountsRoutes, publicAccountsElement } from './accounts/AccountsRoutes';
import { ACCOUNTS_PATHS } from './accounts/paths';
import { adminRoutes } from './admin/AdminRoutes';
import { internalRoutes } from './internal/InternalRoutes';
import { api } from './api';
import { AppShell } from './components/AppShell';
import { RequirePermission } from './components/RequirePermission';
import { MachinesPage } from './machines/MachinesPage';
import { NotFoundPage } from './pages/NotFoundPage';
import { ReportsIndexPage } from './reports/ReportsIndexPage';
import { machineUtilizationHref, OFFICE_ROUTES } from './routes';
import type { PageId } from './routes';
import { LazyPage } from './components/LazyPage';

// The report pages carry chart.js: loaded when first opened, not with the shell.
const UtilizationReportPage = lazy(() =>
  import('./utilization/UtilizationReportPage').then((m) => ({ default: m.UtilizationReportPage })),
);

// The older utilization dashboard (decision 1098): no chart.js, but loaded when opened as the other reports.
const UtilizationDeprecatedPage = lazy(() =>
  import('./utilization/UtilizationDeprecatedPage').then((m) => ({ default: m.UtilizationDeprecatedPage })),
);

const DowntimeReportPage = lazy(() =>
  import('./downtime/DowntimeReportPage').then((m) => ({ default: m.DowntimeReportPage })),
);

const QualityReportPage = lazy(() =>
  import('./quality/QualityReportPage').then((m) => ({ default: m.QualityReportPage })),
);

const CyclesReportPage = lazy(() =>
  import('./cycles/CyclesReportPage').then((m) => ({ default: m.CyclesReportPage })),
);

const MachineTimelinePage = lazy(() =>
  import('./timeline/MachineTimelinePage').then((m) => ({ default: m.MachineTimelinePage })),
);

// The standard timeline (reports-admin §2, decision 0811) shares the machine timeline's canvas.
const StandardTimelinePage = lazy(() =>
  import('./timeline/StandardTimelinePage').then((m) => ({ default: m.StandardTimelinePage })),
);

const MachineQualityPage = lazy(() =>
  import('./quality/MachineQualityPage').then((m) => ({ default: m.MachineQualityPage })),
);

const PartsReportPage = lazy(() =>
  import('./parts/PartsReportPage').then((m) => ({ default: m.PartsReportPage })),
);

const OverridesReportPage = lazy(() =>
  import('./overrides/OverridesReportPage').then((m) => ({ default: m.OverridesReportPage })),
);

// The machine diagnostics, conditions and export pages (decision 0810); conditions carries chart.js.
const MachineDiagnosticsPage = lazy(() =>
  import('./machine-tools/MachineDiagnosticsPage').then((m) => ({ default: m.MachineDiagnosticsPage })),
);

const MachineConditionsPage = lazy(() =>
  import('./machine-tools/MachineConditionsPage').then((m) => ({ default: m.MachineConditionsPage })),
);

const MachineExportPage = lazy(() =>
  import('./machine-tools/MachineExportPage').then((m) => ({ default: m.MachineExportPage })),
);

const JobsReportPage = lazy(() =>
  import('./jobs/JobsReportPage').then((m) => ({ default: m.JobsReportPage })),
);
const JobReportPage = lazy(() => import('./jobs/JobReportPage').then((m) => ({ default: m.JobReportPage })));
const MachineOperationReportPage = lazy(() =>
  import('./jobs/MachineOperationReportPage').then((m) => ({ default: m.MachineOperationReportPage })),
);
const OeeReportPage = lazy(() => import('./oee/OeeReportPage').then((m) => ({ default: m.OeeReportPage })));
// Production runs and their editor (reports-admin §2; decision 0850).
const ProductionRunsPage = lazy(() =>
  import('./production/ProductionRunsPage').then((m) => ({ default: m.ProductionRunsPage })),
);
const ProductionRunEditPage = lazy(() =>
  import('./production/ProductionRunEditPage').then((m) => ({ default: m.ProductionRunEditPage })),
);
// The schedule (job runs) timeline (reports-admin §2; decision 0910).
const SchedulePage = lazy(() =>
  import('./production/SchedulePage').then((m) => ({ default: m.SchedulePage })),
);

// Jobs and their standards, for planners (decision 1084).
const JobsPage = lazy(() => import('./jobs/JobsPage').then((m) => ({ default: m.JobsPage })));
const JobEditPage = lazy(() => import('./jobs/JobEditPage').then((m) => ({ default: m.JobEditPage })));

/** /machine/{id}/utilization opens the Utilization report drilled into the machine (routes.ts). */
function MachineUtilizationRedirect() {
  const { id = '' } = useParams();
  const { search } = useLocation();
  return <Navigate replace to={machineUtilizationHref(id, search)} />;
}

const PAGES: Record<PageId, () => ReactNode> = {
  machines: () => <MachinesPage />,
  reports: () => <ReportsIndexPage />,
  utilization: () => (
    <RequirePermission permission="Utilization">
      <LazyPage>
        <UtilizationReportPage />
      </LazyPage>
    </RequirePermission>
  ),
  utilizationDeprecated: () => (
    <RequirePermission permission="Utilization">
      <LazyPage>
        <UtilizationDeprecatedPage />
      </LazyPage>
    </RequirePermission>
  ),
  machineUtilization: () => <MachineUtilizationRedirect />,
  oee: () => (
    <RequirePermission permission="FullProduct">
      <LazyPage>
        <OeeReportPage />
      </LazyPage>
    </RequirePermission>
  ),
  // GET /api/reports/downtime needs PerformanceDashboard (services/api routes/reports.ts).
  downtime: () => (
    <RequirePermission permission="PerformanceDashboard">
      <LazyPage>
        <DowntimeReportPage />
      </LazyPage>
    </RequirePermission>
  ),
  // The reject calls need only a login; the report, like every report page, needs the reports tier.
  quality: () => (
    <RequirePermission permission="PerformanceDashboard">
      <LazyPage>
        <QualityReportPage />
      </LazyPage>
    </RequirePermission>
  ),
  // GET /api/reports/cycles needs PerformanceDashboard (services/api routes/reports.ts).
  cycles: () => (
    <RequirePermission permission="PerformanceDashboard">
      <LazyPage>
        <CyclesReportPage />
      </LazyPage>
    </RequirePermission>
  ),
  // GET /api/reports/partGoals needs FullProduct (services/api routes/reports.ts; reports-admin §6 Parts Goal).
  parts: () => (
    <RequirePermission permission="FullProduct">
      <LazyPage>
        <PartsReportPage />
      </LazyPage>
    </RequirePermission>
  ),
  // GET /api/reports/overrides needs PerformanceDashboard, as the other machine reports.
  overrides: () => (
    <RequirePermission permission="PerformanceDashboard">
      <LazyPage>
        <OverridesReportPage />
      </LazyPage>
    </RequirePermission>
  ),
  // GET /api/reports/operation needs PerformanceDashboard (services/api routes/reports.ts).
  timeline: () => (
    <RequirePermission permission="PerformanceDashboard">
      <LazyPage>
        <MachineTimelinePage />
      </LazyPage>
    </RequirePermission>
  ),
  standardTimeline: () => (
    <RequirePermission permission="PerformanceDashboard">
      <LazyPage>
        <StandardTimelinePage />
      </LazyPage>
    </RequirePermission>
  ),
  // reports-admin §2 "Machine quality": reading needs the reports tier; the form needs FullProduct (POST, PUT
  // and DELETE /api/partadjustment), and without it the grid is read-only.
  machineQuality: () => (
    <RequirePermission permission="PerformanceDashboard">
      <LazyPage>
        <MachineQualityPage kind="reject" />
      </LazyPage>
    </RequirePermission>
  ),
  partCorrections: () => (
    <RequirePermission permission="PerformanceDashboard">
      <LazyPage>
        <MachineQualityPage kind="correction" />
      </LazyPage>
    </RequirePermission>
  ),
  // GET /api/machines/:id/diagnostics, the live channel and POST /api/reports/event/queue need only a login
  // (any role of the company; decision 0702): no permission gate.
  machineDiagnostics: () => (
    <LazyPage>
      <MachineDiagnosticsPage />
    </LazyPage>
  ),
  machineConditions: () => (
    <LazyPage>
      <MachineConditionsPage />
    </LazyPage>
  ),
  machineExport: () => (
    <LazyPage>
      <MachineExportPage />
    </LazyPage>
  ),
  // The warehouse job calls need FullProduct (services/api routes/jobs-report.ts; decision 0813).
  jobs: () => (
    <RequirePermission permission="FullProduct">
      <LazyPage>
        <JobsReportPage />
      </LazyPage>
    </RequirePermission>
  ),
  jobReport: () => (
    <RequirePermission permission="FullProduct">
      <LazyPage>
        <JobReportPage />
      </LazyPage>
    </RequirePermission>
  ),
  machineJob: () => (
    <RequirePermission permission="FullProduct">
      <LazyPage>
        <MachineOperationReportPage />
      </LazyPage>
    </RequirePermission>
  ),
  // GET /api/productionruns needs FullProduct; saving a run is for admins (the editor says so).
  productionRuns: () => (
    <RequirePermission permission="FullProduct">
      <LazyPage>
        <ProductionRunsPage />
      </LazyPage>
    </RequirePermission>
  ),
  productionRunEdit: () => (
    <RequirePermission permission="FullProduct">
      <LazyPage>
        <ProductionRunEditPage />
      </LazyPage>
    </RequirePermission>
  ),
  schedule: () => (
    <RequirePermission permission="FullProduct">
      <LazyPage>
        <SchedulePage />
      </LazyPage>
    </RequirePermission>
  ),
  // The job calls need FullProduct; the pages say so to callers who do not plan (admins and managers).
  jobsAdmin: () => (
    <RequirePermission permission="FullProduct">
      <LazyPage>
        <JobsPage />
      </LazyPage>
    </RequirePermission>
  ),
  jobEdit: () => (
    <RequirePermission permission="FullProduct">
      <LazyPage>
        <JobEditPage />
      </LazyPage>
    </RequirePermission>
  ),
};

/** reports-admin §8 offline toast and the new-version countdown (MM-API-Version), as in the floor app. */
function AppToasts() {
  useNewVersionReload(api);
  useOfflineToast();
  return null;
}

export function App() {
  usePeriodicReload();
  // reports-admin §2 password set and reset: an e-mailed link and "Forgot password?" open without a session.
  const publicPage = publicAccountsElement(globalThis.location.pathname);
  if (publicPage)
    return (
      <ToastProvider>
        <AppToasts />
        {publicPage}
      </ToastProvider>
    );
  return (
    <ToastProvider>
      <AppToasts />
      <AuthGate api={api} appName={t('app.officeName')} forgotPasswordHref={ACCOUNTS_PATHS.forgotPassword}>
        {(session) => (
          <SessionContext.Provider value={session}>
            <BrowserRouter>
              <Routes>
                <Route element={<AppShell />}>
                  {OFFICE_ROUTES.map((r) => (
                    <Route key={r.path} path={r.path} element={PAGES[r.id]()} />
                  ))}
                  {/* reports-admin §2 "Administration screens" (admin/AdminRoutes.tsx). */}
                  {adminRoutes(LazyPage)}
                  {/* reports-admin §2 "API keys" (accounts/AccountsRoutes.tsx). */}
                  {accountsRoutes()}
                  {/* reports-admin §2 "Internal screens", root users (internal/InternalRoutes.tsx). */}
                  {internalRoutes(LazyPage)}
                  <Route path="*" element={<NotFoundPage />} />
                </Route>
              </Routes>
            </BrowserRouter>
          </SessionContext.Provider>
        )}
      </AuthGate>
    </ToastProvider>
  );
}
