import { profileSchema } from '@takt/domain';
import type { Profile, Shift } from '@takt/domain';
import { t, useSession, useToasts } from '@takt/ui';
import { useEffect, useId, useState } from 'react';
import { api } from '../api';
import { FormErrorBox, LoadedView, useLoaded, useSubmit } from '../admin/AdminParts';
import { ROLE_TEXT } from './users';
import '../admin/admin.css';
import './accounts.css';

// reports-admin §2 "Profile: shift notifications, revoke sessions, Google authorisation, reset password"; §8
// "Profile shows toasts". Calls GET /api/profile, PUT /api/profile/shift-notifications, POST
// /api/profile/revoke-sessions and /reset-password, and GET /api/shifts for the choice (decision 0880).
// Google authorisation needs a Google sign-in the product does not have; it is left out.

export function ProfilePage() {
  const headingId = useId();
  const { me } = useSession();
  useEffect(() => {
    document.title = `${t('profile.title')} · ${t('app.officeName')}`;
  }, []);
  const [state, reload] = useLoaded(async (signal) => {
    const [profile, shifts] = await Promise.all([
      api.request('/api/profile', { signal, parse: (d) => profileSchema.parse(d) }),
      api.request<Shift[]>('/api/shifts', { signal }).catch(() => [] as Shift[]),
    ]);
    return { profile, shifts };
  });
  return (
    <main className="page admin accounts" aria-labelledby={headingId} aria-busy={state.kind === 'loading'}>
      <div className="page__head">
        <h1 id={headingId}>{t('profile.title')}</h1>
      </div>
      <LoadedView state={state} retry={reload}>
        {({ profile, shifts }) => (
          <div className="accounts__profile">
            <section className="accounts__panel" aria-labelledby={`${headingId}-account`}>
              <h2 id={`${headingId}-account`}>{t('profile.account')}</h2>
              <dl className="accounts__facts">
                <dt>{t('users.name')}</dt>
                <dd>{profile.displayName}</dd>
                <dt>{t('users.email')}</dt>
                <dd className="accounts__email">{profile.email}</dd>
                <dt>{t('users.role')}</dt>
                <dd>{t(ROLE_TEXT[profile.role])}</dd>
                <dt>{t('profile.company')}</dt>
                <dd>{me.company.name}</dd>
              </dl>
            </section>
            <ShiftNotifications profile={profile} shifts={shifts} />
            <SessionsPanel profile={profile} onChange={reload} />
            <PasswordPanel />
          </div>
        )}
      </LoadedView>
    </main>
  );
}

function ShiftNotifications({ profile, shifts }: { profile: Profile; shifts: Shift[] }) {
  const id = useId();
  const [notify, setNotify] = useState(profile.notify);
  const [chosen, setChosen] = useState<string[]>(profile.shifts);
  const save = useSubmit(t('profile.failed'));
  const toasts = useToasts();
  const live = shifts.filter((s) => !s.terminated);

  const submit = async () => {
    // Shifts terminated since they were chosen are dropped from the choice.
    const body = { notify, shifts: chosen.filter((c) => live.some((s) => s.id === c)) };
    const ok = await save.run(() => api.request('/api/profile/shift-notifications', { method: 'PUT', body }));
    if (ok) toasts.show({ message: t('profile.saved'), tone: 'success' });
  };

  return (
    <section className="accounts__panel" aria-labelledby={id}>
      <h2 id={id}>{t('profile.shifts')}</h2>
      <p className="admin__hint">{t('profile.shiftsIntro')}</p>
      <FormErrorBox error={save.error} />
      <label className="accounts__choice">
        <input type="checkbox" checked={notify} onChange={(e) => setNotify(e.target.checked)} />
        <span className="accounts__choice-label">{t('profile.notify')}</span>
      </label>
      {live.length === 0 ? (
        <p className="admin__hint">{t('profile.noShifts')}</p>
      ) : (
        <fieldset className="accounts__fieldset" disabled={!notify}>
          <legend>{t('profile.shifts')}</legend>
          <div className="accounts__shifts">
            {live.map((s) => (
              <label key={s.id} className="accounts__chip">
                <input
                  type="checkbox"
                  checked={chosen.includes(s.id)}
                  onChange={(e) =>
                    setChosen((c) => (e.target.checked ? [...c, s.id] : c.filter((x) => x !== s.id)))
                  }
                />
                {s.name}
              </label>
            ))}
          </div>
          <p className="admin__hint">
            {chosen.length === 0 ? t('profile.allShifts') : t('accountsMore.profile.byStart')}
          </p>
        </fieldset>
      )}
      <div>
        <button
          type="button"
          className="button button--primary"
          disabled={save.busy}
          onClick={() => void submit()}
        >
          {save.busy ? t('admin.saving') : t('profile.save')}
        </button>
      </div>
    </section>
  );
}

function SessionsPanel({ profile, onChange }: { profile: Profile; onChange: () => void }) {
  const id = useId();
  const revoke = useSubmit(t('profile.failed'));
  const toasts = useToasts();
  const submit = async () => {
    let revoked = 0;
    const ok = await revoke.run(async () => {
      revoked = (await api.request<{ revoked: number }>('/api/profile/revoke-sessions', { method: 'POST' }))
        .revoked;
    });
    if (!ok) return;
    toasts.show({ message: t('profile.revokedDone', { count: revoked }), tone: 'success' });
    onChange();
  };
  return (
    <section className="accounts__panel" aria-labelledby={id}>
      <h2 id={id}>{t('profile.sessions')}</h2>
      <p>{t('profile.sessionsIntro', { count: profile.sessions })}</p>
      <FormErrorBox error={revoke.error} />
      <div>
        <button
          type="button"
          className="button"
          disabled={revoke.busy || profile.sessions <= 1}
          onClick={() => void submit()}
        >
          {t('profile.revoke')}
        </button>
      </div>
    </section>
  );
}

function PasswordPanel() {
  const id = useId();
  const send = useSubmit(t('profile.failed'));
  const toasts = useToasts();
  const submit = async () => {
    let message = '';
    const ok = await send.run(async () => {
      message = (await api.request<{ message: string }>('/api/profile/reset-password', { method: 'POST' }))
        .message;
    });
    // reports-admin §8 E-mail texts and "Profile shows toasts".
    if (ok) toasts.show({ message, tone: 'success' });
  };
  return (
    <section className="accounts__panel" aria-labelledby={id}>
      <h2 id={id}>{t('profile.password')}</h2>
      <p>{t('profile.passwordIntro')}</p>
      <FormErrorBox error={send.error} />
      <div>
        <button type="button" className="button" disabled={send.busy} onClick={() => void submit()}>
          {t('profile.reset')}
        </button>
      </div>
    </section>
  );
}
