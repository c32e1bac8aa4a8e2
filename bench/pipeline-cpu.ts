// `npx tsx bench/pipeline-cpu.ts [machines=200] [minutes=70]`: the CPU an ingest node's pipelines spend per 1,000
// observations, against how long they have run. Plays the soak's script (tests/multihost/adapters.ts: a line a second
// per machine, a new program every line) in machine time, takes each machine's changes and live row every second as
// the batch writer does, and prints CPU per 1,000 observations for every 10 minutes, then the ratio of the last
// figure to the first: about 1 when a take costs the change, not the history held (decision 1123; before it, each
// take filtered and copied the hour held, and the figure grew tenfold over the first hour). No database. Not a test.
import { MachinePipeline } from '../services/ingest/src/worker/pipeline';
import { FIELDS, T0, line } from './support/soak-script';

const machines = Number(process.argv[2] ?? 200);
const minutes = Number(process.argv[3] ?? 70);
const pipelines = Array.from(
  { length: machines },
  (_, i) => new MachinePipeline('c', `m${i}`, FIELDS, 'part_count', 'shdr', T0),
);
const figures: number[] = [];
let observations = 0;
let cpu = process.cpuUsage();
for (let s = 1; s <= minutes * 60; s++) {
  const ts = T0 + s * 1000;
  for (let i = 0; i < machines; i++) {
    const l = line(i, s);
    observations += l.length;
    pipelines[i]!.pushRaw(l, ts + 5);
  }
  // A batch: each machine's changes and its live row, then what a stored write lets it forget.
  for (const p of pipelines) {
    const taken = p.take(ts + 10);
    p.liveRow(ts + 10, taken?.result);
    if (taken) p.stored(ts + 10);
  }
  if (s % 600 === 0) {
    const used = process.cpuUsage(cpu);
    figures.push((used.user + used.system) / 1000 / (observations / 1000));
    console.log(`  minute ${s / 60}: ${figures.at(-1)!.toFixed(2)} ms CPU per 1,000 observations`);
    cpu = process.cpuUsage();
    observations = 0;
  }
}
console.log(
  `pipeline-cpu: ${machines} machines × 1 line/s, ${minutes} min of machine time: last 10 min / first ` +
    `${(figures.at(-1)! / figures[0]!).toFixed(2)} (about 1: a take costs the change, not the history held)`,
);
