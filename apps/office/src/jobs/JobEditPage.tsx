import type { CycleInputOption, JobMachine } from '@takt/domain';
import { t, useSession, useToasts } from '@takt/ui';
import { useCallback, useEffect, useId, useState } from 'react';
import { Link, useParams } from 'react-router';
import { api } from '../api';
import {
  AdminTable,
  ConfirmDialog,
  FormDialog,
  FormErrorBox,
  LoadedView,
  RowButton,
  useLoaded,
  useSubmit,
} from '../admin/AdminParts';
import { useCompanyFlags, useMachineNames } from '../reports/hooks';
import { JobFields, StandardsFields } from './JobFields';
import { NotPlanner } from './JobsPage';
import type { JobForm, JobView, StandardsForm } from './planning';
import {
  cycleText,
  endsText,
  jobBody,
  jobErrors,
  jobFormOf,
  JOBS_PATHS,
  mayPlan,
  newStandardsForm,
  partsPerHourText,
  setupText,
  standardsBody,
  standardsErrors,
  standardsFormOf,
} from './planning';
import './jobs-admin.css';

// One job (decision 1084): its own fields, retire or restore, and its standards on each machine it is
// assigned to (JobMachine, live-operations §3): expected and ideal cycle time in the company's
// cycleinputoption with parts per hour, part behavior, setup time, start in setup, schedule end.

export function JobEditPage() {
  const { me } = useSession();
  if (!mayPlan(me)) return <NotPlanner />;
  return <JobEditor />;
}

type Editing = { jm: JobMachine | null; form: StandardsForm; touched: boolean };

function JobEditor() {
  const { id = '' } = useParams();
  const { me } = useSession();
  const tz = me.company.timezone;
  const headingId = useId();
  const toasts = useToasts();
  const flags = useCompanyFlags();
  const option: CycleInputOption = flags?.cycleinputoption ?? 'timepercycle';
  const { machines } = useMachineNames();
  const load = useCallback(
    (signal: AbortSignal) => api.request<JobView>(`/api/jobs/${encodeURIComponent(id)}`, { signal }),
    [id],
  );
  const [state, reload] = useLoaded(load);
  const [form, setForm] = useState<{ form: JobForm; option: CycleInputOption } | null>(null);
  const [editing, setEditing] = useState<Editing | null>(null);
  const saveJob = useSubmit(t('planning.failed'));
  const saveStandards = useSubmit(t('planning.failed'));
  const [removing, setRemoving] = useState<JobMachine | null>(null);
  const remove = useSubmit(t('planning.failed'));

  const job = state.kind === 'ready' ? state.data : null;
  // The form opens with the job as loaded, in the company's entry (which may arrive after the job).
  useEffect(() => {
    if (job && (!form || form.option !== option)) setForm({ form: jobFormOf(option, job), option });
  }, [job, option, form]);
  useEffect(() => {
    document.title = `${job?.job_name ?? t('planning.title')} · ${t('app.officeName')}`;
  }, [job]);

  const errors = form ? jobErrors(option, form.form, job?.partCountMultiplier ?? 1) : {};
  const submitJob = async () => {
    if (!form || !job) return;
    const ok = await saveJob.run(() =>
      api.request(`/api/jobs/${encodeURIComponent(job.id)}`, {
        method: 'PUT',
        body: jobBody(option, form.form, job.partCountMultiplier),
      }),
    );
    if (!ok) return;
    toasts.show({ message: t('planning.savedDone', { name: form.form.name.trim() }), tone: 'success' });
    setForm(null);
    reload();
  };
  const toggleRetired = async () => {
    if (!job) return;
    const ok = await saveJob.run(() =>
      api.request(`/api/jobs/${encodeURIComponent(job.id)}`, {
        method: 'PUT',
        body: { hidden: !job.hidden },
      }),
    );
    if (!ok) return;
    toasts.show({
      message: t(job.hidden ? 'planning.restoredDone' : 'planning.retiredDone', { name: job.job_name }),
      tone: 'success',
    });
    reload();
  };

  const standardsErrs = editing ? standardsErrors(option, editing.form) : {};
  const submitStandards = async () => {
    if (!editing || !job) return;
    const ok = await saveStandards.run(() =>
      api.request('/api/jobmachines', {
        method: 'POST',
        body: standardsBody(option, job.id, editing.form, tz),
      }),
    );
    if (!ok) return;
    setEditing(null);
    toasts.show({ message: t('planning.savedDone', { name: job.job_name }), tone: 'success' });
    reload();
  };

  const machineName = (machineId: string) => machines.find((m) => m.id === machineId)?.name ?? machineId;
  const unassigned = job
    ? machines.filter((m) => !job.job_machines.some((jm) => jm.machine_id === m.id))
    : [];

  // JobMachine delete (decision 1106): the server refuses (409, its text shown) while a run is open.
  const confirmRemove = async () => {
    if (!removing || !job) return;
    const ok = await remove.run(() =>
      api.request(`/api/jobmachines/${encodeURIComponent(removing.id)}`, { method: 'DELETE' }),
    );
    if (!ok) return;
    toasts.show({
      message: t('planning.machines.removedDone', {
        job: job.job_name,
        machine: machineName(removing.machine_id),
      }),
      tone: 'success',
    });
    setRemoving(null);
    reload();
  };

  return (
    <main className="page admin jobs-admin" aria-labelledby={headingId}>
      <p className="admin__back">
        <Link to={JOBS_PATHS.list}>{t('planning.back')}</Link>
      </p>
      <div className="page__head">
        <h1 id={headingId}>{job?.job_name ?? t('planning.title')}</h1>
        {job && (
          <div className="page__tools">
            <span className="jobs-admin__status">
              {job.hidden ? t('planning.retired') : t('planning.active')}
            </span>
            <button
              type="button"
              className="button"
              disabled={saveJob.busy}
              onClick={() => void toggleRetired()}
            >
              {t(job.hidden ? 'planning.restore' : 'planning.retire')}
            </button>
          </div>
        )}
      </div>
      <LoadedView state={state} retry={reload}>
        {(loaded) => (
          <>
            <section className="jobs-admin__section" aria-labelledby={`${headingId}-job`}>
              <h2 id={`${headingId}-job`}>{t('planning.job.details')}</h2>
              {form && (
                <form
                  className="admin__form jobs-admin__job"
                  noValidate
                  onSubmit={(e) => {
                    e.preventDefault();
                    if (Object.keys(errors).length === 0 && !saveJob.busy) void submitJob();
                  }}
                >
                  <FormErrorBox error={saveJob.error} />
                  <JobFields
                    option={option}
                    form={form.form}
                    set={(patch) => setForm((f) => f && { ...f, form: { ...f.form, ...patch } })}
                    errors={errors}
                  />
                  <div>
                    <button
                      type="submit"
                      className="button button--primary"
                      disabled={Object.keys(errors).length > 0 || saveJob.busy}
                    >
                      {saveJob.busy ? t('admin.saving') : t('planning.job.save')}
                    </button>
                  </div>
                </form>
              )}
            </section>
            <section className="jobs-admin__section" aria-labelledby={`${headingId}-machines`}>
              <div className="page__head">
                <h2 id={`${headingId}-machines`}>{t('planning.machines.title')}</h2>
                <div className="page__tools">
                  <button
                    type="button"
                    className="button button--primary"
                    disabled={loaded.hidden || unassigned.length === 0}
                    onClick={() => {
                      saveStandards.clear();
                      setEditing({ jm: null, form: newStandardsForm(option, loaded, ''), touched: false });
                    }}
                  >
                    {t('planning.machines.assign')}
                  </button>
                </div>
              </div>
              <p className="admin__intro">{t('planning.machines.blurb')}</p>
              {loaded.job_machines.length === 0 ? (
                <p className="notice" role="status">
                  {t('planning.machines.none')}
                </p>
              ) : (
                <AdminTable
                  caption={t('planning.machines.caption')}
                  status={false}
                  headers={[
                    t('planning.col.machine'),
                    t('planning.col.expected'),
                    t('planning.col.ideal'),
                    t('planning.col.partsPerHour'),
                    t('planning.col.behavior'),
                    t('planning.col.setup'),
                    t('planning.col.ends'),
                  ]}
                >
                  {loaded.job_machines.map((jm) => (
                    <tr key={jm.id}>
                      <th scope="row" data-label={t('planning.col.machine')}>
                        {machineName(jm.machine_id)}
                      </th>
                      <td className="num" data-label={t('planning.col.expected')}>
                        {cycleText(jm.expectedCycleTime)}
                      </td>
                      <td className="num" data-label={t('planning.col.ideal')}>
                        {cycleText(jm.idealCycleTime)}
                      </td>
                      <td className="num" data-label={t('planning.col.partsPerHour')}>
                        {partsPerHourText(jm.expectedCycleTime, jm.partCountMultiplier)}
                      </td>
                      <td data-label={t('planning.col.behavior')}>
                        {t(`planning.behavior.${jm.partBehavior}`)}
                      </td>
                      <td data-label={t('planning.col.setup')}>{setupText(jm)}</td>
                      <td data-label={t('planning.col.ends')}>{endsText(jm, tz)}</td>
                      <td className="admin-table__actions">
                        <RowButton
                          text={t('planning.edit')}
                          label={t('planning.machines.editNamed', { machine: machineName(jm.machine_id) })}
                          onClick={() => {
                            saveStandards.clear();
                            setEditing({ jm, form: standardsFormOf(option, jm, tz), touched: false });
                          }}
                        />
                        <RowButton
                          text={t('planning.machines.remove')}
                          danger
                          label={t('planning.machines.removeNamed', {
                            job: loaded.job_name,
                            machine: machineName(jm.machine_id),
                          })}
                          onClick={() => {
                            remove.clear();
                            setRemoving(jm);
                          }}
                        />
                      </td>
                    </tr>
                  ))}
                </AdminTable>
              )}
            </section>
          </>
        )}
      </LoadedView>
      {state.kind === 'failed' && <p className="admin__hint">{t('planning.notFound')}</p>}
      {removing && job && (
        <ConfirmDialog
          title={t('planning.machines.removeNamed', {
            job: job.job_name,
            machine: machineName(removing.machine_id),
          })}
          body={t('planning.machines.removeBody')}
          confirmLabel={t('planning.machines.remove')}
          onConfirm={() => void confirmRemove()}
          onClose={() => setRemoving(null)}
          busy={remove.busy}
          error={remove.error}
        />
      )}
      {editing && job && (
        <FormDialog
          title={
            editing.jm
              ? t('planning.machines.editTitle', {
                  job: job.job_name,
                  machine: machineName(editing.jm.machine_id),
                })
              : t('planning.machines.assignTitle', { job: job.job_name })
          }
          onClose={() => setEditing(null)}
          onSubmit={() => void submitStandards()}
          onInvalidSubmit={() => setEditing((e) => e && { ...e, touched: true })}
          invalid={Object.keys(standardsErrs).length > 0}
          busy={saveStandards.busy}
          error={saveStandards.error}
        >
          <StandardsFields
            option={option}
            form={editing.form}
            set={(patch) => setEditing((e) => e && { ...e, form: { ...e.form, ...patch }, touched: true })}
            errors={editing.touched ? standardsErrs : {}}
            machines={editing.jm ? null : unassigned}
          />
        </FormDialog>
      )}
    </main>
  );
}
