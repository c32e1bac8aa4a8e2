import { useId, useState } from 'react';
import type { FormEvent } from 'react';
import { t } from './i18n';
import { checkLogin } from './shape';

export interface CodeLoginFormProps {
  /** Product name in the heading ("Takt Office"). */
  appName: string;
  /** Asks for a code to be e-mailed; resolves with the server's text, rejects with an Error to show. */
  onRequest: (email: string) => Promise<string>;
  /** Signs in with the code; rejects with an Error whose message is shown. */
  onSubmit: (request: { email: string; code: string }) => Promise<void>;
  /** Back to the e-mail and password form. */
  onUsePassword: () => void;
}

/**
 * reports-admin §2 "Login: … code option" (decision 0935): the e-mail first, then the 6-digit code from the
 * e-mail. The e-mail's rule and texts are the login form's.
 */
export function CodeLoginForm({ appName, onRequest, onSubmit, onUsePassword }: CodeLoginFormProps) {
  const id = useId();
  const [email, setEmail] = useState('');
  const [code, setCode] = useState('');
  const [sent, setSent] = useState<string | null>(null);
  const [touched, setTouched] = useState({ email: false, code: false });
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState<'send' | 'login' | null>(null);

  const emailError = checkLogin({ email, password: '-' }).errors.email;
  const codeError = code.trim() === '' ? t('accountsMore.code.required') : undefined;
  const shownEmailError = touched.email ? emailError : undefined;
  const shownCodeError = touched.code ? codeError : undefined;

  const attempt = async (kind: 'send' | 'login', work: () => Promise<void>) => {
    setBusy(kind);
    setError(null);
    try {
      await work();
    } catch (err) {
      setError(err instanceof Error && err.message ? err.message : t('login.failed'));
    } finally {
      setBusy(null);
    }
  };

  const send = () => {
    setTouched((v) => ({ ...v, email: true }));
    if (emailError || busy) return;
    void attempt('send', async () => {
      setSent(await onRequest(email.trim()));
      setCode('');
      setTouched((v) => ({ ...v, code: false }));
    });
  };

  const submit = (e: FormEvent<HTMLFormElement>) => {
    e.preventDefault();
    if (!sent) return send();
    setTouched({ email: true, code: true });
    if (emailError || codeError || busy) return;
    void attempt('login', () => onSubmit({ email: email.trim(), code: code.trim() }));
  };

  return (
    <main className="login">
      <form className="login__card" onSubmit={submit} noValidate aria-labelledby={`${id}-heading`}>
        <h1 id={`${id}-heading`}>{t('login.heading', { app: appName })}</h1>
        <p className="login__hint">{t('accountsMore.code.intro')}</p>
        <div className="field">
          <label htmlFor={`${id}-email`}>{t('login.email')}</label>
          <input
            id={`${id}-email`}
            name="email"
            type="email"
            autoComplete="username"
            value={email}
            aria-invalid={shownEmailError ? true : undefined}
            aria-describedby={shownEmailError ? `${id}-email-error` : undefined}
            onChange={(e) => {
              setEmail(e.target.value);
              // A code goes to one address: another address asks for its own.
              setSent(null);
            }}
            onBlur={() => setTouched((v) => ({ ...v, email: true }))}
            required
          />
          {shownEmailError && (
            <p className="field__error" id={`${id}-email-error`}>
              {shownEmailError}
            </p>
          )}
        </div>
        {sent && (
          <>
            <p className="login__sent" role="status">
              {sent}
            </p>
            <div className="field">
              <label htmlFor={`${id}-code`}>{t('accountsMore.code.label')}</label>
              <input
                id={`${id}-code`}
                name="code"
                inputMode="numeric"
                autoComplete="one-time-code"
                maxLength={20}
                value={code}
                aria-invalid={shownCodeError ? true : undefined}
                aria-describedby={shownCodeError ? `${id}-code-error` : undefined}
                onChange={(e) => setCode(e.target.value)}
                onBlur={() => setTouched((v) => ({ ...v, code: true }))}
                required
                autoFocus
              />
              {shownCodeError && (
                <p className="field__error" id={`${id}-code-error`}>
                  {shownCodeError}
                </p>
              )}
            </div>
          </>
        )}
        {error && (
          <p className="login__error" role="alert">
            {error}
          </p>
        )}
        {sent ? (
          <>
            <button
              type="submit"
              className="button button--primary button--block"
              disabled={busy !== null}
              aria-busy={busy === 'login' || undefined}
            >
              {busy === 'login' ? t('accountsMore.code.submitting') : t('accountsMore.code.submit')}
            </button>
            <button type="button" className="button button--block" disabled={busy !== null} onClick={send}>
              {busy === 'send' ? t('accountsMore.code.sending') : t('accountsMore.code.resend')}
            </button>
          </>
        ) : (
          <button
            type="submit"
            className="button button--primary button--block"
            disabled={busy !== null}
            aria-busy={busy === 'send' || undefined}
          >
            {busy === 'send' ? t('accountsMore.code.sending') : t('accountsMore.code.send')}
          </button>
        )}
        <p className="login__links">
          <button type="button" className="login__link" onClick={onUsePassword}>
            {t('accountsMore.code.passwordOption')}
          </button>
        </p>
      </form>
    </main>
  );
}
