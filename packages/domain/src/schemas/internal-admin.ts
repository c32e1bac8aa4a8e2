import { z } from 'zod';
import type { DayNumber } from '../time/civil';
import { addDays, formatDay, parseDay } from '../time/civil';
import { dayStringSchema, epochMsSchema, idSchema, queryBool } from './common';
import { productTierSchema } from './live-entities';

// The internal (root) screens (reports-admin §2 "Internal company admin", "Internal machine list", "System
// page"; §3 Company; §5 "Company trial expiry at most 365 days ahead; minimum today (or existing date if already
// past); default 14 days"; §7 "company query (muted, rootMachines), save, update", "getAllMachines (limit,
// offset, orderBy, orderDirection, filter)", System calls; §9).

// ---------------------------------------------------------------------------------------------
// Trial expiration (reports-admin §5, §9 "Trial default 14 days, max 365")

export const TRIAL_DEFAULT_DAYS = 14;
export const TRIAL_MAX_DAYS = 365;

export interface TrialBounds {
  /** Earliest date allowed: today, or the stored date when it is already past (it may be kept). */
  min: string;
  max: string;
  /** What a new company's form starts with. */
  suggested: string;
}

/**
 * The dates a trial may end on, 'YYYY-MM-DD'. `today` is the company's own calendar day (decision 0921);
 * `existing` is the stored date of the company being edited (null for a new one or no trial).
 */
export function trialBounds(today: DayNumber, existing: string | null): TrialBounds {
  let min = today;
  if (existing) {
    const stored = parseDay(existing);
    if (stored < today) min = stored;
  }
  return {
    min: formatDay(min),
    max: formatDay(addDays(today, TRIAL_MAX_DAYS)),
    suggested: formatDay(addDays(today, TRIAL_DEFAULT_DAYS)),
  };
}

export type TrialProblem =
  { kind: 'invalid' } | { kind: 'beforeMin'; min: string } | { kind: 'afterMax'; max: string };

/** What is wrong with a trial date against its bounds; null when it is fine (null and '' mean no trial). */
export function trialProblem(
  value: string | null,
  bounds: Pick<TrialBounds, 'min' | 'max'>,
): TrialProblem | null {
  if (value === null || value === '') return null;
  let day: DayNumber;
  try {
    day = parseDay(value);
  } catch {
    return { kind: 'invalid' };
  }
  if (value.length !== 10) return { kind: 'invalid' };
  if (day < parseDay(bounds.min)) return { kind: 'beforeMin', min: bounds.min };
  if (day > parseDay(bounds.max)) return { kind: 'afterMax', max: bounds.max };
  return null;
}

/** The API's words for a trial problem (the office shows its own catalogue's words for the same cases). */
export function trialProblemText(p: TrialProblem): string {
  if (p.kind === 'invalid') return 'Trial expiration must be a real date (YYYY-MM-DD)';
  if (p.kind === 'beforeMin') return `Trial expiration cannot be earlier than ${p.min}`;
  return `Trial expiration can be at most ${TRIAL_MAX_DAYS} days ahead (${p.max} at the latest)`;
}

/** Whether `tz` names an IANA time zone this runtime knows. */
export function isTimeZone(tz: string): boolean {
  if (tz.trim() === '') return false;
  try {
    new Intl.DateTimeFormat('en-US', { timeZone: tz });
    return true;
  } catch {
    return false;
  }
}

// ---------------------------------------------------------------------------------------------
// Companies

const missing = (label: string) => `Missing required field: ${label}`;

/** reports-admin §2 create or edit: name, trial expiration date, product tier, ERP, time zone; plus ARR (decision 0920). */
export const internalCompanyBodySchema = z.object({
  name: z
    .string({ error: missing('Name') })
    .trim()
    .min(1, missing('Name'))
    .max(250, 'Name must be at most 250 characters'),
  timezone: z
    .string({ error: missing('Time zone') })
    .trim()
    .min(1, missing('Time zone'))
    .refine(isTimeZone, 'Choose a time zone from the list'),
  product_tier: z.enum(productTierSchema.options, {
    error: 'Choose a product tier: Service Provider, Utilization or Full',
  }),
  erp: z.string().trim().max(250, 'ERP must be at most 250 characters').nullish(),
  trial_expiration_date: dayStringSchema.nullish(),
  annualRecurringRevenue: z
    .number({ error: 'Annual recurring revenue must be a number' })
    .int('Annual recurring revenue must be whole dollars')
    .min(0, 'Annual recurring revenue cannot be negative')
    .max(1_000_000_000, 'Annual recurring revenue must be at most 1,000,000,000')
    .nullish(),
});
export type InternalCompanyBody = z.infer<typeof internalCompanyBodySchema>;

/** reports-admin §2 "toggle muted" (decision 0920). */
export const internalCompanyMutedSchema = z.object({
  muted: z.boolean({ error: 'muted must be true or false' }),
});

/** reports-admin §7 "company query (muted, rootMachines)". */
export const internalCompanyQuerySchema = z.object({
  /** true: only muted companies; false: only the others; left out: all. */
  muted: queryBool.optional(),
  /** true: machine counts include root (internal) machines; they are left out by default. */
  rootMachines: queryBool.default(false),
});

/** A company as the internal list shows it (reports-admin §3 Company: machineCount, lastSeen). */
export const internalCompanySchema = z.object({
  id: idSchema,
  name: z.string(),
  timezone: z.string(),
  product_tier: productTierSchema,
  erp: z.string().nullable(),
  trial_expiration_date: dayStringSchema.nullable(),
  muted: z.boolean(),
  annualRecurringRevenue: z.number().int().nullable(),
  machineCount: z.number().int().nonnegative(),
  /** The latest data received from any of the company's machines or gateways; null: never. */
  lastSeen: epochMsSchema.nullable(),
  createdAt: epochMsSchema,
});
export type InternalCompany = z.infer<typeof internalCompanySchema>;

export const internalCompanyListSchema = z.object({
  companies: z.array(internalCompanySchema),
  /** Sum of the listed companies' ARR (companies without one count 0). */
  totalAnnualRecurringRevenue: z.number().int(),
});
export type InternalCompanyList = z.infer<typeof internalCompanyListSchema>;

// ---------------------------------------------------------------------------------------------
// Machines (reports-admin §2 "Internal machine list", §9 "internal machine list page 25")

export const INTERNAL_MACHINE_PAGE = 25;

export const INTERNAL_MACHINE_SORTS = [
  'name',
  'createdAt',
  'decommissionedAt',
  'company',
  'payer',
  'make',
  'model',
  'integrationType',
  'rootMachine',
] as const;
export type InternalMachineSort = (typeof INTERNAL_MACHINE_SORTS)[number];

/**
 * How a machine's data arrives: its first enabled source's kind, or manual (decision 0923); simulator: the test
 * screen's simulated execution (decision 1100).
 */
export const INTEGRATION_TYPES = ['shdr', 'agent', 'mqtt', 'gateway', 'simulator', 'manual', 'none'] as const;
export type IntegrationType = (typeof INTEGRATION_TYPES)[number];

export const internalMachineQuerySchema = z.object({
  limit: z.coerce
    .number({ error: 'limit must be a number' })
    .int('limit must be a whole number')
    .min(1, 'limit must be at least 1')
    .max(100, 'limit must be at most 100')
    .default(INTERNAL_MACHINE_PAGE),
  offset: z.coerce
    .number({ error: 'offset must be a number' })
    .int('offset must be a whole number')
    .min(0, 'offset cannot be negative')
    .default(0),
  orderBy: z
    .enum(INTERNAL_MACHINE_SORTS, { error: `orderBy must be one of ${INTERNAL_MACHINE_SORTS.join(', ')}` })
    .default('createdAt'),
  orderDirection: z.enum(['asc', 'desc'], { error: 'orderDirection must be asc or desc' }).default('desc'),
  /** Matches machine name, company, make, model or payer, case-insensitively. */
  filter: z.string().trim().max(200, 'filter must be at most 200 characters').default(''),
});
export type InternalMachineQuery = z.infer<typeof internalMachineQuerySchema>;

export const internalMachineSchema = z.object({
  id: idSchema,
  name: z.string(),
  companyId: idSchema,
  company: z.string(),
  createdAt: epochMsSchema,
  decommissionedAt: epochMsSchema.nullable(),
  payer: z.string().nullable(),
  make: z.string().nullable(),
  model: z.string().nullable(),
  integrationType: z.enum(INTEGRATION_TYPES),
  rootMachine: z.boolean(),
  /** reports-admin §3 Machine billingDate ('YYYY-MM-DD') and integratedAt: root's, else the first data (decision 1111). */
  billingDate: z.string().nullable(),
  integratedAt: epochMsSchema.nullable(),
});
export type InternalMachine = z.infer<typeof internalMachineSchema>;

export const internalMachinePageSchema = z.object({
  items: z.array(internalMachineSchema),
  total: z.number().int().nonnegative(),
  limit: z.number().int(),
  offset: z.number().int(),
});
export type InternalMachinePage = z.infer<typeof internalMachinePageSchema>;

const optionalLabel = (label: string) =>
  z.string().trim().max(250, `${label} must be at most 250 characters`).nullable().optional();

/** Make, model and payer are entered on the internal machine list (decision 0923). */
export const internalMachinePatchSchema = z.object({
  make: optionalLabel('Make'),
  model: optionalLabel('Model'),
  payer: optionalLabel('Payer'),
});
export type InternalMachinePatch = z.infer<typeof internalMachinePatchSchema>;

// ---------------------------------------------------------------------------------------------
// System (reports-admin §7 "System: refresh all tablets; purge tablets (returns purgedTabletCount); increment
// version (type js optional)")

export const versionIncrementSchema = z.object({
  type: z.enum(['js'], { error: 'type must be js or left out' }).optional(),
});

export const systemVersionSchema = z.object({
  apiRevision: z.number().int().nonnegative(),
  jsRevision: z.number().int().nonnegative(),
  /** The MM-API-Version header value every response now carries. */
  version: z.string(),
  updatedAt: epochMsSchema.nullable(),
});
export type SystemVersion = z.infer<typeof systemVersionSchema>;

export const tabletRefreshAllSchema = z.object({
  pushed: z.array(z.string()),
  notPushed: z.array(z.string()),
  /** The tablets of notPushed with their company and name, for the dialog. */
  notPushedTablets: z.array(z.object({ id: z.string(), company: z.string(), label: z.string() })),
});
export type TabletRefreshAll = z.infer<typeof tabletRefreshAllSchema>;
export const tabletPurgeSchema = z.object({ purgedTabletCount: z.number().int().nonnegative() });
