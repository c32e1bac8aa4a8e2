import { t, useToasts } from '@takt/ui';
import { useId, useState } from 'react';
import { api } from '../api';
import { Field, FormErrorBox, useSubmit } from './AdminParts';
import type { FieldProps } from './AdminParts';
import { draftErrors, draftOf, newRegistrationKey, patchOf } from './company-settings';
import type { Draft, SettingDef, SettingGroup } from './company-settings';
import type { CompanySettings } from './settings';
import './admin-settings.css';

// One group of company settings (decision 1087) with its own Save: only the group's changed fields are sent, so
// saving the goal colours never overwrites a tablet setting another admin just changed.

const PATH = '/api/company/settings';

export function SettingsGroupForm({
  group,
  settings,
  onSaved,
}: {
  group: SettingGroup;
  settings: CompanySettings;
  onSaved: () => void;
}) {
  const toasts = useToasts();
  const headingId = useId();
  const [draft, setDraft] = useState<Draft>(() => draftOf(settings, group));
  const [touched, setTouched] = useState(false);
  const submit = useSubmit(t('admin.settings.failed'));
  const errors = draftErrors(group, draft);
  const invalid = Object.keys(errors).length > 0;
  const patch = patchOf(group, draft, settings);
  const changed = Object.keys(patch).length > 0;
  const set = (key: SettingDef['key'], value: string | boolean) => setDraft((d) => ({ ...d, [key]: value }));

  const save = async () => {
    setTouched(true);
    if (invalid || !changed) return;
    if (await submit.run(() => api.request(PATH, { method: 'PUT', body: patch }))) {
      toasts.show({ message: t('admin.settings.saved'), tone: 'success' });
      onSaved();
    }
  };

  return (
    <section className="admin-card settings-group" aria-labelledby={headingId} data-group={group.id}>
      <h2 id={headingId}>{t(group.title)}</h2>
      {group.id === 'goals' && <p className="admin__hint">{t('admin.settings.goalsHint')}</p>}
      <form
        className="admin__form settings-group__form"
        noValidate
        onSubmit={(e) => {
          e.preventDefault();
          void save();
        }}
      >
        <FormErrorBox error={submit.error} />
        <div className={group.id === 'goals' ? 'settings-group__grid' : 'settings-group__fields'}>
          {group.fields.map((f) => (
            <SettingField
              key={f.key}
              def={f}
              value={draft[f.key]}
              error={touched || draft[f.key] !== draftOf(settings, group)[f.key] ? errors[f.key] : undefined}
              onChange={(v) => set(f.key, v)}
            />
          ))}
        </div>
        <div>
          <button
            type="submit"
            className="button button--primary"
            disabled={submit.busy || !changed || invalid}
          >
            {submit.busy ? t('admin.saving') : t('admin.settings.saveGroup')}
          </button>
        </div>
      </form>
    </section>
  );
}

function SettingField({
  def,
  value,
  error,
  onChange,
}: {
  def: SettingDef;
  value: string | boolean | undefined;
  error: Parameters<typeof t>[0] | undefined;
  onChange: (v: string | boolean) => void;
}) {
  if (def.kind === 'flag') {
    return (
      <div className="field">
        <label className="admin__check">
          <input type="checkbox" checked={value === true} onChange={(e) => onChange(e.target.checked)} />
          {t(def.label)}
        </label>
        {def.hint && <p className="admin__hint">{t(def.hint)}</p>}
      </div>
    );
  }
  const text = typeof value === 'string' ? value : '';
  const input = (p: FieldProps) => {
    if (def.kind === 'choice') {
      return (
        <select {...p} value={text} onChange={(e) => onChange(e.target.value)}>
          {def.options.map((o) => (
            <option key={o.value} value={o.value}>
              {t(o.label)}
            </option>
          ))}
        </select>
      );
    }
    if (def.kind === 'text') {
      return (
        <div className="settings-group__text">
          <input
            {...p}
            value={text}
            maxLength={250}
            autoComplete="off"
            spellCheck={false}
            onChange={(e) => onChange(e.target.value)}
          />
          {def.generate && (
            <button type="button" className="button" onClick={() => onChange(newRegistrationKey())}>
              {t('admin.settings.generateKey')}
            </button>
          )}
        </div>
      );
    }
    return (
      <input
        {...p}
        className="settings-group__number num"
        type="number"
        inputMode="decimal"
        min={0}
        max={def.kind === 'percent' ? 100 : undefined}
        step={def.kind === 'percent' ? 1 : 'any'}
        value={text}
        onChange={(e) => onChange(e.target.value)}
      />
    );
  };
  return (
    <Field
      label={t(def.label)}
      {...(def.hint ? { hint: t(def.hint) } : {})}
      error={error ? t(error) : undefined}
    >
      {input}
    </Field>
  );
}
