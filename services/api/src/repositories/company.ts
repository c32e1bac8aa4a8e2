import type { CompanyScope, Executor, CompaniesTable } from '@takt/db';
import type { Selectable } from 'kysely';

export interface Company {
  id: string;
  name: string;
  timezone: string;
  locale: string;
  productTier: CompaniesTable['product_tier'];
  isDemo: boolean;
}

export const toCompany = (r: Selectable<CompaniesTable>): Company => ({
  id: r.id,
  name: r.name,
  timezone: r.timezone,
  locale: r.locale,
  productTier: r.product_tier,
  isDemo: r.is_demo === 1,
});

// Companies are the tenancy root itself: these functions take the bare database. Only authentication,
// start-up provisioning and internal (root) routes call them.

export async function getCompany(db: Executor, id: string): Promise<Company | undefined> {
  const row = await db.selectFrom('companies').selectAll().where('id', '=', id).executeTakeFirst();
  return row && toCompany(row);
}

export async function findDemoCompany(db: Executor): Promise<Company | undefined> {
  const row = await db
    .selectFrom('companies')
    .selectAll()
    .where('is_demo', '=', 1)
    .orderBy('created_at')
    .executeTakeFirst();
  return row && toCompany(row);
}

export async function firstCompany(db: Executor): Promise<Company | undefined> {
  const row = await db.selectFrom('companies').selectAll().orderBy('created_at').executeTakeFirst();
  return row && toCompany(row);
}

export async function createCompany(
  db: Executor,
  input: {
    name: string;
    timezone?: string;
    locale?: string;
    productTier?: Company['productTier'];
    isDemo?: boolean;
  },
  now: number,
): Promise<Company> {
  const row = {
    id: crypto.randomUUID(),
    name: input.name,
    timezone: input.timezone ?? 'UTC',
    locale: input.locale ?? 'en-US',
    product_tier: input.productTier ?? ('full' as const),
    is_demo: input.isDemo ? 1 : 0,
    created_at: now,
  };
  await db.insertInto('companies').values(row).execute();
  const stored = await getCompany(db, row.id);
  if (!stored) throw new Error('company vanished after insert');
  return stored;
}

/** The settings the floor app reads (live-operations §3 "Company flags used here"), as stored. */
export interface CompanySettings {
  enableSetupStages: boolean;
  hideRemoveRejectedPartsCheckbox: boolean;
  activitiesEnabled: boolean;
  cycleInputOption: Selectable<CompaniesTable>['cycleinputoption'];
  enableTabletMachineSwitching: boolean;
  downtimeListFilterDurationMs: number;
  productTier: CompaniesTable['product_tier'];
}

/** The caller's own company row (scoped: the company is the scope's). */
export async function companySettings(scope: CompanyScope): Promise<CompanySettings> {
  const r = await scope.db
    .selectFrom('companies')
    .select([
      'enable_setup_stages',
      'hide_remove_rejected_parts_checkbox',
      'activities_enabled',
      'cycleinputoption',
      'enable_tablet_machine_switching',
      'downtime_list_filter_duration_ms',
      'product_tier',
    ])
    .where('id', '=', scope.companyId)
    .executeTakeFirstOrThrow();
  return {
    enableSetupStages: r.enable_setup_stages === 1,
    hideRemoveRejectedPartsCheckbox: r.hide_remove_rejected_parts_checkbox === 1,
    activitiesEnabled: r.activities_enabled === 1,
    cycleInputOption: r.cycleinputoption,
    enableTabletMachineSwitching: r.enable_tablet_machine_switching === 1,
    downtimeListFilterDurationMs: Number(r.downtime_list_filter_duration_ms),
    productTier: r.product_tier,
  };
}

/** Turn setup stages on or off for a company (the demo seed turns them on). */
export async function setSetupStagesEnabled(db: Executor, companyId: string, on: boolean): Promise<void> {
  await db
    .updateTable('companies')
    .set({ enable_setup_stages: on ? 1 : 0 })
    .where('id', '=', companyId)
    .execute();
}

/** The Settings screen's fields of the caller's company (reports-admin §2 "Settings"). */
export interface CompanyAdminSettings {
  name: string;
  locale: string;
  enableSetupStages: boolean;
}

export async function companyAdminSettings(scope: CompanyScope): Promise<CompanyAdminSettings> {
  const r = await scope.db
    .selectFrom('companies')
    .select(['name', 'locale', 'enable_setup_stages'])
    .where('id', '=', scope.companyId)
    .executeTakeFirstOrThrow();
  return { name: r.name, locale: r.locale, enableSetupStages: r.enable_setup_stages === 1 };
}

export async function updateCompanyAdminSettings(
  scope: CompanyScope,
  patch: { locale?: string; enableSetupStages?: boolean },
): Promise<void> {
  const set = {
    ...(patch.locale !== undefined ? { locale: patch.locale } : {}),
    ...(patch.enableSetupStages !== undefined
      ? { enable_setup_stages: patch.enableSetupStages ? 1 : 0 }
      : {}),
  };
  if (Object.keys(set).length === 0) return;
  await scope.db.updateTable('companies').set(set).where('id', '=', scope.companyId).execute();
}
