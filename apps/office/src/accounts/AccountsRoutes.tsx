import { lazy } from 'react';
import type { ReactNode } from 'react';
import { Route } from 'react-router';
import { ACCOUNTS_PATHS, publicAccountsPage } from './paths';
import { EMAIL_PREFERENCES_PATH } from './email-preferences';
import { LazyPage } from '../components/LazyPage';

// The account routes (reports-admin §2 "API keys", "Users", "Invites", "Profile", password set and reset),
// loaded when first opened.

const ApiKeysPage = lazy(() => import('./ApiKeysPage').then((m) => ({ default: m.ApiKeysPage })));
const UsersPage = lazy(() => import('./UsersPage').then((m) => ({ default: m.UsersPage })));
const InvitesPage = lazy(() => import('./InvitesPage').then((m) => ({ default: m.InvitesPage })));
const ProfilePage = lazy(() => import('./ProfilePage').then((m) => ({ default: m.ProfilePage })));
const SetPasswordPage = lazy(() => import('./PasswordPages').then((m) => ({ default: m.SetPasswordPage })));
const ForgotPasswordPage = lazy(() =>
  import('./PasswordPages').then((m) => ({ default: m.ForgotPasswordPage })),
);
// reports-admin §2 "E-mail notification preferences": every user's own (decision 0904).
const EmailPreferencesPage = lazy(() =>
  import('./EmailPreferencesPage').then((m) => ({ default: m.EmailPreferencesPage })),
);

const PAGES: Array<[string, () => ReactNode]> = [
  [ACCOUNTS_PATHS.apiKeys, () => <ApiKeysPage />],
  [ACCOUNTS_PATHS.users, () => <UsersPage />],
  [ACCOUNTS_PATHS.invites, () => <InvitesPage />],
  [ACCOUNTS_PATHS.profile, () => <ProfilePage />],
  [EMAIL_PREFERENCES_PATH, () => <EmailPreferencesPage />],
];

/** <Route> elements to place inside the app's <Routes>. */
export function accountsRoutes(): ReactNode[] {
  return PAGES.map(([path, page]) => (
    <Route key={path} path={path} element={<LazyPage>{page()}</LazyPage>} />
  ));
}

/**
 * The page for a path that opens without a session (an e-mailed set-password link, "Forgot password?"),
 * to render instead of the login gate; null for every other path.
 */
export function publicAccountsElement(pathname: string): ReactNode | null {
  const page = publicAccountsPage(pathname);
  if (!page) return null;
  return <LazyPage>{page === 'setPassword' ? <SetPasswordPage /> : <ForgotPasswordPage />}</LazyPage>;
}
