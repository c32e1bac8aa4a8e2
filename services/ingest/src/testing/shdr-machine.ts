// The setup of the worker tests that stream from a fake SHDR adapter: a company with one machine whose source is
// the adapter on this host, read through the demo adapter's fields. Not used at run time.
import type { Kysely } from 'kysely';
import type { Database } from '@takt/db';
import { companyScope } from '@takt/db';
import { createAdapter } from '../../../api/src/repositories/adapters';
import type { Company } from '../../../api/src/repositories/company';
import { createShdrSource } from '../../../api/src/repositories/machine-sources';
import { aCompany, aMachine } from '../../../api/src/testing/builders';
import { demoAdapterFields } from '../demo/demo-adapter';

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
