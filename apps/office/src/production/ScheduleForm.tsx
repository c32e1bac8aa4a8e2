import { Modal, tr, useToasts } from '@takt/ui';
import { useEffect, useState } from 'react';
import { Link } from 'react-router';
import { api } from '../api';
import { FormErrorBox } from '../admin/AdminParts';
import { formError } from '../admin/form';
import type { FormError } from '../admin/form';
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
import { checkScheduleDraft, parseScheduleRun, scheduleDraftOf } from './schedule';
import type { ScheduleDraft, ScheduleRun } from './schedule';
import type { ShiftChoice } from './schedule-hooks';
import { checkStagesDraft, opensWithStages, setupMinutesOf } from './schedule-stages';
import type { ScheduleFormKind, StageChoice } from './schedule-stages';
import { StagesFieldset } from './ScheduleStagesFieldset';

/** What the form edits: a new run (also a duplicate, in the form of its run) or a saved one. */
export type Editing =
  | { mode: 'new' | 'duplicate'; draft: ScheduleDraft; kind: ScheduleFormKind }
  | { mode: 'edit'; run: ScheduleRun };

/**
 * The schedule's two forms (reports-admin §2 "two forms: with shifts, and with setup-stage labor activities"):
 * the production-run editor's fields (runs.ts) and part changeover time, plus either the shifts it runs in and
 * a planned setup time, or its setup as the company's setup stages (schedule-stages.ts; decision 0940). §5: at
 * least one shift unless labor activities; a setup needs a stage when the company uses stages. Save disabled
 * while invalid or saving.
 */
export function ScheduleForm({
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
