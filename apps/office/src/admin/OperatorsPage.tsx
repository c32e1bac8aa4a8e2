import { t } from '@takt/ui';
import { api } from '../api';
import { Field, NameField } from './AdminParts';
import {
  mayDelete,
  newOperatorForm,
  operatorBody,
  operatorErrors,
  operatorFormOf,
  sortOperators,
} from './operators';
import type { Operator } from '@takt/domain';
import type { OperatorForm } from './operators';
import { ResourcePage } from './ResourcePage';
import type { ResourceConfig } from './ResourcePage';

// Operators: reports-admin §2 "create, edit, archive, restore, delete"; calls /api/operators (decision 0114).

const path = (id: string, action = '') => `/api/operators/${encodeURIComponent(id)}${action}`;

const operatorsConfig: ResourceConfig<Operator, OperatorForm> = {
  text: {
    title: 'admin.operators.title',
    intro: 'admin.operators.blurb',
    add: 'admin.operators.add',
    newTitle: 'admin.operators.new',
    editTitle: 'admin.operators.editTitle',
    empty: 'admin.operators.empty',
    failed: 'admin.operators.failed',
    caption: 'admin.operators.caption',
  },
  list: async (signal) =>
    sortOperators(
      await api.request<Operator[]>('/api/operators', { query: { includeArchived: true }, signal }),
    ),
  create: (body) => api.request('/api/operators', { method: 'POST', body }),
  update: (id, body) => api.request(path(id), { method: 'PUT', body }),
  archive: (id) => api.request(path(id, '/archive'), { method: 'PUT' }),
  restore: (id) => api.request(path(id, '/restore'), { method: 'PUT' }),
  remove: (o) => (mayDelete(o) ? () => api.request(path(o.id), { method: 'DELETE' }) : null),
  isArchived: (o) => o.archivedAt !== null,
  columns: [
    { header: t('admin.field.name'), rowHeader: true, cell: (o) => o.name },
    { header: t('admin.operators.erpId'), cell: (o) => o.erpId ?? t('common.none') },
    { header: t('admin.operators.runs'), cell: (o) => o.runCount },
  ],
  newForm: newOperatorForm,
  formOf: operatorFormOf,
  errors: operatorErrors,
  body: operatorBody,
  fields: (f, set, errors) => (
    <>
      <NameField value={f.name} onChange={(name) => set({ name })} error={errors.name} />
      <Field label={t('admin.operators.erpId')} error={errors.erpId}>
        {(p) => (
          <input {...p} value={f.erpId} autoComplete="off" onChange={(e) => set({ erpId: e.target.value })} />
        )}
      </Field>
    </>
  ),
  footnote: (rows) =>
    rows.some((o) => !mayDelete(o)) ? <p className="admin__hint">{t('admin.operators.hasRuns')}</p> : null,
};

export const OperatorsPage = () => <ResourcePage config={operatorsConfig} />;
