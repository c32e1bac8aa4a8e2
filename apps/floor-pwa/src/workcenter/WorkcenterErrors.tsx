import { formatTimeOfDay, localeZone, Modal, t, useSession } from '@takt/ui';
import { useState } from 'react';
import type { RejectedEntry } from '../offline/commands';
import { dismissRejected, retryRejected } from '../offline/outbox';
import { useFloorSync, useRejected } from '../offline/SyncProvider';
import { errorTitleKey, refusalMessage, refusalSummary } from './errors';

// Commands the server refused (ARCHITECTURE.md "Offline sync contract"): nothing is dropped
// silently. A banner above the card stays while any is left and names the latest with the server's text; the
// workcenter errors modal (live-operations §2) lists them all, each until it is tried again or dismissed.
// Refusals of every machine show on any workcenter screen, named by machine: an operator who acted on another
// machine and switched away still learns of it. TV mode has no controls, so it shows the count only.

export function WorkcenterErrors({
  machineId,
  machines,
  tv = false,
}: {
  machineId: string;
  machines: readonly { id: string; name: string }[];
  tv?: boolean;
}) {
  const rejected = useRejected(null);
  const [open, setOpen] = useState(false);
  const { latest, count } = refusalSummary(rejected, machineId);
  const nameOf = (id: string) => machines.find((m) => m.id === id)?.name ?? id;
  if (!latest) return null;
  if (tv)
    return (
      <p className="rejected rejected--count num" role="status">
        {t('rejected.count', { n: count })}
      </p>
    );
  return (
    <>
      <section className="rejected" aria-labelledby="rejected-title" aria-live="assertive">
        <h2 id="rejected-title" className="rejected__title">
          {t('rejected.title')}
        </h2>
        <div className="rejected__item">
          <p className="rejected__text">
            {latest.machineId !== machineId && <span>{nameOf(latest.machineId)}: </span>}
            <strong>{t(errorTitleKey(latest.type))}</strong> {refusalMessage(latest)}
            {count > 1 && <span className="num"> ({t('rejected.more', { n: count - 1 })})</span>}
          </p>
          <button type="button" className="button touch" onClick={() => setOpen(true)}>
            {t('rejected.show')}
          </button>
        </div>
      </section>
      {/* Outside the live region: opening the list is not news to announce. */}
      {open && (
        <WorkcenterErrorsModal entries={rejected} machineName={nameOf} onClose={() => setOpen(false)} />
      )}
    </>
  );
}

/**
 * The workcenter errors modal: every refused command with the server's message, Try Again and Dismiss. When
 * the last one goes the modal closes, so a later refusal shows in the banner, not in a modal it reopens.
 */
export function WorkcenterErrorsModal({
  entries,
  machineName,
  onClose,
}: {
  entries: RejectedEntry[];
  machineName: (machineId: string) => string;
  onClose: () => void;
}) {
  const sync = useFloorSync();
  const { me } = useSession();
  return (
    <Modal title={t('workcenter.errors')} onClose={onClose} className="modal--tall">
      {entries.length === 0 ? (
        <p className="notice">{t('rejected.none')}</p>
      ) : (
        <ul className="rejected__list">
          {entries.map((r) => (
            <li key={r.id} className="rejected__item">
              <div className="rejected__text">
                <strong>{t(errorTitleKey(r.type))}</strong>{' '}
                <span className="num">
                  {machineName(r.machineId)} · {t(`command.${r.type}`)} ·{' '}
                  {t('rejected.at', { time: formatTimeOfDay(r.occurredAt, localeZone(me)) })}
                </span>
                <p className="rejected__message">{refusalMessage(r)}</p>
                {r.error.issues && r.error.issues.length > 0 && (
                  <ul className="rejected__issues">
                    {r.error.issues.map((i, n) => (
                      <li key={n}>{i.message}</li>
                    ))}
                  </ul>
                )}
              </div>
              <div className="rejected__actions">
                <button
                  type="button"
                  className="button touch"
                  onClick={() => {
                    if (entries.length === 1) onClose();
                    void retryRejected(sync.db, r.id).then(() => sync.send({ type: 'ENQUEUED' }));
                  }}
                >
                  {t('rejected.retry')}
                </button>
                <button
                  type="button"
                  className="button touch"
                  onClick={() => {
                    if (entries.length === 1) onClose();
                    void dismissRejected(sync.db, r.id);
                  }}
                >
                  {t('rejected.dismiss')}
                </button>
              </div>
            </li>
          ))}
        </ul>
      )}
    </Modal>
  );
}
