import { PLANNED_BEHAVIORS } from '@takt/domain';
import type { AnnotationType, PartAdjustmentType } from '@takt/domain';
import { t } from '@takt/ui';
import { api } from '../api';
import { ColorField, Field, NameField } from './AdminParts';
import {
  byNameActiveFirst,
  newReasonForm,
  newRejectForm,
  PLANNED_BEHAVIOR_LABEL,
  plannedText,
  reasonBody,
  reasonErrors,
  reasonFormOf,
  REJECT_BEHAVIOR_LABEL,
  rejectBody,
  rejectErrors,
  rejectFormOf,
} from './reasons';
import type { ReasonForm, RejectBehavior, RejectForm } from './reasons';
import { ResourcePage } from './ResourcePage';
import type { Column, ResourceConfig } from './ResourcePage';

// Downtime reasons (annotation types) and reject reasons (part adjustment types): reports-admin §2 "create,
// edit, archive, restore (FullProduct)", §3 fields, §5 "plannedWithLimit default limit 5 minutes, entered in
// minutes, stored in ms"; calls /api/annotationtypes and /api/partadjustmenttypes.

function Swatch({ color, name }: { color: string; name: string }) {
  return (
    <span className="admin__name">
      <span className="admin__swatch" style={{ background: color }} aria-hidden="true" />
      {name}
    </span>
  );
}

const REJECT_BEHAVIORS: readonly RejectBehavior[] = ['operator', 'scrap', 'nonconform'];

const nameColumn = <T extends { name: string; color: string }>(): Column<T> => ({
  header: t('admin.field.name'),
  rowHeader: true,
  cell: (r) => <Swatch color={r.color} name={r.name} />,
});

const reasonsConfig: ResourceConfig<AnnotationType, ReasonForm> = {
  text: {
    title: 'admin.reasons.title',
    intro: 'admin.reasons.blurb',
    add: 'admin.reasons.add',
    newTitle: 'admin.reasons.new',
    editTitle: 'admin.reasons.editTitle',
    empty: 'admin.reasons.empty',
    failed: 'admin.reasons.failed',
    caption: 'admin.reasons.caption',
  },
  list: async (signal) =>
    byNameActiveFirst(
      await api.request<AnnotationType[]>('/api/annotationtypes', { query: { includeHidden: true }, signal }),
    ),
  create: (body) => api.request('/api/annotationtypes', { method: 'POST', body }),
  update: (id, body) =>
    api.request(`/api/annotationtypes/${encodeURIComponent(id)}`, { method: 'PUT', body }),
  archive: (id) => api.request(`/api/annotationtypes/${encodeURIComponent(id)}/archive`, { method: 'POST' }),
  restore: (id) => api.request(`/api/annotationtypes/${encodeURIComponent(id)}/restore`, { method: 'POST' }),
  isArchived: (r) => r.hidden,
  columns: [
    nameColumn<AnnotationType>(),
    { header: t('admin.reasons.planned'), cell: (r) => plannedText(r) },
  ],
  newForm: newReasonForm,
  formOf: reasonFormOf,
  errors: reasonErrors,
  body: reasonBody,
  fields: (f, set, errors) => (
    <>
      <NameField value={f.name} onChange={(name) => set({ name })} error={errors.name} />
      <fieldset className="admin__choices">
        <legend>{t('admin.reasons.planned')}</legend>
        {PLANNED_BEHAVIORS.map((b) => (
          <label key={b} className="admin__check">
            <input
              type="radio"
              name="plannedBehavior"
              checked={f.plannedBehavior === b}
              onChange={() => set({ plannedBehavior: b })}
            />
            {t(PLANNED_BEHAVIOR_LABEL[b])}
          </label>
        ))}
      </fieldset>
      {f.plannedBehavior === 'plannedWithLimit' && (
        <Field
          label={t('admin.reasons.limit')}
          hint={t('admin.reasons.limitHint')}
          error={errors.limitMinutes}
        >
          {(p) => (
            <input
              {...p}
              type="number"
              inputMode="decimal"
              min={0}
              step="any"
              value={f.limitMinutes}
              onChange={(e) => set({ limitMinutes: e.target.value })}
            />
          )}
        </Field>
      )}
      <ColorField value={f.color} onChange={(color) => set({ color })} error={errors.color} />
    </>
  ),
};

const rejectsConfig: ResourceConfig<PartAdjustmentType, RejectForm> = {
  text: {
    title: 'admin.rejects.title',
    intro: 'admin.rejects.blurb',
    add: 'admin.rejects.add',
    newTitle: 'admin.rejects.new',
    editTitle: 'admin.rejects.editTitle',
    empty: 'admin.rejects.empty',
    failed: 'admin.rejects.failed',
    caption: 'admin.rejects.caption',
  },
  list: async (signal) =>
    byNameActiveFirst(
      await api.request<PartAdjustmentType[]>('/api/partadjustmenttypes', {
        query: { includeHidden: true },
        signal,
      }),
    ),
  create: (body) => api.request('/api/partadjustmenttypes', { method: 'POST', body }),
  update: (id, body) =>
    api.request(`/api/partadjustmenttypes/${encodeURIComponent(id)}`, { method: 'PUT', body }),
  archive: (id) =>
    api.request(`/api/partadjustmenttypes/${encodeURIComponent(id)}/archive`, { method: 'POST' }),
  restore: (id) =>
    api.request(`/api/partadjustmenttypes/${encodeURIComponent(id)}/restore`, { method: 'POST' }),
  isArchived: (r) => r.hidden,
  columns: [
    nameColumn<PartAdjustmentType>(),
    { header: t('admin.rejects.behavior'), cell: (r) => t(REJECT_BEHAVIOR_LABEL[r.reject_behavior]) },
    {
      header: t('admin.rejects.scrap'),
      cell: (r) => t(r.scrap ? 'admin.rejects.offered' : 'admin.rejects.notOffered'),
    },
  ],
  newForm: newRejectForm,
  formOf: rejectFormOf,
  errors: rejectErrors,
  body: rejectBody,
  fields: (f, set, errors) => (
    <>
      <NameField value={f.name} onChange={(name) => set({ name })} error={errors.name} />
      <fieldset className="admin__choices">
        <legend>{t('admin.rejects.behavior')}</legend>
        {REJECT_BEHAVIORS.map((b) => (
          <label key={b} className="admin__check">
            <input
              type="radio"
              name="reject_behavior"
              checked={f.reject_behavior === b}
              onChange={() => set({ reject_behavior: b })}
            />
            {t(REJECT_BEHAVIOR_LABEL[b])}
          </label>
        ))}
      </fieldset>
      <div className="field">
        <label className="admin__check">
          <input type="checkbox" checked={f.scrap} onChange={(e) => set({ scrap: e.target.checked })} />
          {t('admin.rejects.scrap')}
        </label>
        <p className="admin__hint">{t('admin.rejects.scrapHint')}</p>
      </div>
      <ColorField value={f.color} onChange={(color) => set({ color })} error={errors.color} />
    </>
  ),
};

export const DowntimeReasonsPage = () => <ResourcePage config={reasonsConfig} />;
export const RejectReasonsPage = () => <ResourcePage config={rejectsConfig} />;
