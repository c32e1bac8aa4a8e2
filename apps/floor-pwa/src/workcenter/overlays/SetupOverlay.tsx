import { formatPartTime } from '@takt/domain';
import { FormModal } from '../../components/FormModal';
import { ApiError, CountInput, t, useServerNow } from '@takt/ui';
import { useActorRef, useSelector } from '@xstate/react';
import { useEffect, useId, useMemo } from 'react';
import { fromPromise } from 'xstate';
import type { Snapshot } from 'xstate';
import { NoteField } from '../NoteField';
import { ErrorNotice } from '../../components/ErrorNotice';
import { PendingMark } from '../../components/PendingMark';
import { useSubmit } from '../../lib/submit';
import { ENDPOINTS } from '../../endpoints/endpoints';
import { KV, kvGet, kvPut } from '../../offline/db';
import { useFloorSync } from '../../offline/SyncProvider';
import { queue } from '../../offline/queue';
import { stagesOf, stageTransitionPayload, startProductionErrors, startProductionPayload } from '../forms';
import { setupMachine } from '../machines/setupMachine';
import { OverlayForm } from './OverlayForm';
import type { OverlayProps } from './types';

const draftKey = (machineId: string, run: string) => `takt.setupDraft:${machineId}:${run}`;

function readSnapshot(key: string): Snapshot<unknown> | undefined {
  try {
    const raw = localStorage.getItem(key);
    return raw ? (JSON.parse(raw) as Snapshot<unknown>) : undefined;
  } catch {
    return undefined;
  }
}

/** Setup (live-operations §2, §4): timer against the expected duration, Change Stage, Start Production. */
export default function SetupOverlay({ machineId, data, onClose }: OverlayProps) {
  const sync = useFloorSync();
  const id = useId();
  const job = data.view.job;
  const stages = useMemo(
    () => stagesOf(data.setupStages).filter((s) => s.archivedAt == null),
    [data.setupStages],
  );
  const runKey = job?.runId ?? job?.runRef ?? 'none';
  const storageKey = draftKey(machineId, runKey);

  const machine = useMemo(
    () =>
      setupMachine.provide({
        actors: {
          changeStage: fromPromise(async ({ input }) => {
            if (!job) throw new Error('no job');
            const stage = stages.find((s) => s.id === input.stageId);
            await queue(sync, machineId, 'setup_stage', stageTransitionPayload(job, input.stageId), {
              stageName: stage?.name ?? null,
            });
          }),
          startProduction: fromPromise(async ({ input }) => {
            if (!job) throw new Error('no job');
            await queue(
              sync,
              machineId,
              'start_production',
              startProductionPayload(machineId, job, input.draft, input.setupParts),
              {
                jobName: job.jobName,
              },
            );
          }),
        },
      }),
    [sync, machineId, job, stages],
  );
  // A reloaded tablet resumes the half-filled Start Production form (STYLE.md: getPersistedSnapshot).
  const actor = useActorRef(machine, { snapshot: readSnapshot(storageKey) });
  const state = useSelector(actor, (s) => s);
  // §5: submits are debounced 200 ms; the machine ignores START_PRODUCTION while saving.
  const startProduction = useSubmit(async () => void actor.send({ type: 'START_PRODUCTION' }));
  const { draft, setupParts, error } = state.context;

  useEffect(() => {
    const sub = actor.subscribe(() => {
      try {
        if (actor.getSnapshot().status === 'done') localStorage.removeItem(storageKey);
        else localStorage.setItem(storageKey, JSON.stringify(actor.getPersistedSnapshot()));
      } catch {
        // storage blocked: the draft just is not kept over a reload
      }
    });
    return () => sub.unsubscribe();
  }, [actor, storageKey]);

  // Parts made in setup: asked when online, remembered for offline.
  useEffect(() => {
    const runId = job?.runId;
    if (!runId) return;
    let live = true;
    sync.api
      .request<{ netCount: number }>(ENDPOINTS.setupParts, { query: { jsgId: runId, machineId } })
      .then((r) => {
        void kvPut(sync.db, KV.setupParts(runId), r.netCount);
        if (live) actor.send({ type: 'SETUP_PARTS', count: r.netCount });
      })
      .catch(async (e: unknown) => {
        if (!(e instanceof ApiError)) return;
        const cached = await kvGet<number>(sync.db, KV.setupParts(runId));
        if (live && typeof cached === 'number') actor.send({ type: 'SETUP_PARTS', count: cached });
      });
    return () => {
      live = false;
    };
  }, [sync, machineId, job?.runId, actor]);

  useEffect(() => {
    if (state.status === 'done') onClose();
  }, [state.status, onClose]);

  const now = useServerNow(0);
  const elapsed = job?.setupSince != null ? Math.max(0, sync.now() - job.setupSince) : null;
  void now; // re-render every second for the timer
  const expected = job?.expectedSetupMs ?? null;
  const over = elapsed != null && expected != null && expected > 0 && elapsed > expected;
  const errors = startProductionErrors(draft, setupParts);
  const busy = !state.matches('idle');

  return (
    <FormModal
      title={t('setup.title')}
      onClose={onClose}
      busy={busy}
      className="modal--tall"
      submit={{ label: t('setup.startProduction'), form: `${id}-form`, disabled: errors.length > 0 || !job }}
    >
      <div
        className={`setup-timer${over ? ' setup-timer--over' : ''}`}
        role="timer"
        aria-label={t('setup.timer')}
      >
        <span className="setup-timer__value num">{elapsed != null ? formatPartTime(elapsed) : '-'}</span>
        <span className="setup-timer__of">
          {expected ? t('setup.of', { expected: formatPartTime(expected) }) : t('setup.noExpected')}
        </span>
        {over && <span className="setup-timer__over">{t('setup.over')}</span>}
      </div>
      <ErrorNotice message={error} />
      {stages.length > 0 && (
        <div role="group" aria-label={t('setup.changeStage')} className="stage-group">
          <h3 className="stage-group__title" aria-hidden="true">
            {t('setup.changeStage')} <PendingMark show={data.view.pending.has('job')} />
          </h3>
          <div className="stage-group__buttons">
            {stages.map((s) => (
              <button
                key={s.id}
                type="button"
                className="button touch"
                aria-pressed={job?.stageId === s.id}
                disabled={busy || job?.stageId === s.id}
                onClick={() => actor.send({ type: 'CHANGE_STAGE', stageId: s.id })}
              >
                {s.name}
              </button>
            ))}
          </div>
        </div>
      )}
      <OverlayForm id={`${id}-form`} label={t('setup.startProduction')} onSubmit={startProduction.submit}>
        <div className="field">
          <label className="field__label" htmlFor={`${id}-keep`}>
            {t('setup.partsToKeep')}
          </label>
          <CountInput
            id={`${id}-keep`}
            className="touch-input num"
            min={0}
            max={setupParts ?? undefined}
            value={draft.keptParts}
            aria-invalid={errors.some((x) => x.field === 'keptParts') || undefined}
            aria-describedby={`${id}-keep-hint`}
            onChange={(e) => actor.send({ type: 'EDIT', patch: { keptParts: e.target.value } })}
          />
          <span id={`${id}-keep-hint`} className="field__hint">
            {setupParts != null
              ? t('setup.partsToKeepHint', { max: setupParts })
              : t('setup.partsToKeepHintUnknown')}
          </span>
        </div>
        <NoteField
          id={`${id}-notes`}
          label={t('setup.notes')}
          rows={3}
          value={draft.notes}
          onChange={(notes) => actor.send({ type: 'EDIT', patch: { notes } })}
        />
        {errors.length > 0 && draft.keptParts !== '' && (
          <ul className="field__error">
            {errors.map((x) => (
              <li key={x.field}>{x.message}</li>
            ))}
          </ul>
        )}
      </OverlayForm>
    </FormModal>
  );
}
