import { formatPartTime } from '@takt/domain';
import { t, useServerNow } from '@takt/ui';
import { DowntimeFields } from './DowntimeFields';
import { useActorRef, useSelector } from '@xstate/react';
import { useEffect, useId, useState } from 'react';
import type { DowntimeEntry } from '../offline/optimistic';
import { useFloorSync } from '../offline/SyncProvider';
import { queue } from '../offline/queue';
import type { CategorizeDraft, DowntimeReason } from './forms';
import { categorizePayload, oneTapReason } from './forms';
import { underlayMachine, underlayShown } from './machines/underlayMachine';
import { PendingMark } from '../components/PendingMark';

export interface UnderlayProps {
  machineId: string;
  live: DowntimeEntry | null;
  reasons: DowntimeReason[];
  pending: boolean;
  onAddReason: (start: number) => void;
  /** The company's underlay delay and auto-expand duration (decision 1087); read when the underlay mounts. */
  delayMs: number;
  autoExpandMs: number;
}

/**
 * The downtime underlay (live-operations §2): under the card while the machine is down. Tapping a reason of the
 * grid categorizes the live downtime at once; Add Downtime Reason opens the full form; Split Downtime starts a
 * new period from now. Timing lives in underlayMachine.
 */
export function Underlay({
  machineId,
  live,
  reasons,
  pending,
  onAddReason,
  delayMs,
  autoExpandMs,
}: UnderlayProps) {
  const sync = useFloorSync();
  const id = useId();
  const actor = useActorRef(underlayMachine, { input: { delayMs, autoExpandMs } });
  const state = useSelector(actor, (s) => s.value as string);
  useServerNow(0); // the progress bar ticks every 1 s
  const liveStart = live?.start ?? null;
  // An operator-planned reason chosen in the grid waits here for the planned box and description (§2).
  const [asking, setAsking] = useState<{
    start: number;
    reason: DowntimeReason;
    draft: CategorizeDraft;
  } | null>(null);

  useEffect(() => {
    if (liveStart == null) actor.send({ type: 'UP' });
    else actor.send({ type: 'DOWN', start: liveStart, elapsedMs: Math.max(0, sync.now() - liveStart) });
  }, [liveStart, actor, sync]);
  const categorized = !!live?.reason;
  useEffect(() => {
    // Runs after the DOWN above in the same pass; keyed on the start too, so a new downtime that arrives
    // already categorized is reported as saved as well.
    if (categorized) actor.send({ type: 'SAVED' });
  }, [categorized, liveStart, actor]);

  if (!live || !underlayShown(state)) return null;
  const elapsed = Math.max(0, sync.now() - live.start);
  const progress = autoExpandMs > 0 ? Math.min(1, elapsed / autoExpandMs) : 1;
  const expanded = state === 'expanded';

  const save = (r: DowntimeReason, draft: CategorizeDraft) => {
    setAsking(null);
    void queue(sync, machineId, 'categorize_downtime', categorizePayload(machineId, live.start, draft, r), {
      reasonName: r.name,
      reasonColor: r.color,
    });
  };
  // One tap saves a reason whose planned value follows from the reason; an operator-planned one asks first.
  const choose = (r: DowntimeReason) => {
    const draft: CategorizeDraft = { reasonId: r.id, planned: false, description: '' };
    if (oneTapReason(r)) save(r, draft);
    else setAsking({ start: live.start, reason: r, draft });
  };
  const ask = asking && asking.start === live.start && !live.reason ? asking : null;
  const edit = (patch: Partial<CategorizeDraft>) =>
    setAsking((a) => (a ? { ...a, draft: { ...a.draft, ...patch } } : a));

  return (
    <section className="underlay" aria-labelledby={`${id}-title`} data-state={state}>
      <div className="underlay__head">
        <h2 id={`${id}-title`} className="underlay__title num">
          {live.reason ? live.reason : t('downtime.live', { time: formatPartTime(elapsed) })}
          <PendingMark show={pending} />
        </h2>
        <div
          className="underlay__progress"
          role="progressbar"
          aria-label={t('downtime.underlay')}
          aria-valuemin={0}
          aria-valuemax={100}
          aria-valuenow={Math.round(progress * 100)}
        >
          <span style={{ width: `${progress * 100}%` }} />
        </div>
      </div>
      {!live.reason && (
        <div className="underlay__actions">
          <button
            type="button"
            className="button button--primary touch"
            onClick={() => onAddReason(live.start)}
          >
            {t('downtime.addReason')}
          </button>
          <button
            type="button"
            className="button touch"
            onClick={() => void queue(sync, machineId, 'split_downtime', { machineId })}
          >
            {t('downtime.split')}
          </button>
          <button
            type="button"
            className="button button--ghost touch"
            aria-expanded={expanded}
            aria-controls={`${id}-grid`}
            onClick={() => actor.send({ type: expanded ? 'COLLAPSE' : 'EXPAND' })}
          >
            {t('downtime.reason')}
          </button>
        </div>
      )}
      {expanded && ask && (
        <form
          id={`${id}-grid`}
          className="underlay__form"
          aria-label={ask.reason.name}
          onSubmit={(e) => {
            e.preventDefault();
            save(ask.reason, ask.draft);
          }}
        >
          <p className="field__label">{ask.reason.name}</p>
          <DowntimeFields
            id={id}
            showPlanned
            planned={ask.draft.planned}
            description={ask.draft.description}
            onPlanned={(planned) => edit({ planned })}
            onDescription={(description) => edit({ description })}
          />
          <div className="underlay__actions">
            <button type="submit" className="button button--primary touch">
              {t('overlay.save')}
            </button>
            <button type="button" className="button touch" onClick={() => setAsking(null)}>
              {t('overlay.cancel')}
            </button>
          </div>
        </form>
      )}
      {expanded && !live.reason && !ask && (
        <div id={`${id}-grid`} className="reason-grid" role="group" aria-label={t('downtime.reason')}>
          {reasons.length === 0 ? (
            <p className="notice">{t('downtime.noReasons')}</p>
          ) : (
            reasons.map((r) => (
              <button
                key={r.id}
                type="button"
                className="reason-grid__item touch"
                style={{ borderLeftColor: r.color }}
                onClick={() => choose(r)}
              >
                {r.name}
              </button>
            ))
          )}
        </div>
      )}
    </section>
  );
}
