import type { Selectable } from 'kysely';
import type { CompaniesTable, Executor } from '@takt/db';
import type { InternalCompany } from '@takt/domain';

// The internal company admin (reports-admin §2 "Internal company admin", §3 Company, §7 "company query (muted,
// rootMachines), save, update"). Root users administer every company, so these functions take the bare
// database: a company scope would hide all companies but the caller's own, which is the opposite of what this
// screen is for. Only the root-guarded internal routes call them.

export type InternalCompanyRow = Omit<InternalCompany, 'machineCount' | 'lastSeen'>;

const toRow = (r: Selectable<CompaniesTable>): InternalCompanyRow => ({
  id: r.id,
  name: r.name,
  timezone: r.timezone,
  product_tier: r.product_tier,
  erp: r.erp,
  trial_expiration_date: r.trial_expiration_date,
  muted: r.muted === 1,
  annualRecurringRevenue: r.annual_recurring_revenue == null ? null : Number(r.annual_recurring_revenue),
  createdAt: Number(r.created_at),
});

export async function listCompanyRows(
  db: Executor,
  muted: boolean | undefined,
): Promise<InternalCompanyRow[]> {
  let q = db.selectFrom('companies').selectAll();
  if (muted !== undefined) q = q.where('muted', '=', muted ? 1 : 0);
  const rows = await q.orderBy('name').orderBy('id').execute();
  return rows.map(toRow);
}

export async function getCompanyRow(db: Executor, id: string): Promise<InternalCompanyRow | undefined> {
  const row = await db.selectFrom('companies').selectAll().where('id', '=', id).executeTakeFirst();
  return row && toRow(row);
}

/** Machines in service per company; root (internal) machines only when `withRoot`. */
export async function machineCounts(db: Executor, withRoot: boolean): Promise<Map<string, number>> {
  let q = db
    .selectFrom('machines')
    .select(['company_id', (eb) => eb.fn.countAll<number | string>().as('n')])
    .where('decommissioned_at', 'is', null);
  if (!withRoot) q = q.where('root_machine', '=', 0);
  const rows = await q.groupBy('company_id').execute();
  return new Map(rows.map((r) => [r.company_id, Number(r.n)]));
}

/**
 * The latest data received per company: the newest line any of its machine sources took in, or the newest
 * push any of its gateways made (reports-admin §3 Company lastSeen; decision 0920).
 */
export async function lastSeenByCompany(db: Executor): Promise<Map<string, number>> {
  const [sources, gateways] = await Promise.all([
    db
      .selectFrom('machine_sources')
      .select(['company_id', (eb) => eb.fn.max<number | string | null>('last_line_at').as('at')])
      .groupBy('company_id')
      .execute(),
    db
      .selectFrom('gateways')
      .select(['company_id', (eb) => eb.fn.max<number | string | null>('last_response').as('at')])
      .where('company_id', 'is not', null)
      .groupBy('company_id')
      .execute(),
  ]);
  const out = new Map<string, number>();
  for (const r of [...sources, ...gateways]) {
    if (r.company_id == null || r.at == null) continue;
    const at = Number(r.at);
    out.set(r.company_id, Math.max(out.get(r.company_id) ?? at, at));
  }
  return out;
}

export interface CompanyFields {
  name: string;
  timezone: string;
  product_tier: CompaniesTable['product_tier'];
  erp: string | null;
  trial_expiration_date: string | null;
  annual_recurring_revenue: number | null;
}

/** Inserts a company (not a demo one); answers its id. Mutates the companies table. */
export async function insertCompany(db: Executor, fields: CompanyFields, now: number): Promise<string> {
  const id = crypto.randomUUID();
  await db
    .insertInto('companies')
    .values({ id, ...fields, locale: 'en-US', is_demo: 0, created_at: now })
    .execute();
  return id;
}

/** Mutates the company's row; false when there is no such company. */
export async function updateCompany(db: Executor, id: string, fields: CompanyFields): Promise<boolean> {
  const r = await db.updateTable('companies').set(fields).where('id', '=', id).executeTakeFirst();
  return Number(r.numUpdatedRows) === 1;
}

export async function setCompanyMuted(db: Executor, id: string, muted: boolean): Promise<boolean> {
  const r = await db
    .updateTable('companies')
    .set({ muted: muted ? 1 : 0 })
    .where('id', '=', id)
    .executeTakeFirst();
  return Number(r.numUpdatedRows) === 1;
}
