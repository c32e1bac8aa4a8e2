import type { InternalCompany, InternalCompanyList } from '@takt/domain';
import { ApiError, StatusBadge, t, useToasts } from '@takt/ui';
import { useEffect, useRef, useState } from 'react';
import { api } from '../../api';
import {
  AdminTable,
  Field,
  FormDialog,
  LoadedView,
  RowButton,
  saveState,
  useLoaded,
  useSubmit,
} from '../../admin/AdminParts';
import { InternalPage } from '../InternalParts';
import {
  agoText,
  companyBody,
  companyErrors,
  companyFormOf,
  companyQuery,
  formatDollars,
  formTrialBounds,
  lastSeenTone,
  lastSeenWords,
  newCompanyForm,
  TIERS,
  timeZones,
  TONE_STATUS,
  trialEnded,
} from './companies';
import type { CompanyForm, MutedFilter } from './companies';

// reports-admin §2 "Internal company admin: list, toggle muted, machine count, total annual recurring revenue;
// create or edit with name, trial expiration date, product tier, ERP, timezone. Colour by last seen" (decisions
// 0920, 0921). Calls /api/internal/companies.

const path = (id = '', tail = '') =>
  `/api/internal/companies${id ? `/${encodeURIComponent(id)}` : ''}${tail}`;

type Editing = { company: InternalCompany | null; form: CompanyForm; touched: boolean };

/** The last-data colour moves with time: the page re-reads the clock this often. */
const TICK_MS = 15_000;

export function CompaniesPage() {
  const [filter, setFilter] = useState<MutedFilter>('all');
  const [rootMachines, setRootMachines] = useState(false);
  const [state, reload] = useLoaded((signal) =>
    api.request<InternalCompanyList>(path(), { signal, query: companyQuery(filter, rootMachines) }),
  );
  const [now, setNow] = useState(() => Date.now());
  const [editing, setEditing] = useState<Editing | null>(null);
  const [muting, setMuting] = useState<string | null>(null);
  const save = useSubmit(t('internal.companies.saveFailed'));
  const toasts = useToasts();

  useEffect(() => {
    const timer = setInterval(() => setNow(Date.now()), TICK_MS);
    return () => clearInterval(timer);
  }, []);
  // The query changed: ask again (useLoaded keeps the shown rows until the answer; it made the first ask).
  const asked = useRef(false);
  useEffect(() => {
    if (asked.current) reload();
    asked.current = true;
  }, [filter, rootMachines, reload]);

  const open = (company: InternalCompany | null) => {
    save.clear();
    setEditing({
      company,
      form: company ? companyFormOf(company) : newCompanyForm(Date.now()),
      touched: false,
    });
  };

  const bounds = editing
    ? formTrialBounds(editing.form, editing.company?.trial_expiration_date ?? null, now)
    : null;
  const errors = editing && bounds ? companyErrors(editing.form, bounds) : {};

  const submit = async () => {
    if (!editing) return;
    const { company, form } = editing;
    let saved: InternalCompany | null = null;
    const ok = await save.run(async () => {
      saved = await api.request<InternalCompany>(company ? path(company.id) : path(), {
        method: company ? 'PUT' : 'POST',
        body: companyBody(form),
      });
    });
    if (!ok || !saved) return;
    const name = (saved as InternalCompany).name;
    setEditing(null);
    toasts.show({
      message: t(company ? 'internal.companies.saved' : 'internal.companies.created', { name }),
      tone: 'success',
    });
    reload();
  };

  const toggleMuted = async (c: InternalCompany, muted: boolean) => {
    setMuting(c.id);
    try {
      await api.request(path(c.id, '/muted'), { method: 'PUT', body: { muted } });
      toasts.show({
        message: t(muted ? 'internal.companies.mutedOn' : 'internal.companies.mutedOff', { name: c.name }),
        tone: 'success',
      });
      reload();
    } catch (err) {
      const message = err instanceof ApiError && !err.isNetworkError ? err.message : t('common.requestError');
      toasts.show({ message: t('internal.companies.muteFailed', { name: c.name, message }), tone: 'error' });
    } finally {
      setMuting(null);
    }
  };

  const trialText = (c: InternalCompany) => {
    if (!c.trial_expiration_date) return t('internal.companies.noTrial');
    return trialEnded(c.trial_expiration_date, c.timezone, now)
      ? t('internal.companies.trialEnded', { date: c.trial_expiration_date })
      : c.trial_expiration_date;
  };

  return (
    <InternalPage
      title="internal.companies.title"
      intro={t('internal.companies.intro')}
      busy={state.kind === 'loading'}
      actions={
        <button type="button" className="button button--primary" onClick={() => open(null)}>
          {t('internal.companies.create')}
        </button>
      }
    >
      <div className="admin__toolbar">
        <Field label={t('internal.companies.show')}>
          {(p) => (
            <select {...p} value={filter} onChange={(e) => setFilter(e.target.value as MutedFilter)}>
              <option value="all">{t('internal.companies.showAll')}</option>
              <option value="active">{t('internal.companies.showActive')}</option>
              <option value="muted">{t('internal.companies.showMuted')}</option>
            </select>
          )}
        </Field>
        <label className="admin__check">
          <input type="checkbox" checked={rootMachines} onChange={(e) => setRootMachines(e.target.checked)} />
          {t('internal.companies.countRoot')}
        </label>
      </div>
      <LoadedView state={state} retry={reload}>
        {(data) => (
          <>
            <div className="internal-total" role="status">
              <strong>
                {t('internal.companies.totalArr', {
                  amount: formatDollars(data.totalAnnualRecurringRevenue),
                })}
              </strong>
              <span className="admin__hint">
                {t('internal.companies.totalArrHint', { count: data.companies.length })}
              </span>
            </div>
            {data.companies.length === 0 ? (
              <p className="notice" role="status">
                {t('internal.companies.empty')}
              </p>
            ) : (
              <AdminTable
                caption={t('internal.companies.caption')}
                status={false}
                headers={[
                  t('internal.companies.name'),
                  t('internal.companies.lastData'),
                  t('internal.companies.machines'),
                  t('internal.companies.arrShort'),
                  t('internal.companies.tier'),
                  t('internal.companies.trial'),
                  t('internal.companies.erp'),
                  t('internal.companies.timezone'),
                  t('internal.companies.muted'),
                ]}
              >
                {data.companies.map((c) => {
                  const tone = lastSeenTone(c.lastSeen, now, c.muted);
                  return (
                    <tr key={c.id} className={c.muted ? 'admin-table__archived' : undefined}>
                      <th scope="row" data-label={t('internal.companies.name')}>
                        {c.name}
                      </th>
                      <td data-label={t('internal.companies.lastData')}>
                        <span className="internal-seen">
                          <StatusBadge status={TONE_STATUS[tone]} variant="ink">
                            {lastSeenWords(tone, c.lastSeen)}
                          </StatusBadge>
                          {c.lastSeen !== null && (
                            <span className="admin__hint">{agoText(c.lastSeen, now)}</span>
                          )}
                        </span>
                      </td>
                      <td data-label={t('internal.companies.machines')} className="admin__mono num-col">
                        {c.machineCount}
                      </td>
                      <td data-label={t('internal.companies.arrShort')} className="admin__mono num-col">
                        {c.annualRecurringRevenue === null
                          ? t('common.none')
                          : formatDollars(c.annualRecurringRevenue)}
                      </td>
                      <td data-label={t('internal.companies.tier')}>
                        {t(`internal.companies.tier.${c.product_tier}`)}
                      </td>
                      <td data-label={t('internal.companies.trial')}>{trialText(c)}</td>
                      <td data-label={t('internal.companies.erp')}>{c.erp ?? t('common.none')}</td>
                      <td data-label={t('internal.companies.timezone')}>{c.timezone}</td>
                      <td data-label={t('internal.companies.muted')}>
                        <label className="admin__check">
                          <input
                            type="checkbox"
                            checked={c.muted}
                            disabled={muting !== null}
                            aria-label={t('internal.companies.mutedNamed', { name: c.name })}
                            onChange={(e) => void toggleMuted(c, e.target.checked)}
                          />
                          <span aria-hidden="true" className="internal-muted-word">
                            {t(c.muted ? 'common.on' : 'common.off')}
                          </span>
                        </label>
                      </td>
                      <td className="admin-table__actions">
                        <RowButton
                          text={t('admin.edit')}
                          label={t('internal.companies.editNamed', { name: c.name })}
                          onClick={() => open(c)}
                        />
                      </td>
                    </tr>
                  );
                })}
              </AdminTable>
            )}
          </>
        )}
      </LoadedView>

      {editing && bounds && (
        <FormDialog
          title={
            editing.company
              ? t('internal.companies.editTitle', { name: editing.company.name })
              : t('internal.companies.createTitle')
          }
          onClose={() => setEditing(null)}
          onSubmit={() => void submit()}
          {...saveState(save, errors)}
        >
          <CompanyFields
            form={editing.form}
            bounds={bounds}
            pastTrial={trialEnded(editing.company?.trial_expiration_date ?? null, editing.form.timezone, now)}
            errors={editing.touched ? errors : {}}
            set={(patch) => setEditing((e) => e && { ...e, form: { ...e.form, ...patch }, touched: true })}
          />
        </FormDialog>
      )}
    </InternalPage>
  );
}

function CompanyFields({
  form: f,
  bounds,
  pastTrial,
  errors,
  set,
}: {
  form: CompanyForm;
  bounds: { min: string; max: string };
  pastTrial: boolean;
  errors: Partial<Record<string, string>>;
  set: (patch: Partial<CompanyForm>) => void;
}) {
  return (
    <>
      <Field label={t('internal.companies.name')} error={errors.name}>
        {(p) => (
          <input {...p} value={f.name} autoComplete="off" onChange={(e) => set({ name: e.target.value })} />
        )}
      </Field>
      <div className="admin__pair internal-pair">
        <Field label={t('internal.companies.tier')}>
          {(p) => (
            <select
              {...p}
              value={f.productTier}
              onChange={(e) => set({ productTier: e.target.value as CompanyForm['productTier'] })}
            >
              {TIERS.map((tier) => (
                <option key={tier} value={tier}>
                  {t(`internal.companies.tier.${tier}`)}
                </option>
              ))}
            </select>
          )}
        </Field>
        <Field label={t('internal.companies.timezone')} error={errors.timezone}>
          {(p) => (
            <select {...p} value={f.timezone} onChange={(e) => set({ timezone: e.target.value })}>
              {timeZones(f.timezone).map((z) => (
                <option key={z} value={z}>
                  {z}
                </option>
              ))}
            </select>
          )}
        </Field>
      </div>
      <p className="admin__hint">{t('internal.companies.tzHint')}</p>
      <Field
        label={t('internal.companies.trial')}
        hint={t(pastTrial ? 'internal.companies.trialPastHint' : 'internal.companies.trialHint', bounds)}
        error={errors.trial}
      >
        {(p) => (
          <div className="internal-trial">
            <input
              {...p}
              type="date"
              min={bounds.min}
              max={bounds.max}
              value={f.trial}
              onChange={(e) => set({ trial: e.target.value })}
            />
            <button
              type="button"
              className="button"
              disabled={f.trial === ''}
              onClick={() => set({ trial: '' })}
            >
              {t('internal.companies.clearTrial')}
            </button>
          </div>
        )}
      </Field>
      <div className="admin__pair internal-pair">
        <Field label={t('internal.companies.erp')} hint={t('internal.companies.erpHint')} error={errors.erp}>
          {(p) => (
            <input {...p} value={f.erp} autoComplete="off" onChange={(e) => set({ erp: e.target.value })} />
          )}
        </Field>
        <Field label={t('internal.companies.arr')} hint={t('internal.companies.arrHint')} error={errors.arr}>
          {(p) => (
            <input
              {...p}
              inputMode="numeric"
              value={f.arr}
              autoComplete="off"
              onChange={(e) => set({ arr: e.target.value })}
            />
          )}
        </Field>
      </div>
    </>
  );
}
