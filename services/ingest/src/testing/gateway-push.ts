import { expect } from 'vitest';
import type { Kysely } from 'kysely';
import { companyScope, insertObservations } from '@takt/db';
import type { Database } from '@takt/db';
import { createAdapter } from '../../../api/src/repositories/adapters';
import type { Company } from '../../../api/src/repositories/company';
import { machineSourceRow } from '../../../api/src/repositories/machine-sources';
import { aMachine } from '../../../api/src/testing/builders';
import { demoAdapterFields } from '../demo/demo-adapter';
import type { IngestService } from '../worker/ingest';
import { parseShdrLine } from '../sources/shdr/shdr';
import { conditionText } from '../worker/store';

/**
 * What the push route stores for a gateway's accepted records, in one transaction: their observations under the
 * company and machine id, and the lines for the worker's inbox (`inbox: false`: the observations only, as another
 * company's source reporting the same machine id stores rows no link of this worker reads from its inbox).
 */
export function gatewayPusher(
  db: Kysely<Database>,
  companyId: string,
  machineId: string,
  opts: { inbox?: boolean } = {},
) {
  let seq = 0;
  return async (lines: string[], receivedAt: number) => {
    await db.transaction().execute(async (trx) => {
      const observations = lines.flatMap((line) => {
        const parsed = parseShdrLine(line, receivedAt);
        if (parsed.type !== 'data') return [];
        return parsed.observations.map((o) => ({
          company_id: companyId,
          machine_id: machineId,
          ts: o.ts,
          key: o.key,
          value: o.kind === 'condition' && o.condition ? conditionText(o.condition) : o.value,
        }));
      });
      // The one writer of raw observations, as the push route stores them.
      await insertObservations(trx, observations);
      if (opts.inbox === false) return;
      const inbox = lines.map((line) => ({
        id: crypto.randomUUID(),
        company_id: companyId,
        machine_id: machineId,
        received_at: receivedAt,
        seq: ++seq,
        line,
      }));
      for (let i = 0; i < inbox.length; i += 500)
        await trx
          .insertInto('ingest_inbox')
          .values(inbox.slice(i, i + 500))
          .execute();
    });
  };
}

/** A machine of the company fed by a gateway (source ref 'm1'), its adapter the demo's fields. */
export async function aGatewayMachine(db: Kysely<Database>, company: Company) {
  const scope = companyScope(db, company.id);
  const adapterId = await createAdapter(scope, { name: 'demo', fields: demoAdapterFields() }, 0);
  const machineId = await aMachine(db, company, { name: 'Mill' });
  await scope.updateTable('machines').set({ adapter_id: adapterId }).where('id', '=', machineId).execute();
  await scope
    .insertInto(
      'machine_sources',
      machineSourceRow({ machine_id: machineId, kind: 'gateway', machine_ref: 'm1' }),
    )
    .execute();
  return { scope, machineId };
}

/** Waits until the worker took every inbox line, then flushes what it derived. */
export async function drainInbox(db: Kysely<Database>, ingest: IngestService): Promise<void> {
  await expect
    .poll(async () => (await db.selectFrom('ingest_inbox').select('id').execute()).length, {
      timeout: 10_000,
    })
    .toBe(0);
  await ingest.flush();
}
