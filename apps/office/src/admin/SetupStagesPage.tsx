import type { CompanyFlags, SetupStage } from '@takt/domain';
import { t, useToasts } from '@takt/ui';
import { useEffect, useId, useState } from 'react';
import { Link } from 'react-router';
import { api } from '../api';
import { AdminPage, FormErrorBox, LoadedView, useLoaded } from './AdminParts';
import type { FormError } from './form';
import { serverMessageOr } from './form';
import { ADMIN_PATHS } from './screens';
import { SortableRows } from './SortableRows';
import { hasStageErrors, rowOf, stageErrors, stagesBody, totalPercentage } from './stages';
import type { StageRow } from './stages';

// Setup stages (reports-admin §2 "ordered list, drag reorder, archive, restore; percentages total 100", §5,
// §8 "server message or 'Unable to submit'"). The list is edited here and saved whole with
// PUT /api/setup/stages; stages left out are archived by the API, restored ones come back.

interface Loaded {
  stages: SetupStage[];
  enabled: boolean;
}

const load = async (signal: AbortSignal): Promise<Loaded> => {
  const [stages, flags] = await Promise.all([
    api.request<SetupStage[]>('/api/setup/stages', { query: { includeArchived: true }, signal }),
    api.request<CompanyFlags>('/api/company/flags', { signal }),
  ]);
  return { stages, enabled: flags.enable_setup_stages };
};

let newKeys = 0;

export function SetupStagesPage() {
  const [state, reload] = useLoaded(load);
  return (
    <AdminPage title="admin.stages.title" intro="admin.stages.intro" busy={state.kind === 'loading'}>
      <LoadedView state={state} retry={reload}>
        {(data) => <StagesEditor key={JSON.stringify(data.stages)} data={data} onSaved={reload} />}
      </LoadedView>
    </AdminPage>
  );
}

function StagesEditor({ data, onSaved }: { data: Loaded; onSaved: () => void }) {
  const stored = data.stages;
  const [rows, setRows] = useState<StageRow[]>(() => stored.filter((s) => s.archivedAt === null).map(rowOf));
  const [dirty, setDirty] = useState(false);
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<FormError | null>(null);
  const toasts = useToasts();
  const totalId = useId();
  const errors = stageErrors(rows);
  const invalid = hasStageErrors(errors);
  const total = totalPercentage(rows);

  // The archived list: stored archived stages and active ones taken out here, not yet back in the list.
  const inList = new Set(rows.flatMap((r) => (r.id ? [r.id] : [])));
  const archived = stored.filter((s) => s.id && !inList.has(s.id));

  useEffect(() => {
    if (!dirty) return;
    const warn = (e: BeforeUnloadEvent) => e.preventDefault();
    window.addEventListener('beforeunload', warn);
    return () => window.removeEventListener('beforeunload', warn);
  }, [dirty]);

  const change = (next: StageRow[]) => {
    setRows(next);
    setDirty(true);
  };
  const patch = (key: string, p: Partial<StageRow>) =>
    change(rows.map((r) => (r.key === key ? { ...r, ...p } : r)));

  const save = async () => {
    setBusy(true);
    setError(null);
    try {
      await api.request('/api/setup/stages', { method: 'PUT', body: stagesBody(rows) });
      setDirty(false);
      toasts.show({ message: t('admin.stages.saved'), tone: 'success' });
      onSaved();
    } catch (err) {
      setError(serverMessageOr(err, t('admin.stages.failed')));
    } finally {
      setBusy(false);
    }
  };

  return (
    <form
      className="admin-stages"
      noValidate
      onSubmit={(e) => {
        e.preventDefault();
        if (!invalid && !busy) void save();
      }}
    >
      {!data.enabled && (
        <p className="notice notice--warning" role="status">
          {t('admin.stages.disabled')} <Link to={ADMIN_PATHS.settings}>{t('admin.stages.openSettings')}</Link>
        </p>
      )}
      <FormErrorBox error={error} />
      {rows.length === 0 ? (
        <p className="notice" role="status">
          {t('admin.stages.empty')}
        </p>
      ) : (
        <SortableRows
          rows={rows}
          onMove={change}
          label={(r) => r.name || t('admin.stages.newName')}
          renderRow={(r, i, { handle }) => {
            const e = errors.rows[r.key] ?? {};
            const name = r.name || t('admin.stages.newName');
            return (
              <div className="admin-stage">
                {handle}
                <span className="admin-stage__order" aria-hidden="true">
                  {i + 1}
                </span>
                <div className="field admin-stage__name">
                  <input
                    aria-label={t('admin.stages.nameOf', { n: i + 1 })}
                    aria-invalid={Boolean(e.name)}
                    value={r.name}
                    autoComplete="off"
                    onChange={(ev) => patch(r.key, { name: ev.target.value })}
                  />
                  {e.name && <p className="field__error">{e.name}</p>}
                </div>
                <div className="field admin-stage__pct">
                  <span className="admin-stage__pct-input">
                    <input
                      aria-label={t('admin.stages.percentageOf', { name })}
                      aria-invalid={Boolean(e.percentage)}
                      aria-describedby={totalId}
                      type="number"
                      inputMode="decimal"
                      min={0}
                      max={100}
                      step="any"
                      value={r.percentage}
                      onChange={(ev) => patch(r.key, { percentage: ev.target.value })}
                    />
                    <span aria-hidden="true">%</span>
                  </span>
                  {e.percentage && <p className="field__error">{e.percentage}</p>}
                </div>
                <button
                  type="button"
                  className="button"
                  aria-label={t('admin.archiveNamed', { name })}
                  onClick={() => change(rows.filter((x) => x.key !== r.key))}
                >
                  {t('admin.archive')}
                </button>
              </div>
            );
          }}
        />
      )}
      <div className="admin-stages__foot">
        <button
          type="button"
          className="button"
          onClick={() => change([...rows, { key: `new-${++newKeys}`, name: '', percentage: '0' }])}
        >
          {t('admin.stages.add')}
        </button>
        <p id={totalId} className={errors.total ? 'admin-stages__total is-wrong' : 'admin-stages__total'}>
          <strong>{t('admin.stages.total', { total })}</strong>
          {errors.total && (
            <span className="field__error" role="alert">
              {errors.total}
            </span>
          )}
        </p>
        <span className="admin-stages__save">
          {dirty && <span className="admin__hint">{t('admin.stages.unsaved')}</span>}
          <button type="submit" className="button button--primary" disabled={invalid || busy || !dirty}>
            {busy ? t('admin.saving') : t('admin.save')}
          </button>
        </span>
      </div>
      <section className="admin-stages__archived" aria-labelledby={`${totalId}-archived`}>
        <h2 id={`${totalId}-archived`}>{t('admin.stages.archivedTitle')}</h2>
        {archived.length === 0 ? (
          <p className="admin__hint">{t('admin.stages.archivedNone')}</p>
        ) : (
          <>
            <p className="admin__hint">{t('admin.stages.archivedHint')}</p>
            <ul className="admin-stages__archived-list">
              {archived.map((s) => (
                <li key={s.id}>
                  <span>{s.name}</span>
                  <button
                    type="button"
                    className="button"
                    aria-label={t('admin.restoreNamed', { name: s.name })}
                    onClick={() => change([...rows, rowOf(s)])}
                  >
                    {t('admin.restore')}
                  </button>
                </li>
              ))}
            </ul>
          </>
        )}
      </section>
    </form>
  );
}
