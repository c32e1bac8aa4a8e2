// The loopback SHDR adapters of bench/support/live-ingest.ts in a process of their own (decision 1215): a plant's
// adapters run on its machines, not in the node that reads them, so their socket writes (a line a second to each of
// 1,000 sockets) do not take the event loop of the API and ingest being measured. Prints the adapters' ports as one
// JSON line, then `connected` once every adapter has its agent's socket, from when it sends one line a second
// (execution and part count change) to each; exits when its stdin closes (the bench is done or gone).
// Run by live-ingest.ts: node <this file> <count>
import { linesEverySecond, loopbackAdapter } from './loopback-adapter';

const count = Number(process.argv[2]);
if (!Number.isInteger(count) || count < 1 || count > 10_000)
  throw new Error(`adapters: bad count ${process.argv[2]}`);
const adapters = [];
for (let i = 0; i < count; i++) adapters.push(await loopbackAdapter());
process.stdout.write(`${JSON.stringify(adapters.map((a) => a.port))}\n`);
while (adapters.some((a) => a.sockets.size === 0)) await new Promise((r) => setTimeout(r, 100));
process.stdout.write('connected\n');
const timer = linesEverySecond(adapters);
process.stdin.resume();
process.stdin.on('end', () => {
  clearInterval(timer);
  process.exit(0);
});
