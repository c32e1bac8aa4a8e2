// The setup of the worker tests that stream from a fake SHDR adapter: a company with one machine whose source is
// the adapter on this host, read through the demo adapter's fields, and the adapter itself. Not used at run time.
import type net from 'node:net';
import { afterEach, beforeEach } from 'vitest';
import type { Kysely } from 'kysely';
import type { Database } from '@takt/db';
import { companyScope } from '@takt/db';
import { createAdapter } from '../../../api/src/repositories/adapters';
import type { Company } from '../../../api/src/repositories/company';
import { createShdrSource } from '../../../api/src/repositories/machine-sources';
import { aCompany, aMachine } from '../../../api/src/testing/builders';
import { demoAdapterFields } from '../demo/demo-adapter';
import type { IngestService } from '../worker/ingest';
import { fakeAdapter } from './test-support';
import type { FakeAdapter } from './test-support';

/** A new company and its machine `name`, read from the SHDR adapter listening on 127.0.0.1:`port`. */
export async function aShdrMachine(
  db: Kysely<Database>,
  port: number,
  name = 'Mill',
): Promise<{ company: Company; machineId: string }> {
  const company = await aCompany(db);
  const scope = companyScope(db, company.id);
  const adapterId = await createAdapter(scope, { name: 'demo', fields: demoAdapterFields() }, 0);
  const machineId = await aMachine(db, company, { name });
  await scope.updateTable('machines').set({ adapter_id: adapterId }).where('id', '=', machineId).execute();
  await createShdrSource(scope, { machineId, host: '127.0.0.1', port }, 0);
  return { company, machineId };
}

/** A new company with one machine `M<i>` per port, each read from the SHDR adapter on 127.0.0.1:port; their ids. */
export async function shdrMachinesOn(db: Kysely<Database>, ports: readonly number[]): Promise<string[]> {
  const company = await aCompany(db);
  const scope = companyScope(db, company.id);
  const adapterId = await createAdapter(scope, { name: 'demo', fields: demoAdapterFields() }, 0);
  const ids: string[] = [];
  for (const [i, port] of ports.entries()) {
    const machineId = await aMachine(db, company, { name: `M${i}` });
    await scope.updateTable('machines').set({ adapter_id: adapterId }).where('id', '=', machineId).execute();
    await createShdrSource(scope, { machineId, host: '127.0.0.1', port }, 0);
    ids.push(machineId);
  }
  return ids;
}

/** A fake SHDR adapter and the ingest a test starts to read it (`ingest`), fresh for each test. */
export interface AdapterLink {
  adapter: FakeAdapter;
  /** The adapter's side of the ingest's connection, once the ingest connected. */
  socket: net.Socket | undefined;
  ingest: IngestService | undefined;
}

/**
 * Opens a fake adapter before each test (after `opened`, the test's database) and, after it, stops the ingest the
 * test started, closes the adapter and calls `closing` (its checks and the database's cleanup).
 */
export function anAdapterPerTest(opened: () => Promise<void>, closing: () => Promise<void>): AdapterLink {
  const link = { socket: undefined, ingest: undefined } as unknown as AdapterLink;
  beforeEach(async () => {
    await opened();
    link.adapter = await fakeAdapter((s) => {
      link.socket = s;
    });
  });
  afterEach(async () => {
    await link.ingest?.stop();
    link.ingest = undefined;
    link.socket = undefined;
    await link.adapter.close();
    await closing();
  });
  return link;
}
