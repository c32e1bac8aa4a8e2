import type { LoginRequest } from '@takt/domain';
import { useId, useState } from 'react';
import type { FormEvent } from 'react';
import { t } from './i18n';
import { checkLogin } from './shape';

export interface LoginFormProps {
  /** Product name in the heading ("Takt Floor"). */
  appName: string;
  /** Sends the credentials; rejects with an Error whose message is shown to the user. */
  onSubmit: (request: LoginRequest) => Promise<void>;
  /** reports-admin §2 password reset: where "Forgot password?" leads; no link when left out. */
  forgotPasswordHref?: string;
  /**
   * reports-admin §2 "Login: device button" (decision 0935): registers this device with the credentials typed;
   * rejects with an Error whose message is shown. No button when left out.
   */
  onUseDevice?: (request: LoginRequest) => Promise<void>;
  /** The line under the device button: what it does. */
  deviceHint?: string;
  /** reports-admin §2 "Login: … code option": switches to signing in with an e-mailed code. No link when left out. */
  onUseCode?: () => void;
  /** The floor app: where a TV or tablet registers by code (decision 1041). No link when left out. */
  registerScreenHref?: string;
}

const validate = checkLogin;

/** E-mail and password sign-in. Field rules and texts are the domain's loginRequestSchema's (shape.ts). */
export function LoginForm({
  appName,
  onSubmit,
  forgotPasswordHref,
  onUseDevice,
  deviceHint,
  onUseCode,
  registerScreenHref,
}: LoginFormProps) {
  const id = useId();
  const [values, setValues] = useState({ email: '', password: '' });
  const [touched, setTouched] = useState<Partial<Record<keyof LoginRequest, boolean>>>({});
  const [serverError, setServerError] = useState<string | null>(null);
  const [submitting, setSubmitting] = useState<'login' | 'device' | null>(null);

  const { errors } = validate(values);
  const shown = (f: keyof LoginRequest) => (touched[f] ? errors[f] : undefined);

  const run = async (action: 'login' | 'device', send: (request: LoginRequest) => Promise<void>) => {
    if (submitting) return;
    setTouched({ email: true, password: true });
    const result = validate(values);
    if (!result.data) return;
    setSubmitting(action);
    setServerError(null);
    try {
      await send(result.data);
    } catch (err) {
      setServerError(err instanceof Error && err.message ? err.message : t('login.failed'));
      setSubmitting(null);
    }
  };

  const submit = (e: FormEvent<HTMLFormElement>) => {
    e.preventDefault();
    void run('login', onSubmit);
  };

  const field = (name: keyof LoginRequest, label: string, type: string, autoComplete: string) => {
    const error = shown(name);
    return (
      <div className="field">
        <label htmlFor={`${id}-${name}`}>{label}</label>
        <input
          id={`${id}-${name}`}
          name={name}
          type={type}
          autoComplete={autoComplete}
          value={values[name]}
          aria-invalid={error ? true : undefined}
          aria-describedby={error ? `${id}-${name}-error` : undefined}
          onChange={(e) => setValues((v) => ({ ...v, [name]: e.target.value }))}
          onBlur={() => setTouched((tt) => ({ ...tt, [name]: true }))}
          required
        />
        {error && (
          <p className="field__error" id={`${id}-${name}-error`}>
            {error}
          </p>
        )}
      </div>
    );
  };

  return (
    <main className="login">
      <form className="login__card" onSubmit={submit} noValidate aria-labelledby={`${id}-heading`}>
        <h1 id={`${id}-heading`}>{t('login.heading', { app: appName })}</h1>
        {field('email', t('login.email'), 'email', 'username')}
        {field('password', t('login.password'), 'password', 'current-password')}
        {serverError && (
          <p className="login__error" role="alert">
            {serverError}
          </p>
        )}
        <button
          type="submit"
          className="button button--primary button--block"
          disabled={submitting !== null}
          aria-busy={submitting === 'login' || undefined}
        >
          {t('login.submit')}
        </button>
        {onUseDevice && (
          <div className="login__variant">
            <button
              type="button"
              className="button button--block"
              disabled={submitting !== null}
              aria-busy={submitting === 'device' || undefined}
              aria-describedby={deviceHint ? `${id}-device-hint` : undefined}
              onClick={() => void run('device', onUseDevice)}
            >
              {submitting === 'device'
                ? t('accountsMore.device.registering')
                : t('accountsMore.device.button')}
            </button>
            {deviceHint && (
              <p className="login__hint" id={`${id}-device-hint`}>
                {deviceHint}
              </p>
            )}
          </div>
        )}
        {(forgotPasswordHref || onUseCode || registerScreenHref) && (
          <p className="login__links">
            {forgotPasswordHref && <a href={forgotPasswordHref}>{t('password.forgot')}</a>}
            {registerScreenHref && <a href={registerScreenHref}>{t('login.registerScreen')}</a>}
            {onUseCode && (
              <button type="button" className="login__link" onClick={onUseCode}>
                {t('accountsMore.code.option')}
              </button>
            )}
          </p>
        )}
      </form>
    </main>
  );
}
