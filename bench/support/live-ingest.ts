// Machines of another company ingesting alongside a bench (bench/report-load.ts, bench/dashboard-answer.ts): each
// with a loopback SHDR adapter sending one line a second, read by the ingest worker with its rollup worker in the
// bench's process, as a single node runs: started as main.ts starts it (services/api node-ingest.ts, decision 1226)
// on the node's database handles (bench/support/node-api.ts: its own handle opened by `ingestHandle`, so on SQLite
// its connection leaves checkpoints to the node's checkpointer thread and maps the file, decisions 1229 and 1230),
// in a worker thread of the process; BENCH_INGEST_THREAD=0 in the bench's event loop (TAKT_INGEST_THREAD=0).
// The adapters run in a process of their own (adapter-process.ts, decision 1215), as a plant's run on its machines;
// BENCH_ADAPTERS_IN_PROCESS=1: in the bench's process, as before.
import { spawn } from 'node:child_process';
import { createInterface } from 'node:readline';
import { fileURLToPath } from 'node:url';
import { companyScope } from '@takt/db';
import { startIngest } from '@takt/ingest';
import { createMetrics } from '../../services/api/src/http/metrics';
import { INGEST_ARRIVAL_GAP_MS, startNodeIngest } from '../../services/api/src/node-ingest';
import { createAdapter } from '../../services/api/src/repositories/adapters';
import { createShdrSource } from '../../services/api/src/repositories/machine-sources';
import { aCompany, aMachine } from '../../services/api/src/testing/builders';
import { demoAdapterFields } from '../../services/ingest/src/demo/demo-adapter';
import { LOOPBACK_SOURCES } from '../../services/ingest/src/testing/test-support';
import { linesEverySecond, loopbackAdapter } from './loopback-adapter';
import type { BenchNode } from './node-api';
import type { LoopbackAdapter } from './loopback-adapter';

/**
 * `count` machines of a new company, each with a loopback SHDR adapter sending one line a second (execution
 * and part count change), read by the ingest worker with its rollup worker: the plant ingesting alongside.
 */
export async function liveIngest(node: BenchNode, count: number) {
  const plant = await ingestPlant(node, count);
  const stopIngest = await plant.ingest(process.env.BENCH_INGEST_THREAD !== '0');
  return async () => {
    await stopIngest();
    plant.stop();
  };
}

/**
 * The plant of liveIngest, its adapters sending from now on; `ingest` starts its ingest (and gives the call that
 * stops it), as many times as a bench alternates arrangements.
 */
export async function ingestPlant(node: BenchNode, count: number) {
  const { api } = node.databases;
  const { db } = api;
  const company = await aCompany(db, { timezone: 'America/Chicago' });
  const scope = companyScope(db, company.id);
  const adapterId = await createAdapter(scope, { name: 'load', fields: demoAdapterFields() }, Date.now());
  const inProcess = process.env.BENCH_ADAPTERS_IN_PROCESS === '1';
  const adapters: LoopbackAdapter[] = [];
  const apart = inProcess ? null : await adapterProcess(count);
  for (let i = 0; i < count; i++) {
    let port = apart?.ports[i];
    if (port === undefined) {
      const a = await loopbackAdapter();
      adapters.push(a);
      port = a.port;
    }
    const id = await aMachine(db, company, { name: `L${String(i).padStart(4, '0')}`, sortOrder: i });
    await scope.updateTable('machines').set({ adapter_id: adapterId }).where('id', '=', id).execute();
    await createShdrSource(scope, { machineId: id, host: '127.0.0.1', port }, Date.now());
  }
  let timer: NodeJS.Timeout | undefined;
  let first = true;
  /** The ingest as the node starts it (node-ingest.ts): in its own thread (`thread`) or in this loop. */
  const ingest = async (thread: boolean) => {
    // The ingest's own handle as main.ts opens it (decisions 1192, 1229). BENCH_SHARED_POOL=1: in this loop on the
    // API's handle, the wiring before 1192.
    const running =
      process.env.BENCH_SHARED_POOL === '1'
        ? await startIngest({ sourcePolicy: LOOPBACK_SOURCES, db: api.db })
        : await startNodeIngest(
            { ...node.ingestHandle, arrivalGapMs: INGEST_ARRIVAL_GAP_MS, sourcePolicy: LOOPBACK_SOURCES },
            {
              api,
              now: Date.now,
              log: (m) => {
                if (/fail|error|ended/i.test(m)) console.error(m);
              },
              metrics: createMetrics({ db: api.db, defaultMetrics: false }),
              publish: () => undefined,
            },
            { thread },
          );
    console.log(
      `  ingest: ${'arrangement' in running && running.arrangement === 'thread' ? 'in a worker thread' : "in the bench's event loop"}`,
    );
    if (first) {
      first = false;
      if (apart) await apart.connected;
      while (adapters.some((a) => a.sockets.size === 0)) await new Promise((r) => setTimeout(r, 100));
      timer = inProcess ? linesEverySecond(adapters) : undefined;
    }
    return () => running.stop();
  };
  return {
    ingest,
    stop() {
      clearInterval(timer);
      apart?.stop();
      for (const a of adapters) {
        for (const s of a.sockets) s.destroy();
        a.server.close();
      }
    },
  };
}

/** The adapters' process (adapter-process.ts): their ports, once listening, and when every one is connected. */
async function adapterProcess(count: number) {
  const self = fileURLToPath(new URL('./adapter-process.ts', import.meta.url));
  const child = spawn(process.execPath, [...process.execArgv, self, String(count)], {
    stdio: ['pipe', 'pipe', 'inherit'],
  });
  const lines = createInterface({ input: child.stdout })[Symbol.asyncIterator]();
  const first = await lines.next();
  if (first.done) throw new Error('adapter process exited before listening');
  const ports = JSON.parse(first.value) as number[];
  const connected = lines.next().then((l) => {
    if (l.done || l.value !== 'connected') throw new Error('adapter process exited before connected');
  });
  connected.catch(() => undefined); // awaited once the sources are made
  return { ports, connected, stop: () => child.stdin.end() };
}
