import type { CompanyClock } from '@takt/domain';
import { ApiError, DateRangePicker, FormActions, Modal, Progress, tr } from '@takt/ui';
import type { AppliedRange } from '@takt/ui';
import { memo, useCallback, useEffect, useId, useMemo, useState } from 'react';
import { Link } from 'react-router';
import { api } from '../api';
import { ErrorBox, PlainTable, ReportClockGate } from '../components/ReportParts';
import { machineDowntimePath } from '../routes';
import type { Hit } from '../timeline/draw';
import { clampWindow } from '../timeline/draw';
import {
  annotationBody,
  buildLanes,
  canSplit,
  draftFor,
  draftProblems,
  gridRows,
  loadsSubprograms,
  MESSAGE_MAX,
  parseReasons,
  parseSubprograms,
  periodLinks,
  readTimelineRange,
  saveErrorLines,
  TIMELINE_HORIZONS,
  TIMELINE_MAX_DAYS,
  withinLinkHorizon,
  writeTimelineRange,
} from '../timeline/model';
import type {
  CategorizeDraft,
  DowntimeRow,
  GridRow,
  Reason,
  SubprogramsAnswer,
  TimelineRange,
} from '../timeline/model';
import { usePartMarks, useTimelineBasics, useTimelineData, useTimelineView } from '../timeline/hooks';
import { useCompanyFlags, useMachine } from '../reports/hooks';
import {
  formatters,
  Legend,
  TimelineCanvas,
  TimelinePage,
  useLaneColors,
  ZoomBar,
} from '../timeline/TimelineCanvas';
import type { LZ } from '../reports/shared';

// /machine/{id}/timeline?start&end&interval (reports-admin §2 "Machine timeline"): the lanes on one canvas
// (timeline/draw.ts), zoom and pan, previous and next periods, the downtime grid and the categorize form.

const MACHINE_QUICK_LINKS = { machineReport: true } as const;

export function MachineTimelinePage() {
  return (
    <ReportClockGate title={tr('timeline.docTitle')}>
      {(clock, offsetMs) => <Timeline clock={clock} offsetMs={offsetMs} />}
    </ReportClockGate>
  );
}

function Timeline({ clock, offsetMs }: { clock: CompanyClock; offsetMs: number }) {
  const { machineId, lz, fullProduct, now, query, setQuery, search } = useTimelineBasics(offsetMs);
  const range = useMemo(
    () => readTimelineRange(new URLSearchParams(search), clock, now),
    [search, clock, now],
  );
  const cut = Number(query.get('end')) > range.end;
  const rangeKey = `${machineId}|${range.start}|${range.end}`;
  const setRange = useCallback((r: TimelineRange) => setQuery((q) => writeTimelineRange(q, r)), [setQuery]);

  // The lanes' data for the range; `version` reloads after a save.
  const [version, setVersion] = useState(0);
  const load = useTimelineData(machineId, range, version);
  const name = useMachine(machineId)?.name ?? '';
  const flags = useCompanyFlags();

  const [reasons, setReasons] = useState<Reason[]>([]);
  useEffect(() => {
    if (!fullProduct) return;
    const controller = new AbortController();
    api
      .request('/api/annotationtypes', {
        query: { machineId },
        signal: controller.signal,
        parse: parseReasons,
      })
      .then((r) => setReasons(r.filter((x) => !x.hidden)))
      .catch(() => undefined);
    return () => controller.abort();
  }, [machineId, fullProduct]);

  // The visible window: the whole range until zoomed.
  const bounds = useMemo(() => ({ start: range.start, end: range.end }), [range.start, range.end]);
  const [view, setView] = useTimelineView(rangeKey, bounds);

  // Sub-programs load for windows of at most 2 hours (reports-admin §9), a moment after zooming stops.
  const operation = load.kind === 'ready' ? load.operation : null;
  const [subprograms, setSubprograms] = useState<SubprogramsAnswer | null>(null);
  const wantsSub = !!operation?.hasSubprogram && loadsSubprograms(view);
  const subCovers =
    subprograms != null && subprograms.range.start <= view.start && subprograms.range.end >= view.end;
  useEffect(() => {
    if (!wantsSub || subCovers) return;
    const controller = new AbortController();
    const timer = setTimeout(() => {
      api
        .request('/api/reports/subprograms', {
          query: { machineId, start: Math.round(view.start), end: Math.round(view.end) },
          signal: controller.signal,
          parse: parseSubprograms,
        })
        .then(setSubprograms)
        .catch(() => undefined);
    }, 300);
    return () => {
      clearTimeout(timer);
      controller.abort();
    };
  }, [wantsSub, subCovers, machineId, view.start, view.end]);

  const colors = useLaneColors();
  const downtime = load.kind === 'ready' ? load.downtime : null;
  // reports-admin §6: with the areActivitiesEnabled flag, activities replace runs.
  const activities = flags?.areActivitiesEnabled ?? false;
  const lanes = useMemo(
    () =>
      operation && downtime
        ? buildLanes({
            operation,
            downtime,
            subprograms: wantsSub ? subprograms : null,
            now,
            colors,
            activities,
          })
        : null,
    [operation, downtime, subprograms, wantsSub, now, colors, activities],
  );
  const marks = usePartMarks(operation, view, fullProduct);

  // The categorize form and the selected downtime period.
  const [selectedStart, setSelectedStart] = useState<number | null>(null);
  const [editing, setEditing] = useState<DowntimeRow | null>(null);
  const [status, setStatus] = useState('');
  const downtimeLane = lanes?.findIndex((l) => l.id === 'downtime') ?? -1;
  const selected: Hit | null = useMemo(() => {
    if (selectedStart == null || !lanes || downtimeLane < 0) return null;
    const index = lanes[downtimeLane]!.items.findIndex((it) => it.start === selectedStart);
    return index < 0 ? null : { lane: downtimeLane, index };
  }, [selectedStart, lanes, downtimeLane]);

  const rowByStart = useMemo(() => new Map((downtime ?? []).map((d) => [d.start, d])), [downtime]);
  const open = useCallback(
    (d: DowntimeRow) => {
      // reports-admin §5: selections older than a year are cleared.
      if (!withinLinkHorizon(d.start, now)) {
        setSelectedStart(null);
        return;
      }
      setSelectedStart(d.start);
      if (fullProduct) setEditing(d);
    },
    [fullProduct, now],
  );
  const onPick = useCallback(
    (hit: Hit) => {
      if (!lanes || hit.lane !== downtimeLane) return;
      const it = lanes[hit.lane]!.items[hit.index];
      const d = it ? rowByStart.get(it.start) : undefined;
      if (d) open(d);
    },
    [lanes, downtimeLane, rowByStart, open],
  );
  const showRow = useCallback(
    (d: DowntimeRow) => {
      const end = d.end ?? now;
      const pad = Math.max((end - d.start) * 0.5, 5 * 60_000);
      setView(clampWindow({ start: d.start - pad, end: end + pad }, bounds));
      setSelectedStart(d.start);
      document.getElementById('timeline-canvas')?.scrollIntoView?.({ block: 'nearest' });
    },
    [now, bounds, setView],
  );

  // Memoized so zooming (a render per wheel event) does not re-render the table.
  const rows = useMemo(() => gridRows(downtime ?? [], now), [downtime, now]);
  const links = periodLinks(range, now);
  const title = tr('timeline.title', { name: name || '…' });
  const applied: AppliedRange = { ...range, quicklink: query.get('quicklink') };
  const rangeQuery = `?start=${range.start}&end=${range.end}`;

  return (
    <TimelinePage
      title={title}
      busy={load.kind === 'loading'}
      links={
        <Link to={`${machineDowntimePath(machineId)}${rangeQuery}&interval=day`}>
          {tr('timeline.toDowntime')}
        </Link>
      }
    >
      <div className="report__toolbar">
        <DateRangePicker
          clock={clock}
          now={now}
          locale={lz.locale}
          applied={applied}
          horizons={TIMELINE_HORIZONS}
          onApply={(r) => setRange({ start: r.start, end: r.end, interval: r.interval })}
          maxDays={TIMELINE_MAX_DAYS}
          quickLinkOptions={MACHINE_QUICK_LINKS}
        />
        <nav className="timeline__periods" aria-label={tr('timeline.periodNav')}>
          {links.previous && (
            <Link className="button" to={`?${writeTimelineRange(query, links.previous).toString()}`}>
              {tr('timeline.previous')}
            </Link>
          )}
          {links.nextDisabled ? (
            <span
              className="button button--disabled"
              aria-disabled="true"
              title={tr('timeline.nextDisabled')}
            >
              {tr('timeline.next')}
            </span>
          ) : (
            <Link className="button" to={`?${writeTimelineRange(query, links.next).toString()}`}>
              {tr('timeline.next')}
            </Link>
          )}
        </nav>
      </div>
      {cut && (
        <p className="notice notice--warning" role="status">
          {tr('timeline.rangeCut')}
        </p>
      )}
      <div className="report__body">
        {load.kind === 'loading' && <Progress />}
        {load.kind === 'error' && <ErrorBox message={load.message} />}
        {lanes && operation && (
          <>
            <section className="report__list timeline__chart" aria-labelledby="timeline-heading">
              <h2 id="timeline-heading" className="visually-hidden">
                {tr('timeline.docTitle')}
              </h2>
              <ZoomBar view={view} bounds={bounds} setView={setView} lz={lz} />
              <p className="report__intro">
                {fullProduct ? tr('timeline.help') : tr('timeline.helpReadOnly')}
              </p>
              <TimelineCanvas
                lanes={lanes}
                view={view}
                bounds={bounds}
                setView={setView}
                marks={marks}
                selected={selected}
                onPick={onPick}
                lz={lz}
                label={tr('timeline.chartLabel', { name: name || machineId })}
                colors={colors}
              />
              <Legend colors={colors} fullProduct={fullProduct} marks={marks} />
            </section>
            <Grid
              rows={rows}
              lz={lz}
              canEdit={fullProduct}
              selectedStart={selectedStart}
              onShow={showRow}
              onCategorize={open}
            />
          </>
        )}
        <p className="visually-hidden" role="status">
          {status}
        </p>
      </div>
      {editing && (
        <CategorizeForm
          key={editing.start}
          machineId={machineId}
          row={editing}
          reasons={reasons}
          now={now}
          lz={lz}
          onClose={() => setEditing(null)}
          onSaved={() => {
            setEditing(null);
            setStatus(tr('timeline.saved'));
            setVersion((v) => v + 1);
          }}
          onStale={() => setVersion((v) => v + 1)}
        />
      )}
    </TimelinePage>
  );
}

// ---- The annotation grid (Start, Duration, Reason, Message, Planned)

const Grid = memo(function Grid({
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

function CategorizeForm({
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
