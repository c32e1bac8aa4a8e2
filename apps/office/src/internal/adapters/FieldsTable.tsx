import { t } from '@takt/ui';
import { useId } from 'react';
import { AdminTableHead, RowButton } from '../../admin/AdminParts';
import type { DataItemList, FieldErrors, FieldRow } from './adapters';

// The adapter's fields (reports-admin §3: name, dataItemType, dataItemSubtype, componentName, componentType).
// reports-admin §5 "Only one adapter field ... edited at a time": while a row is open, the other rows'
// actions and Add field wait.

type Column = Exclude<keyof FieldRow, 'key'>;

const COLUMNS: ReadonlyArray<{ key: Column; label: Parameters<typeof t>[0]; list?: keyof DataItemList }> = [
  { key: 'name', label: 'internal.adapters.field.name' },
  { key: 'dataItemType', label: 'internal.adapters.field.type', list: 'types' },
  { key: 'dataItemSubtype', label: 'internal.adapters.field.subtype', list: 'subtypes' },
  { key: 'componentName', label: 'internal.adapters.field.componentName' },
  { key: 'componentType', label: 'internal.adapters.field.componentType', list: 'componentTypes' },
];

export interface FieldsTableProps {
  rows: readonly FieldRow[];
  /** The row being edited (its draft), or null. */
  editing: FieldRow | null;
  errors: FieldErrors;
  suggestions: DataItemList | null;
  disabled: boolean;
  onEdit: (row: FieldRow) => void;
  onRemove: (row: FieldRow) => void;
  onChange: (patch: Partial<FieldRow>) => void;
  onDone: () => void;
  onCancel: () => void;
}

export function FieldsTable(props: FieldsTableProps) {
  const { rows, editing, errors, suggestions, disabled } = props;
  const listId = useId();
  const busy = disabled || editing !== null;
  return (
    <div className="admin-table-wrap adapters-fields">
      {suggestions &&
        COLUMNS.flatMap((c) =>
          c.list ? (
            <datalist key={c.key} id={`${listId}-${c.key}`}>
              {suggestions[c.list].map((v) => (
                <option key={v} value={v} />
              ))}
            </datalist>
          ) : (
            []
          ),
        )}
      <table className="admin-table">
        <caption className="visually-hidden">{t('internal.adapters.fieldsTitle')}</caption>
        <AdminTableHead>
          {COLUMNS.map((c) => (
            <th key={c.key} scope="col">
              {t(c.label)}
            </th>
          ))}
        </AdminTableHead>
        <tbody>
          {rows.map((row) =>
            editing?.key === row.key ? (
              <tr key={row.key} className="adapters-fields__editing">
                {COLUMNS.map((c) => (
                  <td key={c.key} data-label={t(c.label)}>
                    <input
                      aria-label={t(c.label)}
                      aria-invalid={Boolean(errors[c.key])}
                      aria-describedby={errors[c.key] ? `${listId}-${c.key}-error` : undefined}
                      value={editing[c.key]}
                      list={c.list && suggestions ? `${listId}-${c.key}` : undefined}
                      autoComplete="off"
                      spellCheck={false}
                      // The first cell takes the focus when the row opens, so the keyboard goes on from there.
                      autoFocus={c.key === 'name'}
                      onChange={(e) => props.onChange({ [c.key]: e.target.value })}
                      onKeyDown={(e) => {
                        if (e.key === 'Enter') {
                          e.preventDefault();
                          props.onDone();
                        } else if (e.key === 'Escape') {
                          e.preventDefault();
                          props.onCancel();
                        }
                      }}
                    />
                    {errors[c.key] && (
                      <p className="field__error" id={`${listId}-${c.key}-error`}>
                        {errors[c.key]}
                      </p>
                    )}
                  </td>
                ))}
                <td className="admin-table__actions">
                  <button type="button" className="button" onClick={props.onCancel}>
                    {t('internal.adapters.field.cancel')}
                  </button>
                  <button
                    type="button"
                    className="button button--primary"
                    disabled={Object.keys(errors).length > 0}
                    onClick={props.onDone}
                  >
                    {t('internal.adapters.field.done')}
                  </button>
                </td>
              </tr>
            ) : (
              <tr key={row.key}>
                <th scope="row" data-label={t('internal.adapters.field.name')} className="admin__mono">
                  {row.name}
                </th>
                {COLUMNS.slice(1).map((c) => (
                  <td key={c.key} data-label={t(c.label)}>
                    {row[c.key] || t('common.none')}
                  </td>
                ))}
                <td className="admin-table__actions">
                  <RowButton
                    text={t('internal.adapters.field.edit')}
                    label={t('internal.adapters.field.editLabel', { name: row.name })}
                    disabled={busy}
                    onClick={() => props.onEdit(row)}
                  />
                  <RowButton
                    text={t('internal.adapters.field.remove')}
                    label={t('internal.adapters.field.removeLabel', { name: row.name })}
                    disabled={busy}
                    onClick={() => props.onRemove(row)}
                  />
                </td>
              </tr>
            ),
          )}
          {rows.length === 0 && (
            <tr>
              <td colSpan={COLUMNS.length + 1} className="adapters-fields__empty">
                {t('internal.adapters.fieldsEmpty')}
              </td>
            </tr>
          )}
        </tbody>
      </table>
    </div>
  );
}
