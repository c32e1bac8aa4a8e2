import type { EmailPreferences } from '@takt/domain';
import { t, useSession, useToasts } from '@takt/ui';
import { useEffect, useId, useState } from 'react';
import { api } from '../api';
import { LoadedView, useLoaded } from '../admin/AdminParts';
import { EMAIL_CALLS, EMAIL_SWITCHES, toggled } from './email-preferences';
import type { EmailPreferenceKey } from './email-preferences';
import '../admin/admin.css';
import './email-preferences.css';

// reports-admin §2 "E-mail notification preferences: toggle downtime, utilization, benchmarking e-mails; send
// a test e-mail", §7 "GET and PUT /api/emailnotifications (three booleans); PUT
// /api/emailnotifications/sendemail/", §8 "E-mail: success 'Sent. You should get it within the next 10
// minutes.'; failure 'Something went wrong. Please try again.' Preferences: 'Your preferences have been
// updated.'" (decision 0904). Each switch saves at once; the §8 texts come as toasts and stay on the page.

type Said = { tone: 'success' | 'error'; text: string } | null;

export function EmailPreferencesPage() {
  const { me } = useSession();
  const headingId = useId();
  useEffect(() => {
    document.title = `${t('email.title')} · ${t('app.officeName')}`;
  }, []);
  const [state, reload] = useLoaded((signal) =>
    api.request<EmailPreferences>(EMAIL_CALLS.preferences, { signal }),
  );
  // What the switches show: the saved answer once there is one, else what was loaded.
  const [prefs, setPrefs] = useState<EmailPreferences | null>(null);
  const [saving, setSaving] = useState<EmailPreferenceKey | null>(null);
  const [sending, setSending] = useState(false);
  const [savedSaid, setSavedSaid] = useState<Said>(null);
  const [testSaid, setTestSaid] = useState<Said>(null);
  const toasts = useToasts();

  const say = (set: (s: Said) => void, ok: boolean, text: string) => {
    set({ tone: ok ? 'success' : 'error', text });
    toasts.show({ message: text, tone: ok ? 'success' : 'error' });
  };

  const flip = async (shown: EmailPreferences, key: EmailPreferenceKey, on: boolean) => {
    const body = toggled(shown, key, on);
    setSaving(key);
    setPrefs(body);
    try {
      await api.request(EMAIL_CALLS.preferences, { method: 'PUT', body });
      say(setSavedSaid, true, t('email.saved'));
    } catch {
      // The switch goes back: it shows what is stored.
      setPrefs(shown);
      say(setSavedSaid, false, t('email.failed'));
    } finally {
      setSaving(null);
    }
  };

  const sendTest = async () => {
    setSending(true);
    setTestSaid(null);
    try {
      await api.request(EMAIL_CALLS.test, { method: 'PUT' });
      say(setTestSaid, true, t('email.sent'));
    } catch {
      say(setTestSaid, false, t('email.failed'));
    } finally {
      setSending(false);
    }
  };

  return (
    <main className="page email-prefs" aria-labelledby={headingId}>
      <div className="page__head">
        <h1 id={headingId}>{t('email.title')}</h1>
      </div>
      <p className="admin__intro">{t('email.intro')}</p>
      <LoadedView state={state} retry={reload}>
        {(loaded) => {
          const shown = prefs ?? loaded;
          return (
            <section className="email-prefs__card" aria-labelledby={`${headingId}-prefs`}>
              <h2 id={`${headingId}-prefs`}>{t('email.preferences')}</h2>
              <ul className="email-prefs__switches">
                {EMAIL_SWITCHES.map((s) => (
                  <li key={s.key}>
                    <label className="email-prefs__switch">
                      <input
                        type="checkbox"
                        role="switch"
                        checked={shown[s.key]}
                        disabled={saving !== null}
                        aria-describedby={`${headingId}-${s.key}`}
                        onChange={(e) => void flip(shown, s.key, e.target.checked)}
                      />
                      <span className="email-prefs__label">{t(s.label)}</span>
                      <span className="email-prefs__state" aria-hidden="true">
                        {saving === s.key
                          ? t('email.saving')
                          : shown[s.key]
                            ? t('common.on')
                            : t('common.off')}
                      </span>
                    </label>
                    <p className="admin__hint" id={`${headingId}-${s.key}`}>
                      {t(s.hint)}
                    </p>
                  </li>
                ))}
              </ul>
              <p
                className={`email-prefs__said email-prefs__said--${savedSaid?.tone ?? 'none'}`}
                role="status"
              >
                {savedSaid?.text ?? ''}
              </p>
            </section>
          );
        }}
      </LoadedView>
      <section className="email-prefs__card" aria-labelledby={`${headingId}-test`}>
        <h2 id={`${headingId}-test`}>{t('email.test')}</h2>
        <p>{t('email.testBody', { email: me.email })}</p>
        <div className="email-prefs__actions">
          <button
            type="button"
            className="button button--primary"
            disabled={sending}
            onClick={() => void sendTest()}
          >
            {sending ? t('email.sending') : t('email.sendTest')}
          </button>
        </div>
        <p className={`email-prefs__said email-prefs__said--${testSaid?.tone ?? 'none'}`} role="status">
          {testSaid?.text ?? ''}
        </p>
      </section>
    </main>
  );
}
