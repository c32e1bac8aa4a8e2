// A whole ingest worker in a process of its own, for the crash test (durability.test.ts), which kills it
// with SIGKILL. Usage: `node --import tsx crash-worker.ts <database url>`. Not used at run time.
import { openDb } from '@takt/db';
import { startIngest } from '../worker/ingest';

const url = process.argv[2];
if (!url) {
  console.error('usage: crash-worker.ts <database url>');
  process.exit(2);
}
const db = openDb(url, { poolSize: 2 });
await startIngest({ db: db.db, flushIntervalMs: 20, rollupIntervalMs: 0 });
// The test reads this line to know the worker is up; from here on it may be killed at any moment.
process.stdout.write('ready\n');
