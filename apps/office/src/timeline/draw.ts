// The machine timeline's geometry and drawing (reports-admin §2 "Machine timeline", §9 "Timeline zoom
// minimum 10 s"). Pure: no DOM, no clock. The page hands drawTimeline a canvas 2D context; the bench and the
// tests hand it a fake one. Lanes hold items sorted by start with a running maximum of their ends, so the
// visible ones are found by binary search and a 7-day window of a busy machine (tens of thousands of
// intervals) draws one rectangle per screen pixel at most, never one per interval.

/** One interval (or, when start === end, one instant) of a lane, in epoch ms. */
export interface TimelineItem {
  start: number;
  end: number;
  color: string;
  /** Drawn inside the bar when it is wide enough (job, program, reason). */
  label?: string | null;
  /** Parts: 'slow' and 'fast' are marked only when the window allows it (reports-admin §9). */
  tone?: 'slow' | 'fast' | null;
}

export interface Lane {
  id: string;
  label: string;
  items: readonly TimelineItem[];
  /** maxEnd[i] = the latest end among items[0..i]: monotonic, so it can be searched. */
  maxEnd: Float64Array;
  /** Shown in the lane when it has nothing to draw (e.g. "Zoom in to 2 hours to see sub-programs"). */
  note?: string | null;
  /** Items can be clicked (the downtime lane opens the categorize form). */
  clickable?: boolean;
  /** Each item its own bar, with a pixel's gap after it (parts), instead of merging neighbours. */
  separate?: boolean;
}

export interface TimeWindow {
  start: number;
  end: number;
}

/** reports-admin §9: "Timeline zoom minimum 10 s". */
export const MIN_WINDOW_MS = 10_000;

/** A lane from its items in any order (sorted by start here; the items are not copied when already sorted). */
export function laneOf(
  id: string,
  label: string,
  items: readonly TimelineItem[],
  extra: Pick<Lane, 'note' | 'clickable' | 'separate'> = {},
): Lane {
  let sorted = true;
  for (let i = 1; i < items.length; i++) {
    if (items[i]!.start < items[i - 1]!.start) {
      sorted = false;
      break;
    }
  }
  const list = sorted ? items : [...items].sort((a, b) => a.start - b.start);
  const maxEnd = new Float64Array(list.length);
  let m = -Infinity;
  for (let i = 0; i < list.length; i++) {
    m = Math.max(m, list[i]!.end);
    maxEnd[i] = m;
  }
  return { id, label, items: list, maxEnd, ...extra };
}

/**
 * The items of a lane that touch [w.start, w.end]: indexes [from, to). An item touches when it ends at or
 * after the window's start and starts at or before its end (instants on the edges count).
 */
export function visibleRange(lane: Pick<Lane, 'items' | 'maxEnd'>, w: TimeWindow): [number, number] {
  const { items, maxEnd } = lane;
  // First index whose running max end reaches the window: nothing before it can be visible.
  let lo = 0;
  let hi = items.length;
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    if (maxEnd[mid]! < w.start) lo = mid + 1;
    else hi = mid;
  }
  const from = lo;
  // First index starting after the window.
  hi = items.length;
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    if (items[mid]!.start <= w.end) lo = mid + 1;
    else hi = mid;
  }
  return [from, lo];
}

/** Time ↔ x (CSS px) for a window drawn from x0 over `width` pixels. */
export interface Scale {
  toX: (t: number) => number;
  toT: (x: number) => number;
  msPerPx: number;
}

export function scaleOf(w: TimeWindow, x0: number, width: number): Scale {
  const span = Math.max(1, w.end - w.start);
  const k = Math.max(1, width) / span;
  return {
    toX: (t) => x0 + (t - w.start) * k,
    toT: (x) => w.start + (x - x0) / k,
    msPerPx: 1 / k,
  };
}

// ---- Layout

export interface Geometry {
  /** CSS pixels. */
  width: number;
  /** Room for the lane names on the left (less on a phone). */
  labelWidth: number;
  laneHeight: number;
  laneGap: number;
  /** The time axis above the lanes. */
  axisHeight: number;
}

export interface LaneBox {
  top: number;
  height: number;
}

export function laneLayout(laneCount: number, g: Geometry): { boxes: LaneBox[]; height: number } {
  const boxes: LaneBox[] = [];
  let y = g.axisHeight;
  for (let i = 0; i < laneCount; i++) {
    boxes.push({ top: y, height: g.laneHeight });
    y += g.laneHeight + g.laneGap;
  }
  return { boxes, height: y };
}

/** The plot's x range: right of the lane names. */
export const plotScale = (w: TimeWindow, g: Geometry): Scale =>
  scaleOf(w, g.labelWidth, g.width - g.labelWidth);

export interface Hit {
  lane: number;
  index: number;
}

/**
 * What lies under (x, y): the lane by y, then the item under x (an interval covering the pointer's time, or
 * the nearest instant or thin interval within `slopPx`). Null outside the plot or over nothing.
 */
export function hitTest(
  lanes: readonly Pick<Lane, 'items' | 'maxEnd'>[],
  w: TimeWindow,
  g: Geometry,
  x: number,
  y: number,
  slopPx = 4,
): Hit | null {
  if (x < g.labelWidth || x > g.width) return null;
  const { boxes } = laneLayout(lanes.length, g);
  const lane = boxes.findIndex((b) => y >= b.top && y < b.top + b.height);
  if (lane < 0) return null;
  const s = plotScale(w, g);
  const t = s.toT(x);
  const slop = slopPx * s.msPerPx;
  const [from, to] = visibleRange(lanes[lane]!, { start: t - slop, end: t + slop });
  let best: number | null = null;
  let bestDistance = Infinity;
  const items = lanes[lane]!.items;
  for (let i = from; i < to; i++) {
    const it = items[i]!;
    // 0 inside the item, else how far outside.
    const distance = t < it.start ? it.start - t : t > it.end ? t - it.end : 0;
    // The latest-starting covering item wins a tie: it is the one drawn on top.
    if (distance <= bestDistance && distance <= slop) {
      best = i;
      bestDistance = distance;
    }
  }
  return best === null ? null : { lane, index: best };
}

// ---- Zoom and pan (reports-admin §9: at least 10 s; never outside the loaded range)

/** Keeps a window inside `bounds` and at least MIN_WINDOW_MS long (or the bounds, if shorter). */
export function clampWindow(w: TimeWindow, bounds: TimeWindow): TimeWindow {
  const full = bounds.end - bounds.start;
  const span = Math.min(full, Math.max(w.end - w.start, Math.min(MIN_WINDOW_MS, full)));
  const start = Math.min(Math.max(w.start, bounds.start), bounds.end - span);
  return { start, end: start + span };
}

/** Zoom by `factor` (< 1 in, > 1 out) keeping the time under the pointer (`anchor`) where it is. */
export function zoomAt(w: TimeWindow, anchor: number, factor: number, bounds: TimeWindow): TimeWindow {
  const full = bounds.end - bounds.start;
  const span = Math.min(full, Math.max(Math.min(MIN_WINDOW_MS, full), (w.end - w.start) * factor));
  const a = Math.min(Math.max(anchor, w.start), w.end);
  const ratio = (a - w.start) / Math.max(1, w.end - w.start);
  const start = a - ratio * span;
  return clampWindow({ start, end: start + span }, bounds);
}

export function panBy(w: TimeWindow, deltaMs: number, bounds: TimeWindow): TimeWindow {
  const span = w.end - w.start;
  const start = Math.min(Math.max(w.start + deltaMs, bounds.start), bounds.end - span);
  return { start, end: start + span };
}

/** A window selected by dragging from x1 to x2 (either order). */
export function windowBetween(x1: number, x2: number, w: TimeWindow, g: Geometry, bounds: TimeWindow) {
  const s = plotScale(w, g);
  const a = s.toT(Math.min(x1, x2));
  const b = s.toT(Math.max(x1, x2));
  const mid = (a + b) / 2;
  const span = Math.max(b - a, MIN_WINDOW_MS);
  return clampWindow({ start: mid - span / 2, end: mid + span / 2 }, bounds);
}

/**
 * Two-finger pinch: the window in which the times that were under the fingers (at a0 and b0, in the window
 * `from` the pinch started with) are under them again at a1 and b1.
 */
export function pinchWindow(
  from: TimeWindow,
  fingers: { a0: number; b0: number; a1: number; b1: number },
  g: Geometry,
  bounds: TimeWindow,
): TimeWindow {
  const s = plotScale(from, g);
  const ta = s.toT(fingers.a0);
  const tb = s.toT(fingers.b0);
  const apart = fingers.b1 - fingers.a1;
  if (Math.abs(apart) < 8 || Math.abs(fingers.b0 - fingers.a0) < 8) return from;
  const msPerPx = Math.abs((tb - ta) / apart);
  const span = msPerPx * (g.width - g.labelWidth);
  const start = ta - (fingers.a1 - g.labelWidth) * msPerPx * Math.sign(apart * (tb - ta));
  return clampWindow({ start, end: start + span }, bounds);
}

/** A wheel notch zooms by about 20 %; trackpads send small deltas and zoom smoothly. */
export const wheelFactor = (deltaY: number): number =>
  Math.exp(Math.max(-500, Math.min(500, deltaY)) * 0.002);

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
