// The machine timeline's geometry (reports-admin §2 "Machine timeline"): lanes of items sorted by start with
// a running maximum of their ends, so the visible ones are found by binary search; time ↔ x; the lanes'
// layout and what lies under the pointer. Pure: no DOM, no clock.

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
