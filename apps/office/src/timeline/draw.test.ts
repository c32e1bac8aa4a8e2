import { describe, expect, it } from 'vitest';
import type { DrawContext, Geometry, Scene, TimelineItem } from './draw';
import {
  axisTicks,
  clampWindow,
  drawTimeline,
  fitText,
  hitTest,
  laneLayout,
  laneOf,
  MIN_WINDOW_MS,
  panBy,
  pinchWindow,
  scaleOf,
  visibleRange,
  wheelFactor,
  windowBetween,
  zoomAt,
} from './draw';

const bar = (start: number, end: number, color = 'a', extra: Partial<TimelineItem> = {}): TimelineItem => ({
  start,
  end,
  color,
  ...extra,
});
const G: Geometry = { width: 1100, labelWidth: 100, laneHeight: 30, laneGap: 4, axisHeight: 20 };

/** A 2D context that counts what is drawn (text 7 px a letter). */
function fakeContext() {
  const calls = {
    fillRect: [] as [string, number, number, number][],
    fillText: [] as string[],
    strokeRect: 0,
  };
  const ctx: DrawContext = {
    fillStyle: '',
    strokeStyle: '',
    lineWidth: 1,
    font: '',
    textBaseline: 'middle',
    textAlign: 'left',
    setTransform: () => undefined,
    clearRect: () => undefined,
    fillRect(x, _y, w) {
      calls.fillRect.push([String(this.fillStyle), x, w, _y]);
    },
    strokeRect: () => {
      calls.strokeRect++;
    },
    fillText: (t) => {
      calls.fillText.push(t);
    },
    measureText: (t) => ({ width: t.length * 7 }),
    save: () => undefined,
    restore: () => undefined,
    beginPath: () => undefined,
    rect: () => undefined,
    clip: () => undefined,
  };
  return { ctx, calls };
}

const scene = (over: Partial<Scene>): Scene => ({
  lanes: [],
  window: { start: 0, end: 1000 },
  geometry: G,
  dpr: 1,
  palette: {
    surface: 'surface',
    laneBackground: 'lane',
    grid: 'grid',
    text: 'text',
    textMuted: 'muted',
    part: 'part',
    slow: 'slow',
    fast: 'fast',
    selection: 'sel',
    brush: 'brush',
    inkOn: () => 'ink',
  },
  showSlow: false,
  showFast: false,
  formatTick: (t) => String(t),
  offsetMs: 0,
  ...over,
});

describe('laneOf', () => {
  it('sorts by start and keeps a running maximum of the ends', () => {
    const lane = laneOf('l', 'L', [bar(50, 60), bar(0, 100), bar(10, 20)]);
    expect(lane.items.map((i) => i.start)).toEqual([0, 10, 50]);
    expect([...lane.maxEnd]).toEqual([100, 100, 100]);
  });
});

describe('visibleRange', () => {
  const lane = laneOf('l', 'L', [bar(0, 10), bar(10, 20), bar(20, 30), bar(30, 40), bar(40, 50)]);
  it.each([
    [{ start: 12, end: 28 }, [1, 3]],
    [{ start: 0, end: 50 }, [0, 5]],
    [{ start: 20, end: 20 }, [1, 3]],
    [{ start: 60, end: 70 }, [5, 5]],
    [{ start: -10, end: -1 }, [0, 0]],
  ])('%j → %j', (w, expected) => {
    expect(visibleRange(lane, w)).toEqual(expected);
  });

  it('finds a long item that started before the window', () => {
    const l = laneOf('l', 'L', [bar(0, 1000), bar(10, 20), bar(30, 40)]);
    expect(visibleRange(l, { start: 500, end: 600 })).toEqual([0, 3]);
  });

  it('counts instants on the edges', () => {
    const l = laneOf('l', 'L', [bar(5, 5), bar(10, 10), bar(15, 15)]);
    expect(visibleRange(l, { start: 10, end: 15 })).toEqual([1, 3]);
  });
});

describe('scale and layout', () => {
  it('maps time to x and back', () => {
    const s = scaleOf({ start: 1000, end: 2000 }, 100, 500);
    expect(s.toX(1000)).toBe(100);
    expect(s.toX(2000)).toBe(600);
    expect(s.toT(350)).toBe(1500);
    expect(s.msPerPx).toBe(2);
  });

  it('stacks lanes under the axis', () => {
    expect(laneLayout(3, G)).toEqual({
      boxes: [
        { top: 20, height: 30 },
        { top: 54, height: 30 },
        { top: 88, height: 30 },
      ],
      height: 122,
    });
  });
});

describe('hitTest', () => {
  const lanes = [
    laneOf('a', 'A', [bar(0, 500), bar(500, 1000)]),
    laneOf('b', 'B', [bar(300, 300), bar(700, 700)]),
  ];
  const w = { start: 0, end: 1000 };
  it.each([
    // x = 100 + t; lane a at y 20..50, lane b at 54..84
    [150, 30, { lane: 0, index: 0 }],
    [700, 30, { lane: 0, index: 1 }],
    [402, 60, { lane: 1, index: 0 }],
    [500, 60, null],
    [50, 30, null],
    [700, 52, null],
  ])('(%d, %d) → %j', (x, y, expected) => {
    expect(hitTest(lanes, w, G, x, y)).toEqual(expected);
  });
});

describe('zoom and pan (reports-admin §9: at least 10 s, inside the range)', () => {
  const bounds = { start: 0, end: 3_600_000 };
  it('keeps the time under the pointer in place', () => {
    const w = zoomAt(bounds, 900_000, 0.5, bounds);
    expect(w).toEqual({ start: 450_000, end: 2_250_000 });
  });
  it('never zooms under 10 seconds', () => {
    let w = bounds;
    for (let i = 0; i < 50; i++) w = zoomAt(w, 1_800_000, 0.5, bounds);
    expect(w.end - w.start).toBe(MIN_WINDOW_MS);
  });
  it('never zooms out past the range', () => {
    expect(zoomAt({ start: 100_000, end: 200_000 }, 150_000, 1000, bounds)).toEqual(bounds);
  });
  it('pans inside the range', () => {
    expect(panBy({ start: 0, end: 60_000 }, -10_000, bounds)).toEqual({ start: 0, end: 60_000 });
    expect(panBy({ start: 0, end: 60_000 }, 4_000_000, bounds)).toEqual({
      start: 3_540_000,
      end: 3_600_000,
    });
  });
  it('clamps a window shorter than 10 s and one outside the range', () => {
    expect(clampWindow({ start: 1000, end: 2000 }, bounds)).toEqual({ start: 1000, end: 11_000 });
    expect(clampWindow({ start: -5000, end: 100_000 }, bounds)).toEqual({ start: 0, end: 105_000 });
  });
  it('zooms to a dragged span, at least 10 s', () => {
    const w = { start: 0, end: 1000_000 };
    expect(windowBetween(600, 100, w, G, bounds)).toEqual({ start: 0, end: 500_000 });
    expect(
      windowBetween(300, 300.001, w, G, bounds).end - windowBetween(300, 300.001, w, G, bounds).start,
    ).toBe(MIN_WINDOW_MS);
  });
  it('pinches: the times under the fingers stay under them', () => {
    const w = { start: 0, end: 1000_000 };
    // Fingers at 300 and 500 (t = 200 s and 400 s) spread to 100 and 900: 200 s over 800 px.
    const next = pinchWindow(w, { a0: 300, b0: 500, a1: 100, b1: 900 }, G, bounds);
    expect(next).toEqual({ start: 200_000, end: 450_000 });
    // Fingers too close together: nothing changes.
    expect(pinchWindow(w, { a0: 300, b0: 302, a1: 100, b1: 900 }, G, bounds)).toBe(w);
  });
  it('turns wheel deltas into factors', () => {
    expect(wheelFactor(0)).toBe(1);
    expect(wheelFactor(100)).toBeGreaterThan(1);
    expect(wheelFactor(-100)).toBeLessThan(1);
    expect(wheelFactor(-100) * wheelFactor(100)).toBeCloseTo(1);
  });
});

describe('axisTicks', () => {
  it('picks a round step and aligns it to the wall clock', () => {
    const hour = 3_600_000;
    const { step, ticks } = axisTicks({ start: 0, end: 24 * hour }, 1000, -5 * hour);
    expect(step).toBe(3 * hour);
    // Local midnight at 05:00 UTC.
    expect(ticks[0]! % (3 * hour)).toBe((5 * hour) % (3 * hour));
    expect(ticks).toContain(5 * hour);
  });
});

describe('drawTimeline', () => {
  it('draws one rectangle per pixel column at most, whatever the number of intervals', () => {
    // 20,000 alternating 30-s intervals over a week-like span drawn on 1000 px.
    const items: TimelineItem[] = [];
    for (let i = 0; i < 20_000; i++) items.push(bar(i * 30_000, (i + 1) * 30_000, i % 2 ? 'on' : 'off'));
    const { ctx, calls } = fakeContext();
    const stats = drawTimeline(
      ctx,
      scene({ lanes: [laneOf('s', 'States', items)], window: { start: 0, end: 600_000_000 } }),
    );
    expect(stats.visibleItems).toBe(20_000);
    const bars = calls.fillRect.filter(([c]) => c === 'on' || c === 'off');
    expect(bars.length).toBeLessThanOrEqual(1000);
    expect(bars.length).toBeGreaterThan(0);
  });

  it('merges neighbours of one colour and draws only what is visible', () => {
    const lane = laneOf('s', 'S', [
      bar(0, 100, 'x'),
      bar(100, 200, 'x'),
      bar(200, 300, 'y'),
      bar(5000, 6000, 'z'),
    ]);
    const { ctx, calls } = fakeContext();
    drawTimeline(ctx, scene({ lanes: [lane], window: { start: 0, end: 1000 } }));
    const bars = calls.fillRect.filter(([c]) => ['x', 'y', 'z'].includes(c));
    expect(bars.map(([c, x, w]) => [c, x, w])).toEqual([
      ['x', 100, 200],
      ['y', 300, 100],
    ]);
  });

  it('marks slow and fast parts only when the scene allows it', () => {
    const lane = laneOf('p', 'Parts', [
      bar(0, 100, 'part', { tone: 'slow' }),
      bar(200, 300, 'part', { tone: 'fast' }),
    ]);
    const colors = (s: Partial<Scene>) => {
      const { ctx, calls } = fakeContext();
      drawTimeline(ctx, scene({ lanes: [lane], ...s }));
      return calls.fillRect.map(([c]) => c).filter((c) => ['part', 'slow', 'fast'].includes(c));
    };
    expect(colors({})).toEqual(['part', 'part']);
    expect(colors({ showSlow: true })).toEqual(['slow', 'part']);
    expect(colors({ showSlow: true, showFast: true })).toEqual(['slow', 'fast']);
  });

  it('keeps a gap after each bar of a separated lane (one part, one bar)', () => {
    const lane = laneOf('p', 'Parts', [bar(0, 100, 'part'), bar(100, 200, 'part')], { separate: true });
    const { ctx, calls } = fakeContext();
    drawTimeline(ctx, scene({ lanes: [lane] }));
    expect(calls.fillRect.filter(([c]) => c === 'part').map(([, x, w]) => [x, w])).toEqual([
      [100, 99],
      [200, 99],
    ]);
  });

  it('marks a highlighted span across the lanes, at least 2 px wide, only when visible', () => {
    const band = (highlight: Scene['highlight']) => {
      const { ctx, calls } = fakeContext();
      drawTimeline(ctx, scene({ lanes: [laneOf('s', 'S', [])], highlight }));
      return calls.fillRect.filter(([c]) => c === 'brush').map(([, x, w]) => [x, w]);
    };
    expect(band({ start: 200, end: 250 })).toEqual([[300, 50]]);
    expect(band({ start: 400, end: 400 })).toEqual([[500, 2]]);
    expect(band({ start: 2000, end: 3000 })).toEqual([]);
    expect(band(null)).toEqual([]);
  });

  it('writes labels in wide bars and the lane note when a lane is empty', () => {
    const { ctx, calls } = fakeContext();
    drawTimeline(
      ctx,
      scene({
        lanes: [
          laneOf('j', 'Jobs', [
            bar(0, 500, 'c', { label: 'Bracket' }),
            bar(600, 610, 'c', { label: 'Tiny' }),
          ]),
          laneOf('f', 'Faults', [], { note: 'No faults' }),
        ],
      }),
    );
    expect(calls.fillText).toContain('Bracket');
    expect(calls.fillText).not.toContain('Tiny');
    expect(calls.fillText).toContain('No faults');
    expect(calls.fillText).toEqual(expect.arrayContaining(['Jobs', 'Faults']));
  });
});

describe('fitText', () => {
  const ctx = { measureText: (t: string) => ({ width: t.length * 7 }) };
  it.each([
    ['Bracket', 100, 'Bracket'],
    ['Bracket', 35, 'Brac…'],
    ['Bracket', 10, ''],
  ])('%s in %d px → %s', (text, room, expected) => {
    expect(fitText(ctx, text, room)).toBe(expected);
  });
});
