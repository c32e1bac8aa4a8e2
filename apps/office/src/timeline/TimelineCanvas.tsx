import { formatPartTime, zoneOffset } from '@takt/domain';
import { tr } from '@takt/ui';
import type { MessageKey } from '@takt/ui';
import { memo, useEffect, useMemo, useRef, useState } from 'react';
import type { ReactNode } from 'react';
import { Link } from 'react-router';
import { cssVar } from '../components/ReportParts';
import { listTimeFormat } from '../reports/shared';
import type { LZ } from '../reports/shared';
import { PATHS } from '../routes';
import type { Geometry, Hit, Lane, Palette, TimeWindow } from './draw';
import {
  drawTimeline,
  hitTest,
  laneLayout,
  panBy,
  pinchWindow,
  plotScale,
  wheelFactor,
  windowBetween,
  zoomAt,
} from './draw';
import type { LaneColors, StateKind } from './model';

// The timeline's canvas and its tools, shared by the machine timeline (/machine/{id}/timeline) and the
// standard timeline (/app/machines/{id}/standard-timeline) of reports-admin §2: lanes drawn by draw.ts,
// zoom and pan with buttons, wheel, drag, brush, keys and pinch, tooltips, and the legend.

/** The company's locale and time zone. */

// ---- Colours from the design tokens (the canvas cannot read CSS variables)

export function useLaneColors(): LaneColors {
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

export const formatters = (lz: LZ) => ({
  time: new Intl.DateTimeFormat(lz.locale, { hour: 'numeric', minute: '2-digit', timeZone: lz.timeZone }),
  seconds: new Intl.DateTimeFormat(lz.locale, {
    hour: 'numeric',
    minute: '2-digit',
    second: '2-digit',
    timeZone: lz.timeZone,
  }),
  day: new Intl.DateTimeFormat(lz.locale, { weekday: 'short', day: 'numeric', timeZone: lz.timeZone }),
  /** The grid's Start: short enough for a phone. */
  start: listTimeFormat(lz),
  full: listTimeFormat(lz, { weekday: true, seconds: true }),
});

export const ZoomBar = memo(function ZoomBar({
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

/** reports-admin §9: which parts the zoom level lets the timeline mark (slow ones, and fast ones too). */
export interface PartMarks {
  showSlow: boolean;
  showFast: boolean;
}

export function TimelineCanvas({
  lanes,
  view,
  bounds,
  setView,
  marks: { showSlow, showFast },
  selected,
  onPick,
  lz,
  label,
  colors,
  highlight = null,
}: {
  lanes: readonly Lane[];
  view: TimeWindow;
  bounds: TimeWindow;
  setView: (w: TimeWindow) => void;
  marks: PartMarks;
  selected: Hit | null;
  onPick: (hit: Hit) => void;
  lz: LZ;
  label: string;
  colors: LaneColors;
  /** A span marked across the lanes (the standard timeline's event). */
  highlight?: TimeWindow | null;
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
        highlight,
      });
    });
    return () => cancelAnimationFrame(frame);
  }, [lanes, view, width, height, palette, showSlow, showFast, lz.timeZone, f, selected, brush, highlight]);

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

export function Legend({
  colors,
  fullProduct,
  marks,
}: {
  colors: LaneColors;
  fullProduct: boolean;
  marks: PartMarks;
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
        <Swatch color={colors.unavailable} label={tr('downtime.noData')} />
        <li>{tr('timeline.categorized')}</li>
        <li>{tr('timeline.notMonitored')}</li>
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

/** A timeline page's frame: back to the reports, the title with links beside it, then the page. */
export function TimelinePage({
  title,
  busy,
  links,
  children,
}: {
  title: string;
  busy: boolean;
  links: ReactNode;
  children: ReactNode;
}) {
  return (
    <main className="page report timeline" aria-labelledby="report-heading" aria-busy={busy}>
      <p className="report__back">
        <Link to={PATHS.reports}>← {tr('reports.backToReports')}</Link>
      </p>
      <div className="page__head">
        <h1 id="report-heading">{title}</h1>
        <div className="page__tools">{links}</div>
      </div>
      {children}
    </main>
  );
}
