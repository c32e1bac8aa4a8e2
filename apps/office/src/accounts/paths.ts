// Account screens (reports-admin §2 "API keys", "Invites", "Users", "Profile", password set and reset).

export const ACCOUNTS_PATHS = {
  apiKeys: '/app/accounts/api-keys',
  /** Users and invites, admins (decision 0880). */
  users: '/app/accounts/users',
  invites: '/app/accounts/invites',
  /** The logged-in user's own account. */
  profile: '/app/profile',
  /** Opened from an e-mailed link, without a session: the token is in the fragment (decision 0880). */
  setPassword: '/app/set-password',
  /** "Forgot password?" on the login page, without a session. */
  forgotPassword: '/app/forgot-password',
} as const;

/** Whether a path is one of the account screens (the navigation marks its entry). */
export function isAccountsPath(pathname: string): boolean {
  const p = pathname.replace(/\/+$/, '') || '/';
  return p === ACCOUNTS_PATHS.apiKeys || p.startsWith('/app/accounts/');
}

/** The users and invites screens, which have their own navigation entry. */
export function isUsersPath(pathname: string): boolean {
  const p = pathname.replace(/\/+$/, '') || '/';
  return p === ACCOUNTS_PATHS.users || p === ACCOUNTS_PATHS.invites;
}

/** The pages that open without a session (an e-mailed link, or "Forgot password?"). */
export function publicAccountsPage(pathname: string): 'setPassword' | 'forgotPassword' | null {
  const p = pathname.replace(/\/+$/, '') || '/';
  if (p === ACCOUNTS_PATHS.setPassword) return 'setPassword';
  if (p === ACCOUNTS_PATHS.forgotPassword) return 'forgotPassword';
  return null;
}

/** The token of a set-password link: `#token=…` (never sent to the server with the page request). */
export function linkToken(hash: string): string | null {
  const token = new URLSearchParams(hash.replace(/^#/, '')).get('token');
  return token && token.trim() !== '' ? token.trim() : null;
}
