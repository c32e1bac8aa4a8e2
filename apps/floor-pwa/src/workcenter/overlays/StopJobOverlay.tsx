import { t } from '@takt/ui';
import { FormModal } from '../../components/FormModal';
import { useSubmit } from '../../lib/submit';
import { useFloorSync } from '../../offline/SyncProvider';
import { queue } from '../../offline/queue';
import { stopJobPayload } from '../forms';
import type { OverlayProps } from './types';

/** Stop Job (live-operations §2): "Are you sure?" with confirm; a destructive action confirms (UI.md). */
export default function StopJobOverlay({ machineId, machineName, data, onClose }: OverlayProps) {
  const sync = useFloorSync();
  const job = data.view.job;
  // §5: debounced 200 ms and ignored while saving; the overlay closes whether or not the command was queued.
  const { busy, submit: stop } = useSubmit(async () => {
    if (!job) return;
    try {
      await queue(sync, machineId, 'stop_job', stopJobPayload(machineId, job), { jobName: job.jobName });
    } finally {
      onClose();
    }
  });
  return (
    <FormModal
      title={t('stopJob.title')}
      onClose={onClose}
      busy={busy}
      submit={{ label: t('stopJob.title'), tone: 'danger', disabled: !job, onClick: () => stop() }}
    >
      <p className="modal__question">{t('overlay.confirm')}</p>
      {job && <p>{t('stopJob.body', { job: job.jobName ?? job.jobId, machine: machineName })}</p>}
    </FormModal>
  );
}
