import { formatPartTime } from '@takt/domain';
import { FormModal } from '../../components/FormModal';
import { OverlayForm } from './OverlayForm';
import { ReasonChoices } from './ReasonChoices';
import { DowntimeFields } from '../DowntimeFields';
import { formatTimeOfDay, localeZone, Modal, t, useServerNow, useSession } from '@takt/ui';
import { useMachine } from '@xstate/react';
import { useEffect, useId, useMemo, useRef } from 'react';
import { fromPromise } from 'xstate';
import { useSubmit } from '../../lib/submit';
import { useFloorSync } from '../../offline/SyncProvider';
import { shiftBounds } from '../shift';
import { queue } from '../../offline/queue';
import type { ListRow } from '../downtimeList';
import { downtimeSections, filterDurationOf } from '../downtimeList';
import { categorizeErrors, categorizePayload, downtimeReasonsOf, plannedEditable } from '../forms';
import { downtimeMachine } from '../machines/downtimeMachine';
import { PendingMark } from '../../components/PendingMark';
import type { OverlayProps } from './types';

/**
 * "Categorize Downtime" (live-operations §2, §4, §5); `focusStart` opens the reason form for one period.
 * Without `canCategorize` (no FullProduct, §6: the categorize form is full-product) the list is read-only.
 */
export default function DowntimeOverlay({
  machineId,
  data,
  onClose,
  focusStart,
  canCategorize = true,
}: OverlayProps & { focusStart?: number | null; canCategorize?: boolean }) {
  const sync = useFloorSync();
  const { me } = useSession();
  const lz = localeZone(me);
  const id = useId();
  const reasons = useMemo(() => downtimeReasonsOf(data.annotationTypes), [data.annotationTypes]);
  const machine = useMemo(
    () =>
      downtimeMachine.provide({
        actors: {
          save: fromPromise(async ({ input }) => {
            const reason = reasons.find((r) => r.id === input.draft.reasonId);
            if (!reason) throw new Error('no reason');
            // One command per period: each is its own fact, applied (or refused) on its own.
            for (const start of input.targets) {
              await queue(
                sync,
                machineId,
                'categorize_downtime',
                categorizePayload(machineId, start, input.draft, reason),
                {
                  reasonName: reason.name,
                  reasonColor: reason.color,
                },
              );
            }
          }),
        },
      }),
    [sync, machineId, reasons],
  );
  const [state, send] = useMachine(machine);
  const { filters, multi, selected, targets, draft, error } = state.context;
  useServerNow(0); // tick: the live period's duration grows
  const now = sync.now();

  useEffect(() => {
    if (focusStart != null && canCategorize) send({ type: 'OPEN', start: focusStart });
  }, [focusStart, canCategorize, send]);

  // Opened for one period (the underlay): close once its reason is queued.
  const submitted = useRef(false);
  // §5: submits are debounced 200 ms; the machine ignores SAVE while saving.
  const save = useSubmit(async () => {
    submitted.current = true;
    send({ type: 'SAVE' });
  });
  useEffect(() => {
    if (focusStart != null && submitted.current && state.matches('list')) onClose();
  }, [focusStart, state, onClose]);

  const entries = data.view.downtime;
  const threshold = filterDurationOf(entries, data.flags.downtimeListFilterMs, now);
  const bounds = shiftBounds(now, data.currentShift, data.shifts, {
    timezone: lz.timeZone,
    currentTimeContext: { offset_millis: data.flags.timeContextOffsetMs },
  });
  const sections = downtimeSections(entries, now, bounds, filters, threshold, data.flags.longDowntimeMs);
  // Between shifts the first section is the time since the last shift ended; with no shift known, the 24 h.
  const firstTitle = bounds.running
    ? t('downtime.currentShift')
    : bounds.currentStart != null
      ? t('downtime.sinceShift')
      : t('downtime.last24h');
  const pending = data.view.pending;

  const row = (r: ListRow) => {
    const e = r.entry;
    const label = t('downtime.period', {
      start: formatTimeOfDay(e.start, lz),
      duration: formatPartTime(r.durationMs),
    });
    const reason = e.reason ?? t('downtime.uncategorized');
    const mark = <PendingMark show={pending.has(`downtime:${e.start}`)} />;
    const reasonCell = (
      <span className="downtime-row__reason" style={e.color ? { borderLeftColor: e.color } : undefined}>
        {reason}
        {mark}
      </span>
    );
    const cells = (
      <>
        <span className="downtime-row__time num">
          {label}
          {e.end === null && <span className="downtime-row__live"> · {t('downtime.ongoing')}</span>}
        </span>
        {reasonCell}
      </>
    );
    if (!canCategorize) {
      return (
        <li key={e.start} className="downtime-row downtime-row--locked">
          {cells}
        </li>
      );
    }
    if (multi) {
      return (
        <li key={e.start}>
          <label className={`downtime-row touch${r.selectable ? '' : ' downtime-row--locked'}`}>
            <input
              type="checkbox"
              disabled={!r.selectable}
              checked={selected.includes(e.start)}
              onChange={() => send({ type: 'TOGGLE_SELECT', start: e.start })}
            />
            <span className="downtime-row__time num">{label}</span>
            {reasonCell}
          </label>
        </li>
      );
    }
    return (
      <li key={e.start}>
        <button
          type="button"
          className="downtime-row touch"
          onClick={() =>
            send({
              type: 'OPEN',
              start: e.start,
              draft: {
                reasonId: e.annotationTypeId,
                description: e.message ?? '',
                planned: e.planned === true,
              },
            })
          }
        >
          {cells}
        </button>
      </li>
    );
  };

  const section = (title: string, rows: ListRow[]) => (
    <section className="downtime-section" aria-label={title}>
      <h3>{title}</h3>
      {rows.length === 0 ? (
        <p className="notice">{t('downtime.empty')}</p>
      ) : (
        <ul className="downtime-list">{rows.map(row)}</ul>
      )}
    </section>
  );

  if (state.matches('categorizing') || state.matches('saving')) {
    const reason = reasons.find((r) => r.id === draft.reasonId) ?? null;
    const problems = categorizeErrors(draft, targets.length);
    const busy = state.matches('saving');
    const title =
      targets.length > 1 ? `${t('downtime.addReason')} · ${t('downtime.multiple')}` : t('downtime.addReason');
    return (
      <FormModal
        title={title}
        onClose={() => (focusStart != null ? onClose() : send({ type: 'CANCEL' }))}
        busy={busy}
        className="modal--tall"
        submit={{ label: t('overlay.save'), form: `${id}-reason`, disabled: problems.length > 0 }}
      >
        <OverlayForm id={`${id}-reason`} label={title} error={error} onSubmit={save.submit}>
          {targets.length > 1 && (
            <p className="modal__hint">{t('downtime.selected', { n: targets.length })}</p>
          )}
          <ReasonChoices
            name={`${id}-r`}
            legend={t('downtime.reason')}
            emptyText={t('downtime.noReasons')}
            reasons={reasons}
            selectedId={draft.reasonId}
            onSelect={(reasonId) => send({ type: 'EDIT', patch: { reasonId } })}
          />
          <DowntimeFields
            id={id}
            showPlanned={plannedEditable(reason)}
            planned={draft.planned}
            description={draft.description}
            onPlanned={(planned) => send({ type: 'EDIT', patch: { planned } })}
            onDescription={(description) => send({ type: 'EDIT', patch: { description } })}
          />
        </OverlayForm>
      </FormModal>
    );
  }

  return (
    <Modal
      title={t('downtime.title')}
      onClose={onClose}
      className="modal--tall"
      footer={
        multi && canCategorize ? (
          <div className="modal__buttons">
            <span className="modal__hint">{t('downtime.selected', { n: selected.length })}</span>
            <button
              type="button"
              className="button button--primary touch"
              disabled={selected.length === 0}
              onClick={() => send({ type: 'CATEGORIZE_MULTIPLE' })}
            >
              {t('downtime.categorizeMultiple')}
            </button>
          </div>
        ) : undefined
      }
    >
      <div className="downtime-tools">
        {canCategorize && (
          <button
            type="button"
            className="button touch"
            aria-pressed={multi}
            onClick={() => send({ type: 'TOGGLE_MULTI' })}
          >
            {t('downtime.selectMultiple')}
          </button>
        )}
        {(
          [
            ['onlyLong', t('downtime.onlyLong')],
            ['onlyUncategorized', t('downtime.onlyUncategorized')],
            ['showCategorized', t('downtime.showCategorized')],
            ['showShort', t('downtime.showShort')],
          ] as const
        ).map(([key, label]) => (
          <label key={key} className="check touch">
            <input
              type="checkbox"
              checked={filters[key]}
              onChange={(e) => send({ type: 'FILTER', patch: { [key]: e.target.checked } })}
            />
            <span>{label}</span>
          </label>
        ))}
      </div>
      {section(firstTitle, sections.current)}
      {bounds.currentStart != null && section(t('downtime.previousShift'), sections.previous)}
    </Modal>
  );
}
