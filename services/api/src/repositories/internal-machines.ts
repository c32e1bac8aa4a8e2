import { sql } from 'kysely';
import type { Executor } from '@takt/db';
import type {
  IntegrationType,
  InternalMachine,
  InternalMachinePatch,
  InternalMachineQuery,
  InternalMachineSort,
} from '@takt/domain';

// The internal machine list (reports-admin §2 "Internal machine list", §7 "getAllMachines (limit, offset,
// orderBy, orderDirection, filter)"). Every company's machines, so the bare database: a company scope would
// show the root user only their own company's machines. Only the root-guarded internal routes call these.

/**
 * How the machine's data arrives (decision 0923): a manual workcenter is 'manual'; otherwise the kind of its
 * first enabled source (shdr, agent, mqtt, gateway, simulator), or 'none'.
 */
const integrationType = sql<IntegrationType>`case when m.workcenter_type = 'manual' then 'manual' else coalesce((
  select s.kind from machine_sources s where s.machine_id = m.id and s.enabled = 1
  order by s.created_at, s.id limit 1), 'none') end`;

/** The SQL each sort key orders by; nullable ones put blanks last in both directions, on both dialects. */
const SORT_SQL: Record<InternalMachineSort, { expr: ReturnType<typeof sql>; nullable: boolean }> = {
  name: { expr: sql`lower(m.name)`, nullable: false },
  createdAt: { expr: sql`m.created_at`, nullable: false },
  decommissionedAt: { expr: sql`m.decommissioned_at`, nullable: true },
  company: { expr: sql`lower(c.name)`, nullable: false },
  payer: { expr: sql`lower(m.payer)`, nullable: true },
  make: { expr: sql`lower(m.make)`, nullable: true },
  model: { expr: sql`lower(m.model)`, nullable: true },
  integrationType: { expr: integrationType, nullable: false },
  rootMachine: { expr: sql`m.root_machine`, nullable: false },
};

/** `lower(x) LIKE '%filter%'` with the filter's own % and _ taken literally, on both dialects. */
function matches(filter: string) {
  const pattern = `%${filter.toLowerCase().replace(/[\\%_]/g, (ch) => `\\${ch}`)}%`;
  const like = (col: ReturnType<typeof sql>) =>
    sql<boolean>`lower(coalesce(${col}, '')) like ${pattern} escape '\\'`;
  return sql<boolean>`(${like(sql`m.name`)} or ${like(sql`c.name`)} or ${like(sql`m.make`)} or ${like(
    sql`m.model`,
  )} or ${like(sql`m.payer`)})`;
}

export async function listAllMachines(
  db: Executor,
  q: InternalMachineQuery,
): Promise<{ items: InternalMachine[]; total: number }> {
  const base = () => {
    const b = db.selectFrom('machines as m').innerJoin('companies as c', 'c.id', 'm.company_id');
    return q.filter ? b.where(matches(q.filter)) : b;
  };
  const sort = SORT_SQL[q.orderBy];
  const dir = q.orderDirection === 'asc' ? sql`asc` : sql`desc`;
  let list = base().select([
    'm.id',
    'm.name',
    'm.company_id',
    'c.name as company',
    'm.created_at',
    'm.decommissioned_at',
    'm.payer',
    'm.make',
    'm.model',
    'm.root_machine',
    'm.billing_date',
    'm.integrated_at',
    integrationType.as('integration_type'),
  ]);
  if (sort.nullable) list = list.orderBy(sql`case when ${sort.expr} is null then 1 else 0 end`);
  // The id breaks ties, so pages never repeat or skip a machine.
  list = list.orderBy(sql`${sort.expr} ${dir}`).orderBy('m.id');
  const [rows, count] = await Promise.all([
    list.limit(q.limit).offset(q.offset).execute(),
    base()
      .select((eb) => eb.fn.countAll<number | string>().as('n'))
      .executeTakeFirstOrThrow(),
  ]);
  return {
    total: Number(count.n),
    items: rows.map((r) => ({
      id: r.id,
      name: r.name,
      companyId: r.company_id,
      company: r.company,
      createdAt: Number(r.created_at),
      decommissionedAt: r.decommissioned_at == null ? null : Number(r.decommissioned_at),
      payer: r.payer,
      make: r.make,
      model: r.model,
      integrationType: r.integration_type,
      rootMachine: r.root_machine === 1,
      billingDate: r.billing_date,
      integratedAt: r.integrated_at == null ? null : Number(r.integrated_at),
    })),
  };
}

/** Mutates the machine's make, model or payer (those given); false when there is no such machine. */
export async function updateMachineLabels(
  db: Executor,
  id: string,
  patch: InternalMachinePatch,
): Promise<boolean> {
  const set: { make?: string | null; model?: string | null; payer?: string | null } = {};
  for (const k of ['make', 'model', 'payer'] as const) {
    const v = patch[k];
    if (v !== undefined) set[k] = v === null || v === '' ? null : v;
  }
  const exists = await db.selectFrom('machines').select('id').where('id', '=', id).executeTakeFirst();
  if (!exists) return false;
  if (Object.keys(set).length) await db.updateTable('machines').set(set).where('id', '=', id).execute();
  return true;
}
