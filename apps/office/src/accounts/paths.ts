// Account administration screens (reports-admin §2 "API keys"), admin only (decision 0840).

export const ACCOUNTS_PATHS = {
  apiKeys: '/app/accounts/api-keys',
} as const;

/** Whether a path is one of the account screens (the navigation marks its entry). */
export function isAccountsPath(pathname: string): boolean {
  const p = pathname.replace(/\/+$/, '') || '/';
  return p === ACCOUNTS_PATHS.apiKeys || p.startsWith('/app/accounts/');
}
