import type { LoginRequest, Me } from '@takt/domain';
import { useCallback, useEffect, useRef, useState } from 'react';
import type { ReactNode } from 'react';
import { ApiError } from './api';
import type { ApiClient } from './api';
import { t } from './i18n';
import { CodeLoginForm } from './CodeLoginForm';
import { LoginForm } from './LoginForm';
import { loginVariantsOf } from './login-variants';
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
  | { kind: 'device-registered' }
  | { kind: 'signed-in'; me: Me };

const loginResponse = (data: unknown): Me => parseMe((data as { user?: unknown } | null)?.user);

/** POST /login/device's answer (decision 0935): the same as the tablet registration's activation. */
export interface DeviceRegistration {
  /** The tablet as the server describes it (id, serial_number, remote_identifier, machine_id, dashboardView). */
  tablet: unknown;
  /** Where the registered device goes: its machine's workcenter, or the start page. */
  redirectTo: string;
}

const deviceResponse = (data: unknown): DeviceRegistration => {
  const d = (data ?? {}) as { tablet?: unknown; redirectTo?: unknown };
  return { tablet: d.tablet, redirectTo: typeof d.redirectTo === 'string' ? d.redirectTo : '/' };
};
const messageResponse = (data: unknown): string => {
  const m = (data as { message?: unknown } | null)?.message;
  return typeof m === 'string' ? m : '';
};

/** Network failures of the login calls read as the login page's text. */
async function loginCall<T>(call: () => Promise<T>): Promise<T> {
  try {
    return await call();
  } catch (err) {
    if (err instanceof ApiError && err.isNetworkError) throw new Error(t('login.networkError'));
    throw err;
  }
}

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
  registerScreenHref,
  deviceSerial,
  onDeviceRegistered,
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
  /** Passed to the login form: the link to register this screen as a TV or tablet (decision 1041). */
  registerScreenHref?: string;
  /**
   * The serial number a device registered with "Use this device" (?device) is known by; the server makes one
   * when left out.
   */
  deviceSerial?: () => string;
  /** Called with the registration before the page goes to `redirectTo`, so the app can keep what it is. */
  onDeviceRegistered?: (registration: DeviceRegistration) => void;
}) {
  const [state, setState] = useState<GateState>({ kind: 'checking' });
  const [attempt, setAttempt] = useState(0);
  // reports-admin §2 "Login: device button and code option depending on query parameters" (decision 0935).
  const [variants] = useState(() => loginVariantsOf(globalThis.location?.search ?? ''));
  const [byCode, setByCode] = useState(false);
  // Read at check time: a new function identity from the parent must not ask /api/me again.
  const hooks = useRef({ offlineMe, onSignedIn, deviceSerial, onDeviceRegistered });
  useEffect(() => {
    hooks.current = { offlineMe, onSignedIn, deviceSerial, onDeviceRegistered };
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

  const signedIn = useCallback((me: Me) => {
    hooks.current.onSignedIn?.(me);
    setState({ kind: 'signed-in', me });
  }, []);

  const login = useCallback(
    async (request: LoginRequest) => {
      const me = await loginCall(() =>
        api.request('/login', { method: 'POST', body: request, on401: 'throw', parse: loginResponse }),
      );
      signedIn(me);
    },
    [api, signedIn],
  );

  const registerDevice = useCallback(
    async (request: LoginRequest) => {
      const registration = await loginCall(() =>
        api.request('/login/device', {
          method: 'POST',
          body: {
            ...request,
            serial_number: hooks.current.deviceSerial?.() ?? null,
            machineId: variants.machineId,
          },
          on401: 'throw',
          parse: deviceResponse,
        }),
      );
      hooks.current.onDeviceRegistered?.(registration);
      setState({ kind: 'device-registered' });
      globalThis.location.assign(registration.redirectTo);
    },
    [api, variants.machineId],
  );

  const requestCode = useCallback(
    (email: string) =>
      loginCall(() =>
        api.request('/login/code/request', {
          method: 'POST',
          body: { email },
          on401: 'throw',
          parse: messageResponse,
        }),
      ),
    [api],
  );

  const loginWithCode = useCallback(
    async (request: { email: string; code: string }) => {
      const me = await loginCall(() =>
        api.request('/login/code', { method: 'POST', body: request, on401: 'throw', parse: loginResponse }),
      );
      signedIn(me);
    },
    [api, signedIn],
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
      return byCode ? (
        <CodeLoginForm
          appName={appName}
          onRequest={requestCode}
          onSubmit={loginWithCode}
          onUsePassword={() => setByCode(false)}
        />
      ) : (
        <LoginForm
          appName={appName}
          onSubmit={login}
          forgotPasswordHref={forgotPasswordHref}
          {...(registerScreenHref ? { registerScreenHref } : {})}
          onUseDevice={variants.device ? registerDevice : undefined}
          deviceHint={
            variants.machineId ? t('accountsMore.device.hintMachine') : t('accountsMore.device.hint')
          }
          onUseCode={variants.code ? () => setByCode(true) : undefined}
        />
      );
    case 'device-registered':
      return (
        <main className="center-screen">
          <p role="status">{t('accountsMore.device.done')}</p>
          <Progress />
        </main>
      );
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
