// A whole ingest worker in a process of its own, for the crash test (durability.test.ts), which kills it
// with SIGKILL, and for the scale-out test (scale-out.test.ts), which runs two. Usage:
// `node --import tsx crash-worker.ts <database url> [node id] [lease ttl ms] [lease renewal ms]` (empty
// arguments take the defaults). It prints `loaded` once its modules are loaded and waits for a `go` line on
// stdin before it opens the database (spawnWorker in test-support.ts), then `ready`. Not used at run time.
import { createInterface } from 'node:readline';
import { openDb } from '@takt/db';
import { startIngest } from '../worker/ingest';
import { LOOPBACK_SOURCES } from './test-support';

const [url, nodeArg, ttlArg, renewArg] = process.argv.slice(2);
if (!url) {
  console.error('usage: crash-worker.ts <database url> [node id] [lease ttl ms] [lease renewal ms]');
  process.exit(2);
}

process.stdout.write('loaded\n');
// Nothing is opened before the test says go. Its stdin closes when the test's process ends, whether it said go
// or not: this process ends with it rather than outlive the test.
const lines = createInterface({ input: process.stdin });
lines.on('close', () => process.exit(0));
await new Promise<void>((resolve) => lines.on('line', (line) => line === 'go' && resolve()));

const db = openDb(url, { poolSize: 2 });
// A restarted worker keeps its node id, so on PostgreSQL it takes its own leases back at once (decision 0970).
const nodeId = nodeArg || 'crash-worker';
// The log goes to stderr, which the tests show when they fail.
await startIngest({
  sourcePolicy: LOOPBACK_SOURCES,
  db: db.db,
  flushIntervalMs: 20,
  rollupIntervalMs: 0,
  leases: {
    nodeId,
    ...(ttlArg ? { ttlMs: Number(ttlArg) } : {}),
    ...(renewArg ? { renewMs: Number(renewArg) } : {}),
  },
  log: (m) => process.stderr.write(`${m}\n`),
});
// The test reads this line to know the worker is up; from here on it may be killed at any moment.
process.stdout.write('ready\n');
