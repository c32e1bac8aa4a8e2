import type net from 'node:net';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { DIALECTS } from '@takt/db/testing';
import { adminMachineSchema } from '@takt/domain';
import { startIngest } from '@takt/ingest';
import type { IngestService } from '@takt/ingest';
import type { FakeAdapter } from '../../../ingest/src/testing/test-support';
import { LOOPBACK_SOURCES, fakeAdapter, waitFor } from '../../../ingest/src/testing/test-support';
import type { ApiHarness } from '../testing/app';
import { apiHarness } from '../testing/app';

// A machine created in the machines admin with an SHDR source is connected by a running ingest worker, no
// restart (the worker re-reads its sources, decision 0860): a real adapter socket on 127.0.0.1.

describe.each(DIALECTS)('a new SHDR source reaches the running ingest on %s', (dialect) => {
  let h: ApiHarness;
  let adapter: FakeAdapter;
  let ingest: IngestService | undefined;
  let socket: net.Socket | undefined;

  beforeEach(async () => {
    // The adapter runs on this host: loopback opened for the save and the connect (decision 0985).
    h = await apiHarness(dialect, undefined, { sourcePolicy: LOOPBACK_SOURCES });
    adapter = await fakeAdapter((s) => {
      socket = s;
    });
  });
  afterEach(async () => {
    await ingest?.stop();
    ingest = undefined;
    socket = undefined;
    await adapter.close();
    await h.close();
  });

  it('connects to the new machine’s adapter and stores what it sends', async () => {
    const { cookie } = await h.tenant();
    ingest = await startIngest({
      db: h.t.db,
      flushIntervalMs: 20,
      sourcesIntervalMs: 50,
      rollupIntervalMs: 0,
      sourcePolicy: LOOPBACK_SOURCES,
    });

    const res = await h.send('POST', '/api/machines', cookie, {
      name: 'Lathe 9',
      workcenterType: 'machine',
      downtimeFailureDelay: 10,
      autostartBehavior: 'disabled',
      adapterId: null,
      source: { kind: 'shdr', host: '127.0.0.1', port: adapter.port },
    });
    expect(res.status).toBe(201);
    const machine = adminMachineSchema.parse(await res.json());

    const s = await waitFor(() => socket, 5000, 'the ingest to dial the new source');
    s.write(`${new Date().toISOString()}|execution|ACTIVE\n`);
    await expect
      .poll(
        async () =>
          (
            await h.t.db
              .selectFrom('observations')
              .select(['key', 'value'])
              .where('machine_id', '=', machine.id)
              .execute()
          ).map((o) => `${o.key}=${o.value}`),
        { timeout: 5000 },
      )
      .toContain('execution=ACTIVE');

    // Decommissioned: the worker lets the source go.
    expect(
      (await h.send('PUT', `/api/machines/${machine.id}/decommission`, cookie, { name: 'Lathe 9' })).status,
    ).toBe(200);
    await waitFor(() => adapter.closed[0], 5000, 'the ingest to drop the decommissioned source');
  });
});
