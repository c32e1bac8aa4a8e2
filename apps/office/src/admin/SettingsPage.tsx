import { t, useSession, useToasts } from '@takt/ui';
import { useId, useState } from 'react';
import { api } from '../api';
import { AdminPage, Field, FormDialog, FormErrorBox, LoadedView, useLoaded, useSubmit } from './AdminParts';
import { SettingsGroupForm } from './CompanySettingsForm';
import { SETTING_GROUPS } from './company-settings';
import { confirmsName, regionOptions } from './settings';
import type { CompanySettings } from './settings';

// Settings: the region list and the setup-stages switch, which asks for the company name before turning on
// (reports-admin §2, §5). Setup stages are FullProduct (reports-admin §6): without it the switch is not offered.
// Then every other company setting, in groups that each save their own fields (decision 1087).

const PATH = '/api/company/settings';
const load = (signal: AbortSignal) => api.request<CompanySettings>(PATH, { signal });

export function SettingsPage() {
  const [state, reload] = useLoaded(load);
  return (
    <AdminPage title="admin.settings.title" intro="admin.settings.blurb" busy={state.kind === 'loading'}>
      <LoadedView state={state} retry={reload}>
        {(s) => (
          <SettingsForms key={`${s.locale}-${String(s.enable_setup_stages)}`} settings={s} onSaved={reload} />
        )}
      </LoadedView>
    </AdminPage>
  );
}

function SettingsForms({ settings, onSaved }: { settings: CompanySettings; onSaved: () => void }) {
  const { me } = useSession();
  const toasts = useToasts();
  const [locale, setLocale] = useState(settings.locale);
  const [confirming, setConfirming] = useState(false);
  const region = useSubmit(t('admin.settings.failed'));
  const stages = useSubmit(t('admin.settings.failed'));
  const regionHeading = useId();
  const stagesHeading = useId();
  const fullProduct = me.permissions.includes('FullProduct');

  const saveRegion = async () => {
    if (await region.run(() => api.request(PATH, { method: 'PUT', body: { locale } }))) {
      toasts.show({ message: t('admin.settings.regionSaved'), tone: 'success' });
      onSaved();
    }
  };

  const setStages = async (on: boolean, companyName?: string) => {
    const body = { enable_setup_stages: on, ...(companyName !== undefined ? { companyName } : {}) };
    if (await stages.run(() => api.request(PATH, { method: 'PUT', body }))) {
      setConfirming(false);
      toasts.show({ message: t(on ? 'admin.settings.enabled' : 'admin.settings.disabled'), tone: 'success' });
      onSaved();
    }
  };

  return (
    <div className="admin-settings">
      <section className="admin-card" aria-labelledby={regionHeading}>
        <h2 id={regionHeading}>{t('admin.settings.region')}</h2>
        <form
          className="admin__form"
          noValidate
          onSubmit={(e) => {
            e.preventDefault();
            void saveRegion();
          }}
        >
          <FormErrorBox error={region.error} />
          <Field label={t('admin.settings.region')} hint={t('admin.settings.regionHint')}>
            {(p) => (
              <select {...p} value={locale} onChange={(e) => setLocale(e.target.value)}>
                {regionOptions(me.company.locale).map((o) => (
                  <option key={o.value} value={o.value}>
                    {o.label}
                  </option>
                ))}
              </select>
            )}
          </Field>
          <div>
            <button
              type="submit"
              className="button button--primary"
              disabled={region.busy || locale === settings.locale}
            >
              {region.busy ? t('admin.saving') : t('admin.settings.saveRegion')}
            </button>
          </div>
        </form>
      </section>
      <section className="admin-card" aria-labelledby={stagesHeading}>
        <h2 id={stagesHeading}>{t('admin.settings.stages')}</h2>
        {!confirming && <FormErrorBox error={stages.error} />}
        <p>{t(settings.enable_setup_stages ? 'admin.settings.stagesOn' : 'admin.settings.stagesOff')}</p>
        {!fullProduct ? (
          <p className="notice" role="status">
            {t('admin.settings.stagesFullProduct')}
          </p>
        ) : settings.enable_setup_stages ? (
          <div>
            <button
              type="button"
              className="button"
              disabled={stages.busy}
              onClick={() => void setStages(false)}
            >
              {t('admin.settings.disable')}
            </button>
          </div>
        ) : (
          <div>
            <button
              type="button"
              className="button button--primary"
              onClick={() => {
                stages.clear();
                setConfirming(true);
              }}
            >
              {t('admin.settings.enable')}
            </button>
          </div>
        )}
      </section>
      {SETTING_GROUPS.map((g) => (
        <SettingsGroupForm
          // A saved change reloads the settings: the group starts again from what is stored.
          key={`${g.id}-${g.fields.map((f) => String(settings[f.key])).join('|')}`}
          group={g}
          settings={settings}
          onSaved={onSaved}
        />
      ))}
      {confirming && (
        <EnableStagesDialog
          companyName={settings.name}
          busy={stages.busy}
          error={stages.error}
          onClose={() => setConfirming(false)}
          onConfirm={(typed) => void setStages(true, typed)}
        />
      )}
    </div>
  );
}

function EnableStagesDialog({
  companyName,
  busy,
  error,
  onClose,
  onConfirm,
}: {
  companyName: string;
  busy: boolean;
  error: ReturnType<typeof useSubmit>['error'];
  onClose: () => void;
  onConfirm: (typed: string) => void;
}) {
  const [typed, setTyped] = useState('');
  const [touched, setTouched] = useState(false);
  const ok = confirmsName(typed, companyName);
  return (
    <FormDialog
      title={t('admin.settings.confirmTitle')}
      onClose={onClose}
      onSubmit={() => onConfirm(typed)}
      invalid={!ok}
      busy={busy}
      error={error}
      submitLabel={t('admin.settings.enable')}
    >
      <p>{t('admin.settings.confirmBody', { name: companyName })}</p>
      <Field
        label={t('admin.settings.companyName')}
        error={touched && typed.trim() !== '' && !ok ? t('admin.settings.nameMismatch') : undefined}
      >
        {(p) => (
          <input
            {...p}
            value={typed}
            autoComplete="off"
            onChange={(e) => setTyped(e.target.value)}
            onBlur={() => setTouched(true)}
          />
        )}
      </Field>
    </FormDialog>
  );
}
