import { setupRemoval } from '@takt/domain';
import { ApiError, FormActions, Modal, t } from '@takt/ui';
import { useEffect, useId, useRef, useState } from 'react';
import { useSubmit } from '../components/submit';
import { ENDPOINTS } from '../endpoints/endpoints';
import { cacheJobs } from '../offline/refdata';
import type { FloorSync } from '../offline/floorSync';
import { useSession } from '../session';
import { queue } from '../workcenter/actions';
import type { JobRow } from '../workcenter/forms';
import {
  emptyJobsText,
  jobRowOf,
  startJobPayload,
  startProductionErrors,
  startProductionPayload,
  stopJobPayload,
} from '../workcenter/forms';
import { jobOf } from '../workcenter/view';
import { JOB_SEARCH_DEBOUNCE_MS, JOB_SEARCH_LIMIT, useDebouncedValue } from './debounce';
import { dt } from './messages';
import type { TileMachine } from './tileModel';

// live-operations §2 "Per-tile actions": job picker, job cancel and start-production (job setup) modals. Each
// action is queued as the same sync command the workcenter uses (offline outbox, issue 6), so a TV or tablet
// without network still takes it and the workcenter view of the machine shows it.

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

/** The most jobs of one machine a non-admin's picker loads to filter locally (the API's page limit). */
const LOCAL_JOBS_MAX = 100;

const isOnMachine = (job: Record<string, unknown>, machineId: string) =>
  Array.isArray(job.job_machines) &&
  (job.job_machines as Record<string, unknown>[]).some((jm) => jm.machine_id === machineId);

/** JobMachine save (live-operations §4, §7): only logged when it fails (§8); start_job associates too. */
async function associate(sync: FloorSync, jobId: string, machineId: string): Promise<void> {
  try {
    await sync.api.request(ENDPOINTS.jobMachines, {
      method: 'POST',
      body: { job_id: jobId, job_machine: { machine_id: machineId } },
    });
  } catch (e) {
    console.warn('[floor] the job could not be associated with the machine', e);
  }
}

interface ModalProps {
  sync: FloorSync;
  machine: TileMachine;
  onClose: () => void;
}

export interface JobPickerProps extends Omit<ModalProps, 'machine'> {
  machine: Pick<TileMachine, 'id' | 'name'>;
  /**
   * The admins' job dispatch modal (live-operations §2 Start Job, §6 isAdmin): the server searches every
   * operation of the company, not only the machine's; a job not yet on the machine is associated with it
   * first (§4 Job dispatch), and a failure to do so is only logged (§8): the start associates it too.
   */
  allOperations?: boolean;
  title?: string;
}

/** Job picker: search on the server (250 ms debounce, 10 rows), choose, start in production or in setup. */
export function JobPickerModal({ sync, machine, onClose, allOperations = false, title }: JobPickerProps) {
  const id = useId();
  const [filter, setFilter] = useState('');
  const query = useDebouncedValue(filter, JOB_SEARCH_DEBOUNCE_MS);
  const [rows, setRows] = useState<JobRow[] | null>(null);
  const [loadError, setLoadError] = useState<string | null>(null);
  const [selected, setSelected] = useState<JobRow | null>(null);
  // Jobs of the answer already associated with this machine (all-operations search only).
  const associated = useRef(new Set<string>());
  // live-operations §5: admins search on the server (limit 10); others filter the machine's jobs here,
  // loaded once when the modal opens.
  const { me } = useSession();
  const serverSearch = allOperations || me.isAdmin;
  const machineJobs = useRef<Record<string, unknown>[] | null>(null);

  useEffect(() => {
    const controller = new AbortController();
    const load = async (): Promise<JobRow[]> => {
      try {
        const search = (filter: string, limit: number) =>
          sync.api.request<{ rows: Record<string, unknown>[]; count: number }>(ENDPOINTS.jobs, {
            query: { machineId: allOperations ? null : machine.id, filter, limit, offset: 0 },
            signal: controller.signal,
          });
        let found: Record<string, unknown>[];
        if (serverSearch) {
          found = (await search(query, JOB_SEARCH_LIMIT)).rows;
        } else {
          machineJobs.current ??= (await search('', LOCAL_JOBS_MAX)).rows;
          const q = query.trim().toLowerCase();
          found = machineJobs.current
            .filter((j) => jobRowOf(j, machine.id).name.toLowerCase().includes(q))
            .slice(0, JOB_SEARCH_LIMIT);
        }
        const mine = allOperations ? found.filter((j) => isOnMachine(j, machine.id)) : found;
        associated.current = new Set(mine.map((j) => String(j.id)));
        void cacheJobs(sync.db, machine.id, mine);
        return found.map((j) => jobRowOf(j, machine.id));
      } catch (e) {
        if (!(e instanceof ApiError && e.isNetworkError)) throw e;
        // Offline: the operations saved on this device, filtered here (case-insensitive, §5).
        const q = query.trim().toLowerCase();
        const all = await sync.db.jobs
          .where('machineId')
          .equals(machine.id)
          .filter((j) => j.search.includes(q))
          .sortBy('search');
        associated.current = new Set(all.map((j) => j.id));
        return all.slice(0, JOB_SEARCH_LIMIT).map((j) => jobRowOf(j.job, machine.id));
      }
    };
    load()
      .then((r) => {
        if (controller.signal.aborted) return;
        setRows(r);
        setLoadError(null);
      })
      .catch((e: unknown) => {
        if (!controller.signal.aborted)
          setLoadError(e instanceof Error ? e.message : t('common.requestError'));
      });
    return () => controller.abort();
  }, [sync, machine.id, query, allOperations, serverSearch]);

  const { busy, error, submit } = useSubmit(async (setup: boolean) => {
    if (!selected) return;
    if (allOperations && !associated.current.has(selected.id)) await associate(sync, selected.id, machine.id);
    await queue(sync, machine.id, 'start_job', startJobPayload(machine.id, selected.id, setup, null), {
      jobName: selected.name,
      expectedSetupMs: setup ? selected.expectedSetupMs : null,
    });
  }, onClose);

  return (
    <Modal
      title={title ?? dt('dash.jobPicker.title', { machine: machine.name })}
      onClose={onClose}
      busy={busy}
      className="dash-modal"
      footer={
        <FormActions
          onCancel={onClose}
          busy={busy}
          submit={{ label: t('startJob.inProduction'), disabled: !selected, onClick: () => submit(false) }}
        >
          {selected?.setuptime != null && (
            <button type="button" className="button touch" disabled={busy} onClick={() => submit(true)}>
              {t('startJob.inSetup')}
            </button>
          )}
        </FormActions>
      }
    >
      <label htmlFor={`${id}-q`} className="field__label">
        {allOperations ? t('dispatch.search') : dt('dash.jobPicker.search')}
      </label>
      <input
        id={`${id}-q`}
        className="touch-input"
        type="search"
        value={filter}
        autoComplete="off"
        onChange={(e) => setFilter(e.target.value)}
      />
      {allOperations && <p className="field__hint">{t('dispatch.hint')}</p>}
      {loadError && <p role="alert">{loadError}</p>}
      {error && <p role="alert">{error}</p>}
      {rows == null ? (
        <p role="status">{t('overlay.loading')}</p>
      ) : rows.length === 0 ? (
        <p role="status">{emptyJobsText(query)}</p>
      ) : (
        <ul className="dash-jobs" aria-label={t('startJob.jobs')} aria-busy={query !== filter || undefined}>
          {rows.map((r) => (
            <li key={r.id}>
              <label className="dash-jobs__row touch">
                <input
                  type="radio"
                  name={`${id}-job`}
                  checked={selected?.id === r.id}
                  onChange={() => setSelected(r)}
                />
                <span>{r.name}</span>
              </label>
            </li>
          ))}
        </ul>
      )}
    </Modal>
  );
}

/** Job cancel: "Are you sure?"; stops the job and unschedules the machine (live-operations §4 Job dispatch). */
export function JobCancelModal({ sync, machine, onClose }: ModalProps) {
  const job = jobOf(machine as unknown as Record<string, unknown>, null);
  const { busy, error, submit } = useSubmit(async () => {
    if (!job) return;
    await queue(sync, machine.id, 'stop_job', stopJobPayload(machine.id, job), { jobName: job.jobName });
  }, onClose);
  return (
    <Modal
      title={dt('dash.jobCancel.title')}
      onClose={onClose}
      busy={busy}
      className="dash-modal"
      footer={
        <FormActions
          onCancel={onClose}
          busy={busy}
          submit={{ label: dt('dash.cancelJob'), tone: 'danger', disabled: !job, onClick: () => submit() }}
        />
      }
    >
      <p className="modal__question">{t('overlay.confirm')}</p>
      <p>{dt('dash.jobCancel.body', { job: job?.jobName ?? job?.jobId ?? '-', machine: machine.name })}</p>
      {error && <p role="alert">{error}</p>}
    </Modal>
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
    <Modal
      title={dt('dash.jobSetup.title', { machine: machine.name })}
      onClose={onClose}
      busy={busy}
      className="dash-modal"
      footer={
        <FormActions
          onCancel={onClose}
          busy={busy}
          submit={{
            label: t('setup.startProduction'),
            disabled: !job || errors.length > 0,
            onClick: () => submit(),
          }}
        />
      }
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
        <p key={e} role="alert">
          {e}
        </p>
      ))}
      {error && <p role="alert">{error}</p>}
    </Modal>
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
      return <JobPickerModal {...props} />;
    case 'cancel':
      return <JobCancelModal {...props} />;
    case 'setup':
      return <StartProductionModal {...props} />;
  }
}
