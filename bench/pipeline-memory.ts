// `npx tsx bench/pipeline-memory.ts [machines] [minutes]`: how much memory an ingest node's pipelines hold per
// machine over time, at the soak's worst-case rate (bench/soak.ts: a line a second, a new program every line,
// the execution and part count every fourth). A pipeline keeps DERIVER_MEMORY_MS of derived history for late
// data (services/ingest/src/worker/pipeline.ts), so the heap grows for that long, then levels off. Prints the
// live heap per machine every 15 minutes of machine time, the ratio of the last figure to the one at the
// window's end (≈ 1: it levels off), and the same hour of observations kept as plain rows (the baseline: what
// holding the window costs at the least).
import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';
import { DERIVER_MEMORY_MS, MachinePipeline } from '../services/ingest/src/worker/pipeline';
import type { Observation } from '../services/ingest/src/sources/shdr/shdr';
import { FIELDS, T0, line } from './support/soak-script';

setFlagsFromString('--expose-gc');
const gc = runInNewContext('gc') as () => void;
const heap = () => {
  gc();
  gc();
  return process.memoryUsage().heapUsed;
};

const machines = Number(process.argv[2] ?? 50);
const minutes = Number(process.argv[3] ?? 90);
/** Plays the script into `feed` (per machine and second) and measures the heap every 15 minutes. */
function play(feed: (i: number, s: number, ts: number) => void, each: (ts: number) => void): number[] {
  const base = heap();
  const perMachine: number[] = [];
  for (let s = 1; s <= minutes * 60; s++) {
    const ts = T0 + s * 1000;
    for (let i = 0; i < machines; i++) feed(i, s, ts);
    each(ts);
    if (s % (15 * 60) === 0) perMachine.push((heap() - base) / machines);
  }
  return perMachine;
}

// The pipelines, as a node runs them: each flush takes the changes and, the write done, forgets what is older
// than the window.
let pipelines: MachinePipeline[] | null = Array.from({ length: machines }, (_, i) => {
  const p = new MachinePipeline('c', `m${i}`, FIELDS, 'part_count', 'shdr', T0);
  p.setConnection('CONNECTED', T0);
  p.pushRaw([{ ts: T0, key: 'avail', value: 'AVAILABLE', kind: 'value' }], T0);
  return p;
});
const started = performance.now();
const kept = play(
  (i, s, ts) => pipelines![i]!.pushRaw(line(i, s), ts),
  (ts) => {
    for (const p of pipelines!) {
      p.take(ts);
      p.stored(ts);
    }
  },
);
const pipelineSeconds = (performance.now() - started) / 1000;
pipelines = null;

// The baseline: the same lines kept as plain rows for the window, nothing derived.
let rows: Observation[][] = Array.from({ length: machines }, () => []);
const plain = play(
  (i, s) => {
    for (const o of line(i, s)) rows[i]!.push(o);
  },
  (ts) => {
    if ((ts - T0) % 60_000 === 0) rows = rows.map((r) => r.filter((o) => o.ts >= ts - DERIVER_MEMORY_MS));
  },
);
void rows;

console.log(
  `pipeline-memory: ${machines} machines × 1 line/s for ${minutes} min of machine time, ` +
    `window ${DERIVER_MEMORY_MS / 60_000} min (${pipelineSeconds.toFixed(1)} s to run the pipelines)`,
);
kept.forEach((k, n) =>
  console.log(
    `  ${String((n + 1) * 15).padStart(3)} min: pipelines ${(k / 1e6).toFixed(2)} MB a machine; the window's ` +
      `lines as plain rows ${(plain[n]! / 1e6).toFixed(2)} MB; ratio ${(k / plain[n]!).toFixed(2)}`,
  ),
);
const atWindow = kept[Math.round(DERIVER_MEMORY_MS / (15 * 60_000)) - 1];
const last = kept[kept.length - 1];
if (atWindow != null && last != null && kept.length * 15 * 60_000 > DERIVER_MEMORY_MS) {
  console.log(`  ratio last / at the window's end: ${(last / atWindow).toFixed(2)} (≈ 1: levelled off)`);
  console.log(
    `  a node holding 1,000 such machines: about ${((last * 1000) / 1e9).toFixed(2)} GB of pipelines at the plateau`,
  );
} else console.log(`  run longer than the window (${DERIVER_MEMORY_MS / 60_000} min) to see the plateau`);
