// `npm run bench timeline-draw`: how long the machine timeline takes to draw a frame while a manager zooms
// and pans a 7-day window of a busy machine (about 50,000 intervals over seven lanes: 20,000 state changes,
// 20,000 parts, 10,000 stops, programs, jobs, faults). Measured twice: in Node against a counting fake 2D
// context (the drawing math alone: index search, pixel merging, labels), and in Chromium on a real canvas,
// each frame flushed by reading a pixel back. Both against a baseline measured in the same run: the same
// frames drawn the naive way (every interval visited, one fillRect each). Figures in frames per second
// against the 60 fps budget (16.7 ms a frame). Not a test: it prints figures and asserts nothing about time.
// Run: npx tsx bench/timeline-draw.ts [frames]
import { fileURLToPath } from 'node:url';
import { performance } from 'node:perf_hooks';
import { build } from 'esbuild';
import type { DrawContext } from '../apps/office/src/timeline/draw';
import { drawTimeline } from '../apps/office/src/timeline/draw';
import { launchChromium } from '../tests/e2e/harness';
import { busyWeek, interaction, naiveDraw, sceneFor } from './timeline/scene';

const FRAMES = Number(process.argv[2] ?? 240);
const WIDTH = 1280;
const BUDGET_MS = 1000 / 60;
const START = Date.UTC(2026, 0, 5, 6);

interface Figures {
  median: number;
  p95: number;
  rects: number;
}

const quantile = (xs: number[], q: number) => [...xs].sort((a, b) => a - b)[Math.floor((xs.length - 1) * q)]!;

function row(name: string, f: Figures, base?: Figures): string {
  const fps = 1000 / f.median;
  const ratio = base ? `  ${(base.median / f.median).toFixed(1)}× the baseline's frames/s` : '';
  return (
    `${name.padEnd(34)} median ${f.median.toFixed(3).padStart(8)} ms  p95 ${f.p95.toFixed(3).padStart(8)} ms  ` +
    `${fps.toFixed(0).padStart(6)} frames/s (${(fps / 60).toFixed(1)}× the 60 fps budget)  ` +
    `${f.rects.toFixed(0).padStart(6)} rects/frame${ratio}`
  );
}

/** A 2D context that only counts: what the drawing math costs, without a rasteriser. */
function countingContext(): DrawContext & { calls: number } {
  const ctx = {
    calls: 0,
    fillStyle: '' as unknown,
    strokeStyle: '' as unknown,
    lineWidth: 1,
    font: '',
    textBaseline: 'middle' as CanvasTextBaseline,
    textAlign: 'left' as CanvasTextAlign,
    setTransform: () => void ctx.calls++,
    clearRect: () => void ctx.calls++,
    fillRect: () => void ctx.calls++,
    strokeRect: () => void ctx.calls++,
    fillText: () => void ctx.calls++,
    measureText: (t: string) => ({ width: t.length * 7 }),
    save: () => void ctx.calls++,
    restore: () => void ctx.calls++,
    beginPath: () => void ctx.calls++,
    rect: () => void ctx.calls++,
    clip: () => void ctx.calls++,
  };
  return ctx;
}

function measureNode(draw: (ctx: DrawContext, i: number) => number, frames: number): Figures {
  const ctx = countingContext();
  for (let i = 0; i < Math.min(30, frames); i++) draw(ctx, i);
  const times: number[] = [];
  let rects = 0;
  for (let i = 0; i < frames; i++) {
    const t0 = performance.now();
    rects += draw(ctx, i);
    times.push(performance.now() - t0);
  }
  return { median: quantile(times, 0.5), p95: quantile(times, 0.95), rects: rects / frames };
}

async function main() {
  const { lanes, items, bounds } = busyWeek(START);
  const windows = interaction(bounds, FRAMES);
  console.log(
    `${items} intervals over 7 lanes, 7 days; ${FRAMES} frames of zooming (7 days → 10 s → 7 days) and panning`,
  );
  console.log(`frame budget at 60 fps: ${BUDGET_MS.toFixed(1)} ms\n`);

  console.log(`Node, counting fake 2D context (drawing math only), ${WIDTH} px wide, device pixel ratio 2:`);
  const naive = measureNode((ctx, i) => naiveDraw(ctx, sceneFor(lanes, windows[i]!, WIDTH, 2)), FRAMES);
  const indexed = measureNode(
    (ctx, i) => drawTimeline(ctx, sceneFor(lanes, windows[i]!, WIDTH, 2)).rects,
    FRAMES,
  );
  console.log(row('baseline: one fillRect per interval', naive));
  console.log(row('drawTimeline', indexed, naive));
  // The worst frame: the whole week on screen, every interval visible.
  const week = [bounds];
  const naiveWeek = measureNode((ctx) => naiveDraw(ctx, sceneFor(lanes, week[0]!, WIDTH, 2)), 60);
  const indexedWeek = measureNode((ctx) => drawTimeline(ctx, sceneFor(lanes, week[0]!, WIDTH, 2)).rects, 60);
  console.log(row('baseline, whole week on screen', naiveWeek));
  console.log(row('drawTimeline, whole week on screen', indexedWeek, naiveWeek));

  let browser;
  try {
    browser = await launchChromium();
  } catch (err) {
    console.log(`\nChromium not available (${(err as Error).message.split('\n')[0]}); Node figures only.`);
    return;
  }
  try {
    const entry = fileURLToPath(new URL('./timeline/scene.ts', import.meta.url));
    const drawEntry = fileURLToPath(new URL('../apps/office/src/timeline/draw.ts', import.meta.url));
    const bundle = await build({
      stdin: {
        contents: `
          import * as scene from ${JSON.stringify(entry)};
          import { drawTimeline } from ${JSON.stringify(drawEntry)};
          window.timelineBench = (frames, width, dpr, naive, week) => {
            const { lanes, bounds } = scene.busyWeek(${START});
            const windows = week ? Array(frames).fill(bounds) : scene.interaction(bounds, frames);
            const canvas = document.getElementById('c');
            canvas.width = width * dpr; canvas.height = 300 * dpr;
            canvas.style.width = width + 'px'; canvas.style.height = '300px';
            const ctx = canvas.getContext('2d');
            const draw = (i) => naive
              ? scene.naiveDraw(ctx, scene.sceneFor(lanes, windows[i], width, dpr))
              : drawTimeline(ctx, scene.sceneFor(lanes, windows[i], width, dpr)).rects;
            for (let i = 0; i < Math.min(20, frames); i++) { draw(i); ctx.getImageData(0, 0, 1, 1); }
            const times = []; let rects = 0;
            for (let i = 0; i < frames; i++) {
              const t0 = performance.now();
              rects += draw(i);
              // Reading a pixel back waits for the rasteriser: the frame is really drawn.
              ctx.getImageData(0, 0, 1, 1);
              times.push(performance.now() - t0);
            }
            return { times, rects: rects / frames };
          };`,
        resolveDir: fileURLToPath(new URL('.', import.meta.url)),
        loader: 'ts',
      },
      bundle: true,
      write: false,
      format: 'iife',
      platform: 'browser',
      target: 'es2022',
    });
    const page = await browser.newPage({
      viewport: { width: WIDTH + 40, height: 400 },
      deviceScaleFactor: 2,
    });
    await page.setContent('<canvas id="c"></canvas>');
    await page.addScriptTag({ content: bundle.outputFiles[0]!.text });
    type Bench = (
      f: number,
      w: number,
      d: number,
      n: boolean,
      k: boolean,
    ) => { times: number[]; rects: number };
    const inPage = async (naiveMode: boolean, week = false): Promise<Figures> => {
      const r = await page.evaluate(
        ([f, w, n, k]) => (window as unknown as { timelineBench: Bench }).timelineBench(f, w, 2, n, k),
        [week ? 60 : FRAMES, WIDTH, naiveMode, week] as const,
      );
      return { median: quantile(r.times, 0.5), p95: quantile(r.times, 0.95), rects: r.rects };
    };
    console.log(`\nChromium (software canvas, --disable-gpu), ${WIDTH} px wide, device pixel ratio 2:`);
    const naiveC = await inPage(true);
    const indexedC = await inPage(false);
    console.log(row('baseline: one fillRect per interval', naiveC));
    console.log(row('drawTimeline', indexedC, naiveC));
    const naiveW = await inPage(true, true);
    const indexedW = await inPage(false, true);
    console.log(row('baseline, whole week on screen', naiveW));
    console.log(row('drawTimeline, whole week on screen', indexedW, naiveW));
  } finally {
    await browser.close();
  }
}

await main();
