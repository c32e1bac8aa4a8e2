import type { LoginRequest, Me } from '@takt/domain';
import { useCallback, useEffect, useRef, useState } from 'react';
import type { ReactNode } from 'react';
import { ApiError } from './api';
import type { ApiClient } from './api';
import { t } from './i18n';
import { LoginForm } from './LoginForm';
import { Progress } from './Progress';
import { parseMe } from './shape';

export interface Session {
  me: Me;
  /** DELETE /logout, then reload so no state of the old session survives. */
  logout: () => Promise<void>;
}

type GateState =
  | { kind: 'checking' }
  | { kind: 'anonymous' }
  | { kind: 'failed'; message: string }
  | { kind: 'signed-in'; me: Me };

const loginResponse = (data: unknown): Me => parseMe((data as { user?: unknown } | null)?.user);

/**
 * Asks GET /api/me once; shows the login form on 401, the app once signed in. Later 401s anywhere reload the
 * page (api.ts), which lands here again.
 */
export function AuthGate({
  api,
  appName,
  children,
  offlineMe,
  onSignedIn,
  forgotPasswordHref,
}: {
  api: ApiClient;
  appName: string;
  children: (session: Session) => ReactNode;
  /**
   * Offline-first apps: the user of the last online visit, used when /api/me cannot be reached at all (a
   * network error, never a 401), so a tablet opens its workcenter with the network gone.
   */
  offlineMe?: () => Promise<Me | null>;
  /** Called with every confirmed user, so the app can keep it for offlineMe. */
  onSignedIn?: (me: Me) => void;
  /** The login form's "Forgot password?" link (reports-admin §2 password reset). */
  forgotPasswordHref?: string;
}) {
  const [state, setState] = useState<GateState>({ kind: 'checking' });
  const [attempt, setAttempt] = useState(0);
  // Read at check time: a new function identity from the parent must not ask /api/me again.
  const hooks = useRef({ offlineMe, onSignedIn });
  useEffect(() => {
    hooks.current = { offlineMe, onSignedIn };
  });

  useEffect(() => {
    const controller = new AbortController();
    api
      .request('/api/me', { on401: 'throw', signal: controller.signal, parse: parseMe })
      .then((me) => {
        hooks.current.onSignedIn?.(me);
        setState({ kind: 'signed-in', me });
      })
      .catch(async (err: unknown) => {
        if (controller.signal.aborted) return;
        const offlineMe = hooks.current.offlineMe;
        if (err instanceof ApiError && err.isNetworkError && offlineMe) {
          const cached = await offlineMe().catch(() => null);
          if (cached && !controller.signal.aborted) {
            setState({ kind: 'signed-in', me: cached });
            return;
          }
        }
        if (controller.signal.aborted) return;
        if (err instanceof ApiError && err.status === 401) setState({ kind: 'anonymous' });
        else
          setState({
            kind: 'failed',
            message:
              err instanceof ApiError && err.isNetworkError
                ? t('login.networkError')
                : t('common.requestError'),
          });
      });
    return () => controller.abort();
  }, [api, attempt]);

  const login = useCallback(
    async (request: LoginRequest) => {
      try {
        const me = await api.request('/login', {
          method: 'POST',
          body: request,
          on401: 'throw',
          parse: loginResponse,
        });
        hooks.current.onSignedIn?.(me);
        setState({ kind: 'signed-in', me });
      } catch (err) {
        if (err instanceof ApiError && err.isNetworkError) throw new Error(t('login.networkError'));
        throw err;
      }
    },
    [api],
  );

  const logout = useCallback(async () => {
    try {
      await api.request('/logout', { method: 'DELETE', on401: 'throw' });
    } finally {
      globalThis.location.reload();
    }
  }, [api]);

  switch (state.kind) {
    case 'checking':
      return (
        <main className="center-screen">
          <Progress />
        </main>
      );
    case 'anonymous':
      return <LoginForm appName={appName} onSubmit={login} forgotPasswordHref={forgotPasswordHref} />;
    case 'failed':
      return (
        <main className="center-screen">
          <p role="alert">{state.message}</p>
          <button type="button" className="button" onClick={() => setAttempt((a) => a + 1)}>
            {t('common.retry')}
          </button>
        </main>
      );
    case 'signed-in':
      return <>{children({ me: state.me, logout })}</>;
  }
}
