import { localeZone, Modal, Progress, t, tr, useSession, useToasts } from '@takt/ui';
import { Fragment, useCallback, useEffect, useMemo, useState } from 'react';
import { Link, useSearchParams } from 'react-router';
import { api } from '../api';
import { FormErrorBox } from '../admin/AdminParts';
import { formError } from '../admin/form';
import type { FormError } from '../admin/form';
import { ADMIN_PATHS, isAdminUser } from '../admin/screens';
import { useCompanyFlags, useMachineNames } from '../reports/hooks';
import { productionRunEditHref } from './runs';
import type { RunDraft } from './runs';
import {
  Choice,
  NumberField,
  SetupFieldset,
  StandardsFieldset,
  useJobs,
  WhenFieldset,
} from './ProductionRunEditPage';
import {
  barLabelsOf,
  barOf,
  checkScheduleDraft,
  duplicateDraft,
  hourAt,
  lanesOf,
  newDraft,
  parseScheduleRun,
  parseScheduleRuns,
  scheduleDraftOf,
  scheduleHref,
  setupShareOf,
  shiftDay,
  windowOf,
  zoomOf,
  ZOOM_CHOICES,
} from './schedule';
import type { ScheduleDraft, ScheduleRun } from './schedule';
import { checkStagesDraft, opensWithStages, setupMinutesOf, stageTimes } from './schedule-stages';
import type { ScheduleFormKind, StageChoice } from './schedule-stages';
import { useWallTime } from './time';
import './production.css';
import './schedule.css';

type Load = { kind: 'loading' } | { kind: 'failed' } | { kind: 'ready'; runs: ScheduleRun[] };

/** What the form edits: a new run (also a duplicate, in the form of its run) or a saved one. */
type Editing =
  | { mode: 'new' | 'duplicate'; draft: ScheduleDraft; kind: ScheduleFormKind }
  | { mode: 'edit'; run: ScheduleRun };

interface ShiftChoice {
  id: string;
  name: string;
  terminated: boolean;
}

/** GET /api/shifts: the company's shifts, for "runs in these shifts" (reports-admin §3 Job schedule group). */
function useShifts(): ShiftChoice[] {
  const [shifts, setShifts] = useState<ShiftChoice[]>([]);
  useEffect(() => {
    const controller = new AbortController();
    api
      .request<ShiftChoice[]>('/api/shifts', { signal: controller.signal })
      .then((list) => setShifts(list.map((s) => ({ id: s.id, name: s.name, terminated: s.terminated }))))
      .catch(() => {
        // The form says there are no shifts; saving is refused by the server's rule as well.
      });
    return () => controller.abort();
  }, []);
  return shifts;
}

/** GET /api/setup/stages: the company's active setup stages in stage order, for the second form (decision 0940). */
function useSetupStages(): StageChoice[] {
  const [stages, setStages] = useState<StageChoice[]>([]);
  useEffect(() => {
    const controller = new AbortController();
    api
      .request<StageChoice[]>('/api/setup/stages', { signal: controller.signal })
      .then((list) =>
        setStages(
          list.map((s) => ({
            id: s.id,
            name: s.name,
            stageOrder: s.stageOrder,
            setupPercentage: s.setupPercentage,
          })),
        ),
      )
      .catch(() => {
        // The form says no stages are configured; saving is refused by the server's rule as well.
      });
    return () => controller.abort();
  }, []);
  return stages;
}

/**
 * /app/production/schedule?start=YYYY-MM-DD&days=N (reports-admin §2 "Schedule (job runs) timeline with zoom,
 * create, edit, duplicate, delete"; §9 zoom 1 to 31 days; decision 0910): one lane per machine with its job runs
 * as bars over the window. Admins create a run from a lane or the New button, and edit, duplicate or delete one
 * from its bar; each save marks the machine's figures for recompute (the OEE report follows).
 */
export function SchedulePage() {
  const { me } = useSession();
  const { timeZone } = localeZone(me);
  const admin = isAdminUser(me);
  const [params, setParams] = useSearchParams();
  const days = zoomOf(params.get('days'));
  const [now] = useState(() => Date.now());
  const win = useMemo(
    () => windowOf(timeZone, params.get('start'), days, now),
    [timeZone, params, days, now],
  );
  const machines = useMachineNames().machines;
  const shifts = useShifts();
  const stages = useSetupStages();
  const stagesOn = useCompanyFlags()?.enable_setup_stages ?? false;
  const wall = useWallTime();
  const [load, setLoad] = useState<Load>({ kind: 'loading' });
  const [editing, setEditing] = useState<Editing | null>(null);
  const [version, setVersion] = useState(0);
  useEffect(() => {
    document.title = `${tr('schedule.title')} · ${t('app.officeName')}`;
  }, []);
  useEffect(() => {
    const controller = new AbortController();
    setLoad({ kind: 'loading' });
    api
      .request('/api/productionruns', {
        query: { start: win.start, end: win.end },
        signal: controller.signal,
        parse: parseScheduleRuns,
      })
      .then((runs) => setLoad({ kind: 'ready', runs }))
      .catch(() => {
        if (!controller.signal.aborted) setLoad({ kind: 'failed' });
      });
    return () => controller.abort();
  }, [win.start, win.end, version]);

  const go = (day: string, d = days) => setParams(new URLSearchParams(scheduleHref(day, d).split('?')[1]));
  const lanes = lanesOf(machines, load.kind === 'ready' ? load.runs : []);
  const activeShifts = shifts.filter((s) => !s.terminated).map((s) => s.id);
  const startNew = (machineId: string, start: number) =>
    setEditing({
      mode: 'new',
      draft: newDraft(machineId, '', start, timeZone, activeShifts),
      kind: 'shifts',
    });
  const saved = useCallback(() => {
    setEditing(null);
    setVersion((v) => v + 1);
  }, []);
  const dayTicks = Array.from({ length: days }, (_, k) => {
    const day = shiftDay(win.day, k);
    return { day, left: (k / days) * 100 };
  });
  const dayLabel = (day: string) =>
    new Intl.DateTimeFormat(localeZone(me).locale, {
      weekday: days > 14 ? undefined : 'short',
      month: 'short',
      day: 'numeric',
      timeZone: 'UTC',
    }).format(Date.parse(`${day}T12:00:00Z`));
  const labelEvery = days > 14 ? 7 : 1;

  return (
    <main
      className="page report schedule"
      aria-labelledby="schedule-heading"
      aria-busy={load.kind === 'loading' || undefined}
    >
      <div className="page__head">
        <h1 id="schedule-heading">{tr('schedule.title')}</h1>
      </div>
      <div className="schedule__tools" role="group" aria-label={tr('schedule.title')}>
        <label className="schedule__tool">
          {tr('schedule.zoom')}
          <select value={days} onChange={(e) => go(win.day, Number(e.target.value))}>
            {[...new Set([...ZOOM_CHOICES, days])]
              .sort((a, b) => a - b)
              .map((d) => (
                <option key={d} value={d}>
                  {d === 1 ? tr('schedule.zoomDay') : tr('schedule.zoomDays', { days: d })}
                </option>
              ))}
          </select>
        </label>
        <label className="schedule__tool">
          {tr('schedule.from')}
          <input type="date" value={win.day} onChange={(e) => e.target.value && go(e.target.value)} />
        </label>
        <div className="schedule__nav">
          <button type="button" className="button" onClick={() => go(shiftDay(win.day, -days))}>
            ← {tr('schedule.previous')}
          </button>
          <button
            type="button"
            className="button"
            onClick={() => go(windowOf(timeZone, null, days, Date.now()).day)}
          >
            {tr('schedule.today')}
          </button>
          <button type="button" className="button" onClick={() => go(shiftDay(win.day, days))}>
            {tr('schedule.next')} →
          </button>
        </div>
        {admin && (
          <button
            type="button"
            className="button button--primary schedule__new"
            disabled={lanes.length === 0}
            onClick={() => startNew(lanes[0]?.id ?? '', hourAt(win, 0) + 6 * 3600 * 1000)}
          >
            {tr('schedule.new')}
          </button>
        )}
      </div>
      {!admin && (
        <p className="notice" role="status">
          {tr('schedule.form.notPermitted')}
        </p>
      )}
      {load.kind === 'loading' && <Progress />}
      {load.kind === 'failed' && (
        <p className="notice notice--error" role="alert">
          {tr('reports.requestError')}
        </p>
      )}
      {load.kind === 'ready' && lanes.length === 0 && <p className="notice">{tr('schedule.noMachines')}</p>}
      {lanes.length > 0 && (
        <div className="schedule__scroll">
          <section className="schedule__grid" aria-label={tr('schedule.lanes')}>
            <div className="schedule__lane schedule__lane--head" aria-hidden="true">
              <div className="schedule__name" />
              <div className="schedule__track schedule__track--head">
                {dayTicks.map((d, k) => (
                  <span key={d.day} className="schedule__tick" style={{ left: `${d.left}%` }}>
                    {k % labelEvery === 0 ? dayLabel(d.day) : ''}
                  </span>
                ))}
              </div>
            </div>
            <ul className="schedule__lanes">
              {lanes.map((lane) => {
                const bars = lane.runs.map((run) => barOf(run, win));
                const { labels, rows } = barLabelsOf(bars);
                return (
                  <li
                    key={lane.id}
                    className={`schedule__lane${rows === 2 ? ' schedule__lane--stagger' : ''}`}
                    aria-label={lane.name}
                  >
                    <div className="schedule__name">{lane.name}</div>
                    <div
                      className="schedule__track"
                      onClick={(e) => {
                        if (!admin || e.target !== e.currentTarget) return;
                        const box = e.currentTarget.getBoundingClientRect();
                        startNew(lane.id, hourAt(win, (e.clientX - box.left) / box.width));
                      }}
                    >
                      {dayTicks.map((d) => (
                        <span
                          key={d.day}
                          className="schedule__gridline"
                          style={{ left: `${d.left}%` }}
                          aria-hidden="true"
                        />
                      ))}
                      {lane.runs.map((run, k) => {
                        const bar = bars[k];
                        const place = labels[k];
                        if (!bar || !place) return null;
                        const times = {
                          job: run.job_name,
                          from: wall(run.startdate),
                          to: run.enddate === null ? tr('schedule.never') : wall(run.enddate),
                        };
                        const label = tr('schedule.bar', times);
                        // The lane names the machine; the tooltip names it too, for a lane scrolled aside.
                        const title = tr('scheduleMore.bar.title', { ...times, machine: run.machine_name });
                        const open = () => setEditing({ mode: 'edit', run });
                        return (
                          <Fragment key={run.id}>
                            <button
                              type="button"
                              className={`schedule__bar${run.startInSetup !== 'none' ? ' schedule__bar--setup' : ''}${run.enddate === null ? ' schedule__bar--open' : ''}`}
                              style={{
                                left: `${bar.left}%`,
                                width: `${bar.width}%`,
                                backgroundSize: `${setupShareOf(run, win)}% 100%`,
                              }}
                              title={title}
                              aria-label={label}
                              onClick={open}
                            />
                            {/* The job name under the bar, readable at any zoom; the bar is the control. */}
                            <span
                              className={`schedule__label schedule__label--row${place.row}`}
                              style={{ left: `${place.left}%`, maxWidth: `${place.maxWidth}%` }}
                              title={title}
                              aria-hidden="true"
                              onClick={open}
                            >
                              {run.job_name}
                            </span>
                          </Fragment>
                        );
                      })}
                    </div>
                  </li>
                );
              })}
            </ul>
          </section>
        </div>
      )}
      {load.kind === 'ready' && lanes.length > 0 && load.runs.length === 0 && (
        <p className="schedule__empty">{tr('schedule.noRuns')}</p>
      )}
      {editing && (
        <ScheduleForm
          key={editing.mode === 'edit' ? editing.run.id : `${editing.mode}-${editing.draft.start}`}
          editing={editing}
          admin={admin}
          timeZone={timeZone}
          shifts={shifts}
          stages={stages}
          stagesOn={stagesOn}
          machines={machines}
          onClose={() => setEditing(null)}
          onSaved={saved}
          onDuplicate={(run) =>
            setEditing({
              mode: 'duplicate',
              draft: {
                ...duplicateDraft(run, timeZone, Date.now()),
                ...(opensWithStages(run) ? { setupMinutes: setupMinutesOf(run) } : {}),
              },
              kind: opensWithStages(run) ? 'stages' : 'shifts',
            })
          }
        />
      )}
    </main>
  );
}

/**
 * The schedule's two forms (reports-admin §2 "two forms: with shifts, and with setup-stage labor activities"):
 * the production-run editor's fields (runs.ts) and part changeover time, plus either the shifts it runs in and
 * a planned setup time, or its setup as the company's setup stages (schedule-stages.ts; decision 0940). §5: at
 * least one shift unless labor activities; a setup needs a stage when the company uses stages. Save disabled
 * while invalid or saving.
 */
function ScheduleForm({
  editing,
  admin,
  timeZone,
  shifts,
  stages,
  stagesOn,
  machines,
  onClose,
  onSaved,
  onDuplicate,
}: {
  editing: Editing;
  admin: boolean;
  timeZone: string;
  shifts: ShiftChoice[];
  stages: readonly StageChoice[];
  stagesOn: boolean;
  machines: ReadonlyArray<{ id: string; name: string }>;
  onClose: () => void;
  onSaved: () => void;
  onDuplicate: (run: ScheduleRun) => void;
}) {
  const toasts = useToasts();
  const run = editing.mode === 'edit' ? editing.run : null;
  const [kind, setKind] = useState<ScheduleFormKind>(() =>
    editing.mode === 'edit' ? (opensWithStages(editing.run) ? 'stages' : 'shifts') : editing.kind,
  );
  const [draft, setDraft] = useState<ScheduleDraft>(() =>
    editing.mode === 'edit'
      ? {
          ...scheduleDraftOf(editing.run, timeZone),
          ...(opensWithStages(editing.run) ? { setupMinutes: setupMinutesOf(editing.run) } : {}),
        }
      : editing.draft,
  );
  const [busy, setBusy] = useState(false);
  const [confirming, setConfirming] = useState(false);
  const [error, setError] = useState<FormError | null>(null);
  const jobs = useJobs(run ?? { job_id: draft.jobId, job_name: '' }, admin);
  const jobChoices = jobs.filter((j) => j.id !== '');
  // A new run takes the first job once the list is in.
  useEffect(() => {
    if (draft.jobId === '' && jobChoices[0]) setDraft((d) => ({ ...d, jobId: jobChoices[0]!.id }));
  }, [draft.jobId, jobChoices]);
  const savedLabor = run?.laborActivities ?? [];
  const withShifts = checkScheduleDraft(
    draft,
    timeZone,
    savedLabor.length > 0,
    stagesOn && !savedLabor.some((a) => a.setupStageId !== null),
  );
  const withStages = checkStagesDraft(draft, timeZone, stages);
  const { errors, body } = kind === 'stages' ? withStages : withShifts;
  // Offered where stages mean something: the company uses them, or the run is planned with them already.
  const offerStages = stagesOn || kind === 'stages';
  const set = <K extends keyof ScheduleDraft>(k: K, v: ScheduleDraft[K]) =>
    setDraft((d) => ({ ...d, [k]: v }));
  // The fieldsets the editor shares write the editor's fields only.
  const setRun = <K extends keyof RunDraft>(k: K, v: RunDraft[K]) => setDraft((d) => ({ ...d, [k]: v }));
  const shiftChoices = shifts.filter((s) => !s.terminated || draft.shifts.includes(s.id));
  const title =
    editing.mode === 'edit'
      ? tr('schedule.form.edit')
      : editing.mode === 'duplicate'
        ? tr('schedule.form.duplicate')
        : tr('schedule.form.new');

  const save = async () => {
    if (!body || draft.jobId === '') return;
    setBusy(true);
    setError(null);
    try {
      await api.request(run ? `/api/productionruns/${encodeURIComponent(run.id)}` : '/api/productionruns', {
        method: run ? 'PUT' : 'POST',
        body,
        parse: parseScheduleRun,
      });
      toasts.show({ message: tr('schedule.form.saved'), tone: 'success' });
      onSaved();
    } catch (err) {
      setError(formError(err, tr('schedule.form.failed')));
      setBusy(false);
    }
  };
  const remove = async () => {
    if (!run) return;
    setBusy(true);
    setError(null);
    try {
      await api.request(`/api/productionruns/${encodeURIComponent(run.id)}`, { method: 'DELETE' });
      toasts.show({ message: tr('schedule.form.deleted'), tone: 'success' });
      onSaved();
    } catch (err) {
      setError(formError(err, tr('schedule.form.deleteFailed')));
      setBusy(false);
      setConfirming(false);
    }
  };

  const footer = admin ? (
    <div className="schedule-form__actions">
      {confirming ? (
        <>
          <span role="alert">{tr('schedule.form.confirmDelete')}</span>
          <button
            type="button"
            className="button button--danger"
            disabled={busy}
            onClick={() => void remove()}
          >
            {tr('schedule.form.confirmYes')}
          </button>
          <button type="button" className="button" disabled={busy} onClick={() => setConfirming(false)}>
            {tr('schedule.form.cancel')}
          </button>
        </>
      ) : (
        <>
          {run && (
            <>
              <button
                type="button"
                className="button button--danger"
                disabled={busy}
                onClick={() => setConfirming(true)}
              >
                {tr('schedule.form.delete')}
              </button>
              <button type="button" className="button" disabled={busy} onClick={() => onDuplicate(run)}>
                {tr('schedule.form.duplicateAction')}
              </button>
            </>
          )}
          <button type="button" className="button" disabled={busy} onClick={onClose}>
            {tr('schedule.form.cancel')}
          </button>
          {/* reports-admin §5: submit buttons disabled while invalid or saving. */}
          <button
            type="submit"
            form="schedule-form"
            className="button button--primary"
            disabled={!body || draft.jobId === '' || busy}
          >
            {busy ? tr('schedule.form.saving') : tr('schedule.form.save')}
          </button>
        </>
      )}
    </div>
  ) : undefined;

  return (
    <Modal title={title} onClose={onClose} busy={busy} footer={footer} className="schedule-form">
      <form
        id="schedule-form"
        className="run-form"
        noValidate
        onSubmit={(e) => {
          e.preventDefault();
          void save();
        }}
      >
        <FormErrorBox error={error} />
        {run && (
          <p className="run-form__hint">
            <Link to={productionRunEditHref(run.id)}>
              {tr('production.runs.editRun', { job: run.job_name, machine: run.machine_name })}
            </Link>
          </p>
        )}
        {offerStages && (
          <fieldset disabled={!admin || busy} className="schedule-form__kind">
            <Choice<ScheduleFormKind>
              legend={tr('scheduleMore.form.plan')}
              value={kind}
              options={[
                ['shifts', tr('scheduleMore.form.planShifts')],
                ['stages', tr('scheduleMore.form.planStages')],
              ]}
              onChange={setKind}
            />
          </fieldset>
        )}
        <WhenFieldset
          draft={draft}
          errors={errors}
          set={setRun}
          disabled={!admin || busy}
          jobs={jobChoices}
          machines={machines}
          timeZone={timeZone}
        />
        {kind === 'stages' ? (
          <StagesFieldset
            draft={draft}
            errors={errors}
            plan={withStages.plan}
            stages={stages}
            stagesOn={stagesOn}
            timeZone={timeZone}
            disabled={!admin || busy}
            setRun={setRun}
            setMinutes={(v) => set('setupMinutes', v)}
          />
        ) : (
          <>
            <fieldset
              disabled={!admin || busy}
              aria-describedby={errors.shifts ? 'schedule-shifts-error' : undefined}
            >
              <legend>{tr('schedule.form.shifts')}</legend>
              {shiftChoices.length === 0 && <p className="run-form__hint">{tr('schedule.form.noShifts')}</p>}
              {shiftChoices.map((s) => (
                <label key={s.id} className="schedule-form__shift">
                  <input
                    type="checkbox"
                    checked={draft.shifts.includes(s.id)}
                    onChange={(e) =>
                      set(
                        'shifts',
                        e.target.checked ? [...draft.shifts, s.id] : draft.shifts.filter((x) => x !== s.id),
                      )
                    }
                  />
                  {s.name}
                </label>
              ))}
              {errors.shifts && (
                <p id="schedule-shifts-error" className="run-form__error">
                  {errors.shifts}
                </p>
              )}
            </fieldset>
            <SetupFieldset draft={draft} errors={errors} set={setRun} disabled={!admin || busy}>
              {draft.startInSetup === 'planned' && (
                <NumberField
                  label={tr('schedule.form.setupTime')}
                  value={draft.setupMinutes}
                  error={errors.setupTime}
                  onChange={(v) => set('setupMinutes', v)}
                />
              )}
              {errors.stages && <p className="run-form__error">{errors.stages}</p>}
            </SetupFieldset>
          </>
        )}
        <StandardsFieldset draft={draft} errors={errors} set={setRun} disabled={!admin || busy}>
          <NumberField
            label={tr('schedule.form.changeover')}
            value={draft.changeoverSeconds}
            error={errors.changeover}
            onChange={(v) => set('changeoverSeconds', v)}
          />
        </StandardsFieldset>
      </form>
    </Modal>
  );
}

/**
 * The second form's setup (decision 0940): start in setup none, planned or unplanned, the setup time, and the
 * plan it makes: each active stage in stage order with its share, minutes and times, then production.
 */
function StagesFieldset({
  draft,
  errors,
  plan,
  stages,
  stagesOn,
  timeZone,
  disabled,
  setRun,
  setMinutes,
}: {
  draft: ScheduleDraft;
  errors: ReturnType<typeof checkStagesDraft>['errors'];
  plan: ReturnType<typeof checkStagesDraft>['plan'];
  stages: readonly StageChoice[];
  stagesOn: boolean;
  timeZone: string;
  disabled: boolean;
  setRun: <K extends keyof RunDraft>(k: K, v: RunDraft[K]) => void;
  setMinutes: (v: string) => void;
}) {
  const inSetup = draft.startInSetup !== 'none';
  const last = plan.at(-1);
  return (
    <SetupFieldset draft={draft} errors={errors} set={setRun} disabled={disabled} askSetupEnd={false}>
      {inSetup && (
        <NumberField
          label={tr('scheduleMore.form.setupTotal')}
          value={draft.setupMinutes}
          error={errors.setupTime}
          hint={tr('scheduleMore.form.stagesHint')}
          onChange={setMinutes}
        />
      )}
      {inSetup && !stagesOn && <p className="run-form__hint">{tr('scheduleMore.form.stagesNotOn')}</p>}
      {inSetup && stages.length === 0 && (
        <p className="run-form__hint">
          {tr('scheduleMore.form.noStages')}{' '}
          <Link to={ADMIN_PATHS.setupStages}>{tr('scheduleMore.form.stagesLink')}</Link>
        </p>
      )}
      {inSetup && plan.length > 0 && (
        <table className="schedule-form__stages">
          <caption>{tr('scheduleMore.form.stages')}</caption>
          <thead>
            <tr>
              <th scope="col">{tr('scheduleMore.form.stage')}</th>
              <th scope="col" className="schedule-form__share">
                {tr('scheduleMore.form.share')}
              </th>
              <th scope="col">{tr('scheduleMore.form.minutes')}</th>
              <th scope="col">{tr('scheduleMore.form.time')}</th>
            </tr>
          </thead>
          <tbody>
            {plan.map((p) => {
              const times = stageTimes(p, timeZone);
              // A no-break space keeps "25 %" on one line in a narrow column.
              const share = `${p.stage.setupPercentage}\u00a0%`;
              return (
                <tr key={p.stage.id}>
                  <th scope="row">
                    {p.stage.name}
                    {/* A phone has no room for the Share column: the share follows the name. */}
                    <span className="schedule-form__share-inline">{share}</span>
                  </th>
                  <td className="schedule-form__share">{share}</td>
                  <td>{times.minutes}</td>
                  <td>
                    {times.from}–{times.to}
                  </td>
                </tr>
              );
            })}
            {last && (
              <tr>
                <th scope="row">{tr('scheduleMore.form.production')}</th>
                <td className="schedule-form__share" />
                <td />
                <td>{tr('scheduleMore.form.productionFrom', { from: stageTimes(last, timeZone).to })}</td>
              </tr>
            )}
          </tbody>
        </table>
      )}
      {errors.stages && <p className="run-form__error">{errors.stages}</p>}
    </SetupFieldset>
  );
}
