// The node's ingest thread and report threads started from the TypeScript sources (node-ingest.ts, node-reports.ts):
// a worker thread does not get the tsx loader the process was started with (Node 20 runs loader hooks per thread), so
// it registers tsx's, then imports the thread's module (ingest-thread.ts, report-thread.ts). A bundled product starts
// the thread from its own file instead.
import { workerData } from 'node:worker_threads';
import { register } from 'tsx/esm/api';

register();
await import(workerData.entry);
