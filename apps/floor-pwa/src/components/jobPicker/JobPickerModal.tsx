import { t, useSession } from '@takt/ui';
import { FormModal } from '../FormModal';
import { useEffect, useState } from 'react';
import { ENDPOINTS } from '../../endpoints/endpoints';
import { KV, kvGet } from '../../offline/db';
import type { FloorSync } from '../../offline/floorSync';
import { stagesOf, startOptions } from '../../workcenter/forms';
import type { Stage } from '../../workcenter/forms';
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

/**
 * The company's setup stages and whether they are on (live-operations §2 "one button per setup stage when
 * stages are enabled"), from the server, or from this device's copy when offline; null until known.
 */
function useSetupStages(sync: FloorSync): { stages: Stage[]; enabled: boolean | null } {
  const [state, setState] = useState<{ stages: Stage[]; enabled: boolean | null }>({
    stages: [],
    enabled: null,
  });
  useEffect(() => {
    let live = true;
    const read = <T,>(path: string, key: string) =>
      sync.api.request<T>(path).catch(() => kvGet<T>(sync.db, key));
    void Promise.all([
      read<unknown>(ENDPOINTS.setupStages, KV.setupStages),
      read<{ enable_setup_stages?: unknown }>(ENDPOINTS.companyFlags, KV.companyFlags),
    ]).then(([stages, flags]) => {
      if (!live) return;
      const enabled = flags?.enable_setup_stages;
      setState({ stages: stagesOf(stages), enabled: typeof enabled === 'boolean' ? enabled : null });
    });
    return () => {
      live = false;
    };
  }, [sync]);
  return state;
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
 * live-operations §5, §9), choose one, start it in production or, when it has a setup time, in setup: on a
 * setup stage (one button each) when the company has stages on, as the Start Job overlay does.
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
  const setupStages = useSetupStages(sync);
  const options = selected ? startOptions(selected, setupStages.stages, setupStages.enabled) : null;

  const { busy, error, submit } = useSubmit(async (start: { setup: boolean; stage: Stage | null }) => {
    if (!selected) return;
    const { setup, stage } = start;
    if (allOperations && !selected.onMachine) await associate(sync, selected.id, machine.id);
    await queue(
      sync,
      machine.id,
      'start_job',
      startJobPayload(machine.id, selected.id, setup, stage?.id ?? null),
      {
        jobName: selected.name,
        expectedSetupMs: setup ? selected.expectedSetupMs : null,
        stageName: setup ? (stage?.name ?? null) : null,
      },
    );
  }, onClose);

  return (
    <FormModal
      title={title}
      onClose={onClose}
      busy={busy}
      className="dash-modal"
      submit={{
        label: t('startJob.inProduction'),
        disabled: !selected,
        onClick: () => submit({ setup: false, stage: null }),
      }}
      actions={
        <>
          {options?.setup &&
            options.stages.map((s) => (
              <button
                key={s.id}
                type="button"
                className="button touch"
                disabled={busy}
                aria-label={`${t('startJob.inSetup')}: ${s.name}`}
                onClick={() => submit({ setup: true, stage: s })}
              >
                {s.name}
              </button>
            ))}
          {options?.setup && options.stages.length === 0 && (
            <button
              type="button"
              className="button touch"
              disabled={busy}
              onClick={() => submit({ setup: true, stage: null })}
            >
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
      {options?.setup && options.noStages && <p className="notice">{t('startJob.noStages')}</p>}
      {error && <p role="alert">{error}</p>}
    </FormModal>
  );
}
