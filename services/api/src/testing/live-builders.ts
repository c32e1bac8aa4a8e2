import type { Kysely } from 'kysely';
import type { Database } from '@takt/db';
import { companyScope } from '@takt/db';
import { createAdapter } from '../repositories/adapters';
import type { Company } from '../repositories/company';
import { insertJob, insertJobMachine } from '../repositories/jobs';
import { createMachine } from '../repositories/machines';
import { insertOperator, insertOperatorRun, endOperatorRun } from '../repositories/operators';
import { insertSetupStage } from '../repositories/setup-stages';
import { insertShift, insertShiftVersion } from '../repositories/shifts';
import { aUser } from './builders';
import type { ApiHarness } from './app';

// Builders for the live-operations tables (jobs, stages, operators, shifts), with defaults. Each call makes
// new ids, so tests never share rows.

const T0 = 1_700_000_000_000;

export async function aJob(
  db: Kysely<Database>,
  company: Company,
  over: Partial<{
    name: string;
    erpJobId: string | null;
    expectedCycleTime: number;
    idealCycleTime: number;
    actualParts: number;
    setuptime: number | null;
    hidden: boolean;
  }> = {},
): Promise<string> {
  const id = crypto.randomUUID();
  const actualParts = over.actualParts ?? 1;
  await insertJob(companyScope(db, company.id), {
    id,
    name: over.name ?? `Job ${id.slice(0, 6)}`,
    erp_job_id: over.erpJobId ?? null,
    expected_cycle_time: over.expectedCycleTime ?? 60_000,
    ideal_cycle_time: over.idealCycleTime ?? 60_000,
    part_count_multiplier: actualParts,
    actual_parts: actualParts,
    setuptime: over.setuptime === undefined ? null : over.setuptime,
    quantity: null,
    hidden: over.hidden ? 1 : 0,
    created_at: T0,
  });
  return id;
}

/** Associate a job with a machine directly (bypassing the save rules), e.g. with a setup time. */
export async function aJobMachine(
  db: Kysely<Database>,
  company: Company,
  jobId: string,
  machineId: string,
  over: Partial<{
    name: string;
    expectedCycleTime: number;
    idealCycleTime: number;
    setuptime: number | null;
    startInSetup: 'none' | 'planned' | 'unplanned';
  }> = {},
): Promise<string> {
  const id = crypto.randomUUID();
  const setuptime = over.setuptime === undefined ? null : over.setuptime;
  await insertJobMachine(companyScope(db, company.id), {
    id,
    job_id: jobId,
    machine_id: machineId,
    name: over.name ?? `Job machine ${id.slice(0, 6)}`,
    expected_cycle_time: over.expectedCycleTime ?? 60_000,
    ideal_cycle_time: over.idealCycleTime ?? 60_000,
    part_count_multiplier: 1,
    actual_parts: 1,
    reported_parts: null,
    required_cycles: null,
    setuptime,
    part_behavior: 'one',
    start_in_setup: over.startInSetup ?? (setuptime == null ? 'none' : 'unplanned'),
    schedule_ends: null,
    created_at: T0,
  });
  return id;
}

export async function aSetupStage(
  db: Kysely<Database>,
  company: Company,
  over: Partial<{
    name: string;
    stageOrder: number;
    setupPercentage: number;
    archivedAt: number | null;
  }> = {},
): Promise<string> {
  return insertSetupStage(companyScope(db, company.id), {
    name: over.name ?? `Stage ${crypto.randomUUID().slice(0, 4)}`,
    stageOrder: over.stageOrder ?? 0,
    setupPercentage: over.setupPercentage ?? 50,
    archivedAt: over.archivedAt ?? null,
  });
}

export async function anOperator(
  db: Kysely<Database>,
  company: Company,
  over: Partial<{ name: string; erpId: string | null }> = {},
): Promise<string> {
  return insertOperator(companyScope(db, company.id), {
    name: over.name ?? `Operator ${crypto.randomUUID().slice(0, 4)}`,
    erpId: over.erpId ?? null,
    createdAt: T0,
  });
}

/** A finished (or, without endAt, running) operator run. */
export async function anOperatorRun(
  db: Kysely<Database>,
  company: Company,
  input: { machineId: string; operatorId: string; startAt: number; endAt?: number },
): Promise<string> {
  const scope = companyScope(db, company.id);
  const id = await insertOperatorRun(scope, input);
  if (input.endAt !== undefined) await endOperatorRun(scope, id, input.endAt);
  return id;
}

/** A shift with one version; offsets in minutes after local midnight, weekdays 0 = Monday … 6 = Sunday. */
export async function aShift(
  db: Kysely<Database>,
  company: Company,
  over: Partial<{
    name: string;
    startoffsetminutes: number;
    endoffsetminutes: number;
    byweekday: number[];
    effectivedate: string;
    terminationdate: string | null;
  }> = {},
): Promise<string> {
  const scope = companyScope(db, company.id);
  const shiftId = await insertShift(scope, { name: over.name ?? 'Day', createdAt: T0 });
  await insertShiftVersion(scope, {
    shiftId,
    startoffsetminutes: over.startoffsetminutes ?? 360,
    endoffsetminutes: over.endoffsetminutes ?? 840,
    byweekday: over.byweekday ?? [0, 1, 2, 3, 4, 5, 6],
    effectivedate: over.effectivedate ?? '2020-01-01',
    terminationdate: over.terminationdate ?? null,
    createdAt: T0,
  });
  return shiftId;
}

export const PART_COUNT_KEY = 'part_count';

/** A machine whose adapter reports a PART_COUNT data item, so its counted parts can be fed in tests. */
export async function aCountingMachine(
  db: Kysely<Database>,
  company: Company,
  name = 'Counting machine',
): Promise<string> {
  const scope = companyScope(db, company.id);
  const adapterId = await createAdapter(
    scope,
    {
      name: 'Test adapter',
      fields: [
        { name: PART_COUNT_KEY, dataItemType: 'PART_COUNT', componentName: 'path', componentType: 'Path' },
      ],
    },
    T0,
  );
  return createMachine(scope, { name, adapterId }, T0);
}

/** Part counter readings of a machine: [ts, value] pairs. */
export async function partCounts(
  db: Kysely<Database>,
  company: Company,
  machineId: string,
  readings: ReadonlyArray<readonly [number, number]>,
): Promise<void> {
  await companyScope(db, company.id)
    .insertInto(
      'observations',
      readings.map(([ts, value]) => ({
        machine_id: machineId,
        ts,
        key: PART_COUNT_KEY,
        value: String(value),
      })),
    )
    .execute();
}

/** Another logged-in user of the same company (e.g. an operator next to the admin of `h.tenant()`). */
export async function loginAs(
  h: ApiHarness,
  company: Company,
  role: 'admin' | 'manager' | 'operator' | 'kiosk',
): Promise<string> {
  const user = await aUser(h.t.db, company, { role });
  return h.login(user.email, user.password);
}

export interface ErrorBody {
  code: string;
  message: string;
  issues?: Array<{ field: string; code: string; message: string }>;
}

/** The `error` of an API error response. */
export async function errorOf(res: Response): Promise<ErrorBody> {
  const body = (await res.json()) as { error?: ErrorBody };
  if (!body.error) throw new Error(`not an error response (${res.status}): ${JSON.stringify(body)}`);
  return body.error;
}

/** The fields named by an error's issues, sorted. */
export const issueFields = (e: ErrorBody): string[] => (e.issues ?? []).map((i) => i.field).sort();
