import { t, useSession } from '@takt/ui';
import { FormModal } from '../FormModal';
import { useState } from 'react';
import { ENDPOINTS } from '../../endpoints/endpoints';
import type { FloorSync } from '../../offline/floorSync';
import { queue } from '../../offline/queue';
import { useSubmit } from '../../lib/submit';
import { JobPicker, selectedJob, useJobPicker } from './JobPicker';
import { JOB_SEARCH_DEBOUNCE_MS, JOB_SEARCH_LIMIT, jobPageLoader, startJobPayload } from './jobs';

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

export interface JobPickerModalProps {
  sync: FloorSync;
  machine: { id: string; name: string };
  title: string;
  onClose: () => void;
  /**
   * The admins' job dispatch modal (live-operations §2 Start Job, §6 isAdmin): the server searches every
   * operation of the company, not only the machine's; a job not yet on the machine is associated with it
   * first (§4 Job dispatch), and a failure to do so is only logged (§8): the start associates it too.
   */
  allOperations?: boolean;
}

/**
 * The dashboard tile's job picker and the admins' job dispatch modal: up to 10 operations (250 ms debounce,
 * live-operations §5, §9), choose one, start it in production or, when it has a setup time, in setup.
 */
export function JobPickerModal({
  sync,
  machine,
  title,
  onClose,
  allOperations = false,
}: JobPickerModalProps) {
  const { me } = useSession();
  // live-operations §5: admins search on the server (limit 10); others filter the machine's jobs here.
  const [load] = useState(() =>
    jobPageLoader(sync, {
      machineId: machine.id,
      allOperations,
      serverSearch: allOperations || me.isAdmin,
      paged: false,
    }),
  );
  const picker = useJobPicker({ load, debounceMs: JOB_SEARCH_DEBOUNCE_MS, pageSize: JOB_SEARCH_LIMIT });
  const selected = selectedJob(picker);

  const { busy, error, submit } = useSubmit(async (setup: boolean) => {
    if (!selected) return;
    if (allOperations && !selected.onMachine) await associate(sync, selected.id, machine.id);
    await queue(sync, machine.id, 'start_job', startJobPayload(machine.id, selected.id, setup, null), {
      jobName: selected.name,
      expectedSetupMs: setup ? selected.expectedSetupMs : null,
    });
  }, onClose);

  return (
    <FormModal
      title={title}
      onClose={onClose}
      busy={busy}
      className="dash-modal"
      submit={{ label: t('startJob.inProduction'), disabled: !selected, onClick: () => submit(false) }}
      actions={
        <>
          {selected?.setuptime != null && (
            <button type="button" className="button touch" disabled={busy} onClick={() => submit(true)}>
              {t('startJob.inSetup')}
            </button>
          )}
        </>
      }
    >
      <JobPicker
        picker={picker}
        choice="radio"
        label={allOperations ? t('dispatch.search') : t('startJob.search')}
        hint={allOperations ? t('dispatch.hint') : undefined}
      />
      {error && <p role="alert">{error}</p>}
    </FormModal>
  );
}
