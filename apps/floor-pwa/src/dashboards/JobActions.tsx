import { setupRemoval } from '@takt/domain';
import { FormModal } from '../components/FormModal';
import { t } from '@takt/ui';
import { lazy, Suspense, useEffect, useId, useState } from 'react';
import { useSubmit } from '../lib/submit';
import { ENDPOINTS } from '../endpoints/endpoints';
import type { FloorSync } from '../offline/floorSync';
import { queue } from '../offline/queue';
import { startProductionErrors, startProductionPayload, stopJobPayload } from '../workcenter/forms';
import { jobOf } from '../workcenter/view';
import { dt } from './messages';
import type { TileMachine } from './tileModel';

// live-operations §2 "Per-tile actions": job picker, job cancel and start-production (job setup) modals. Each
// action is queued as the same sync command the workcenter uses (the offline outbox), so a TV or tablet
// without network still takes it and the workcenter view of the machine shows it.

// The job picker runs on XState: loaded when a tile's Start Job is first tapped, not with the dashboard.
const JobPickerModal = lazy(() =>
  import('../components/jobPicker/JobPickerModal').then((m) => ({ default: m.JobPickerModal })),
);

export type TileActionKind = 'pick' | 'cancel' | 'setup';

export interface TileAction {
  kind: TileActionKind;
  machine: TileMachine;
}

/** Which actions a tile offers: none in TV mode or without FullProduct (live-operations §6). */
export function tileActions(m: Pick<TileMachine, 'scheduled' | 'status' | 'setupSince'>): TileActionKind[] {
  if (!m.scheduled) return ['pick'];
  return m.status === 'SETUP' || m.setupSince != null ? ['setup', 'cancel'] : ['cancel'];
}

export const actionLabel = (k: TileActionKind) =>
  k === 'pick' ? dt('dash.startJob') : k === 'cancel' ? dt('dash.cancelJob') : dt('dash.startProduction');

interface ModalProps {
  sync: FloorSync;
  machine: TileMachine;
  onClose: () => void;
}

/** Job cancel: "Are you sure?"; stops the job and unschedules the machine (live-operations §4 Job dispatch). */
export function JobCancelModal({ sync, machine, onClose }: ModalProps) {
  const job = jobOf(machine as unknown as Record<string, unknown>, null);
  const { busy, error, submit } = useSubmit(async () => {
    if (!job) return;
    await queue(sync, machine.id, 'stop_job', stopJobPayload(machine.id, job), { jobName: job.jobName });
  }, onClose);
  return (
    <FormModal
      title={dt('dash.jobCancel.title')}
      onClose={onClose}
      busy={busy}
      className="dash-modal"
      submit={{ label: dt('dash.cancelJob'), tone: 'danger', disabled: !job, onClick: () => submit() }}
    >
      <p className="modal__question">{t('overlay.confirm')}</p>
      <p>{dt('dash.jobCancel.body', { job: job?.jobName ?? job?.jobId ?? '-', machine: machine.name })}</p>
      {error && <p role="alert">{error}</p>}
    </FormModal>
  );
}

/** Job setup: the parts kept after setup (0..parts made in setup), then start production. */
export function StartProductionModal({ sync, machine, onClose }: ModalProps) {
  const id = useId();
  const job = jobOf(machine as unknown as Record<string, unknown>, null);
  const [kept, setKept] = useState('0');
  const [setupParts, setSetupParts] = useState<number | null>(null);
  useEffect(() => {
    if (!job?.runId) return;
    const controller = new AbortController();
    sync.api
      .request<{ netCount: number }>(ENDPOINTS.setupParts, {
        query: { jsgId: job.runId, machineId: machine.id },
        signal: controller.signal,
      })
      .then((r) => {
        if (controller.signal.aborted) return;
        setSetupParts(r.netCount);
        setKept(String(setupRemoval(r.netCount, r.netCount).kept));
      })
      .catch(() => {
        // Offline or not known yet: the server clamps the kept parts to what it counted.
      });
    return () => controller.abort();
  }, [sync, machine.id, job?.runId]);
  const draft = { keptParts: kept, notes: '' };
  const errors = startProductionErrors(draft, setupParts);
  const { busy, error, submit } = useSubmit(async () => {
    if (!job) return;
    await queue(
      sync,
      machine.id,
      'start_production',
      startProductionPayload(machine.id, job, draft, setupParts),
      {
        jobName: job.jobName,
      },
    );
  }, onClose);
  return (
    <FormModal
      title={dt('dash.jobSetup.title', { machine: machine.name })}
      onClose={onClose}
      busy={busy}
      className="dash-modal"
      submit={{
        label: t('setup.startProduction'),
        disabled: !job || errors.length > 0,
        onClick: () => submit(),
      }}
    >
      <p>{dt('dash.jobSetup.body')}</p>
      <label htmlFor={`${id}-kept`} className="field__label">
        {t('setup.partsToKeep')}
      </label>
      <input
        id={`${id}-kept`}
        className="touch-input num"
        inputMode="numeric"
        value={kept}
        aria-invalid={errors.length > 0 || undefined}
        aria-describedby={`${id}-hint`}
        onChange={(e) => setKept(e.target.value)}
      />
      <p id={`${id}-hint`} className="field__hint">
        {setupParts == null
          ? t('setup.partsToKeepHintUnknown')
          : t('setup.partsToKeepHint', { max: setupParts })}
      </p>
      {errors.map((e) => (
        <p key={e.field} role="alert">
          {e.message}
        </p>
      ))}
      {error && <p role="alert">{error}</p>}
    </FormModal>
  );
}

export function TileActionModal({
  sync,
  action,
  onClose,
}: {
  sync: FloorSync;
  action: TileAction;
  onClose: () => void;
}) {
  const props = { sync, machine: action.machine, onClose };
  switch (action.kind) {
    case 'pick':
      return (
        <Suspense fallback={null}>
          <JobPickerModal {...props} title={dt('dash.jobPicker.title', { machine: action.machine.name })} />
        </Suspense>
      );
    case 'cancel':
      return <JobCancelModal {...props} />;
    case 'setup':
      return <StartProductionModal {...props} />;
  }
}
