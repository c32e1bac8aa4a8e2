import { Modal, t, useSession } from '@takt/ui';
import { lazy, Suspense, useEffect, useMemo, useState } from 'react';
import { JobPicker, selectedJob, useJobPicker } from '../../components/jobPicker/JobPicker';
import type { StartRequest } from '../../components/jobPicker/JobPicker';
import {
  JOB_PAGE_SIZE,
  jobPageLoader,
  START_JOB_SEARCH_DEBOUNCE_MS,
  startJobPayload,
} from '../../components/jobPicker/jobs';
import { useSubmit } from '../../lib/submit';
import { queue } from '../../offline/queue';
import { useFloorSync } from '../../offline/SyncProvider';
import { stagesOf, startOptions } from '../forms';
import type { OverlayProps } from './types';

// The admins' job dispatch modal (live-operations §2, §6): the job picker over all operations, on first use.
const JobPickerModal = lazy(() =>
  import('../../components/jobPicker/JobPickerModal').then((m) => ({ default: m.JobPickerModal })),
);

/** Start Job (live-operations §2): search, choose, start in setup (per stage) or in production. */
export default function StartJobOverlay({ machineId, machineName, data, onClose }: OverlayProps) {
  const sync = useFloorSync();
  const { me } = useSession();
  const [dispatch, setDispatch] = useState(false);
  const stages = useMemo(() => stagesOf(data.setupStages), [data.setupStages]);
  // The overlay searches the machine's operations on the server for every user, in pages of 15 (§2).
  const [load] = useState(() =>
    jobPageLoader(sync, { machineId, allOperations: false, serverSearch: true, paged: true }),
  );
  const picker = useJobPicker({
    load,
    debounceMs: START_JOB_SEARCH_DEBOUNCE_MS,
    pageSize: JOB_PAGE_SIZE,
    start: async (r: StartRequest) => {
      const stage = stages.find((s) => s.id === r.stageId);
      await queue(sync, machineId, 'start_job', startJobPayload(machineId, r.job.id, r.setup, r.stageId), {
        jobName: r.job.name,
        expectedSetupMs: r.job.expectedSetupMs,
        stageName: stage?.name ?? null,
      });
    },
  });
  const [state, send] = picker;
  // §5: submits are debounced 200 ms; the machine ignores START while starting.
  const { submit: start } = useSubmit(
    async (e: { setup: boolean; stageId: string | null }) => void send({ type: 'START', ...e }),
  );
  const { count, error } = state.context;
  const selected = selectedJob(picker);
  const options = selected ? startOptions(selected, stages, data.flags.enableSetupStages) : null;
  const busy = state.matches('starting');

  useEffect(() => {
    if (state.status === 'done') onClose();
  }, [state.status, onClose]);

  if (dispatch) {
    return (
      <Suspense fallback={null}>
        <JobPickerModal
          sync={sync}
          machine={{ id: machineId, name: machineName }}
          allOperations
          title={t('dispatch.title')}
          onClose={onClose}
        />
      </Suspense>
    );
  }

  if (state.matches('failed')) {
    return (
      <Modal
        title={t('startJob.failed')}
        onClose={onClose}
        footer={
          <button
            type="button"
            className="button button--primary touch"
            onClick={() => {
              send({ type: 'OK' });
              onClose();
            }}
          >
            {t('overlay.ok')}
          </button>
        }
      >
        <p role="alert">{error}</p>
      </Modal>
    );
  }

  return (
    <Modal
      title={t('startJob.title')}
      onClose={onClose}
      busy={busy}
      className="modal--tall"
      footer={
        <>
          {!selected && (
            <p className="modal__hint">
              {t('startJob.jobs')}: {count}
            </p>
          )}
          {selected && options && (
            <div className="start-actions">
              <p className="modal__hint">{t('startJob.selected', { name: selected.name })}</p>
              {options.setup && options.stages.length > 0 && (
                <div role="group" aria-label={t('startJob.inSetup')} className="start-actions__stages">
                  <span className="start-actions__label" aria-hidden="true">
                    {t('startJob.inSetup')}
                  </span>
                  {options.stages.map((s) => (
                    <button
                      key={s.id}
                      type="button"
                      className="button touch"
                      disabled={busy}
                      onClick={() => start({ setup: true, stageId: s.id })}
                    >
                      {s.name}
                    </button>
                  ))}
                </div>
              )}
              {options.setup && options.noStages && <p className="notice">{t('startJob.noStages')}</p>}
              {!options.setup && <p className="notice">{t('startJob.noSetupTime')}</p>}
              <div className="modal__buttons">
                {options.setup && options.stages.length === 0 && (
                  <button
                    type="button"
                    className="button touch"
                    disabled={busy}
                    onClick={() => start({ setup: true, stageId: null })}
                  >
                    {t('startJob.inSetup')}
                  </button>
                )}
                <button
                  type="button"
                  className="button button--primary touch"
                  disabled={busy}
                  onClick={() => start({ setup: false, stageId: null })}
                >
                  {t('startJob.inProduction')}
                </button>
              </div>
            </div>
          )}
        </>
      }
    >
      {me.isAdmin && (
        <button type="button" className="button touch" onClick={() => setDispatch(true)}>
          {t('dispatch.open')}
        </button>
      )}
      <JobPicker picker={picker} choice="toggle" label={t('startJob.search')} />
    </Modal>
  );
}
