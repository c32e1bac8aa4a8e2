// The scene bench/timeline-draw.ts measures, shared by its Node run and the page it bundles for Chromium
// (this folder is not a bench of its own: bench/run.ts runs only the files directly under bench/).
import { CHART_COLORS } from '@takt/domain';
import { axisTicks, fitText, laneLayout, laneOf, plotScale } from '../../apps/office/src/timeline/draw';
import type {
  DrawContext,
  Lane,
  Palette,
  Scene,
  TimelineItem,
  TimeWindow,
} from '../../apps/office/src/timeline/draw';
import { mulberry32 } from '../../services/ingest/src/demo/demo-script';

export const DAY = 86_400_000;

/**
 * Seven days of a busy machine: a state change every 30 s on average (about 20,000 intervals), a part
 * every 30 s (about 20,000), the downtime between (about 10,000), a program every 5 minutes, a job a day
 * and a few hundred faults. Returns the seven lanes the page draws, and the total number of items.
 */
export function busyWeek(start: number, seed = 7): { lanes: Lane[]; items: number; bounds: TimeWindow } {
  const r = mulberry32(seed);
  const end = start + 7 * DAY;
  const states: TimelineItem[] = [];
  const downtime: TimelineItem[] = [];
  const parts: TimelineItem[] = [];
  const programs: TimelineItem[] = [];
  const jobs: TimelineItem[] = [];
  const faults: TimelineItem[] = [];
  let t = start;
  let active = true;
  while (t < end) {
    const len = Math.round(5_000 + r() * 50_000);
    const e = Math.min(end, t + len);
    states.push({ start: t, end: e, color: active ? '#1b7a3a' : '#5d6b78' });
    if (active)
      parts.push({
        start: t,
        end: e,
        color: '#8a95a1',
        tone: r() < 0.1 ? 'slow' : r() < 0.5 ? 'fast' : null,
      });
    else
      downtime.push({
        start: t,
        end: e,
        color: r() < 0.3 ? '#c0262d' : CHART_COLORS[Math.floor(r() * 9)]!,
        label: 'Tool change',
      });
    if (!active && r() < 0.05)
      faults.push({ start: t, end: e, color: '#7b2c9e', label: 'E42 Spindle overload' });
    active = !active;
    t = e;
  }
  for (let p = start, i = 0; p < end; p += 300_000, i++)
    programs.push({
      start: p,
      end: Math.min(end, p + 300_000),
      color: CHART_COLORS[i % 9]!,
      label: `O${1000 + (i % 50)}`,
    });
  for (let d = 0; d < 7; d++)
    jobs.push({
      start: start + d * DAY,
      end: start + (d + 1) * DAY,
      color: CHART_COLORS[d]!,
      label: `Job ${d + 1}`,
    });
  const lanes = [
    laneOf('states', 'State', states),
    laneOf('downtime', 'Downtime', downtime, { clickable: true }),
    laneOf('jobs', 'Jobs', jobs),
    laneOf('parts', 'Parts', parts, { separate: true }),
    laneOf('programs', 'Programs', programs),
    laneOf('subprograms', 'Sub-programs', [], { note: 'Zoom in to 2 hours or less to see sub-programs' }),
    laneOf('faults', 'Faults', faults),
  ];
  const items = lanes.reduce((n, l) => n + l.items.length, 0);
  return { lanes, items, bounds: { start, end } };
}

/**
 * The windows of an interaction: zoom from the whole week to 10 seconds around a point (a wheel burst), pan
 * at a few zoom levels (drags), and zoom back out. `frames` windows in all.
 */
export function interaction(bounds: TimeWindow, frames: number): TimeWindow[] {
  const out: TimeWindow[] = [];
  const full = bounds.end - bounds.start;
  const anchor = bounds.start + full * 0.61;
  const third = Math.floor(frames / 3);
  for (let i = 0; i < third; i++) {
    // Geometric zoom from 7 days to 10 s.
    const span = full * Math.pow(10_000 / full, i / (third - 1));
    const start = Math.max(bounds.start, Math.min(bounds.end - span, anchor - span * 0.61));
    out.push({ start, end: start + span });
  }
  for (let i = 0; i < third; i++) {
    // Pans at 1 day, 6 hours and 1 hour windows.
    const span = [DAY, DAY / 4, DAY / 24][i % 3]!;
    const start = bounds.start + ((full - span) * i) / third;
    out.push({ start, end: start + span });
  }
  while (out.length < frames) {
    const i = out.length - 2 * third;
    const span = 10_000 * Math.pow(full / 10_000, i / Math.max(1, frames - 2 * third - 1));
    const start = Math.max(bounds.start, Math.min(bounds.end - span, anchor - span / 2));
    out.push({ start, end: start + span });
  }
  return out;
}

export const PALETTE: Palette = {
  surface: '#ffffff',
  laneBackground: '#f3f5f7',
  grid: '#e6eaee',
  text: '#1b1f24',
  textMuted: '#4f5866',
  part: '#8a95a1',
  slow: '#f2b705',
  fast: '#1b7a3a',
  selection: '#1b1f24',
  brush: 'rgba(31, 95, 191, 0.18)',
  inkOn: () => '#ffffff',
};

export function sceneFor(lanes: Lane[], window: TimeWindow, width: number, dpr: number): Scene {
  return {
    lanes,
    window,
    geometry: { width, labelWidth: 112, laneHeight: 34, laneGap: 4, axisHeight: 26 },
    dpr,
    palette: PALETTE,
    showSlow: window.end - window.start < 3_600_000,
    showFast: window.end - window.start < 600_000,
    formatTick: (t) => new Date(t).toISOString().slice(11, 16),
    offsetMs: 0,
  };
}

/**
 * The baseline: the same picture (lane backgrounds and names, axis, labels in wide bars) drawn the way a
 * timeline without the index and the pixel merging would: every interval of every lane is visited each
 * frame and each one on screen is its own fillRect.
 */
export function naiveDraw(ctx: DrawContext, scene: Scene): number {
  const { geometry: g, window: w, palette: p } = scene;
  const s = plotScale(w, g);
  const { boxes, height } = laneLayout(scene.lanes.length, g);
  ctx.setTransform(scene.dpr, 0, 0, scene.dpr, 0, 0);
  ctx.clearRect(0, 0, g.width, height);
  ctx.fillStyle = p.surface;
  ctx.fillRect(0, 0, g.width, height);
  ctx.font = '12px system-ui, sans-serif';
  const { step, ticks } = axisTicks(w, g.width - g.labelWidth, scene.offsetMs);
  for (const t of ticks) {
    ctx.fillStyle = p.grid;
    ctx.fillRect(Math.round(s.toX(t)), g.axisHeight - 4, 1, height - g.axisHeight + 4);
    ctx.fillStyle = p.textMuted;
    ctx.fillText(scene.formatTick(t, step), s.toX(t), g.axisHeight / 2);
  }
  let rects = 0;
  scene.lanes.forEach((lane, li) => {
    const box = boxes[li]!;
    ctx.fillStyle = p.laneBackground;
    ctx.fillRect(g.labelWidth, box.top, g.width - g.labelWidth, box.height);
    ctx.fillStyle = p.text;
    ctx.fillText(lane.label, 6, box.top + box.height / 2);
    for (const it of lane.items) {
      if (it.end < w.start || it.start > w.end) continue;
      const x0 = Math.max(g.labelWidth, s.toX(it.start));
      const x1 = Math.min(g.width, s.toX(it.end));
      ctx.fillStyle =
        it.tone === 'slow' && scene.showSlow
          ? p.slow
          : it.tone === 'fast' && scene.showFast
            ? p.fast
            : it.color;
      ctx.fillRect(x0, box.top + 3, Math.max(1 / scene.dpr, x1 - x0), box.height - 6);
      rects++;
      if (it.label && x1 - x0 >= 36) {
        const text = fitText(ctx, it.label, x1 - x0 - 8);
        ctx.fillStyle = p.inkOn(it.color);
        if (text) ctx.fillText(text, x0 + 4, box.top + box.height / 2);
      }
    }
  });
  return rects;
}
