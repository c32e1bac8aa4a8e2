import { FormActions, Modal, t } from '@takt/ui';
import { useState } from 'react';
import { useFloorSync } from '../../offline/SyncProvider';
import { queue } from '../actions';
import { stopJobPayload } from '../forms';
import type { OverlayProps } from './types';

/** Stop Job (live-operations §2): "Are you sure?" with confirm; a destructive action confirms (UI.md). */
export default function StopJobOverlay({ machineId, machineName, data, onClose }: OverlayProps) {
  const sync = useFloorSync();
  const [busy, setBusy] = useState(false);
  const job = data.view.job;
  const stop = async () => {
    if (!job || busy) return;
    setBusy(true);
    try {
      await queue(sync, machineId, 'stop_job', stopJobPayload(machineId, job), { jobName: job.jobName });
    } finally {
      onClose();
    }
  };
  return (
    <Modal
      title={t('stopJob.title')}
      onClose={onClose}
      busy={busy}
      footer={
        <FormActions
          onCancel={onClose}
          busy={busy}
          submit={{ label: t('stopJob.title'), tone: 'danger', disabled: !job, onClick: () => void stop() }}
        />
      }
    >
      <p className="modal__question">{t('overlay.confirm')}</p>
      {job && <p>{t('stopJob.body', { job: job.jobName ?? job.jobId, machine: machineName })}</p>}
    </Modal>
  );
}
