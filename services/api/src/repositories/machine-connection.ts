import { sql } from 'kysely';
import type { ExpressionBuilder, JoinBuilder, SqlBool } from 'kysely';
import { CONNECTION_KEY, numberedPlaceholders } from '@takt/db';
import type { CompanyScope, Database, MachineLiveTable } from '@takt/db';
import type { MachineConnectionInput } from '@takt/domain';
import { liveByMachine } from './live';

/** The facts about a machine's set-up and data that its connection words depend on (decision 1055). */
export type ConnectionFacts = Pick<
  MachineConnectionInput,
  'sourceConfigured' | 'fieldsMapped' | 'everReported'
>;

/** A machine of no known facts (none of its rows found). */
export const NO_CONNECTION_FACTS: ConnectionFacts = {
  sourceConfigured: false,
  fieldsMapped: false,
  everReported: false,
};

const truthy = (v: unknown): boolean => v === true || Number(v) === 1;

/**
 * The three facts as columns of a query over `machines` (each `exists` stops at its first row; observations
 * by the machine's index): an enabled data source, an adapter mapping at least one field, and any stored
 * machine data (an observation other than the link log, CONNECTION_KEY).
 */
const factColumns = (eb: ExpressionBuilder<Database, 'machines'>, pg: boolean) =>
  [
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
      .or([
        // One index probe of the machine's raw rows (decision 1140): `om` (its dictionary id) is joined by the query
        // (factsFrom), so the subquery reads one table by its (m, ts) key and stops at the first row that is not
        // the link log. Through the observations view PostgreSQL hashed every stored observation at each answer,
        // or merged the whole (m) index into each machine's probe: tens of seconds at 1,000 machines.
        sql<SqlBool>`(${eb
          .selectFrom('observation_rows as o')
          .select(sql`1`.as('one'))
          .where('o.m', '=', sql.ref<number>('om.id'))
          .where(
            'o.k',
            'is distinct from',
            eb.selectFrom('observation_keys as ck').select('ck.id').where('ck.key', '=', CONNECTION_KEY),
          )
          .limit(1)}) is not null`,
        // PostgreSQL packs a machine's older rows (decision 1184): one of its packs with a key other than the link's.
        ...(pg
          ? [
              sql<SqlBool>`exists (select 1 from observation_packs p where p.m = ${sql.ref('om.id')}
                and exists (select 1 from unnest(p.ks) as u(k) where u.k is distinct from
                  (select ck.id from observation_keys ck where ck.key = ${CONNECTION_KEY})))`,
            ]
          : []),
        // Raw retention (decision 1132) removes old rows and keeps each key's last value: a machine that reported
        // before the floor still has.
        // Read by the same dictionary id `om` (joined once by the query), not by a second join of the dictionary.
        eb.exists(
          eb
            .selectFrom('observation_seeds as s')
            .innerJoin('observation_keys as ok', 'ok.id', 's.k')
            .select(sql`1`.as('one'))
            .where('s.m', '=', sql.ref<number>('om.id'))
            .where('ok.key', '<>', CONNECTION_KEY),
        ),
      ])
      .as('reported'),
  ] as const;

/** The machine's id in the raw observations' dictionary (decision 1130), for the observations fact of factColumns. */
const joinDictionary = (
  j: JoinBuilder<Database & { om: Database['observation_machines'] }, 'machines' | 'om'>,
) => j.onRef('om.machine_id', '=', 'machines.id').onRef('om.company_id', '=', 'machines.company_id');

const factsOf = (r: { has_source: unknown; has_fields: unknown; reported: unknown }): ConnectionFacts => ({
  sourceConfigured: truthy(r.has_source),
  fieldsMapped: truthy(r.has_fields),
  everReported: truthy(r.reported),
});

/** For each machine of the caller's company among `machineIds`: its connection facts (factColumns). One query. */
export async function connectionFacts(
  scope: CompanyScope,
  machineIds: readonly string[],
): Promise<Map<string, ConnectionFacts>> {
  const out = new Map<string, ConnectionFacts>();
  if (machineIds.length === 0) return out;
  const rows = await scope
    .selectFrom('machines')
    .leftJoin('observation_machines as om', joinDictionary)
    .select((eb) => ['machines.id', ...factColumns(eb, numberedPlaceholders(scope.db))])
    .where('machines.id', 'in', [...machineIds])
    .execute();
  for (const r of rows) out.set(r.id, factsOf(r));
  return out;
}

/** A machine's live row (absent before ingest wrote one) with its connection facts. */
export interface LiveConnection {
  live: MachineLiveTable | undefined;
  facts: ConnectionFacts;
}

/**
 * The machines' live rows (liveByMachine) and connection facts (connectionFacts) in one query, as a tile needs
 * them (decision 1077): a tile push of the live channel costs no query more for the connection words.
 */
export async function liveConnections(
  scope: CompanyScope,
  machineIds: readonly string[],
): Promise<Map<string, LiveConnection>> {
  if (machineIds.length === 0) return new Map();
  return liveConnectionsOf(scope, { ids: machineIds });
}

/**
 * liveConnections of the company's machines in service, or of one group's (an unknown group gives none): the
 * dashboard answer's read (decision 1146), by company instead of a list of 1,000 ids.
 */
export const companyLiveConnections = (
  scope: CompanyScope,
  groupId: string | undefined,
): Promise<Map<string, LiveConnection>> => liveConnectionsOf(scope, { groupId });

async function liveConnectionsOf(
  scope: CompanyScope,
  which: { ids: readonly string[] } | { groupId: string | undefined },
): Promise<Map<string, LiveConnection>> {
  const out = new Map<string, LiveConnection>();
  let q = scope
    .selectFrom('machines')
    .leftJoin('machine_live as l', (j) =>
      j.onRef('l.machine_id', '=', 'machines.id').onRef('l.company_id', '=', 'machines.company_id'),
    )
    .leftJoin('observation_machines as om', joinDictionary)
    .selectAll('l')
    .select((eb) => [
      'machines.id as of_machine',
      'machines.workcenter_type as of_type',
      ...factColumns(eb, numberedPlaceholders(scope.db)),
    ]);
  if ('ids' in which) q = q.where('machines.id', 'in', [...which.ids]);
  else {
    q = q.where('machines.decommissioned_at', 'is', null);
    const { groupId } = which;
    if (groupId !== undefined)
      q = q.where('machines.id', 'in', (eb) =>
        eb
          .selectFrom('machine_group_members as g')
          .select('g.machine_id')
          .where('g.company_id', '=', scope.companyId)
          .where('g.group_id', '=', groupId),
      );
  }
  const rows = await q.execute();
  const unwritten: string[] = [];
  for (const r of rows) {
    const { of_machine, of_type, has_source, has_fields, reported, ...live } = r;
    if (live.machine_id == null && of_type === 'manual') unwritten.push(of_machine);
    out.set(of_machine, {
      live: live.machine_id == null ? undefined : (live as MachineLiveTable),
      facts: factsOf({ has_source, has_fields, reported }),
    });
  }
  // A manual work center has no row from ingest: liveByMachine makes its live state (decision 1073).
  if (unwritten.length > 0)
    for (const [id, live] of await liveByMachine(scope, unwritten)) out.get(id)!.live = live;
  return out;
}

export const connectionFactsOf = (facts: ReadonlyMap<string, ConnectionFacts>, id: string): ConnectionFacts =>
  facts.get(id) ?? NO_CONNECTION_FACTS;
