import { ApiError, localeZone, Progress, t, tr, useSession, useToasts } from '@takt/ui';
import { useEffect, useId, useMemo, useState } from 'react';
import type { ReactNode } from 'react';
import { Link, useParams } from 'react-router';
import { api } from '../api';
import { FormErrorBox } from '../admin/AdminParts';
import { formError } from '../admin/form';
import type { FormError } from '../admin/form';
import { isAdminUser } from '../admin/screens';
import { useMachineNames } from '../reports/hooks';
import type { Named } from '../reports/hooks';
import { START_IN_SETUP_MODES } from '@takt/domain';
import { checkDraft, draftOf, parseRun, productionRunsHref } from './runs';
import type { ProductionRun, RunDraft, RunField, StartInSetup } from './runs';
import './production.css';

type Load = { kind: 'loading' } | { kind: 'failed'; message: string } | { kind: 'ready'; run: ProductionRun };

/** The page a run's links come back to: the list over the run's own day or time, pointing at it (jsg). */
const DAY = 24 * 3600 * 1000;
const listAround = (run: ProductionRun) =>
  productionRunsHref({ start: run.startdate - DAY, end: (run.enddate ?? run.startdate) + DAY }, run.id);

/**
 * /app/production/production-runs/{id}/edit (reports-admin §2; decision 0850): every field of the job run (§3),
 * start in setup none, planned or unplanned and setup ending still in setup or at a date (§4), ending never
 * or at a date. Saving sends the whole run; the server marks the machine's rollups for recompute.
 */
export function ProductionRunEditPage() {
  const { id = '' } = useParams();
  const [load, setLoad] = useState<Load>({ kind: 'loading' });
  useEffect(() => {
    document.title = `${tr('production.edit.title')} · ${t('app.officeName')}`;
  }, []);
  useEffect(() => {
    const controller = new AbortController();
    setLoad({ kind: 'loading' });
    api
      .request(`/api/productionruns/${encodeURIComponent(id)}`, {
        signal: controller.signal,
        parse: parseRun,
      })
      .then((run) => setLoad({ kind: 'ready', run }))
      .catch((err: unknown) => {
        if (controller.signal.aborted) return;
        setLoad({
          kind: 'failed',
          message:
            err instanceof ApiError && err.status === 404
              ? tr('production.edit.notFound')
              : tr('reports.requestError'),
        });
      });
    return () => controller.abort();
  }, [id]);
  const title =
    load.kind === 'ready'
      ? tr('production.edit.jobTitle', { job: load.run.job_name, machine: load.run.machine_name })
      : tr('production.edit.title');
  return (
    <main
      className="page report"
      aria-labelledby="run-heading"
      aria-busy={load.kind === 'loading' || undefined}
    >
      <p className="report__back">
        <Link to={load.kind === 'ready' ? listAround(load.run) : productionRunsHref(lastMonth())}>
          ← {tr('production.edit.back')}
        </Link>
      </p>
      <div className="page__head">
        <h1 id="run-heading">{title}</h1>
      </div>
      {load.kind === 'loading' && <Progress />}
      {load.kind === 'failed' && (
        <p className="notice notice--error" role="alert">
          {load.message}
        </p>
      )}
      {load.kind === 'ready' && (
        <RunForm key={load.run.id} run={load.run} onSaved={(run) => setLoad({ kind: 'ready', run })} />
      )}
    </main>
  );
}

/** The list's default window when no run is known: the last 30 days (reports-admin §9). */
const lastMonth = () => {
  const end = Date.now();
  return { start: end - 30 * DAY, end };
};

/**
 * GET /api/jobs (admins' company-wide search): the jobs a run may be of; the run's own job always. The
 * schedule form (SchedulePage) uses it too.
 */
export function useJobs(run: Pick<ProductionRun, 'job_id' | 'job_name'>, enabled: boolean): Named[] {
  const [jobs, setJobs] = useState<Named[]>([]);
  useEffect(() => {
    if (!enabled) return;
    const controller = new AbortController();
    api
      .request<{ rows: Array<{ id: string; job_name: string }> }>('/api/jobs', {
        query: { limit: 100, offset: 0, filter: '', includeHidden: true },
        signal: controller.signal,
      })
      .then((page) => setJobs(page.rows.map((j) => ({ id: j.id, name: j.job_name }))))
      .catch(() => {
        // The run's own job stays choosable without the list.
      });
    return () => controller.abort();
  }, [enabled]);
  return useMemo(
    () => (jobs.some((j) => j.id === run.job_id) ? jobs : [{ id: run.job_id, name: run.job_name }, ...jobs]),
    [jobs, run.job_id, run.job_name],
  );
}

function RunForm({ run, onSaved }: { run: ProductionRun; onSaved: (run: ProductionRun) => void }) {
  const { me } = useSession();
  const { timeZone } = localeZone(me);
  const admin = isAdminUser(me);
  const toasts = useToasts();
  const [draft, setDraft] = useState<RunDraft>(() => draftOf(run, timeZone));
  const [saving, setSaving] = useState(false);
  const [error, setError] = useState<FormError | null>(null);
  const jobs = useJobs(run, admin);
  const machines = useMachineNames().machines;
  const machineChoices = machines.some((m) => m.id === run.machine_id)
    ? machines
    : [{ id: run.machine_id, name: run.machine_name }, ...machines];
  const { errors, body } = checkDraft(draft, timeZone);
  const set = <K extends keyof RunDraft>(k: K, v: RunDraft[K]) => setDraft((d) => ({ ...d, [k]: v }));
  const save = async () => {
    if (!body) return;
    setSaving(true);
    setError(null);
    try {
      const saved = await api.request(`/api/productionruns/${encodeURIComponent(run.id)}`, {
        method: 'PUT',
        body,
        parse: parseRun,
      });
      toasts.show({ message: tr('production.edit.saved'), tone: 'success' });
      onSaved(saved);
    } catch (err) {
      setError(formError(err, tr('production.edit.failed')));
    } finally {
      setSaving(false);
    }
  };
  return (
    <form
      className="run-form"
      noValidate
      onSubmit={(e) => {
        e.preventDefault();
        void save();
      }}
    >
      {!admin && (
        <p className="notice" role="status">
          {tr('production.edit.notPermitted')}
        </p>
      )}
      <FormErrorBox error={error} />
      <WhenFieldset
        draft={draft}
        errors={errors}
        set={set}
        disabled={!admin || saving}
        jobs={jobs}
        machines={machineChoices}
        timeZone={timeZone}
      />
      <SetupFieldset draft={draft} errors={errors} set={set} disabled={!admin || saving} />
      <StandardsFieldset draft={draft} errors={errors} set={set} disabled={!admin || saving} />
      {admin && (
        <div className="run-form__actions">
          {/* reports-admin §5: submit buttons disabled while invalid or saving. */}
          <button type="submit" className="button button--primary" disabled={!body || saving}>
            {saving ? tr('production.edit.saving') : tr('production.edit.save')}
          </button>
        </div>
      )}
    </form>
  );
}

type FieldProps = { id: string; 'aria-invalid'?: true; 'aria-describedby'?: string };

/** A labelled control with its hint and error (shared with the schedule form). */
export function Field({
  label,
  error,
  hint,
  children,
}: {
  label: string;
  error?: string | undefined;
  hint?: string;
  children: (p: FieldProps) => ReactNode;
}) {
  const id = useId();
  const described = [error ? `${id}-error` : null, hint ? `${id}-hint` : null].filter(Boolean).join(' ');
  return (
    <div className="run-form__field">
      <label htmlFor={id}>{label}</label>
      {children({
        id,
        ...(error ? { 'aria-invalid': true as const } : {}),
        ...(described ? { 'aria-describedby': described } : {}),
      })}
      {hint && (
        <p id={`${id}-hint`} className="run-form__hint">
          {hint}
        </p>
      )}
      {error && (
        <p id={`${id}-error`} className="run-form__error">
          {error}
        </p>
      )}
    </div>
  );
}

export function NumberField({
  label,
  value,
  error,
  hint,
  onChange,
}: {
  label: string;
  value: string;
  error?: string | undefined;
  hint?: string;
  onChange: (v: string) => void;
}) {
  return (
    <Field label={label} error={error} {...(hint ? { hint } : {})}>
      {(p) => <input {...p} inputMode="decimal" value={value} onChange={(e) => onChange(e.target.value)} />}
    </Field>
  );
}

export function Choice<V extends string>({
  legend,
  value,
  options,
  onChange,
}: {
  legend: string;
  value: V;
  options: ReadonlyArray<readonly [V, string]>;
  onChange: (v: V) => void;
}) {
  const name = useId();
  return (
    <fieldset className="run-form__choice">
      <legend>{legend}</legend>
      {options.map(([v, label]) => (
        <label key={v}>
          <input type="radio" name={name} value={v} checked={value === v} onChange={() => onChange(v)} />
          {label}
        </label>
      ))}
    </fieldset>
  );
}

/** What the run forms' shared fieldsets read and write: the editor's draft, its errors and its setter. */
interface RunFieldsetProps {
  draft: RunDraft;
  errors: Partial<Record<RunField, string>>;
  set: <K extends keyof RunDraft>(k: K, v: RunDraft[K]) => void;
  disabled: boolean;
  /** The schedule form's own fields in the same fieldset (planned setup time, changeover time). */
  children?: ReactNode;
}

/** When: job, machine, start and end (reports-admin §4 "Ends: never or date"), in the company's zone. */
export function WhenFieldset({
  draft,
  errors,
  set,
  disabled,
  jobs,
  machines,
  timeZone,
}: RunFieldsetProps & { jobs: readonly Named[]; machines: readonly Named[]; timeZone: string }) {
  return (
    <fieldset disabled={disabled}>
      <legend>{tr('production.edit.when')}</legend>
      <Field label={tr('production.field.job')}>
        {(p) => (
          <select {...p} value={draft.jobId} onChange={(e) => set('jobId', e.target.value)}>
            {/* A new run has no job until the list is in. */}
            {draft.jobId === '' && <option value="" />}
            {jobs.map((j) => (
              <option key={j.id} value={j.id}>
                {j.name}
              </option>
            ))}
          </select>
        )}
      </Field>
      <Field label={tr('production.field.machine')}>
        {(p) => (
          <select {...p} value={draft.machineId} onChange={(e) => set('machineId', e.target.value)}>
            {machines.map((m) => (
              <option key={m.id} value={m.id}>
                {m.name}
              </option>
            ))}
          </select>
        )}
      </Field>
      <Field label={tr('production.field.start')} error={errors.start}>
        {(p) => (
          <input
            {...p}
            type="datetime-local"
            value={draft.start}
            onChange={(e) => set('start', e.target.value)}
          />
        )}
      </Field>
      <Choice
        legend={tr('production.field.ends')}
        value={draft.ends}
        options={[
          ['never', tr('production.field.endsNever')],
          ['date', tr('production.field.endsDate')],
        ]}
        onChange={(v) => set('ends', v)}
      />
      {draft.ends === 'date' && (
        <Field label={tr('production.field.end')} error={errors.end}>
          {(p) => (
            <input
              {...p}
              type="datetime-local"
              value={draft.end}
              onChange={(e) => set('end', e.target.value)}
            />
          )}
        </Field>
      )}
      <p className="run-form__hint">{tr('production.edit.timezone', { zone: timeZone })}</p>
    </fieldset>
  );
}

/**
 * Setup (reports-admin §4 start-in-setup none/planned/unplanned; setup ends still in setup or a date). The form
 * with setup stages leaves the setup end out (`askSetupEnd` false): the stages give it.
 */
export function SetupFieldset({
  draft,
  errors,
  set,
  disabled,
  children,
  askSetupEnd = true,
}: RunFieldsetProps & { askSetupEnd?: boolean }) {
  const inSetup = draft.startInSetup !== 'none' && askSetupEnd;
  return (
    <fieldset disabled={disabled}>
      <legend>{tr('production.edit.setup')}</legend>
      <Choice<StartInSetup>
        legend={tr('production.field.startInSetup')}
        value={draft.startInSetup}
        options={START_IN_SETUP_MODES.map((m) => [m, tr(`production.setup.${m}`)])}
        onChange={(v) => set('startInSetup', v)}
      />
      {children}
      {inSetup && (
        <Choice
          legend={tr('production.field.setupEnds')}
          value={draft.setupEnds}
          options={[
            ['still', tr('production.field.setupStill')],
            ['date', tr('production.field.setupDate')],
          ]}
          onChange={(v) => set('setupEnds', v)}
        />
      )}
      {inSetup && draft.setupEnds === 'date' && (
        <Field label={tr('production.field.setupEnd')} error={errors.setupEnd}>
          {(p) => (
            <input
              {...p}
              type="datetime-local"
              value={draft.setupEnd}
              onChange={(e) => set('setupEnd', e.target.value)}
            />
          )}
        </Field>
      )}
    </fieldset>
  );
}

/** Standards (reports-admin §3 cycletime, idealcycletime, partcount_multiplier, actualParts). */
export function StandardsFieldset({ draft, errors, set, disabled, children }: RunFieldsetProps) {
  return (
    <fieldset disabled={disabled}>
      <legend>{tr('production.edit.standards')}</legend>
      <NumberField
        label={tr('production.field.cycle')}
        value={draft.cycleSeconds}
        error={errors.cycle}
        onChange={(v) => set('cycleSeconds', v)}
      />
      <NumberField
        label={tr('production.field.ideal')}
        value={draft.idealSeconds}
        error={errors.ideal}
        hint={tr('production.field.idealHint')}
        onChange={(v) => set('idealSeconds', v)}
      />
      <NumberField
        label={tr('production.field.multiplier')}
        value={draft.multiplier}
        error={errors.multiplier}
        onChange={(v) => set('multiplier', v)}
      />
      <NumberField
        label={tr('production.field.actualParts')}
        value={draft.actualParts}
        error={errors.actualParts}
        onChange={(v) => set('actualParts', v)}
      />
      {children}
    </fieldset>
  );
}
