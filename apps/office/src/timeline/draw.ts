// The machine timeline's geometry and drawing (reports-admin §2 "Machine timeline", §9 "Timeline zoom
// minimum 10 s"). Pure: no DOM, no clock. The page hands drawTimeline a canvas 2D context; the bench and the
// tests hand it a fake one. Lanes hold items sorted by start with a running maximum of their ends, so the
// visible ones are found by binary search and a 7-day window of a busy machine (tens of thousands of
// intervals) draws one rectangle per screen pixel at most, never one per interval.
// Beside it: the lanes, scale, layout and hit test (geometry.ts) and zoom and pan (zoom.ts); callers import
// all of it from here.
import type { Geometry, Hit, Lane, LaneBox, Scale, TimelineItem, TimeWindow } from './geometry';
import { laneLayout, plotScale, visibleRange } from './geometry';

export type { Geometry, Hit, Lane, LaneBox, Scale, TimelineItem, TimeWindow } from './geometry';
export { hitTest, laneLayout, laneOf, MIN_WINDOW_MS, plotScale, scaleOf, visibleRange } from './geometry';
export { clampWindow, panBy, pinchWindow, wheelFactor, windowBetween, zoomAt } from './zoom';

// ---- Axis

const SECOND = 1000;
const MINUTE = 60 * SECOND;
const HOUR = 60 * MINUTE;
const DAY = 24 * HOUR;
const STEPS = [
  SECOND,
  2 * SECOND,
  5 * SECOND,
  10 * SECOND,
  15 * SECOND,
  30 * SECOND,
  MINUTE,
  2 * MINUTE,
  5 * MINUTE,
  10 * MINUTE,
  15 * MINUTE,
  30 * MINUTE,
  HOUR,
  2 * HOUR,
  3 * HOUR,
  6 * HOUR,
  12 * HOUR,
  DAY,
];

/**
 * Tick times for the axis: the smallest round step leaving at least `minPx` between labels, aligned to the
 * company's wall clock (`offsetMs`: the zone's UTC offset in the window, so 06:00 is a tick, not 06:00 UTC).
 */
export function axisTicks(w: TimeWindow, widthPx: number, offsetMs: number, minPx = 90) {
  const msPerPx = (w.end - w.start) / Math.max(1, widthPx);
  const step = STEPS.find((s) => s / msPerPx >= minPx) ?? DAY * Math.ceil((minPx * msPerPx) / DAY);
  const first = Math.ceil((w.start + offsetMs) / step) * step - offsetMs;
  const ticks: number[] = [];
  for (let t = first; t <= w.end && ticks.length < 500; t += step) ticks.push(t);
  return { step, ticks };
}

// ---- Drawing

/** The part of CanvasRenderingContext2D the timeline uses (a fake one counts calls in tests and the bench). */
export interface DrawContext {
  fillStyle: unknown;
  strokeStyle: unknown;
  lineWidth: number;
  font: string;
  textBaseline: CanvasTextBaseline;
  textAlign: CanvasTextAlign;
  setTransform(a: number, b: number, c: number, d: number, e: number, f: number): void;
  clearRect(x: number, y: number, w: number, h: number): void;
  fillRect(x: number, y: number, w: number, h: number): void;
  strokeRect(x: number, y: number, w: number, h: number): void;
  fillText(text: string, x: number, y: number): void;
  measureText(text: string): { width: number };
  save(): void;
  restore(): void;
  beginPath(): void;
  rect(x: number, y: number, w: number, h: number): void;
  clip(): void;
}

export interface Palette {
  surface: string;
  laneBackground: string;
  grid: string;
  text: string;
  textMuted: string;
  /** Parts as plain ticks, and the slow and fast marks (reports-admin §9). */
  part: string;
  slow: string;
  fast: string;
  selection: string;
  /** The drag-to-zoom selection (translucent). */
  brush: string;
  /** Text drawn on a bar of this colour (dark or light for contrast). */
  inkOn: (color: string) => string;
}

export interface Scene {
  lanes: readonly Lane[];
  window: TimeWindow;
  geometry: Geometry;
  dpr: number;
  palette: Palette;
  /** reports-admin §9: slow parts marked when the window is at most 75 × the average cycle, fast at 10 ×. */
  showSlow: boolean;
  showFast: boolean;
  /** The axis labels on the company clock. */
  formatTick: (t: number, step: number) => string;
  offsetMs: number;
  selected?: Hit | null;
  /** A drag-to-zoom selection in progress, in CSS px. */
  brush?: { x1: number; x2: number } | null;
  /**
   * A time span marked across every lane (the standard timeline's event, reports-admin §2 startTime and
   * endTime), at least 2 px wide so a short stop in a long window still shows.
   */
  highlight?: TimeWindow | null;
}

/** Counts what a frame drew (for the bench and tests). */
export interface DrawStats {
  rects: number;
  visibleItems: number;
}

const LABEL_MIN_PX = 36;

/**
 * Draws the scene. One fillRect per pixel column at most per lane: intervals narrower than a pixel are
 * merged into their column, painted with the colour that covers most of it (so a 7-day view shows the
 * dominant state of each few minutes), and neighbouring runs of one colour are merged into one rectangle.
 */
export function drawTimeline(ctx: DrawContext, scene: Scene): DrawStats {
  const { lanes, window: w, geometry: g, palette: p, dpr } = scene;
  const { boxes, height } = laneLayout(lanes.length, g);
  const s = plotScale(w, g);
  const stats: DrawStats = { rects: 0, visibleItems: 0 };
  ctx.setTransform(dpr, 0, 0, dpr, 0, 0);
  ctx.clearRect(0, 0, g.width, height);
  ctx.fillStyle = p.surface;
  ctx.fillRect(0, 0, g.width, height);

  // Axis: tick labels above, grid lines through the lanes.
  const { step, ticks } = axisTicks(w, g.width - g.labelWidth, scene.offsetMs);
  ctx.font = '12px system-ui, sans-serif';
  ctx.textBaseline = 'middle';
  ctx.textAlign = 'center';
  for (const t of ticks) {
    const x = s.toX(t);
    ctx.fillStyle = p.grid;
    ctx.fillRect(Math.round(x), g.axisHeight - 4, 1, height - g.axisHeight + 4);
    ctx.fillStyle = p.textMuted;
    const label = scene.formatTick(t, step);
    const half = ctx.measureText(label).width / 2;
    // Keep the first and last labels inside the plot.
    const cx = Math.min(Math.max(x, g.labelWidth + half), g.width - half);
    ctx.fillText(label, cx, g.axisHeight / 2);
  }

  const plotWidth = g.width - g.labelWidth;
  for (let li = 0; li < lanes.length; li++) {
    const lane = lanes[li]!;
    const box = boxes[li]!;
    ctx.fillStyle = p.laneBackground;
    ctx.fillRect(g.labelWidth, box.top, plotWidth, box.height);
    stats.rects++;
    ctx.fillStyle = p.text;
    ctx.textAlign = 'left';
    ctx.font = '600 12px system-ui, sans-serif';
    ctx.fillText(fitText(ctx, lane.label, g.labelWidth - 10), 6, box.top + box.height / 2);

    ctx.save();
    ctx.beginPath();
    ctx.rect(g.labelWidth, box.top, plotWidth, box.height);
    ctx.clip();
    const [from, to] = visibleRange(lane, w);
    stats.visibleItems += to - from;
    if (to === from && lane.note) {
      ctx.fillStyle = p.textMuted;
      ctx.font = 'italic 12px system-ui, sans-serif';
      ctx.fillText(fitText(ctx, lane.note, plotWidth - 16), g.labelWidth + 8, box.top + box.height / 2);
    }
    const paint: LanePaint = { ctx, lane, from, to, s, box, scene };
    stats.rects += drawItems(paint);
    drawLabels(paint);
    ctx.restore();
  }

  const hl = scene.highlight;
  if (hl && hl.end >= w.start && hl.start <= w.end) {
    const x0 = Math.max(s.toX(hl.start), g.labelWidth);
    const x1 = Math.max(Math.min(s.toX(hl.end), g.width), x0 + 2);
    ctx.fillStyle = p.brush;
    ctx.fillRect(x0, g.axisHeight, x1 - x0, height - g.axisHeight);
    stats.rects++;
    ctx.strokeStyle = p.selection;
    ctx.lineWidth = 2;
    ctx.strokeRect(x0, g.axisHeight, x1 - x0, height - g.axisHeight);
  }
  const sel = scene.selected;
  if (sel && lanes[sel.lane]?.items[sel.index]) {
    const it = lanes[sel.lane]!.items[sel.index]!;
    const box = boxes[sel.lane]!;
    const x0 = Math.max(s.toX(it.start), g.labelWidth);
    const x1 = Math.min(s.toX(it.end), g.width);
    ctx.strokeStyle = p.selection;
    ctx.lineWidth = 2;
    ctx.strokeRect(x0 - 1, box.top - 1, Math.max(2, x1 - x0 + 2), box.height + 2);
  }
  if (scene.brush) {
    const x1 = Math.max(g.labelWidth, Math.min(scene.brush.x1, scene.brush.x2));
    const x2 = Math.min(g.width, Math.max(scene.brush.x1, scene.brush.x2));
    ctx.fillStyle = p.brush;
    ctx.fillRect(x1, g.axisHeight, x2 - x1, height - g.axisHeight);
    ctx.strokeStyle = p.selection;
    ctx.lineWidth = 1;
    ctx.strokeRect(x1, g.axisHeight, x2 - x1, height - g.axisHeight);
  }
  return stats;
}

/** The colour an item is drawn with in this scene (slow and fast parts only when the window allows). */
function colorOf(it: TimelineItem, scene: Scene): string {
  if (it.tone === 'slow' && scene.showSlow) return scene.palette.slow;
  if (it.tone === 'fast' && scene.showFast) return scene.palette.fast;
  return it.color;
}

/** What drawing the visible items [from, to) of one lane needs. */
interface LanePaint {
  ctx: DrawContext;
  lane: Lane;
  from: number;
  to: number;
  s: Scale;
  box: LaneBox;
  scene: Scene;
}

function drawItems({ ctx, lane, from, to, s, box, scene }: LanePaint): number {
  const { geometry: g, dpr } = scene;
  const left = g.labelWidth;
  const right = g.width;
  const pad = 3;
  const top = box.top + pad;
  const h = box.height - 2 * pad;
  // One device pixel: the narrowest thing drawn.
  const px = 1 / dpr;
  let rects = 0;
  // The pending rectangle (merged runs of one colour).
  let runColor = '';
  let runX0 = 0;
  let runX1 = 0;
  const flushRun = () => {
    if (!runColor) return;
    ctx.fillStyle = runColor;
    ctx.fillRect(runX0, top, runX1 - runX0, h);
    rects++;
    runColor = '';
  };
  const push = (color: string, x0: number, x1: number) => {
    if (color === runColor && x0 <= runX1 + px / 2) {
      runX1 = Math.max(runX1, x1);
      return;
    }
    flushRun();
    runColor = color;
    runX0 = x0;
    runX1 = x1;
  };
  // The current pixel column of sub-pixel items: how long each colour covers it (a few colours at most, so
  // two small arrays beat a Map in the hot loop).
  let column = -1;
  const coverColor: string[] = [];
  const coverWeight: number[] = [];
  let covers = 0;
  const flushColumn = () => {
    if (column < 0) return;
    let best = 0;
    for (let k = 1; k < covers; k++) if (coverWeight[k]! > coverWeight[best]!) best = k;
    const x0 = column * px;
    push(coverColor[best]!, x0, x0 + px);
    covers = 0;
    column = -1;
  };
  const cover = (color: string, weight: number) => {
    for (let k = 0; k < covers; k++) {
      if (coverColor[k] === color) {
        coverWeight[k]! += weight;
        return;
      }
    }
    coverColor[covers] = color;
    coverWeight[covers] = weight;
    covers++;
  };
  for (let i = from; i < to; i++) {
    const it = lane.items[i]!;
    const color = colorOf(it, scene);
    const x0 = Math.max(left, s.toX(it.start));
    const x1 = Math.min(right, s.toX(it.end));
    if (x1 - x0 >= px) {
      flushColumn();
      // Snap to device pixels so neighbouring bars neither overlap nor leave hairline gaps.
      const a = Math.round(x0 / px) * px;
      const b = Math.round(x1 / px) * px;
      push(color, a, lane.separate && b - a >= 3 ? b - 1 : b);
      continue;
    }
    const c = Math.floor(x0 / px);
    if (c !== column) {
      flushColumn();
      column = c;
    }
    // An instant (a part) weighs as much as a pixel's worth of time, so it shows.
    cover(color, Math.max(x1 - x0, px));
  }
  flushColumn();
  flushRun();
  return rects;
}

/** Names inside bars wide enough to hold some text (jobs, programs, reasons). */
function drawLabels({ ctx, lane, from, to, s, box, scene }: LanePaint) {
  const { geometry: g } = scene;
  ctx.font = '12px system-ui, sans-serif';
  ctx.textAlign = 'left';
  let lastRight = -Infinity;
  for (let i = from; i < to; i++) {
    const it = lane.items[i]!;
    if (!it.label) continue;
    const x0 = Math.max(g.labelWidth, s.toX(it.start));
    const x1 = Math.min(g.width, s.toX(it.end));
    if (x1 - x0 < LABEL_MIN_PX || x0 < lastRight) continue;
    const room = x1 - x0 - 8;
    const text = fitText(ctx, it.label, room);
    if (!text) continue;
    ctx.fillStyle = scene.palette.inkOn(colorOf(it, scene));
    ctx.fillText(text, x0 + 4, box.top + box.height / 2);
    lastRight = x1;
  }
}

/** The label, cut with an ellipsis to fit `room` px; '' when not even one letter fits. */
export function fitText(ctx: Pick<DrawContext, 'measureText'>, text: string, room: number): string {
  if (ctx.measureText(text).width <= room) return text;
  let lo = 0;
  let hi = text.length;
  while (lo < hi) {
    const mid = (lo + hi + 1) >>> 1;
    if (ctx.measureText(`${text.slice(0, mid)}…`).width <= room) lo = mid;
    else hi = mid - 1;
  }
  return lo === 0 ? '' : `${text.slice(0, lo)}…`;
}
