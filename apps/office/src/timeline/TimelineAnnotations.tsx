import { ApiError, FormActions, Modal, tr } from '@takt/ui';
import { memo, useId, useMemo, useState } from 'react';
import { api } from '../api';
import { PlainTable } from '../components/ReportParts';
import { annotationBody, canSplit, draftFor, draftProblems, MESSAGE_MAX, saveErrorLines } from './model';
import type { CategorizeDraft, DowntimeRow, GridRow, Reason } from './model';
import { formatters, useLaneColors } from './TimelineCanvas';
import type { LZ } from '../reports/shared';

// The machine timeline's annotation grid and categorize form (reports-admin §2 "Machine timeline", §4, §5),
// split from the page.

// ---- The annotation grid (Start, Duration, Reason, Message, Planned)

export const Grid = memo(function Grid({
  rows,
  lz,
  canEdit,
  selectedStart,
  onShow,
  onCategorize,
}: {
  rows: GridRow[];
  lz: LZ;
  canEdit: boolean;
  selectedStart: number | null;
  onShow: (d: DowntimeRow) => void;
  onCategorize: (d: DowntimeRow) => void;
}) {
  const f = useMemo(() => formatters(lz), [lz]);
  const uncategorized = rows.filter((r) => r.uncategorized).length;
  const uncategorizedColor = useLaneColors().uncategorized;
  return (
    <section className="report__list" aria-labelledby="grid-heading">
      <h2 id="grid-heading">{tr('timeline.grid')}</h2>
      <p className="report__intro">{tr('timeline.gridIntro')}</p>
      {rows.length === 0 ? (
        <p className="notice">{tr('timeline.gridEmpty')}</p>
      ) : (
        <>
          <p className="report__intro">{tr('timeline.gridTotal', { count: rows.length, uncategorized })}</p>
          <PlainTable
            label={tr('timeline.grid')}
            columns={[
              { label: tr('timeline.col.start') },
              { label: tr('timeline.col.duration'), num: true },
              { label: tr('timeline.col.reason') },
              { label: tr('timeline.col.message') },
              { label: tr('timeline.col.planned') },
              { label: tr('timeline.col.actions') },
            ]}
          >
            {rows.map((r) => (
              <tr key={r.key} aria-selected={r.start === selectedStart || undefined}>
                <td className="num">{f.start.format(r.start)}</td>
                <td className="num-col num">{r.minutes}</td>
                <td>
                  <span
                    className={
                      r.uncategorized ? 'timeline__reason timeline__reason--none' : 'timeline__reason'
                    }
                  >
                    <span
                      className="timeline__swatch"
                      style={{
                        background: r.uncategorized ? uncategorizedColor : (r.item.color ?? undefined),
                      }}
                      aria-hidden="true"
                    />
                    {r.reason}
                  </span>
                </td>
                <td>{r.message}</td>
                <td>{r.planned}</td>
                <td className="timeline__actions">
                  {r.linkable && (
                    <button type="button" className="link-button" onClick={() => onShow(r.item)}>
                      {tr('timeline.showOnTimeline')}
                    </button>
                  )}
                  {r.linkable && canEdit && !r.item.setup && (
                    <button type="button" className="button" onClick={() => onCategorize(r.item)}>
                      {tr('timeline.categorize')}
                    </button>
                  )}
                </td>
              </tr>
            ))}
          </PlainTable>
        </>
      )}
    </section>
  );
});

// ---- The categorize form (reports-admin §4, §5, §8)

export function CategorizeForm({
  machineId,
  row,
  reasons,
  now,
  lz,
  onClose,
  onSaved,
  onStale,
}: {
  machineId: string;
  row: DowntimeRow;
  reasons: readonly Reason[];
  now: number;
  lz: LZ;
  onClose: () => void;
  onSaved: () => void;
  onStale: () => void;
}) {
  const id = useId();
  const f = useMemo(() => formatters(lz), [lz]);
  const [draft, setDraft] = useState<CategorizeDraft>(() => draftFor(row));
  const [busy, setBusy] = useState(false);
  const [errors, setErrors] = useState<string[]>([]);
  const [confirmMerge, setConfirmMerge] = useState(false);
  const problems = draftProblems(row, draft);
  const body = annotationBody(machineId, row, draft, reasons);
  const reason = reasons.find((r) => r.id === draft.reasonId);
  const annotationId = row.annotation?.id ?? null;

  const run = async (call: () => Promise<unknown>) => {
    setBusy(true);
    setErrors([]);
    try {
      await call();
      onSaved();
    } catch (err) {
      // reports-admin §8: the messages are listed and the waiting state cleared; a duplicate start reloads.
      setErrors(saveErrorLines(err));
      setBusy(false);
      if (err instanceof ApiError && err.code === 'DUPLICATE_ANNOTATION_START') onStale();
    }
  };
  const save = () => {
    if (!body) return;
    void run(() => api.request('/api/annotations', { method: 'POST', body }));
  };

  return (
    <Modal
      title={tr('downtime.title')}
      onClose={onClose}
      busy={busy}
      footer={
        <FormActions
          onCancel={onClose}
          busy={busy}
          submit={{
            label: busy ? tr('timeline.saving') : tr('timeline.save'),
            disabled: body == null || Object.keys(problems).length > 0,
            form: `${id}-form`,
          }}
        >
          {annotationId && canSplit(row, now) && (
            <button
              type="button"
              className="button"
              disabled={busy}
              onClick={() =>
                void run(() => api.request(`/api/annotations/${annotationId}/split`, { method: 'POST' }))
              }
            >
              {tr('timeline.split')}
            </button>
          )}
          {annotationId && !confirmMerge && (
            <button type="button" className="button" disabled={busy} onClick={() => setConfirmMerge(true)}>
              {tr('timeline.merge')}
            </button>
          )}
          {annotationId && (
            <button
              type="button"
              className="button"
              disabled={busy}
              onClick={() =>
                void run(() => api.request(`/api/annotations/${annotationId}`, { method: 'DELETE' }))
              }
            >
              {tr('timeline.reset')}
            </button>
          )}
        </FormActions>
      }
    >
      <form
        id={`${id}-form`}
        className="form timeline__form"
        onSubmit={(e) => {
          e.preventDefault();
          save();
        }}
      >
        <p>
          {tr('timeline.period', {
            start: f.full.format(row.start),
            minutes: (row.duration / 60_000).toFixed(2),
          })}
        </p>
        {row.setup ? (
          <p className="notice">{tr('timeline.setupNote')}</p>
        ) : (
          <div className="field">
            <label htmlFor={`${id}-reason`}>{tr('downtime.reason')}</label>
            <select
              id={`${id}-reason`}
              value={draft.reasonId}
              aria-invalid={problems.reason ? true : undefined}
              aria-describedby={problems.reason ? `${id}-reason-error` : undefined}
              onChange={(e) => setDraft({ ...draft, reasonId: e.target.value })}
            >
              <option value="">{tr('timeline.selectReason')}</option>
              {reasons.map((r) => (
                <option key={r.id} value={r.id}>
                  {r.name}
                </option>
              ))}
            </select>
            {reasons.length === 0 && <p className="field__hint">{tr('downtime.noReasons')}</p>}
            {problems.reason && (
              <p id={`${id}-reason-error`} className="field__error">
                {problems.reason}
              </p>
            )}
          </div>
        )}
        {reason?.plannedBehavior === 'operator' && (
          <label className="field field--inline">
            <input
              type="checkbox"
              checked={draft.planned}
              onChange={(e) => setDraft({ ...draft, planned: e.target.checked })}
            />
            {tr('timeline.plannedChoice')}
          </label>
        )}
        <div className="field">
          <label htmlFor={`${id}-message`}>{tr('timeline.message')}</label>
          <textarea
            id={`${id}-message`}
            rows={3}
            maxLength={MESSAGE_MAX + 50}
            value={draft.message}
            aria-invalid={problems.message ? true : undefined}
            onChange={(e) => setDraft({ ...draft, message: e.target.value })}
          />
          {problems.message && <p className="field__error">{problems.message}</p>}
        </div>
        {confirmMerge && annotationId && (
          <div className="notice notice--warning" role="alertdialog" aria-label={tr('timeline.merge')}>
            <p>{tr('timeline.mergeConfirm')}</p>
            <div className="modal__buttons">
              <button type="button" className="button" disabled={busy} onClick={() => setConfirmMerge(false)}>
                {tr('overlay.cancel')}
              </button>
              <button
                type="button"
                className="button button--primary"
                disabled={busy}
                onClick={() =>
                  void run(() => api.request(`/api/annotations/${annotationId}/merge`, { method: 'POST' }))
                }
              >
                {tr('timeline.merge')}
              </button>
            </div>
          </div>
        )}
        {errors.length > 0 && (
          <div className="notice notice--error" role="alert">
            <p>{tr('downtime.saveFailed')}</p>
            <ul>
              {errors.map((e) => (
                <li key={e}>{e}</li>
              ))}
            </ul>
          </div>
        )}
      </form>
    </Modal>
  );
}
