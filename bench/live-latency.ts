// Benchmark: N simulated machines sending one SHDR line a second each; p50/p99 time from
// a line leaving its adapter to the change being visible through GET /api/dashboard. Printed against a
// baseline measured in the same run: the time GET /api/dashboard itself takes. Not a test.
//   npx tsx bench/live-latency.ts [machines=500] [seconds=20] [sqlite|postgres]
// (postgres: a new database on the test server, TAKT_TEST_PG_URL, dropped after.)
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createApp } from '@takt/api';
import { companyScope, migrateToLatest, openDb } from '@takt/db';
import type { DialectName } from '@takt/db';
import { emptyDatabase } from '@takt/db/testing';
import { apiRules, startIngest } from '@takt/ingest';
import { demoAdapterFields } from '../services/ingest/src/demo/demo-adapter';
import { LOOPBACK_SOURCES } from '../services/ingest/src/testing/test-support';
import { createAdapter } from '../services/api/src/repositories/adapters';
import { createShdrSource } from '../services/api/src/repositories/machine-sources';
import { inProcessBus } from '../services/api/src/live/bus';
import { aCompany, aMachine, aUser } from '../services/api/src/testing/builders';
import { loopbackAdapter } from './support/loopback-adapter';
import type { LoopbackAdapter } from './support/loopback-adapter';

const MACHINES = Number(process.argv[2] ?? 500);
const SECONDS = Number(process.argv[3] ?? 20);
const DIALECT = (process.argv[4] ?? 'sqlite') as DialectName;

const pct = (xs: number[], p: number) => {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.min(s.length - 1, Math.floor((p / 100) * s.length))] ?? NaN;
};

async function main() {
  const dir = mkdtempSync(join(tmpdir(), 'takt-latency-'));
  const pgDatabase = DIALECT === 'postgres' ? await emptyDatabase('postgres') : null;
  const database = openDb(pgDatabase?.url ?? join(dir, 'bench.db'));
  await migrateToLatest(database.db);
  const company = await aCompany(database.db, { timezone: 'UTC' });
  const user = await aUser(database.db, company);
  const scope = companyScope(database.db, company.id);
  const adapterId = await createAdapter(scope, { name: 'bench', fields: demoAdapterFields() }, Date.now());
  const adapters: LoopbackAdapter[] = [];
  const machineIds: string[] = [];
  for (let i = 0; i < MACHINES; i++) {
    const a = await loopbackAdapter();
    adapters.push(a);
    const id = await aMachine(database.db, company, { name: `M${String(i).padStart(3, '0')}`, sortOrder: i });
    await scope.updateTable('machines').set({ adapter_id: adapterId }).where('id', '=', id).execute();
    await createShdrSource(scope, { machineId: id, host: '127.0.0.1', port: a.port }, Date.now());
    machineIds.push(id);
  }
  const ingest = await startIngest({ sourcePolicy: LOOPBACK_SOURCES, db: database.db, rollupIntervalMs: 0 });
  const app = createApp({
    db: database.db,
    dialect: database.dialect,
    now: Date.now,
    demoMode: false,
    secureCookies: false,
    staticRoot: null,
    bus: inProcessBus(),
    ingest: apiRules,
  });
  const login = await app.request('/login', {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ email: user.email, password: user.password }),
  });
  const cookie = login.headers.get('set-cookie')!.split(';')[0]!;
  while ([...adapters].some((a) => a.sockets.size === 0)) await new Promise((r) => setTimeout(r, 100));

  // Each second every adapter sends its next program number; remember when it left.
  const sent = new Map<string, number>(); // machineId#program → sent at
  const latencies: number[] = [];
  const dashboardMs: number[] = [];
  let tick = 0;
  const timer = setInterval(() => {
    tick++;
    const at = Date.now();
    adapters.forEach((a, i) => {
      const line = `${new Date(at).toISOString()}|program|P${tick}|execution|${tick % 2 ? 'ACTIVE' : 'READY'}\n`;
      for (const s of a.sockets) s.write(line);
      sent.set(`${machineIds[i]}#P${tick}`, at);
    });
  }, 1000);
  const seen = new Set<string>();
  const until = Date.now() + SECONDS * 1000;
  while (Date.now() < until) {
    // Poll like a fast client, leaving the event loop free for the adapters' sockets and ingest.
    await new Promise((r) => setTimeout(r, 25));
    const t0 = performance.now();
    const res = await app.request('/api/dashboard', { headers: { cookie } });
    const body = (await res.json()) as { machines: Array<{ id: string; program: string | null }> };
    dashboardMs.push(performance.now() - t0);
    const now = Date.now();
    for (const m of body.machines) {
      const key = `${m.id}#${m.program}`;
      const at = sent.get(key);
      if (at != null && !seen.has(key)) {
        seen.add(key);
        latencies.push(now - at);
      }
    }
  }
  clearInterval(timer);
  await ingest.stop();
  for (const a of adapters) {
    for (const s of a.sockets) s.destroy();
    a.server.close();
  }
  await database.close();
  await pgDatabase?.cleanup();
  rmSync(dir, { recursive: true, force: true });

  const base = pct(dashboardMs, 50);
  console.log(
    `live-latency: ${MACHINES} machines × 1 line/s for ${SECONDS} s on ${DIALECT}, ${latencies.length} changes seen`,
  );
  console.log(
    `  GET /api/dashboard (baseline): p50 ${base.toFixed(1)} ms, p99 ${pct(dashboardMs, 99).toFixed(1)} ms`,
  );
  console.log(
    `  line → dashboard: p50 ${pct(latencies, 50)} ms, p99 ${pct(latencies, 99)} ms (aim < 1000 ms)`,
  );
  console.log(`  ratio p99 latency / dashboard p50: ${(pct(latencies, 99) / base).toFixed(1)}`);
  process.exit(0);
}

await main();
