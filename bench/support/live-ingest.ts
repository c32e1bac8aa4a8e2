// Machines of another company ingesting alongside a bench (bench/report-load.ts, bench/dashboard-answer.ts): each
// with a loopback SHDR adapter sending one line a second, read by the ingest worker with its rollup worker in the
// bench's process, as a single node runs. The adapters run in a process of their own (adapter-process.ts, decision
// 1215), as a plant's run on its machines; BENCH_ADAPTERS_IN_PROCESS=1: in the bench's process, as before.
import { spawn } from 'node:child_process';
import { createInterface } from 'node:readline';
import { fileURLToPath } from 'node:url';
import type { Db } from '@takt/db';
import { companyScope } from '@takt/db';
import { startIngest } from '@takt/ingest';
import { ingestDatabase } from '../../services/api/src/databases';
import { createAdapter } from '../../services/api/src/repositories/adapters';
import { createShdrSource } from '../../services/api/src/repositories/machine-sources';
import { aCompany, aMachine } from '../../services/api/src/testing/builders';
import { demoAdapterFields } from '../../services/ingest/src/demo/demo-adapter';
import { LOOPBACK_SOURCES } from '../../services/ingest/src/testing/test-support';
import { linesEverySecond, loopbackAdapter } from './loopback-adapter';
import type { LoopbackAdapter } from './loopback-adapter';

/**
 * `count` machines of a new company, each with a loopback SHDR adapter sending one line a second (execution
 * and part count change), read by the ingest worker with its rollup worker: the plant ingesting alongside.
 */
export async function liveIngest(api: Db, url: string, count: number) {
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
  // The ingest's own handle as main.ts opens it (decision 1192; BENCH_SHARED_POOL=1: the API's, as before).
  const own = process.env.BENCH_SHARED_POOL === '1' ? api : ingestDatabase(api, url);
  const ingest = await startIngest({ sourcePolicy: LOOPBACK_SOURCES, db: own.db });
  if (apart) await apart.connected;
  while (adapters.some((a) => a.sockets.size === 0)) await new Promise((r) => setTimeout(r, 100));
  const timer = inProcess ? linesEverySecond(adapters) : undefined;
  return async () => {
    clearInterval(timer);
    await ingest.stop();
    apart?.stop();
    if (own !== api) await own.close();
    for (const a of adapters) {
      for (const s of a.sockets) s.destroy();
      a.server.close();
    }
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
