import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { companyScope } from '@takt/db';
import type { Db } from '@takt/db';
import { recomputesNoted } from '@takt/db/rollups';
import { DIALECTS } from '@takt/db/testing';
import { dashboardResponseSchema } from '@takt/domain';
import { demoAdapterFields } from '@takt/ingest';
import { fakeAdapter, LOOPBACK_SOURCES } from '../../ingest/src/testing/test-support';
import type { FakeAdapter } from '../../ingest/src/testing/test-support';
import { createMetrics } from './http/metrics';
import type { Metrics } from './http/metrics';
import type { LiveEvent } from './live/bus';
import { startNodeIngest } from './node-ingest';
import type { NodeIngest, NodeIngestConfig } from './node-ingest';
import { createAdapter } from './repositories/adapters';
import { createShdrSource } from './repositories/machine-sources';
import { apiHarness } from './testing/app';
import type { ApiHarness } from './testing/app';
import { aMachine } from './testing/builders';

// Decision 1226: the node's ingest in a worker thread of its process. SHDR lines from a real socket are stored by the
// thread on its own database handle, and the API's thread sees them: the live bus, the dashboard's shared answer,
// /metrics, the recomputes of the thread's rollup worker; stop() writes what was buffered; a thread that dies is
// started again.

/** Polls an async check until it gives something other than undefined/false. */
async function until<T>(check: () => Promise<T | undefined | false>, what: string, ms = 20_000): Promise<T> {
  const deadline = Date.now() + ms;
  for (;;) {
    const value = await check();
    if (value !== undefined && value !== false) return value;
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 20));
  }
}

const line = (execution: string, parts: number) =>
  `${new Date().toISOString()}|execution|${execution}|part_count|${parts}\n`;

describe.each(DIALECTS)("the node's ingest thread on %s", (dialect) => {
  let h: ApiHarness;
  let metrics: Metrics;
  let adapter: FakeAdapter;
  let ingest: NodeIngest | undefined;
  const logged: string[] = [];
  const events: LiveEvent[] = [];

  beforeEach(async () => {
    h = await apiHarness(dialect, Date.now());
    metrics = createMetrics({ db: h.t.db, defaultMetrics: false });
    adapter = await fakeAdapter((socket) => socket.write(line('ACTIVE', 1)));
    logged.length = 0;
    events.length = 0;
    h.bus.subscribe((e) => events.push(e));
  });
  afterEach(async () => {
    await ingest?.stop();
    ingest = undefined;
    await adapter.close();
    await h.close();
  });

  const config = (over: Partial<NodeIngestConfig> = {}): NodeIngestConfig => ({
    url: h.t.url,
    arrivalGapMs: 50,
    sourcePolicy: LOOPBACK_SOURCES,
    periods: { flushIntervalMs: 50, rollupIntervalMs: 100, countersIntervalMs: 100 },
    ...over,
  });
  const start = (over: Partial<NodeIngestConfig> = {}) =>
    startNodeIngest(
      config(over),
      {
        api: { db: h.t.db, dialect, close: async () => undefined } satisfies Db,
        now: Date.now,
        log: (m) => logged.push(m),
        metrics,
        publish: (machines) => void h.bus.publish(machines.map((m) => ({ ...m, topic: 'live' as const }))),
      },
      { thread: true },
    );

  /** A tenant with one machine reading the fake adapter. */
  async function plant() {
    const tenant = await h.tenant();
    const scope = companyScope(h.t.db, tenant.company.id);
    const adapterId = await createAdapter(scope, { name: 'shdr', fields: demoAdapterFields() }, Date.now());
    const machineId = await aMachine(h.t.db, tenant.company, { name: 'Lathe' });
    await scope.updateTable('machines').set({ adapter_id: adapterId }).where('id', '=', machineId).execute();
    await createShdrSource(scope, { machineId, host: '127.0.0.1', port: adapter.port }, Date.now());
    return { ...tenant, machineId };
  }

  const tile = async (cookie: string, machineId: string) => {
    h.clock.now = Date.now();
    const answer = dashboardResponseSchema.parse(await (await h.get('/api/dashboard', cookie)).json());
    return answer.machines.find((m) => m.id === machineId);
  };
  const metric = async (name: string) => {
    const text = await metrics.registry.metrics();
    return Number(new RegExp(`^${name} (\\S+)$`, 'm').exec(text)?.[1] ?? Number.NaN);
  };

  it("stores a socket's lines in its thread; the API's bus, shared answer, metrics and recompute count see them", async () => {
    const { cookie, company, machineId } = await plant();
    // The dashboard's shared answer (decision 1200) kept before the thread stored anything.
    expect((await tile(cookie, machineId))?.partCount ?? null).toBeNull();
    ingest = await start();
    expect(ingest.arrangement).toBe('thread');
    expect(ingest.thread()).not.toBeNull();
    // The live bus of this thread hears the thread's batches.
    await until(
      async () => events.some((e) => e.machineId === machineId && e.topic === 'live'),
      'a live event',
    );
    // The dashboard's kept answer moves with what the thread wrote (its live generation, decision 1206).
    await until(async () => (await tile(cookie, machineId))?.partCount === 1, 'the tile showing part 1');
    expect(await metric('takt_ingest_observations_total')).toBeGreaterThan(0);
    // The thread's rollup worker recomputes the machine's day; this thread counts it (the reports' versions and the
    // week index's stamp, which read this thread's count).
    await until(async () => recomputesNoted(company.id) > 0, "the thread's recompute counted here");
    // stop() stops the ingest in the thread, which then ends by itself (exit code 0: no socket, timer or handle
    // left open), and the last batch is stored.
    adapter.sockets[0]!.write(line('ACTIVE', 2));
    await until(async () => (await tile(cookie, machineId))?.partCount === 2, 'the tile showing part 2');
    const thread = ingest.thread()!;
    const exited = new Promise<number>((r) => thread.once('exit', r));
    await ingest.stop();
    expect(await exited).toBe(0);
    expect(ingest.thread()).toBeNull();
    ingest = undefined;
    expect(logged.filter((m) => /failed|ended/.test(m))).toEqual([]);
  });

  it('starts a thread that died again, counts it, and goes on storing', async () => {
    const { cookie, machineId } = await plant();
    ingest = await start();
    await until(async () => (await tile(cookie, machineId))?.partCount === 1, 'the tile showing part 1');
    // The thread ends as an uncaught error would end it.
    await ingest.thread()!.terminate();
    await until(async () => ingest!.restarts() === 1, 'the restart counted');
    expect(await metric('takt_ingest_thread_restarts_total')).toBe(1);
    expect(logged.some((m) => m.includes('thread ended'))).toBe(true);
    // The new thread reconnects to the adapter and stores its lines.
    await until(async () => adapter.sockets.length === 2, 'the new thread connected', 20_000);
    adapter.sockets[1]!.write(line('ACTIVE', 3));
    await until(async () => (await tile(cookie, machineId))?.partCount === 3, 'the tile showing part 3');
    await ingest.flush();
  });

  it('logs a thread that fails to start and starts it again, without taking the node down', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'takt-node-ingest-'));
    try {
      // SQLite: a file under a file, which cannot be made; PostgreSQL: a database that does not exist.
      writeFileSync(join(dir, 'file'), '');
      const url =
        dialect === 'sqlite'
          ? join(dir, 'file', 'takt.db')
          : h.t.url.replace(/\/[^/?]+(\?|$)/, '/takt_h1_no_such_database$1');
      ingest = await start({ url });
      await until(async () => ingest!.restarts() >= 1, 'the restart counted');
      expect(logged.some((m) => m.startsWith('[ingest] thread failed:'))).toBe(true);
      await ingest.stop();
      ingest = undefined;
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
