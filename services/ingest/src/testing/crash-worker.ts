// A whole ingest worker in a process of its own, for the crash test (durability.test.ts), which kills it
// with SIGKILL, and for the scale-out test (scale-out.test.ts), which runs two. Usage:
// `node --import tsx crash-worker.ts <database url> [node id]`. Not used at run time.
import { openDb } from '@takt/db';
import { startIngest } from '../worker/ingest';
import { LOOPBACK_SOURCES } from './test-support';

const url = process.argv[2];
if (!url) {
  console.error('usage: crash-worker.ts <database url>');
  process.exit(2);
}
const db = openDb(url, { poolSize: 2 });
// A restarted worker keeps its node id, so on PostgreSQL it takes its own leases back at once (decision 0970).
const nodeId = process.argv[3] ?? 'crash-worker';
// The log goes to stderr, which the tests show when they fail.
await startIngest({
  sourcePolicy: LOOPBACK_SOURCES,
  db: db.db,
  flushIntervalMs: 20,
  rollupIntervalMs: 0,
  leases: { nodeId },
  log: (m) => process.stderr.write(`${m}\n`),
});
// The test reads this line to know the worker is up; from here on it may be killed at any moment.
process.stdout.write('ready\n');
