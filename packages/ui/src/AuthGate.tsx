import { meSchema } from '@takt/domain';
import type { LoginRequest, Me } from '@takt/domain';
import { useCallback, useEffect, useState } from 'react';
import type { ReactNode } from 'react';
import { ApiError } from './api';
import type { ApiClient } from './api';
import { t } from './i18n';
import { LoginForm } from './LoginForm';
import { Progress } from './Progress';

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

const loginResponse = (data: unknown): Me => meSchema.parse((data as { user?: unknown })?.user);

/**
 * Asks GET /api/me once; shows the login form on 401, the app once signed in. Later 401s anywhere reload the
 * page (api.ts), which lands here again.
 */
export function AuthGate({
  api,
  appName,
  children,
}: {
  api: ApiClient;
  appName: string;
  children: (session: Session) => ReactNode;
}) {
  const [state, setState] = useState<GateState>({ kind: 'checking' });
  const [attempt, setAttempt] = useState(0);

  useEffect(() => {
    const controller = new AbortController();
    api
      .request('/api/me', { on401: 'throw', signal: controller.signal, parse: (d) => meSchema.parse(d) })
      .then((me) => setState({ kind: 'signed-in', me }))
      .catch((err: unknown) => {
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
      return <LoginForm appName={appName} onSubmit={login} />;
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
