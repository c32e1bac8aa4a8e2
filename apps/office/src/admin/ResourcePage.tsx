import { t, useToasts } from '@takt/ui';
import type { MessageKey } from '@takt/ui';
import { useState } from 'react';
import type { ReactNode } from 'react';
import {
  AdminPage,
  AdminTable,
  ConfirmDialog,
  FormDialog,
  LoadedView,
  RowButton,
  useLoaded,
  useSubmit,
} from './AdminParts';

// One screen for the plant resources that go from active to archived and back (reports-admin §4 "Setup
// stage, annotation type, part adjustment type, operator: active to archived and back"): a list with the
// archived ones behind "Show archived", a dialog to create and edit, archive, restore and, where the
// resource allows it, delete. Resources that are never archived (machine groups: "list, create, edit,
// delete") leave out archive, restore and isArchived, and the list has no status.

export interface Column<T> {
  header: string;
  cell: (row: T) => ReactNode;
  /** The row's header cell (the name). */
  rowHeader?: boolean;
  /** A list of names that wraps in its cell rather than widen the table (decision 1081). */
  list?: boolean;
}

export interface ResourceConfig<T extends { id: string; name: string }, F> {
  text: {
    title: MessageKey;
    intro: MessageKey;
    add: MessageKey;
    newTitle: MessageKey;
    editTitle: MessageKey;
    empty: MessageKey;
    failed: MessageKey;
    caption: MessageKey;
  };
  list: (signal: AbortSignal) => Promise<T[]>;
  create: (body: unknown) => Promise<unknown>;
  update: (id: string, body: unknown) => Promise<unknown>;
  archive?: (id: string) => Promise<unknown>;
  restore?: (id: string) => Promise<unknown>;
  /** Only for resources that may be deleted (operators); null when this row may not be. */
  remove?: (row: T) => (() => Promise<unknown>) | null;
  isArchived?: (row: T) => boolean;
  columns: Column<T>[];
  newForm: () => F;
  formOf: (row: T) => F;
  errors: (form: F) => Partial<Record<string, string>>;
  body: (form: F) => unknown;
  fields: (form: F, set: (patch: Partial<F>) => void, errors: Partial<Record<string, string>>) => ReactNode;
  /** Under the table (a rule the actions follow). */
  footnote?: (rows: T[]) => ReactNode;
}

/** `touched`: errors show once the form was changed (a fresh form is not wrong yet, only incomplete). */
type Editing<T, F> = { row: T | null; form: F; touched: boolean };
type Confirming<T> = { row: T; action: 'delete' };

export function ResourcePage<T extends { id: string; name: string }, F>({
  config,
}: {
  config: ResourceConfig<T, F>;
}) {
  const { text } = config;
  const [state, reload] = useLoaded(config.list);
  const [showArchived, setShowArchived] = useState(false);
  const [editing, setEditing] = useState<Editing<T, F> | null>(null);
  const [confirming, setConfirming] = useState<Confirming<T> | null>(null);
  const [rowBusy, setRowBusy] = useState<string | null>(null);
  const save = useSubmit(t(text.failed));
  const rowAction = useSubmit(t(text.failed));
  const toasts = useToasts();

  const archivable = Boolean(config.archive && config.restore && config.isArchived);
  const isArchived = (row: T) => config.isArchived?.(row) ?? false;
  const errors = editing ? config.errors(editing.form) : {};
  const invalid = Object.keys(errors).length > 0;

  const open = (row: T | null) => {
    save.clear();
    setEditing({ row, form: row ? config.formOf(row) : config.newForm(), touched: false });
  };

  const submit = async () => {
    if (!editing) return;
    const body = config.body(editing.form);
    const ok = await save.run(() =>
      editing.row ? config.update(editing.row.id, body) : config.create(body),
    );
    if (!ok) return;
    setEditing(null);
    toasts.show({ message: t('admin.savedDone', { name: nameOf(body, editing.row) }), tone: 'success' });
    reload();
  };

  const toggle = async (row: T, archive: boolean) => {
    const call = archive ? config.archive : config.restore;
    if (!call) return;
    setRowBusy(row.id);
    const ok = await rowAction.run(() => call(row.id));
    setRowBusy(null);
    if (ok) {
      toasts.show({
        message: t(archive ? 'admin.archivedDone' : 'admin.restoredDone', { name: row.name }),
        tone: 'success',
      });
      reload();
    }
  };

  const remove = async () => {
    const call = confirming && config.remove?.(confirming.row);
    if (!confirming || !call) return;
    const ok = await rowAction.run(call);
    if (!ok) return;
    toasts.show({ message: t('admin.deletedDone', { name: confirming.row.name }), tone: 'success' });
    setConfirming(null);
    reload();
  };

  return (
    <AdminPage
      title={text.title}
      intro={text.intro}
      busy={state.kind === 'loading'}
      actions={
        <>
          {archivable && (
            <label className="admin__check">
              <input
                type="checkbox"
                checked={showArchived}
                onChange={(e) => setShowArchived(e.target.checked)}
              />
              {t('admin.showArchived')}
            </label>
          )}
          <button type="button" className="button button--primary" onClick={() => open(null)}>
            {t(text.add)}
          </button>
        </>
      }
    >
      {!confirming && rowAction.error && (
        <div className="notice notice--error admin__error" role="alert">
          <strong>{rowAction.error.heading}</strong> {rowAction.error.lines.join(' ')}
        </div>
      )}
      <LoadedView state={state} retry={reload}>
        {(all) => {
          const rows = all.filter((r) => showArchived || !isArchived(r));
          return (
            <>
              {rows.length === 0 ? (
                <p className="notice" role="status">
                  {t(text.empty)}
                </p>
              ) : (
                <AdminTable
                  caption={t(text.caption)}
                  headers={config.columns.map((c) => c.header)}
                  status={archivable}
                >
                  {rows.map((row) => {
                    const archived = isArchived(row);
                    const removeCall = config.remove?.(row);
                    return (
                      <tr key={row.id} className={archived ? 'admin-table__archived' : undefined}>
                        {config.columns.map((c) =>
                          c.rowHeader ? (
                            <th key={c.header} scope="row" data-label={c.header}>
                              {c.cell(row)}
                            </th>
                          ) : (
                            <td
                              key={c.header}
                              data-label={c.header}
                              className={c.list ? 'admin-table__list' : undefined}
                            >
                              {c.cell(row)}
                            </td>
                          ),
                        )}
                        {archivable && (
                          <td data-label={t('admin.status')}>
                            {archived ? t('admin.archived') : t('admin.active')}
                          </td>
                        )}
                        <td className="admin-table__actions">
                          {!archived && (
                            <RowButton
                              text={t('admin.edit')}
                              label={t('admin.editNamed', { name: row.name })}
                              onClick={() => open(row)}
                            />
                          )}
                          {archivable && (
                            <RowButton
                              text={t(archived ? 'admin.restore' : 'admin.archive')}
                              label={t(archived ? 'admin.restoreNamed' : 'admin.archiveNamed', {
                                name: row.name,
                              })}
                              disabled={rowBusy === row.id}
                              onClick={() => void toggle(row, !archived)}
                            />
                          )}
                          {removeCall && (
                            <RowButton
                              danger
                              text={t('admin.delete')}
                              label={t('admin.deleteNamed', { name: row.name })}
                              onClick={() => {
                                rowAction.clear();
                                setConfirming({ row, action: 'delete' });
                              }}
                            />
                          )}
                        </td>
                      </tr>
                    );
                  })}
                </AdminTable>
              )}
              {config.footnote?.(all)}
            </>
          );
        }}
      </LoadedView>
      {editing && (
        <FormDialog
          title={t(editing.row ? text.editTitle : text.newTitle)}
          onClose={() => setEditing(null)}
          onSubmit={() => void submit()}
          invalid={invalid}
          busy={save.busy}
          error={save.error}
        >
          {config.fields(
            editing.form,
            (patch) => setEditing((e) => e && { ...e, form: { ...e.form, ...patch }, touched: true }),
            editing.touched ? errors : {},
          )}
        </FormDialog>
      )}
      {confirming && (
        <ConfirmDialog
          title={t('admin.deleteNamed', { name: confirming.row.name })}
          confirmLabel={t('admin.delete')}
          onConfirm={() => void remove()}
          onClose={() => setConfirming(null)}
          busy={rowAction.busy}
          error={rowAction.error}
        />
      )}
    </AdminPage>
  );
}

const nameOf = (body: unknown, row: { name: string } | null): string =>
  typeof body === 'object' && body !== null && 'name' in body && typeof body.name === 'string'
    ? body.name
    : (row?.name ?? '');
