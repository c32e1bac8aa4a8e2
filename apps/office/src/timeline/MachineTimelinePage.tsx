import type { CompanyClock } from '@takt/domain';
import { DateRangePicker, Progress, tr } from '@takt/ui';
import type { AppliedRange } from '@takt/ui';
import { useCallback, useEffect, useMemo, useState } from 'react';
import { Link } from 'react-router';
import { api } from '../api';
import { ErrorBox, ReportClockGate } from '../components/ReportParts';
import { machineDowntimePath } from '../routes';
import type { Hit } from './draw';
import { clampWindow } from './draw';
import {
  buildLanes,
  gridRows,
  loadsSubprograms,
  parseReasons,
  parseSubprograms,
  periodLinks,
  readTimelineRange,
  TIMELINE_HORIZONS,
  TIMELINE_MAX_DAYS,
  withinLinkHorizon,
  writeTimelineRange,
} from './model';
import type { DowntimeRow, Reason, SubprogramsAnswer, TimelineRange } from './model';
import { usePartMarks, useTimelineBasics, useTimelineData, useTimelineView } from './hooks';
import { useCompanyFlags, useMachine } from '../reports/hooks';
import { recomputingNotice } from '../reports/shared';
import { Legend, TimelineCanvas, TimelinePage, useLaneColors, ZoomBar } from './TimelineCanvas';
import { CategorizeForm, Grid } from './TimelineAnnotations';
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
  // Decision 1004: the machine's figures in the range are still being recomputed (late data, an edit).
  const unsettled = recomputingNotice(operation?.recomputing);

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
      {unsettled != null && (
        <p className="notice report__recomputing" role="status">
          {unsettled}
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
