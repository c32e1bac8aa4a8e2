// A restarted worker takes over at its first machine data, not at its connect (decisions 0201, 1065): an adapter
// whose values change between the worker's connect and its first line (the multi-host test's restarted node, a
// millisecond before a data step) leaves the previous run's state until that line, with no UNAVAILABLE between.
import { afterEach, describe, expect, it } from 'vitest';
import { CONNECTION_KEY, companyScope } from '@takt/db';
import { DIALECTS, freshDb } from '@takt/db/testing';
import type { TestDb } from '@takt/db/testing';
import { createAdapter } from '../../../api/src/repositories/adapters';
import { createShdrSource } from '../../../api/src/repositories/machine-sources';
import { aCompany, aMachine } from '../../../api/src/testing/builders';
import { demoAdapterFields } from '../demo/demo-adapter';
import type { FakeAdapter } from '../testing/test-support';
import { fakeAdapter, sleep, startWorker } from '../testing/test-support';

/** Polls the database until `check` returns something. */
async function eventually<T>(check: () => Promise<T | undefined>, what: string): Promise<T> {
  for (let tries = 0; tries < 800; tries++) {
    const value = await check();
    if (value !== undefined) return value;
    await sleep(25);
  }
  throw new Error(`timed out waiting for ${what}`);
}

describe.each(DIALECTS)('a worker restarted while the machine runs (%s)', (dialect) => {
  let t: TestDb | undefined;
  let adapter: FakeAdapter | undefined;
  const kills: Array<() => Promise<void>> = [];
  afterEach(async () => {
    for (const kill of kills.splice(0)) await kill();
    await adapter?.close();
    await t?.cleanup();
    t = undefined;
  });

  it('keeps the previous run’s state up to the new run’s first line, stamped after its connect', async () => {
    t = await freshDb(dialect);
    const db = t.db;
    const company = await aCompany(db);
    const scope = companyScope(db, company.id);
    const adapterId = await createAdapter(scope, { name: 'demo', fields: demoAdapterFields() }, 0);
    const machineId = await aMachine(db, company, { name: 'Mill' });
    await scope.updateTable('machines').set({ adapter_id: adapterId }).where('id', '=', machineId).execute();
    // The first connection hears values that took effect a minute ago (placed at the connect); the second one's
    // first line comes 50 ms after the worker's PING, stamped when sent: the machine started a cycle meanwhile.
    let firstLineOfSecond = 0;
    adapter = await fakeAdapter(
      () => {},
      (socket, line, index) => {
        if (line !== '* PING') return;
        if (index === 0) {
          socket.write(`${new Date(Date.now() - 60_000).toISOString()}|avail|AVAILABLE|execution|READY\n`);
          return;
        }
        setTimeout(() => {
          firstLineOfSecond = Date.now();
          socket.write(`${new Date(firstLineOfSecond).toISOString()}|avail|AVAILABLE|execution|ACTIVE\n`);
        }, 50);
      },
    );
    await createShdrSource(scope, { machineId, host: '127.0.0.1', port: adapter.port }, 0);
    const intervals = () =>
      db
        .selectFrom('state_intervals')
        .select(['start_at', 'end_at', 'state'])
        .where('machine_id', '=', machineId)
        .orderBy('start_at')
        .execute();
    const connects = async () =>
      (
        await db
          .selectFrom('observations')
          .select('ts')
          .where('machine_id', '=', machineId)
          .where('key', '=', CONNECTION_KEY)
          .where('value', '=', 'CONNECTED')
          .orderBy('ts')
          .execute()
      ).map((r) => Number(r.ts));

    // The first run stores READY, then its worker dies without a word (SIGKILL: no DISCONNECTED).
    const first = startWorker(t.url);
    kills.push(first.kill);
    expect(await first.ready, first.stderr()).toBe(true);
    await eventually(
      async () => ((await intervals()).some((i) => i.state === 'INACTIVE') ? true : undefined),
      'the first run to store its state',
    );
    await first.kill();

    const second = startWorker(t.url);
    kills.push(second.kill);
    expect(await second.ready, second.stderr()).toBe(true);
    const stored = await eventually(async () => {
      const rows = await intervals();
      return rows.some((i) => i.state === 'ACTIVE') ? rows : undefined;
    }, 'the second run to store its first line');
    await second.kill();

    const [c0, c1] = await connects();
    // The second run connected before its first line: the time between is what this test is about.
    expect(c1).toBeLessThan(firstLineOfSecond);
    expect(
      stored.map((i) => [Number(i.start_at), i.end_at === null ? null : Number(i.end_at), i.state]),
    ).toEqual([
      [c0, firstLineOfSecond, 'INACTIVE'],
      [firstLineOfSecond, null, 'ACTIVE'],
    ]);
  }, 120_000);
});
