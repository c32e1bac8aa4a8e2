// One machine's bad write does not stall the plant (issue 30 point 1, decision 1121): a batch that fails while the
// database answers is written machine by machine, the machine whose own write fails is set aside (logged, counted)
// and tried alone again later, and every other machine's data is stored meanwhile. Real adapters on sockets; the
// failing write is a trigger on the test database refusing that machine's live row.
import type net from 'node:net';
import { sql } from 'kysely';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { companyScope } from '@takt/db';
import { DIALECTS, freshDb } from '@takt/db/testing';
import type { TestDb } from '@takt/db/testing';
import { createAdapter } from '../../../api/src/repositories/adapters';
import { createShdrSource } from '../../../api/src/repositories/machine-sources';
import { aCompany, aMachine } from '../../../api/src/testing/builders';
import { demoAdapterFields } from '../demo/demo-adapter';
import { startIngest } from './ingest';
import type { IngestService } from './ingest';
import type { FakeAdapter } from '../testing/test-support';
import { LOOPBACK_SOURCES, fakeAdapter, waitFor } from '../testing/test-support';

const iso = (ms: number) => new Date(ms).toISOString();

describe.each(DIALECTS)('a machine whose write fails is set aside (%s)', (dialect) => {
  let t: TestDb;
  let ingest: IngestService | undefined;
  const adapters: FakeAdapter[] = [];
  const sockets: Array<net.Socket | undefined> = [];
  const machines: string[] = [];
  const t0 = 1_790_000_000_000;
  let clock = t0;
  const now = () => clock;

  beforeEach(async () => {
    t = await freshDb(dialect);
    clock = t0 - 1000;
    const company = await aCompany(t.db);
    const scope = companyScope(t.db, company.id);
    const adapterId = await createAdapter(scope, { name: 'demo', fields: demoAdapterFields() }, 0);
    for (const name of ['Good', 'Bad']) {
      const i = adapters.length;
      adapters.push(await fakeAdapter((s) => (sockets[i] = s)));
      const id = await aMachine(t.db, company, { name });
      await scope.updateTable('machines').set({ adapter_id: adapterId }).where('id', '=', id).execute();
      await createShdrSource(scope, { machineId: id, host: '127.0.0.1', port: adapters[i]!.port }, 0);
      machines.push(id);
    }
  });

  afterEach(async () => {
    await ingest?.stop();
    ingest = undefined;
    for (const a of adapters) await a.close();
    adapters.length = 0;
    sockets.length = 0;
    machines.length = 0;
    await t.cleanup();
  });

  /** The database refuses every live row of `machineId` (as a constraint or a bad value would), or accepts again. */
  async function refuse(machineId: string, on: boolean): Promise<void> {
    if (dialect === 'sqlite') {
      if (on)
        await sql
          .raw(
            `create trigger refuse_live before insert on machine_live when new.machine_id = '${machineId}' ` +
              `begin select raise(abort, 'refused by the test'); end`,
          )
          .execute(t.db);
      else await sql`drop trigger refuse_live`.execute(t.db);
      return;
    }
    if (on) {
      await sql
        .raw(
          `create function refuse_live() returns trigger language plpgsql as $$ begin ` +
            `if new.machine_id = '${machineId}' then raise exception 'refused by the test'; end if; return new; end $$`,
        )
        .execute(t.db);
      await sql`create trigger refuse_live before insert on machine_live for each row execute function refuse_live()`.execute(
        t.db,
      );
    } else {
      await sql`drop trigger refuse_live on machine_live`.execute(t.db);
      await sql`drop function refuse_live()`.execute(t.db);
    }
  }

  const stored = async (machineId: string, key: string) =>
    (
      await t.db
        .selectFrom('observations')
        .select('value')
        .where('machine_id', '=', machineId)
        .where('key', '=', key)
        .orderBy('ts')
        .execute()
    ).map((r) => r.value);
  const program = async (machineId: string) =>
    (
      await t.db
        .selectFrom('machine_live')
        .select('program')
        .where('machine_id', '=', machineId)
        .executeTakeFirst()
    )?.program;

  it("stores the other machine's data while the failing one waits, then stores the failing one's when it can", async () => {
    const setAside: string[] = [];
    const logged: string[] = [];
    ingest = await startIngest({
      sourcePolicy: LOOPBACK_SOURCES,
      db: t.db,
      flushIntervalMs: 20,
      now,
      log: (m) => logged.push(m),
      onSetAside: (machineId) => setAside.push(machineId),
    });
    await waitFor(() => sockets[0] && sockets[1], 5000, 'both ingest links');
    const [good, bad] = machines as [string, string];
    await ingest.flush();
    await refuse(bad, true);

    clock = t0 + 5;
    sockets[0]!.write(`${iso(t0)}|avail|AVAILABLE|execution|ACTIVE|program|G1\n`);
    sockets[1]!.write(`${iso(t0)}|avail|AVAILABLE|execution|ACTIVE|program|B1\n`);
    await expect.poll(() => stored(good, 'program'), { timeout: 10_000 }).toEqual(['G1']);
    await expect.poll(() => setAside, { timeout: 10_000 }).toEqual([bad]);
    expect(logged.some((m) => m.includes('Bad') && m.includes('set aside'))).toBe(true);

    // The plant goes on: the good machine's next line is stored while the bad one is still refused.
    clock = t0 + 1005;
    sockets[0]!.write(`${iso(t0 + 1000)}|program|G2\n`);
    sockets[1]!.write(`${iso(t0 + 1000)}|program|B2\n`);
    await expect.poll(() => stored(good, 'program'), { timeout: 10_000 }).toEqual(['G1', 'G2']);
    await expect.poll(() => program(good), { timeout: 10_000 }).toBe('G2');
    await ingest.flush();
    expect(await stored(bad, 'program')).toEqual([]);
    // Set aside once, however many batches went by.
    expect(setAside).toEqual([bad]);

    // The database takes its rows again: at its retry, everything it received is stored, nothing lost or doubled.
    await refuse(bad, false);
    clock = t0 + 60_000;
    await expect
      .poll(async () => (await ingest!.flush(), stored(bad, 'program')), { timeout: 10_000 })
      .toEqual(['B1', 'B2']);
    expect(await program(bad)).toBe('B2');
    expect(await stored(good, 'program')).toEqual(['G1', 'G2']);
  });
});
