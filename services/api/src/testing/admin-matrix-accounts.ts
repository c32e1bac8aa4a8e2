import type { MatrixRoute } from './admin-matrix';

// The account routes of the administration matrix (admin-matrix.ts): users, invites, API keys, and each
// user's profile and e-mail preferences (reports-admin §2 account screens).

export const ACCOUNT_ROUTES: MatrixRoute[] = [
  // Users (reports-admin §2 Users; decision 0880). The target is an operator no caller uses.
  { method: 'GET', path: '/api/users', audience: 'admin', reach: 'own' },
  {
    method: 'PUT',
    path: '/api/users/:id',
    id: (s) => s.userId,
    body: () => ({ displayName: 'Otto', role: 'operator' }),
    audience: 'admin',
    reach: 'company',
  },
  ...(['lock', 'unlock', 'revoke', 'reset-password'] as const).map((action): MatrixRoute => ({
    method: 'POST',
    path: `/api/users/:id/${action}`,
    id: (s) => s.userId,
    audience: 'admin',
    reach: 'company',
  })),
  {
    method: 'DELETE',
    path: '/api/users/:id',
    id: (s) => s.userId,
    audience: 'admin',
    reach: 'company',
    ok: 204,
  },

  // Invites (§2 Invites; §6 InviteUsers gates the invites screen).
  { method: 'GET', path: '/api/invites', audience: 'inviteUsers', reach: 'own' },
  {
    method: 'POST',
    path: '/api/invites',
    body: () => ({ invitees: [`new-${crypto.randomUUID().slice(0, 8)}@shop.example`], role: 'operator' }),
    audience: 'inviteUsers',
    reach: 'own',
    ok: 201,
  },
  {
    method: 'POST',
    path: '/api/invites/:id/resend',
    id: (s) => s.inviteId,
    audience: 'inviteUsers',
    reach: 'company',
  },
  {
    method: 'DELETE',
    path: '/api/invites/:id',
    id: (s) => s.inviteId,
    audience: 'inviteUsers',
    reach: 'company',
    ok: 204,
  },

  // API keys (§2 API keys; decision 0840: admins, never a key).
  { method: 'GET', path: '/api/apikeys', audience: 'admin', reach: 'own' },
  {
    method: 'POST',
    path: '/api/apikeys',
    body: () => ({ name: 'ERP', scopes: ['reports:read'] }),
    audience: 'admin',
    reach: 'own',
    ok: 201,
  },
  {
    method: 'PUT',
    path: '/api/apikeys/:id',
    id: (s) => s.apiKeyId,
    body: () => ({ name: 'BI' }),
    audience: 'admin',
    reach: 'company',
  },
  {
    method: 'DELETE',
    path: '/api/apikeys/:id',
    id: (s) => s.apiKeyId,
    audience: 'admin',
    reach: 'company',
    ok: 204,
  },

  // Profile and e-mail preferences: each user's own (§2 Profile, E-mail notification preferences).
  { method: 'GET', path: '/api/profile', audience: 'users', reach: 'own' },
  {
    method: 'PUT',
    path: '/api/profile/shift-notifications',
    body: () => ({ notify: true, shifts: [] }),
    audience: 'users',
    reach: 'own',
  },
  { method: 'POST', path: '/api/profile/revoke-sessions', audience: 'users', reach: 'own' },
  { method: 'POST', path: '/api/profile/reset-password', audience: 'users', reach: 'own' },
  { method: 'GET', path: '/api/emailnotifications', audience: 'users', reach: 'own' },
  {
    method: 'PUT',
    path: '/api/emailnotifications',
    body: () => ({
      receiveDowntimeEmail: true,
      receiveUtilizationEmail: true,
      receiveBenchmarkingEmail: false,
    }),
    audience: 'users',
    reach: 'own',
  },
  { method: 'PUT', path: '/api/emailnotifications/sendemail', audience: 'users', reach: 'own' },
];
