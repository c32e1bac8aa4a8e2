// Machines of another company ingesting alongside a bench (bench/report-load.ts, bench/dashboard-answer.ts): each
// with a loopback SHDR adapter sending one line a second, read by the ingest worker with its rollup worker in the
// bench's process, as a single node runs.
import type { Db } from '@takt/db';
import { companyScope } from '@takt/db';
import { startIngest } from '@takt/ingest';
import { ingestDatabase } from '../../services/api/src/databases';
import { createAdapter } from '../../services/api/src/repositories/adapters';
import { createShdrSource } from '../../services/api/src/repositories/machine-sources';
import { aCompany, aMachine } from '../../services/api/src/testing/builders';
import { demoAdapterFields } from '../../services/ingest/src/demo/demo-adapter';
import { LOOPBACK_SOURCES } from '../../services/ingest/src/testing/test-support';
import { loopbackAdapter } from './loopback-adapter';
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
  const adapters: LoopbackAdapter[] = [];
  for (let i = 0; i < count; i++) {
    const a = await loopbackAdapter();
    adapters.push(a);
    const id = await aMachine(db, company, { name: `L${String(i).padStart(4, '0')}`, sortOrder: i });
    await scope.updateTable('machines').set({ adapter_id: adapterId }).where('id', '=', id).execute();
    await createShdrSource(scope, { machineId: id, host: '127.0.0.1', port: a.port }, Date.now());
  }
  // The ingest's own handle as main.ts opens it (decision 1192; BENCH_SHARED_POOL=1: the API's, as before).
  const own = process.env.BENCH_SHARED_POOL === '1' ? api : ingestDatabase(api, url);
  const ingest = await startIngest({ sourcePolicy: LOOPBACK_SOURCES, db: own.db });
  while (adapters.some((a) => a.sockets.size === 0)) await new Promise((r) => setTimeout(r, 100));
  let tick = 0;
  const timer = setInterval(() => {
    tick++;
    const line = `${new Date().toISOString()}|execution|${tick % 3 ? 'ACTIVE' : 'READY'}|PartCount|${tick}\n`;
    for (const a of adapters) for (const s of a.sockets) s.write(line);
  }, 1000);
  return async () => {
    clearInterval(timer);
    await ingest.stop();
    if (own !== api) await own.close();
    for (const a of adapters) {
      for (const s of a.sockets) s.destroy();
      a.server.close();
    }
  };
}
