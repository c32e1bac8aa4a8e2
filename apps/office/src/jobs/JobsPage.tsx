import type { CycleInputOption } from '@takt/domain';
import { t, useSession, useToasts } from '@takt/ui';
import { useCallback, useEffect, useId, useState } from 'react';
import { Link, useNavigate } from 'react-router';
import { api } from '../api';
import { AdminTable, FormDialog, LoadedView, RowButton, useLoaded, useSubmit } from '../admin/AdminParts';
import { useCompanyFlags } from '../reports/hooks';
import { JobFields } from './JobFields';
import type { JobForm, JobsShow, JobView } from './planning';
import {
  cycleText,
  jobBody,
  jobErrors,
  jobPath,
  jobsQuery,
  JOBS_PAGE,
  mayPlan,
  newJobForm,
  partsPerHourText,
} from './planning';
import './jobs-admin.css';

// The Jobs screen (issue 29 point 1, decision 1084): search jobs by name, show the active, retired or all,
// create one (then set its standards per machine on its own page), retire and restore. For planners:
// admins and managers; the API answers the same (403 to operators and kiosks).

/** Waits this long after the last keystroke before searching (live-operations §9, the office's 250 ms). */
const SEARCH_DEBOUNCE_MS = 250;

export function NotPlanner() {
  return (
    <main className="page">
      <h1>{t('planning.title')}</h1>
      <p className="notice" role="status">
        {t('planning.notPermitted')}
      </p>
    </main>
  );
}

export function JobsPage() {
  const { me } = useSession();
  if (!mayPlan(me)) return <NotPlanner />;
  return <JobsList />;
}

function JobsList() {
  const headingId = useId();
  const navigate = useNavigate();
  const toasts = useToasts();
  const flags = useCompanyFlags();
  const option: CycleInputOption = flags?.cycleinputoption ?? 'timepercycle';
  const [typed, setTyped] = useState('');
  const [filter, setFilter] = useState('');
  const [show, setShow] = useState<JobsShow>('active');
  const [limit, setLimit] = useState(JOBS_PAGE);
  const [creating, setCreating] = useState<{ form: JobForm; touched: boolean } | null>(null);
  const [busyRow, setBusyRow] = useState<string | null>(null);
  const save = useSubmit(t('planning.failed'));
  const rowAction = useSubmit(t('planning.failed'));

  useEffect(() => {
    document.title = `${t('planning.title')} · ${t('app.officeName')}`;
  }, []);
  useEffect(() => {
    const timer = setTimeout(() => setFilter(typed), SEARCH_DEBOUNCE_MS);
    return () => clearTimeout(timer);
  }, [typed]);

  const load = useCallback(
    (signal: AbortSignal) =>
      api.request<{ rows: JobView[]; count: number }>('/api/jobs', {
        query: jobsQuery(filter, show, limit),
        signal,
      }),
    [filter, show, limit],
  );
  const [state, reload] = useLoaded(load);
  useEffect(reload, [load, reload]);

  const errors = creating ? jobErrors(option, creating.form) : {};
  const create = async () => {
    if (!creating) return;
    let id = '';
    const ok = await save.run(async () => {
      id = (await api.request<JobView>('/api/jobs', { method: 'POST', body: jobBody(option, creating.form) }))
        .id;
    });
    if (!ok) return;
    setCreating(null);
    toasts.show({ message: t('planning.savedDone', { name: creating.form.name.trim() }), tone: 'success' });
    navigate(jobPath(id));
  };

  const retire = async (job: JobView, hidden: boolean) => {
    setBusyRow(job.id);
    const ok = await rowAction.run(() =>
      api.request(`/api/jobs/${encodeURIComponent(job.id)}`, { method: 'PUT', body: { hidden } }),
    );
    setBusyRow(null);
    if (!ok) return;
    toasts.show({
      message: t(hidden ? 'planning.retiredDone' : 'planning.restoredDone', { name: job.job_name }),
      tone: 'success',
    });
    reload();
  };

  return (
    <main className="page admin jobs-admin" aria-labelledby={headingId}>
      <div className="page__head">
        <h1 id={headingId}>{t('planning.title')}</h1>
        <div className="page__tools">
          <button
            type="button"
            className="button button--primary"
            onClick={() => {
              save.clear();
              setCreating({ form: newJobForm(option), touched: false });
            }}
          >
            {t('planning.add')}
          </button>
        </div>
      </div>
      <p className="admin__intro">{t('planning.blurb')}</p>
      <div className="jobs-admin__filters" role="search">
        <label>
          <span>{t('planning.search')}</span>
          <input type="search" value={typed} onChange={(e) => setTyped(e.target.value)} />
        </label>
        <label>
          <span>{t('planning.show')}</span>
          <select value={show} onChange={(e) => setShow(e.target.value as JobsShow)}>
            <option value="active">{t('planning.show.active')}</option>
            <option value="retired">{t('planning.show.retired')}</option>
            <option value="all">{t('planning.show.all')}</option>
          </select>
        </label>
      </div>
      {rowAction.error && (
        <div className="notice notice--error admin__error" role="alert">
          <strong>{rowAction.error.heading}</strong> {rowAction.error.lines.join(' ')}
        </div>
      )}
      <LoadedView state={state} retry={reload}>
        {({ rows, count }) =>
          rows.length === 0 ? (
            <p className="notice" role="status">
              {t('planning.empty')}
            </p>
          ) : (
            <>
              <p className="admin__hint">{t('planning.count', { count })}</p>
              <AdminTable
                caption={t('planning.caption')}
                headers={[
                  t('planning.col.name'),
                  t('planning.col.erp'),
                  t('planning.col.expected'),
                  t('planning.col.partsPerHour'),
                  t('planning.col.machines'),
                ]}
              >
                {rows.map((job) => (
                  <tr key={job.id} className={job.hidden ? 'admin-table__archived' : undefined}>
                    <th scope="row" data-label={t('planning.col.name')}>
                      <Link to={jobPath(job.id)}>{job.job_name}</Link>
                    </th>
                    <td data-label={t('planning.col.erp')}>{job.job_id || t('common.none')}</td>
                    <td data-label={t('planning.col.expected')} className="num">
                      {cycleText(job.expectedCycleTime)}
                    </td>
                    <td data-label={t('planning.col.partsPerHour')} className="num">
                      {partsPerHourText(job.expectedCycleTime, job.partCountMultiplier)}
                    </td>
                    <td data-label={t('planning.col.machines')} className="num">
                      {job.job_machines.length}
                    </td>
                    <td data-label={t('admin.status')}>
                      {job.hidden ? t('planning.retired') : t('planning.active')}
                    </td>
                    <td className="admin-table__actions">
                      {!job.hidden && (
                        <RowButton
                          text={t('planning.edit')}
                          label={t('planning.editNamed', { name: job.job_name })}
                          onClick={() => navigate(jobPath(job.id))}
                        />
                      )}
                      <RowButton
                        text={t(job.hidden ? 'planning.restore' : 'planning.retire')}
                        label={t(job.hidden ? 'planning.restoreNamed' : 'planning.retireNamed', {
                          name: job.job_name,
                        })}
                        disabled={busyRow === job.id}
                        onClick={() => void retire(job, !job.hidden)}
                      />
                    </td>
                  </tr>
                ))}
              </AdminTable>
              {rows.length < count && (
                <button type="button" className="button" onClick={() => setLimit((l) => l + JOBS_PAGE)}>
                  {t('planning.more')}
                </button>
              )}
            </>
          )
        }
      </LoadedView>
      {creating && (
        <FormDialog
          title={t('planning.new')}
          onClose={() => setCreating(null)}
          onSubmit={() => void create()}
          onInvalidSubmit={() => setCreating((c) => c && { ...c, touched: true })}
          invalid={Object.keys(errors).length > 0}
          busy={save.busy}
          error={save.error}
        >
          <JobFields
            option={option}
            form={creating.form}
            set={(patch) => setCreating((c) => c && { form: { ...c.form, ...patch }, touched: true })}
            errors={creating.touched ? errors : {}}
          />
        </FormDialog>
      )}
    </main>
  );
}
