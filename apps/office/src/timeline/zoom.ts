// Zoom and pan of the machine timeline's window (reports-admin §9: at least 10 s; never outside the loaded
// range). Pure: no DOM, no clock.
import type { Geometry, TimeWindow } from './geometry';
import { MIN_WINDOW_MS, plotScale } from './geometry';

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
