import type { CompanyScope, Executor, CompaniesTable } from '@takt/db';
import type { Selectable } from 'kysely';
import { byConfig } from './config-cache';

export interface Company {
  id: string;
  name: string;
  timezone: string;
  locale: string;
  productTier: CompaniesTable['product_tier'];
  isDemo: boolean;
}

export const toCompany = (
  r: Pick<Selectable<CompaniesTable>, 'id' | 'name' | 'timezone' | 'locale' | 'product_tier' | 'is_demo'>,
): Company => ({
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

/** The settings the floor app reads (live-operations §3 "Company flags used here", decision 1087), as stored. */
export interface CompanySettings {
  enableSetupStages: boolean;
  hideRemoveRejectedPartsCheckbox: boolean;
  activitiesEnabled: boolean;
  cycleInputOption: Selectable<CompaniesTable>['cycleinputoption'];
  enableTabletMachineSwitching: boolean;
  downtimeListFilterDurationMs: number;
  productTier: CompaniesTable['product_tier'];
  operatorTracking: boolean;
  underlayDelayMs: number;
  underlayAutoExpandMs: number;
  longDowntimeThresholdMs: number;
}

/** The caller's own company row (scoped: the company is the scope's). */
export async function companySettings(scope: CompanyScope): Promise<CompanySettings> {
  // Kept by configuration generation in a report call (decision 1250: the company row is configuration); a copy.
  return { ...(await byConfig(scope, 'settings', () => readCompanySettings(scope))) };
}

async function readCompanySettings(scope: CompanyScope): Promise<CompanySettings> {
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
      'operator_tracking',
      'underlay_delay_ms',
      'underlay_auto_expand_ms',
      'long_downtime_threshold_ms',
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
    operatorTracking: r.operator_tracking === 1,
    underlayDelayMs: Number(r.underlay_delay_ms),
    underlayAutoExpandMs: Number(r.underlay_auto_expand_ms),
    longDowntimeThresholdMs: Number(r.long_downtime_threshold_ms),
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

// The Settings screen's fields of the caller's company (reports-admin §2 "Settings", §3 Company; decision 1087),
// named as the API names them, each with its column. One table, so reading and writing cannot drift apart.
const FLAG_COLUMNS = {
  enable_setup_stages: 'enable_setup_stages',
  hide_remove_rejected_parts_checkbox: 'hide_remove_rejected_parts_checkbox',
  areActivitiesEnabled: 'activities_enabled',
  enable_tablet_machine_switching: 'enable_tablet_machine_switching',
  operator_tracking: 'operator_tracking',
  enable_auto_job_dispatch: 'enable_auto_job_dispatch',
} as const;
const NUMBER_COLUMNS = {
  downtime_list_filter_duration: 'downtime_list_filter_duration_ms',
  underlay_delay: 'underlay_delay_ms',
  underlay_auto_expand: 'underlay_auto_expand_ms',
  long_downtime_threshold: 'long_downtime_threshold_ms',
  warningpercent: 'warningpercent',
  failurepercent: 'failurepercent',
  utilizationwarningpercent: 'utilization_warningpercent',
  utilizationfailurepercent: 'utilization_failurepercent',
  warningpercent_oee: 'warningpercent_oee',
  failurepercent_oee: 'failurepercent_oee',
} as const;
const TEXT_COLUMNS = ['locale', 'cycleinputoption', 'tablet_registration_key', 'address'] as const;

type Flags = { [K in keyof typeof FLAG_COLUMNS]: boolean };
type Numbers = { [K in keyof typeof NUMBER_COLUMNS]: number };

export interface CompanyAdminSettings extends Flags, Numbers {
  name: string;
  locale: string;
  cycleinputoption: Selectable<CompaniesTable>['cycleinputoption'];
  /** reports-admin §9 benchmarking: null Undecided, 0 Opt In, 1 Opt Out. */
  exclude_from_benchmarking: 0 | 1 | null;
  tablet_registration_key: string | null;
  address: string | null;
}
export type CompanyAdminPatch = Partial<Omit<CompanyAdminSettings, 'name'>>;

const entries = <T extends object>(o: T) => Object.entries(o) as Array<[keyof T & string, T[keyof T]]>;

export async function companyAdminSettings(scope: CompanyScope): Promise<CompanyAdminSettings> {
  const r = await scope.db
    .selectFrom('companies')
    .selectAll()
    .where('id', '=', scope.companyId)
    .executeTakeFirstOrThrow();
  const flags = Object.fromEntries(entries(FLAG_COLUMNS).map(([k, col]) => [k, r[col] === 1])) as Flags;
  const numbers = Object.fromEntries(
    entries(NUMBER_COLUMNS).map(([k, col]) => [k, Number(r[col])]),
  ) as Numbers;
  const bench = r.exclude_from_benchmarking;
  return {
    name: r.name,
    locale: r.locale,
    cycleinputoption: r.cycleinputoption,
    ...flags,
    ...numbers,
    exclude_from_benchmarking: bench === 0 || bench === 1 ? bench : null,
    tablet_registration_key: r.tablet_registration_key,
    address: r.address,
  };
}

export async function updateCompanyAdminSettings(
  scope: CompanyScope,
  patch: CompanyAdminPatch,
): Promise<void> {
  const set: Record<string, unknown> = {};
  for (const [k, col] of entries(FLAG_COLUMNS)) if (patch[k] !== undefined) set[col] = patch[k] ? 1 : 0;
  for (const [k, col] of entries(NUMBER_COLUMNS)) if (patch[k] !== undefined) set[col] = patch[k];
  for (const col of TEXT_COLUMNS) if (patch[col] !== undefined) set[col] = patch[col];
  if (patch.exclude_from_benchmarking !== undefined)
    set.exclude_from_benchmarking = patch.exclude_from_benchmarking;
  if (Object.keys(set).length === 0) return;
  await scope.db.updateTable('companies').set(set).where('id', '=', scope.companyId).execute();
}
