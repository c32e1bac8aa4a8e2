import type { AdminMachine, AnnotationType, MachineGroup } from '@takt/domain';
import { t, useSession } from '@takt/ui';
import { useMemo } from 'react';
import { api } from '../api';
import { AdminPage, Field, LoadedView, NameField, useLoaded } from './AdminParts';
import { groupBody, groupErrors, groupFormOf, namesOf, newGroupForm, toggled } from './machine-groups';
import type { GroupForm } from './machine-groups';
import { splitMachines } from './machines';
import { ResourcePage } from './ResourcePage';
import type { ResourceConfig } from './ResourcePage';
import './admin-machines.css';

// Machine groups: reports-admin §2 "name, ERP group id, machines, downtime reasons (FullProduct)"; calls
// /api/machinegroups (decision 0862). The group's downtime reasons show only with FullProduct (§6).

interface Named {
  id: string;
  name: string;
}

interface Options {
  machines: Named[];
  /** null without FullProduct. */
  reasons: Named[] | null;
}

const path = (id: string) => `/api/machinegroups/${encodeURIComponent(id)}`;

function groupsConfig({ machines, reasons }: Options): ResourceConfig<MachineGroup, GroupForm> {
  const fullProduct = reasons !== null;
  return {
    text: {
      title: 'admin.groups.title',
      intro: 'admin.groups.blurb',
      add: 'admin.groups.add',
      newTitle: 'admin.groups.new',
      editTitle: 'admin.groups.editTitle',
      empty: 'admin.groups.empty',
      failed: 'admin.groups.failed',
      caption: 'admin.groups.caption',
    },
    list: (signal) => api.request<MachineGroup[]>('/api/machinegroups', { signal }),
    create: (body) => api.request('/api/machinegroups', { method: 'POST', body }),
    update: (id, body) => api.request(path(id), { method: 'PUT', body }),
    remove: (g) => () => api.request(path(g.id), { method: 'DELETE' }),
    columns: [
      { header: t('admin.field.name'), rowHeader: true, cell: (g) => g.name },
      { header: t('admin.groups.erpGroupId'), cell: (g) => g.erpGroupId ?? t('common.none') },
      {
        header: t('admin.groups.machines'),
        cell: (g) => namesOf(g.machines, machines) || t('common.none'),
        list: true,
      },
      ...(reasons
        ? [
            {
              header: t('admin.groups.reasons'),
              cell: (g: MachineGroup) => namesOf(g.annotationTypes, reasons) || t('common.none'),
              list: true,
            },
          ]
        : []),
    ],
    newForm: newGroupForm,
    formOf: groupFormOf,
    errors: groupErrors,
    body: (f) => groupBody(f, fullProduct),
    fields: (f, set, errors) => (
      <>
        <NameField value={f.name} onChange={(name) => set({ name })} error={errors.name} />
        <Field label={t('admin.groups.erpGroupId')} error={errors.erpGroupId}>
          {(p) => (
            <input
              {...p}
              value={f.erpGroupId}
              autoComplete="off"
              onChange={(e) => set({ erpGroupId: e.target.value })}
            />
          )}
        </Field>
        <Choices
          legend={t('admin.groups.machines')}
          empty={t('admin.groups.noMachines')}
          options={machines}
          chosen={f.machines}
          onChange={(ids) => set({ machines: ids })}
        />
        {reasons && (
          <Choices
            legend={t('admin.groups.reasons')}
            hint={t('admin.groups.reasonsHint')}
            empty={t('admin.groups.noReasons')}
            options={reasons}
            chosen={f.annotationTypes}
            onChange={(ids) => set({ annotationTypes: ids })}
          />
        )}
      </>
    ),
  };
}

/** A set of checkboxes, one per option. */
function Choices({
  legend,
  hint,
  empty,
  options,
  chosen,
  onChange,
}: {
  legend: string;
  hint?: string;
  empty: string;
  options: Named[];
  chosen: readonly string[];
  onChange: (ids: string[]) => void;
}) {
  return (
    <fieldset className="admin__choices">
      <legend>{legend}</legend>
      {hint && <p className="admin__hint">{hint}</p>}
      {options.length === 0 ? (
        <p className="admin__hint">{empty}</p>
      ) : (
        <div className="admin-group__list">
          {options.map((o) => (
            <label key={o.id} className="admin__check">
              <input
                type="checkbox"
                checked={chosen.includes(o.id)}
                onChange={(e) => onChange(toggled(chosen, o.id, e.target.checked))}
              />
              {o.name}
            </label>
          ))}
        </div>
      )}
    </fieldset>
  );
}

export function MachineGroupsPage() {
  const { me } = useSession();
  const fullProduct = me.permissions.includes('FullProduct');
  const [state, reload] = useLoaded(async (signal): Promise<Options> => {
    const [machines, reasons] = await Promise.all([
      api.request<AdminMachine[]>('/api/machines', { signal }),
      fullProduct ? api.request<AnnotationType[]>('/api/annotationtypes', { signal }) : null,
    ]);
    return { machines: splitMachines(machines).inService, reasons };
  });
  if (state.kind === 'ready') return <GroupsScreen options={state.data} />;
  // The page frame while the machines and reasons load, or with the failure and Try again.
  return (
    <AdminPage title="admin.groups.title" intro="admin.groups.blurb" busy={state.kind === 'loading'}>
      <LoadedView state={state} retry={reload}>
        {() => null}
      </LoadedView>
    </AdminPage>
  );
}

function GroupsScreen({ options }: { options: Options }) {
  const config = useMemo(() => groupsConfig(options), [options]);
  return <ResourcePage config={config} />;
}
