import { sql } from 'kysely';
import { CONNECTION_KEY } from '@takt/db';
import type { CompanyScope } from '@takt/db';
import type { MachineConnectionInput } from '@takt/domain';

/** The facts about a machine's set-up and data that its connection words depend on (decision 1055). */
export type ConnectionFacts = Pick<
  MachineConnectionInput,
  'sourceConfigured' | 'fieldsMapped' | 'everReported'
>;

const NONE: ConnectionFacts = { sourceConfigured: false, fieldsMapped: false, everReported: false };

const truthy = (v: unknown): boolean => v === true || Number(v) === 1;

/**
 * For each machine of the caller's company among `machineIds`: an enabled data source, an adapter mapping at
 * least one field, and any stored machine data (an observation other than the link log, CONNECTION_KEY). One
 * query; each `exists` stops at its first row (observations by the machine's index).
 */
export async function connectionFacts(
  scope: CompanyScope,
  machineIds: readonly string[],
): Promise<Map<string, ConnectionFacts>> {
  const out = new Map<string, ConnectionFacts>();
  if (machineIds.length === 0) return out;
  const rows = await scope
    .selectFrom('machines')
    .select((eb) => [
      'machines.id',
      eb
        .exists(
          eb
            .selectFrom('machine_sources as s')
            .select(sql`1`.as('one'))
            .whereRef('s.machine_id', '=', 'machines.id')
            .whereRef('s.company_id', '=', 'machines.company_id')
            .where('s.enabled', '=', 1),
        )
        .as('has_source'),
      eb
        .exists(
          eb
            .selectFrom('adapter_fields as f')
            .select(sql`1`.as('one'))
            .whereRef('f.adapter_id', '=', 'machines.adapter_id')
            .whereRef('f.company_id', '=', 'machines.company_id'),
        )
        .as('has_fields'),
      eb
        .exists(
          eb
            .selectFrom('observations as o')
            .select(sql`1`.as('one'))
            .whereRef('o.machine_id', '=', 'machines.id')
            .where('o.key', '<>', CONNECTION_KEY),
        )
        .as('reported'),
    ])
    .where('machines.id', 'in', [...machineIds])
    .execute();
  for (const r of rows) {
    out.set(r.id, {
      sourceConfigured: truthy(r.has_source),
      fieldsMapped: truthy(r.has_fields),
      everReported: truthy(r.reported),
    });
  }
  return out;
}

export const connectionFactsOf = (facts: ReadonlyMap<string, ConnectionFacts>, id: string): ConnectionFacts =>
  facts.get(id) ?? NONE;
