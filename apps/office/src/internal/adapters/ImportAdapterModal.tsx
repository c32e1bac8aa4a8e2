import { FormActions, Modal, t, useToasts } from '@takt/ui';
import type { MessageKey } from '@takt/ui';
import { useEffect, useId, useRef, useState } from 'react';
import { DialogForm, Field, FormErrorBox, useSubmit } from '../../admin/AdminParts';
import { api } from '../../api';
import type { Adapter, AdapterField, ImportForm, ImportResult } from './adapters';
import { CompanyChoice } from '../CompanyChoice';
import type { CompanyOption } from '../CompanyChoice';
import {
  adapterPath,
  adapterUrl,
  cloneFields,
  createBody,
  fieldMeaning,
  hasNoFields,
  importErrors,
  isEmpty,
  proposedName,
} from './adapters';

// reports-admin §2 "Adapter import: paste an XML device description and a line-based text stream to map data
// items to adapter fields. Outcomes: exact match (Select), partial match (Select or Clone & Modify, with
// missing and extra items shown), no match (Create)." The matching runs in the API (POST
// /api/adapters/import, reports-admin §7 "adapter search by shdr"), against the chosen company's adapters, and
// Create or Clone & Modify make the adapter there (decision 0946).

/** The two pastes, the device description first. */
const PASTES = [
  {
    key: 'devicesXml',
    label: 'internal.adapters.import.devicesXml',
    hint: 'internal.adapters.import.devicesXmlHint',
  },
  { key: 'sample', label: 'internal.adapters.import.sample', hint: 'internal.adapters.import.sampleHint' },
] as const satisfies readonly { key: keyof ImportForm; label: MessageKey; hint: MessageKey }[];

export function ImportAdapterModal({
  company,
  ownCompany,
  companies,
  onCompany,
  onClose,
  onOpen,
  onChanged,
}: {
  /** The chosen company's id (the page's, in its URL). */
  company: string;
  ownCompany: string;
  companies: readonly CompanyOption[];
  onCompany: (id: string) => void;
  onClose: () => void;
  /** Opens an adapter in the editor (and closes the import). */
  onOpen: (id: string) => void;
  onChanged: () => void;
}) {
  const [form, setForm] = useState<ImportForm>({ devicesXml: '', sample: '' });
  const [touched, setTouched] = useState<Partial<Record<keyof ImportForm, boolean>>>({});
  /** The matches, for the company they were found in: another company's adapters make them stale. */
  const [found, setFound] = useState<{ company: string; result: ImportResult } | null>(null);
  const result = found?.company === company ? found.result : null;
  const find = useSubmit(t('internal.adapters.import.failed'));
  const errors = importErrors(form);
  const formId = useId();
  const target = company === ownCompany ? null : company;

  const set = (patch: Partial<ImportForm>) => {
    // A changed paste makes the shown matches stale.
    setFound(null);
    setForm((f) => ({ ...f, ...patch }));
    setTouched((x) => ({ ...x, ...Object.fromEntries(Object.keys(patch).map((k) => [k, true])) }));
  };

  const submit = async () => {
    if (!isEmpty(errors) || find.busy) return;
    let answer: ImportResult | null = null;
    const ok = await find.run(async () => {
      answer = await api.request<ImportResult>(adapterUrl(target, '/import'), { method: 'POST', body: form });
    });
    if (!ok || !answer) return;
    const matches: ImportResult = answer;
    setFound({ company, result: matches });
  };

  return (
    <Modal
      title={t('internal.adapters.import.title')}
      onClose={onClose}
      busy={find.busy}
      className="adapters-import"
      footer={
        <FormActions
          onCancel={onClose}
          cancelLabel={t('common.close')}
          busy={find.busy}
          submit={{
            label: find.busy ? t('internal.adapters.import.finding') : t('internal.adapters.import.find'),
            disabled: !isEmpty(errors),
            form: formId,
          }}
        />
      }
    >
      <DialogForm id={formId} className="admin__form adapters-import__form" onSubmit={() => void submit()}>
        <p className="admin__intro">{t('internal.adapters.import.intro')}</p>
        <FormErrorBox error={find.error} />
        <CompanyChoice
          value={company}
          companies={companies}
          onChange={onCompany}
          hint={t('internal.adapters.import.companyHint')}
        />
        <div className="adapters-import__pastes">
          {PASTES.map(({ key, label, hint }) => (
            <Field key={key} label={t(label)} hint={t(hint)} error={touched[key] ? errors[key] : undefined}>
              {(p) => (
                <textarea
                  {...p}
                  className="adapters-import__paste"
                  rows={8}
                  wrap="off"
                  spellCheck={false}
                  value={form[key]}
                  onChange={(e) => set({ [key]: e.target.value })}
                />
              )}
            </Field>
          ))}
        </div>
      </DialogForm>
      {result && <ImportOutcome company={target} result={result} onOpen={onOpen} onChanged={onChanged} />}
    </Modal>
  );
}

function ImportOutcome({
  company,
  result,
  onOpen,
  onChanged,
}: {
  company: string | null;
  result: ImportResult;
  onOpen: (id: string) => void;
  onChanged: () => void;
}) {
  const ref = useRef<HTMLElement>(null);
  const [name, setName] = useState(() => proposedName(result));
  const act = useSubmit(t('internal.adapters.import.actionFailed'));
  const toasts = useToasts();
  const headingId = useId();
  useEffect(() => {
    ref.current?.scrollIntoView?.({ block: 'nearest' });
  }, []);

  const run = async (
    call: () => Promise<Adapter>,
    message: 'internal.adapters.cloned' | 'internal.adapters.created',
  ) => {
    let made: Adapter | null = null;
    const ok = await act.run(async () => {
      made = await call();
    });
    if (!ok || !made) return;
    const adapter: Adapter = made;
    toasts.show({ message: t(message, { name: adapter.name }), tone: 'success' });
    onChanged();
    onOpen(adapter.id);
  };

  const device = result.device
    ? t('internal.adapters.import.device', {
        name: result.device.name,
        keys: result.sampleFields.length + result.unresolvedKeys.length,
        lines: result.lines,
      })
    : null;
  const nameError =
    name.trim() === ''
      ? t('internal.adapters.import.required', { label: t('internal.adapters.name') })
      : undefined;

  return (
    <section
      ref={ref}
      className={`adapters-outcome adapters-outcome--${result.outcome}`}
      aria-labelledby={headingId}
      aria-live="polite"
    >
      <h3 id={headingId}>
        {result.outcome === 'exact'
          ? t('internal.adapters.import.exact', { name: result.adapter.name })
          : result.outcome === 'partial'
            ? t('internal.adapters.import.partial', { name: result.adapter.name })
            : t('internal.adapters.import.none')}
      </h3>
      {device && <p className="admin__hint">{device}</p>}
      {result.rejected > 0 && (
        <p className="admin__hint">{t('internal.adapters.import.rejected', { count: result.rejected })}</p>
      )}
      <FormErrorBox error={act.error} />

      {result.outcome === 'exact' && <p>{t('internal.adapters.import.exactBody')}</p>}

      {result.outcome === 'partial' && (
        <>
          <p>
            {t('internal.adapters.import.partialBody', {
              matched: result.matched,
              total: result.sampleFields.length + result.unresolvedKeys.length,
            })}
          </p>
          <div className="adapters-outcome__lists">
            <ItemList
              title={t('internal.adapters.import.missing', { count: result.unmatchedItems.length })}
              hint={t('internal.adapters.import.missingHint')}
              fields={result.missing}
              keys={result.unmatchedItems.filter((k) => !result.missing.some((f) => f.name === k))}
              keysNote={t('internal.adapters.import.notInXml')}
            />
            <ItemList
              title={t('internal.adapters.import.extra', { count: result.extra.length })}
              hint={t('internal.adapters.import.extraHint')}
              fields={result.extra}
            />
          </div>
        </>
      )}

      {result.outcome === 'none' &&
        (hasNoFields(result) ? (
          <p role="status">{t('internal.adapters.import.noFields')}</p>
        ) : (
          <>
            <p>{t('internal.adapters.import.noneBody', { count: result.proposed.length })}</p>
            <div className="adapters-outcome__lists">
              <ItemList
                title={t('internal.adapters.import.proposed', { count: result.proposed.length })}
                fields={result.proposed}
              />
              {result.unresolvedKeys.length > 0 && (
                <ItemList
                  title={t('internal.adapters.import.unresolved', { count: result.unresolvedKeys.length })}
                  hint={t('internal.adapters.import.unresolvedHint')}
                  fields={[]}
                  keys={result.unresolvedKeys}
                />
              )}
            </div>
            <Field label={t('internal.adapters.import.newName')} error={nameError}>
              {(p) => (
                <input {...p} value={name} autoComplete="off" onChange={(e) => setName(e.target.value)} />
              )}
            </Field>
          </>
        ))}

      <div className="modal__buttons adapters-outcome__actions">
        {result.outcome !== 'none' && (
          <button
            type="button"
            className={`button ${result.outcome === 'exact' ? 'button--primary' : ''}`}
            disabled={act.busy}
            onClick={() => onOpen(result.adapter.id)}
          >
            {t('internal.adapters.import.select')}
          </button>
        )}
        {result.outcome === 'partial' && (
          <button
            type="button"
            className="button button--primary"
            disabled={act.busy}
            onClick={() =>
              void run(
                () =>
                  api.request<Adapter>(adapterPath(company, result.adapter.id, '/clone'), {
                    method: 'POST',
                    body: { fields: cloneFields(result.adapter, result.missing) },
                  }),
                'internal.adapters.cloned',
              )
            }
          >
            {t('internal.adapters.import.cloneModify')}
          </button>
        )}
        {result.outcome === 'none' && (
          <button
            type="button"
            className="button button--primary"
            disabled={act.busy || hasNoFields(result) || nameError !== undefined}
            onClick={() =>
              void run(
                () =>
                  api.request<Adapter>(adapterUrl(company), {
                    method: 'POST',
                    body: createBody(result, name),
                  }),
                'internal.adapters.created',
              )
            }
          >
            {t('internal.adapters.import.create')}
          </button>
        )}
      </div>
    </section>
  );
}

/** Missing, extra or proposed items: the key, then what it means. */
function ItemList({
  title,
  hint,
  fields,
  keys = [],
  keysNote,
}: {
  title: string;
  hint?: string;
  fields: readonly AdapterField[];
  /** Keys without a meaning (not in the description). */
  keys?: readonly string[];
  /** Said after each of `keys`. */
  keysNote?: string;
}) {
  const id = useId();
  return (
    <div className="adapters-items">
      <h4 id={id}>{title}</h4>
      {hint && <p className="admin__hint">{hint}</p>}
      <ul aria-labelledby={id}>
        {fields.map((f) => (
          <li key={`f-${f.name}`}>
            <span className="admin__mono">{f.name}</span>{' '}
            <span className="adapters-items__meaning">{fieldMeaning(f)}</span>
          </li>
        ))}
        {keys.map((k) => (
          <li key={`k-${k}`}>
            <span className="admin__mono">{k}</span>{' '}
            {keysNote && <span className="adapters-items__meaning">{keysNote}</span>}
          </li>
        ))}
        {fields.length === 0 && keys.length === 0 && <li>{t('internal.adapters.import.noItems')}</li>}
      </ul>
    </div>
  );
}
