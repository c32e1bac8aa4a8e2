import { accountLinkSchema } from '@takt/domain';
import type { AccountLink } from '@takt/domain';
import { ApiError, Progress, t } from '@takt/ui';
import { useEffect, useId, useState } from 'react';
import type { FormEvent, ReactNode } from 'react';
import { api } from '../api';
import { FormErrorBox } from '../admin/AdminParts';
import { formError } from '../admin/form';
import type { FormError } from '../admin/form';
import { linkToken } from './paths';
import { passwordRules } from './users';
import '../admin/admin.css';
import './accounts.css';

// The pages an e-mailed link or "Forgot password?" opens, without a session (reports-admin §2 "Password set
// and reset with live rules"; decision 0880). Calls POST /api/account/link, /password and /forgot.

/** The centred card of the login page, so these pages look like the step they belong to. */
function Card({ title, children }: { title: string; children: ReactNode }) {
  const id = useId();
  useEffect(() => {
    document.title = `${title} · ${t('app.officeName')}`;
  }, [title]);
  return (
    <main className="login accounts-card" aria-labelledby={id}>
      <div className="login__card">
        <h1 id={id}>{title}</h1>
        {children}
      </div>
    </main>
  );
}

const LOGIN_HREF = '/app';

type LinkState =
  | { kind: 'checking' }
  | { kind: 'invalid'; message: string }
  | { kind: 'ready'; link: AccountLink }
  | { kind: 'done'; email: string };

/** /app/set-password#token=…: an invite's first password, or a new one after a reset. */
export function SetPasswordPage() {
  const [token] = useState(() => linkToken(globalThis.location.hash));
  const [state, setState] = useState<LinkState>(() =>
    token ? { kind: 'checking' } : { kind: 'invalid', message: t('password.noToken') },
  );
  useEffect(() => {
    if (!token) return;
    const controller = new AbortController();
    api
      .request('/api/account/link', {
        method: 'POST',
        body: { token },
        on401: 'throw',
        signal: controller.signal,
        parse: (d) => accountLinkSchema.parse(d),
      })
      .then((link) => setState({ kind: 'ready', link }))
      .catch((err: unknown) => {
        if (controller.signal.aborted) return;
        setState({
          kind: 'invalid',
          message: err instanceof ApiError && !err.isNetworkError ? err.message : t('common.requestError'),
        });
      });
    return () => controller.abort();
  }, [token]);

  const title =
    state.kind === 'ready' && state.link.kind === 'reset' ? t('password.resetTitle') : t('password.setTitle');
  return (
    <Card title={title}>
      {state.kind === 'checking' && (
        <>
          <p>{t('password.checking')}</p>
          <Progress />
        </>
      )}
      {state.kind === 'invalid' && (
        <>
          <p className="login__error" role="alert">
            {state.message}
          </p>
          <p>
            <a href={LOGIN_HREF}>{t('password.backToLogin')}</a>
          </p>
        </>
      )}
      {state.kind === 'ready' && token && (
        <SetPasswordForm
          link={state.link}
          token={token}
          onDone={(email) => setState({ kind: 'done', email })}
        />
      )}
      {state.kind === 'done' && (
        <>
          <p role="status">{t('password.done', { email: state.email })}</p>
          <a className="button button--primary button--block" href={LOGIN_HREF}>
            {t('password.logIn')}
          </a>
        </>
      )}
    </Card>
  );
}

function SetPasswordForm({
  link,
  token,
  onDone,
}: {
  link: AccountLink;
  token: string;
  onDone: (email: string) => void;
}) {
  const id = useId();
  const [name, setName] = useState('');
  const [password, setPassword] = useState('');
  const [retype, setRetype] = useState('');
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<FormError | null>(null);
  // reports-admin §5, checked as you type (UI.md "forms validate as you type with the spec's rules").
  const { rules, valid } = passwordRules(password, retype);

  const submit = async (e: FormEvent) => {
    e.preventDefault();
    if (!valid || busy) return;
    setBusy(true);
    setError(null);
    try {
      const answer = await api.request<{ email: string }>('/api/account/password', {
        method: 'POST',
        on401: 'throw',
        body: { token, password, retype, ...(name.trim() ? { displayName: name.trim() } : {}) },
      });
      onDone(answer.email);
    } catch (err) {
      setError(formError(err, t('password.failed')));
      setBusy(false);
    }
  };

  return (
    <form className="accounts-card__form" noValidate onSubmit={(e) => void submit(e)}>
      <p>{t('password.for', { email: link.email, company: link.companyName })}</p>
      <FormErrorBox error={error} />
      {/* The address as the user name, so a password manager files the new password under it. */}
      <input type="email" name="username" autoComplete="username" value={link.email} readOnly hidden />
      {link.kind === 'invite' && (
        <div className="field">
          <label htmlFor={`${id}-name`}>{t('password.name')}</label>
          <input
            id={`${id}-name`}
            value={name}
            autoComplete="name"
            maxLength={250}
            onChange={(e) => setName(e.target.value)}
          />
        </div>
      )}
      <div className="field">
        <label htmlFor={`${id}-password`}>{t('password.new')}</label>
        <input
          id={`${id}-password`}
          type="password"
          autoComplete="new-password"
          value={password}
          aria-describedby={`${id}-rules`}
          aria-invalid={password !== '' && !rules.slice(0, 4).every((r) => r.ok)}
          onChange={(e) => setPassword(e.target.value)}
        />
      </div>
      <div className="field">
        <label htmlFor={`${id}-retype`}>{t('password.retype')}</label>
        <input
          id={`${id}-retype`}
          type="password"
          autoComplete="new-password"
          value={retype}
          aria-describedby={`${id}-rules`}
          aria-invalid={retype !== '' && retype !== password}
          onChange={(e) => setRetype(e.target.value)}
        />
      </div>
      <ul className="accounts__rules" id={`${id}-rules`} aria-label={t('password.rules')} aria-live="polite">
        {rules.map((r) => (
          <li key={r.rule} className={r.ok ? 'accounts__rule accounts__rule--ok' : 'accounts__rule'}>
            <span aria-hidden="true" className="accounts__rule-mark">
              {r.ok ? '✓' : '○'}
            </span>
            {r.text}
            <span className="visually-hidden">
              : {r.ok ? t('password.ruleMet') : t('password.ruleNotMet')}
            </span>
          </li>
        ))}
      </ul>
      <button
        type="submit"
        className="button button--primary button--block"
        disabled={!valid || busy}
        aria-busy={busy || undefined}
      >
        {busy ? t('password.saving') : t('password.submit')}
      </button>
    </form>
  );
}

/** /app/forgot-password: "Forgot password?" of the login page. */
export function ForgotPasswordPage() {
  const id = useId();
  const [email, setEmail] = useState('');
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<FormError | null>(null);
  const [sent, setSent] = useState<string | null>(null);
  const looksValid = /^[^\s@]+@[^\s@]+\.[^\s@]+$/.test(email.trim());

  const submit = async (e: FormEvent) => {
    e.preventDefault();
    if (!looksValid || busy) return;
    setBusy(true);
    setError(null);
    try {
      const answer = await api.request<{ message: string }>('/api/account/forgot', {
        method: 'POST',
        on401: 'throw',
        body: { email: email.trim() },
      });
      setSent(answer.message);
    } catch (err) {
      setError(formError(err, t('password.failed')));
    } finally {
      setBusy(false);
    }
  };

  return (
    <Card title={t('password.forgotTitle')}>
      {sent ? (
        <p role="status">{sent}</p>
      ) : (
        <form className="accounts-card__form" noValidate onSubmit={(e) => void submit(e)}>
          <p>{t('password.forgotIntro')}</p>
          <FormErrorBox error={error} />
          <div className="field">
            <label htmlFor={`${id}-email`}>{t('login.email')}</label>
            <input
              id={`${id}-email`}
              type="email"
              autoComplete="username"
              value={email}
              onChange={(e) => setEmail(e.target.value)}
            />
          </div>
          <button
            type="submit"
            className="button button--primary button--block"
            disabled={!looksValid || busy}
            aria-busy={busy || undefined}
          >
            {t('password.forgotSubmit')}
          </button>
        </form>
      )}
      <p>
        <a href={LOGIN_HREF}>{t('password.backToLogin')}</a>
      </p>
    </Card>
  );
}
