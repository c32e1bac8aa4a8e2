import type { CompanyClock } from '@takt/domain';
import { formatPartTime, zoneOffset } from '@takt/domain';
import {
  ApiError,
  DateRangePicker,
  FormActions,
  localeZone,
  Modal,
  Progress,
  tr,
  useSession,
} from '@takt/ui';
import type { AppliedRange, MessageKey } from '@takt/ui';
import { memo, useCallback, useEffect, useId, useMemo, useRef, useState } from 'react';
import { Link, useParams, useSearchParams } from 'react-router';
import { api } from '../api';
import { useMinuteNow } from '../company-clock';
import { cssVar, ErrorBox, PlainTh, ReportClockGate } from '../components/ReportParts';
import { machineDowntimePath, PATHS } from '../routes';
import type { Geometry, Hit, Lane, Palette, TimeWindow } from '../timeline/draw';
import {
  clampWindow,
  drawTimeline,
  hitTest,
  laneLayout,
  panBy,
  pinchWindow,
  plotScale,
  wheelFactor,
  windowBetween,
  zoomAt,
} from '../timeline/draw';
import {
  annotationBody,
  averageCycleMs,
  buildLanes,
  canSplit,
  draftFor,
  draftProblems,
  gridRows,
  loadsSubprograms,
  MESSAGE_MAX,
  parseDowntime,
  parseOperation,
  parseReasons,
  parseSubprograms,
  partCycles,
  partMarks,
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
  LaneColors,
  OperationAnswer,
  Reason,
  StateKind,
  SubprogramsAnswer,
  TimelineRange,
} from '../timeline/model';

// /machine/{id}/timeline?start&end&interval (reports-admin §2 "Machine timeline"): the lanes on one canvas
// (timeline/draw.ts), zoom and pan, previous and next periods, the downtime grid and the categorize form.

type LZ = { locale: string; timeZone: string };
const MACHINE_QUICK_LINKS = { machineReport: true } as const;

export function MachineTimelinePage() {
  return (
    <ReportClockGate title={tr('timeline.docTitle')}>
      {(clock, offsetMs) => <Timeline clock={clock} offsetMs={offsetMs} />}
    </ReportClockGate>
  );
}

interface Loaded {
  key: string;
  operation: OperationAnswer;
  downtime: DowntimeRow[];
}

type Load = { kind: 'loading' } | { kind: 'error'; message: string } | ({ kind: 'ready' } & Loaded);

function errorText(err: unknown): string {
  return err instanceof ApiError && err.status === 400 ? err.message : tr('reports.requestError');
}

function Timeline({ clock, offsetMs }: { clock: CompanyClock; offsetMs: number }) {
  const { id: machineId = '' } = useParams();
  const { me } = useSession();
  const lz = localeZone(me);
  const fullProduct = me.permissions.includes('FullProduct');
  const now = useMinuteNow(offsetMs);
  const [query, setQuery] = useSearchParams();
  const search = query.toString();
  const range = useMemo(
    () => readTimelineRange(new URLSearchParams(search), clock, now),
    [search, clock, now],
  );
  const cut = Number(query.get('end')) > range.end;
  const rangeKey = `${machineId}|${range.start}|${range.end}`;
  const setRange = useCallback((r: TimelineRange) => setQuery((q) => writeTimelineRange(q, r)), [setQuery]);

  // The lanes' data for the range; `version` reloads after a save.
  const [version, setVersion] = useState(0);
  const [load, setLoad] = useState<Load>({ kind: 'loading' });
  const [name, setName] = useState<string>('');
  useEffect(() => {
    const controller = new AbortController();
    const signal = controller.signal;
    const q = { machineId, start: range.start, end: range.end };
    setLoad((l) => (l.kind === 'ready' && l.key === rangeKey ? l : { kind: 'loading' }));
    Promise.all([
      api.request('/api/reports/operation', { query: q, signal, parse: parseOperation }),
      api.request('/api/downtime', { query: q, signal, parse: parseDowntime }),
    ])
      .then(([operation, downtime]) =>
        setLoad({ kind: 'ready', key: rangeKey, operation, downtime: downtime.items }),
      )
      .catch((err: unknown) => {
        if (!signal.aborted) setLoad({ kind: 'error', message: errorText(err) });
      });
    return () => controller.abort();
  }, [machineId, range.start, range.end, rangeKey, version]);

  useEffect(() => {
    const controller = new AbortController();
    api
      .request<{ machines: { id: string; name: string }[] }>('/api/dashboard', { signal: controller.signal })
      .then((d) => setName(d.machines.find((m) => m.id === machineId)?.name ?? ''))
      .catch(() => undefined);
    return () => controller.abort();
  }, [machineId]);

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
  const [view, setView] = useState<TimeWindow>(bounds);
  const [viewKey, setViewKey] = useState(rangeKey);
  if (viewKey !== rangeKey) {
    setViewKey(rangeKey);
    setView(bounds);
  }

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
  const lanes = useMemo(
    () =>
      operation && downtime
        ? buildLanes({
            operation,
            downtime,
            subprograms: wantsSub ? subprograms : null,
            now,
            colors,
          })
        : null,
    [operation, downtime, subprograms, wantsSub, now, colors],
  );
  const averageMs = useMemo(() => (operation ? averageCycleMs(partCycles(operation.parts)) : 0), [operation]);
  const marks = partMarks(view.end - view.start, averageMs, fullProduct);

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
    [now, bounds],
  );

  // Memoized so zooming (a render per wheel event) does not re-render the table.
  const rows = useMemo(() => gridRows(downtime ?? [], now), [downtime, now]);
  const links = periodLinks(range, now);
  const title = tr('timeline.title', { name: name || '…' });
  const applied: AppliedRange = { ...range, quicklink: query.get('quicklink') };
  const rangeQuery = `?start=${range.start}&end=${range.end}`;

  return (
    <main
      className="page report timeline"
      aria-labelledby="report-heading"
      aria-busy={load.kind === 'loading'}
    >
      <p className="report__back">
        <Link to={PATHS.reports}>← {tr('reports.backToReports')}</Link>
      </p>
      <div className="page__head">
        <h1 id="report-heading">{title}</h1>
        <div className="page__tools">
          <Link to={`${machineDowntimePath(machineId)}${rangeQuery}&interval=day`}>
            {tr('timeline.toDowntime')}
          </Link>
        </div>
      </div>
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
                showSlow={marks.showSlow}
                showFast={marks.showFast}
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
    </main>
  );
}

// ---- Colours from the design tokens (the canvas cannot read CSS variables)

function useLaneColors(): LaneColors {
  return useMemo(
    () => ({
      active: cssVar('--status-success-bg', '#1b7a3a'),
      inactive: cssVar('--status-inactive-bg', '#5d6b78'),
      setup: cssVar('--status-setup-bg', '#1f5fbf'),
      unavailable: cssVar('--status-unavailable-bg', '#dde1e6'),
      uncategorized: cssVar('--status-danger-bg', '#c0262d'),
      fault: cssVar('--status-fault-bg', '#7b2c9e'),
      part: cssVar('--border-strong', '#8a95a1'),
      // Jobs and programs take the chart colours that no status uses (not green, red, purple, blue or grey),
      // so a job never reads as downtime or a fault.
      chart: [2, 6, 7, 8].map((i) => cssVar(`--chart-${i}`, '#00838f')),
    }),
    [],
  );
}

/** Dark text on light bars, white on dark ones (WCAG relative luminance). */
function inkOn(color: string): string {
  const m = /^#([0-9a-f]{6})$/i.exec(color.trim());
  if (!m) return '#ffffff';
  const n = parseInt(m[1]!, 16);
  const lin = (c: number) => {
    const v = c / 255;
    return v <= 0.03928 ? v / 12.92 : ((v + 0.055) / 1.055) ** 2.4;
  };
  const l = 0.2126 * lin((n >> 16) & 255) + 0.7152 * lin((n >> 8) & 255) + 0.0722 * lin(n & 255);
  return l > 0.35 ? '#1b1f24' : '#ffffff';
}

function usePalette(): Palette {
  return useMemo(
    () => ({
      surface: cssVar('--surface', '#ffffff'),
      laneBackground: cssVar('--surface-2', '#f3f5f7'),
      grid: cssVar('--surface-3', '#e6eaee'),
      text: cssVar('--text', '#1b1f24'),
      textMuted: cssVar('--text-muted', '#4f5866'),
      part: cssVar('--border-strong', '#8a95a1'),
      slow: cssVar('--status-warning-bg', '#f2b705'),
      fast: cssVar('--status-success-bg', '#1b7a3a'),
      selection: cssVar('--text', '#1b1f24'),
      brush: 'rgba(31, 95, 191, 0.18)',
      inkOn,
    }),
    [],
  );
}

// ---- Formatting on the company clock

const formatters = (lz: LZ) => ({
  time: new Intl.DateTimeFormat(lz.locale, { hour: 'numeric', minute: '2-digit', timeZone: lz.timeZone }),
  seconds: new Intl.DateTimeFormat(lz.locale, {
    hour: 'numeric',
    minute: '2-digit',
    second: '2-digit',
    timeZone: lz.timeZone,
  }),
  day: new Intl.DateTimeFormat(lz.locale, { weekday: 'short', day: 'numeric', timeZone: lz.timeZone }),
  /** The grid's Start: short enough for a phone. */
  start: new Intl.DateTimeFormat(lz.locale, {
    month: 'short',
    day: 'numeric',
    hour: 'numeric',
    minute: '2-digit',
    timeZone: lz.timeZone,
  }),
  full: new Intl.DateTimeFormat(lz.locale, {
    weekday: 'short',
    month: 'short',
    day: 'numeric',
    hour: 'numeric',
    minute: '2-digit',
    second: '2-digit',
    timeZone: lz.timeZone,
  }),
});

const ZoomBar = memo(function ZoomBar({
  view,
  bounds,
  setView,
  lz,
}: {
  view: TimeWindow;
  bounds: TimeWindow;
  setView: (w: TimeWindow) => void;
  lz: LZ;
}) {
  const f = useMemo(() => formatters(lz), [lz]);
  const mid = (view.start + view.end) / 2;
  const whole = view.start === bounds.start && view.end === bounds.end;
  return (
    <div className="timeline__zoom" role="group" aria-label={tr('timeline.zoomTools')}>
      <button type="button" className="button" onClick={() => setView(zoomAt(view, mid, 0.5, bounds))}>
        {tr('timeline.zoomIn')}
      </button>
      <button
        type="button"
        className="button"
        disabled={whole}
        onClick={() => setView(zoomAt(view, mid, 2, bounds))}
      >
        {tr('timeline.zoomOut')}
      </button>
      <button type="button" className="button" disabled={whole} onClick={() => setView(bounds)}>
        {tr('timeline.zoomReset')}
      </button>
      <span className="timeline__showing num" role="status">
        {tr('timeline.showing', { from: f.full.format(view.start), to: f.full.format(view.end) })} (
        {formatPartTime(view.end - view.start)})
      </span>
    </div>
  );
});

// ---- The canvas

const STATE_KINDS: readonly StateKind[] = ['active', 'inactive', 'setup', 'unavailable'];
const STATE_TEXT: Record<StateKind, MessageKey> = {
  active: 'timeline.state.active',
  inactive: 'timeline.state.inactive',
  setup: 'timeline.state.setup',
  unavailable: 'timeline.state.unavailable',
};

const geometryFor = (width: number): Geometry => ({
  width,
  labelWidth: width < 600 ? 86 : 112,
  laneHeight: width < 600 ? 30 : 34,
  laneGap: 4,
  axisHeight: 26,
});

function TimelineCanvas({
  lanes,
  view,
  bounds,
  setView,
  showSlow,
  showFast,
  selected,
  onPick,
  lz,
  label,
  colors,
}: {
  lanes: readonly Lane[];
  view: TimeWindow;
  bounds: TimeWindow;
  setView: (w: TimeWindow) => void;
  showSlow: boolean;
  showFast: boolean;
  selected: Hit | null;
  onPick: (hit: Hit) => void;
  lz: LZ;
  label: string;
  colors: LaneColors;
}) {
  const boxRef = useRef<HTMLDivElement>(null);
  const canvasRef = useRef<HTMLCanvasElement>(null);
  const [width, setWidth] = useState(0);
  const palette = usePalette();
  const f = useMemo(() => formatters(lz), [lz]);
  const g = geometryFor(width);
  const height = laneLayout(lanes.length, g).height;
  const [brush, setBrush] = useState<{ x1: number; x2: number } | null>(null);
  const [tip, setTip] = useState<{ x: number; y: number; text: string } | null>(null);
  // The latest view for the event handlers (a wheel burst must not read a stale one between renders).
  const viewRef = useRef(view);
  useEffect(() => {
    viewRef.current = view;
  }, [view]);

  useEffect(() => {
    const el = boxRef.current;
    if (!el) return;
    const ro = new ResizeObserver(() => setWidth(Math.floor(el.clientWidth)));
    ro.observe(el);
    setWidth(Math.floor(el.clientWidth));
    return () => ro.disconnect();
  }, []);

  // One draw per animation frame, whatever the number of changes in it.
  useEffect(() => {
    const canvas = canvasRef.current;
    if (!canvas || width === 0) return;
    const frame = requestAnimationFrame(() => {
      const dpr = window.devicePixelRatio || 1;
      if (canvas.width !== Math.round(width * dpr)) canvas.width = Math.round(width * dpr);
      if (canvas.height !== Math.round(height * dpr)) canvas.height = Math.round(height * dpr);
      const ctx = canvas.getContext('2d');
      if (!ctx) return;
      drawTimeline(ctx, {
        lanes,
        window: view,
        geometry: geometryFor(width),
        dpr,
        palette,
        showSlow,
        showFast,
        offsetMs: zoneOffset(lz.timeZone, view.start),
        formatTick: (t, step) => {
          const local = t + zoneOffset(lz.timeZone, t);
          if (local % 86_400_000 === 0) return f.day.format(t);
          return step < 60_000 ? f.seconds.format(t) : f.time.format(t);
        },
        selected,
        brush,
      });
    });
    return () => cancelAnimationFrame(frame);
  }, [lanes, view, width, height, palette, showSlow, showFast, lz.timeZone, f, selected, brush]);

  // Wheel zoom needs a non-passive listener to keep the page from scrolling.
  useEffect(() => {
    const canvas = canvasRef.current;
    if (!canvas) return;
    const onWheel = (e: WheelEvent) => {
      const geo = geometryFor(canvas.clientWidth);
      if (e.offsetX < geo.labelWidth) return;
      e.preventDefault();
      const w = viewRef.current;
      const s = plotScale(w, geo);
      const next =
        Math.abs(e.deltaX) > Math.abs(e.deltaY)
          ? panBy(w, e.deltaX * s.msPerPx, bounds)
          : zoomAt(w, s.toT(e.offsetX), wheelFactor(e.deltaY), bounds);
      viewRef.current = next;
      setView(next);
    };
    canvas.addEventListener('wheel', onWheel, { passive: false });
    return () => canvas.removeEventListener('wheel', onWheel);
  }, [bounds, setView]);

  const drag = useRef<{ x: number; start: TimeWindow; brush: boolean; moved: boolean } | null>(null);
  // Touch: the fingers down on the canvas, and the pinch they make when there are two.
  const fingers = useRef(new Map<number, number>());
  const pinch = useRef<{ from: TimeWindow; a: number; b: number; a0: number; b0: number } | null>(null);
  const xy = (e: { clientX: number; clientY: number }) => {
    const r = canvasRef.current!.getBoundingClientRect();
    return { x: e.clientX - r.left, y: e.clientY - r.top };
  };
  const describe = (hit: Hit): string => {
    const lane = lanes[hit.lane]!;
    const it = lane.items[hit.index]!;
    const span = `${f.full.format(it.start)} – ${f.seconds.format(it.end)} (${formatPartTime(it.end - it.start)})`;
    if (lane.id === 'states') {
      const kind = STATE_KINDS.find((k) => colors[k] === it.color) ?? 'unavailable';
      return `${tr(STATE_TEXT[kind])} · ${span}`;
    }
    if (lane.id === 'parts') {
      const tone =
        it.tone === 'slow' && showSlow
          ? ` · ${tr('timeline.slowPart')}`
          : it.tone === 'fast' && showFast
            ? ` · ${tr('timeline.fastPart')}`
            : '';
      return `${tr('timeline.part')} ${f.seconds.format(it.end)} · ${formatPartTime(it.end - it.start)}${tone}`;
    }
    return `${it.label ?? lane.label} · ${span}`;
  };

  return (
    <div className="timeline__canvas-box" ref={boxRef}>
      <canvas
        id="timeline-canvas"
        ref={canvasRef}
        className="timeline__canvas"
        style={{ width: `${width}px`, height: `${height}px` }}
        role="img"
        aria-label={label}
        tabIndex={0}
        onKeyDown={(e) => {
          const w = view;
          const span = w.end - w.start;
          const mid = (w.start + w.end) / 2;
          const next =
            e.key === 'ArrowLeft'
              ? panBy(w, -span / 10, bounds)
              : e.key === 'ArrowRight'
                ? panBy(w, span / 10, bounds)
                : e.key === '+' || e.key === '='
                  ? zoomAt(w, mid, 0.5, bounds)
                  : e.key === '-'
                    ? zoomAt(w, mid, 2, bounds)
                    : null;
          if (next) {
            e.preventDefault();
            setView(next);
          }
        }}
        onPointerDown={(e) => {
          const p = xy(e);
          if (p.x < g.labelWidth) return;
          e.currentTarget.setPointerCapture(e.pointerId);
          fingers.current.set(e.pointerId, p.x);
          if (fingers.current.size === 2) {
            const [[a, a0], [b, b0]] = [...fingers.current.entries()] as [[number, number], [number, number]];
            pinch.current = { from: viewRef.current, a, b, a0, b0 };
            drag.current = null;
            return;
          }
          drag.current = { x: p.x, start: viewRef.current, brush: e.shiftKey, moved: false };
        }}
        onPointerMove={(e) => {
          const p = xy(e);
          if (fingers.current.has(e.pointerId)) fingers.current.set(e.pointerId, p.x);
          const pz = pinch.current;
          if (pz) {
            const a1 = fingers.current.get(pz.a);
            const b1 = fingers.current.get(pz.b);
            if (a1 == null || b1 == null) return;
            const next = pinchWindow(pz.from, { a0: pz.a0, b0: pz.b0, a1, b1 }, g, bounds);
            viewRef.current = next;
            setView(next);
            return;
          }
          const d = drag.current;
          if (d) {
            if (Math.abs(p.x - d.x) > 3) d.moved = true;
            if (!d.moved) return;
            setTip(null);
            if (d.brush) setBrush({ x1: d.x, x2: p.x });
            else {
              const s = plotScale(d.start, g);
              const next = panBy(d.start, -(p.x - d.x) * s.msPerPx, bounds);
              viewRef.current = next;
              setView(next);
            }
            return;
          }
          const hit = hitTest(lanes, view, g, p.x, p.y);
          e.currentTarget.style.cursor =
            hit && lanes[hit.lane]!.clickable ? 'pointer' : p.x >= g.labelWidth ? 'grab' : 'default';
          setTip(hit ? { x: p.x, y: p.y, text: describe(hit) } : null);
        }}
        onPointerLeave={() => setTip(null)}
        onPointerCancel={(e) => {
          fingers.current.delete(e.pointerId);
          pinch.current = null;
          drag.current = null;
        }}
        onPointerUp={(e) => {
          fingers.current.delete(e.pointerId);
          if (pinch.current) {
            if (fingers.current.size < 2) pinch.current = null;
            return;
          }
          const d = drag.current;
          drag.current = null;
          if (!d) return;
          const p = xy(e);
          if (d.brush && d.moved) {
            setBrush(null);
            setView(windowBetween(d.x, p.x, d.start, g, bounds));
            return;
          }
          if (d.moved) return;
          const hit = hitTest(lanes, view, g, p.x, p.y);
          if (hit && lanes[hit.lane]!.clickable) onPick(hit);
        }}
      />
      {tip && (
        <div
          className="timeline__tip"
          style={{ left: `${Math.min(tip.x + 12, Math.max(0, width - 260))}px`, top: `${tip.y + 14}px` }}
          role="tooltip"
        >
          {tip.text}
        </div>
      )}
    </div>
  );
}

function Swatch({ color, label }: { color: string; label: string }) {
  return (
    <li>
      <span className="timeline__swatch" style={{ background: color }} aria-hidden="true" />
      {label}
    </li>
  );
}

function Legend({
  colors,
  fullProduct,
  marks,
}: {
  colors: LaneColors;
  fullProduct: boolean;
  marks: { showSlow: boolean; showFast: boolean };
}) {
  const partsNote = !fullProduct
    ? null
    : marks.showFast
      ? tr('timeline.partsMarked')
      : marks.showSlow
        ? tr('timeline.slowMarked')
        : tr('timeline.zoomForParts');
  return (
    <div className="timeline__legend">
      <ul aria-label={tr('timeline.lane.states')}>
        <Swatch color={colors.active} label={tr('timeline.state.active')} />
        <Swatch color={colors.inactive} label={tr('timeline.state.inactive')} />
        <Swatch color={colors.setup} label={tr('timeline.state.setup')} />
        <Swatch color={colors.unavailable} label={tr('timeline.state.unavailable')} />
      </ul>
      <ul aria-label={tr('timeline.lane.downtime')}>
        <Swatch color={colors.uncategorized} label={tr('timeline.uncategorized')} />
        <li>{tr('timeline.categorized')}</li>
      </ul>
      <ul aria-label={tr('timeline.lane.parts')}>
        <Swatch color={colors.part} label={tr('timeline.part')} />
        {fullProduct && (
          <Swatch color={cssVar('--status-warning-bg', '#f2b705')} label={tr('timeline.slowPart')} />
        )}
        {fullProduct && <Swatch color={colors.active} label={tr('timeline.fastPart')} />}
        <Swatch color={colors.fault} label={tr('timeline.fault')} />
      </ul>
      {partsNote && <p className="report__caption">{partsNote}</p>}
    </div>
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
          <div className="table-wrap">
            <table className="table" aria-label={tr('timeline.grid')}>
              <thead>
                <tr>
                  <PlainTh label={tr('timeline.col.start')} />
                  <PlainTh label={tr('timeline.col.duration')} className="num-col" />
                  <PlainTh label={tr('timeline.col.reason')} />
                  <PlainTh label={tr('timeline.col.message')} />
                  <PlainTh label={tr('timeline.col.planned')} />
                  <PlainTh label={tr('timeline.col.actions')} />
                </tr>
              </thead>
              <tbody>
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
              </tbody>
            </table>
          </div>
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
