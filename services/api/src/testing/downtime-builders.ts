import { historyChanged } from '@takt/db/rollups';
import type { Kysely } from 'kysely';
import type { AnnotationType, PartAdjustmentType } from '@takt/domain';
import type { Database } from '@takt/db';
import { companyScope } from '@takt/db';
import { getAnnotationType, insertAnnotationType } from '../repositories/annotation-types';
import { insertAnnotation } from '../repositories/annotations';
import { createMachine } from '../repositories/machines';
import { getPartAdjustmentType, insertPartAdjustmentType } from '../repositories/part-adjustment-types';
import type { Company } from '../repositories/company';
import type { User } from '../repositories/users';
import type { ApiHarness } from './app';
import { aCompany, aMachine, aUser } from './builders';
import { aJobWithRun } from './report-plant';

// Builders for downtime, annotation and reject tests (STYLE.md: builders with defaults, new ids each call).

export const MIN = 60_000;
export const HOUR = 3_600_000;

export type StateName = 'ACTIVE' | 'SETUP' | 'INACTIVE' | 'FAULT' | 'UNAVAILABLE';
/** [start, end) of each state; the last one may be open (end null). */
export type StateRows = ReadonlyArray<readonly [start: number, end: number | null, state: StateName]>;

/** The machine's live row as ingest keeps it: connected since `connectedSince`, in `state` since `since`, its last
 *  heartbeat a second before `now`, nothing else known. */
export async function aMachineLive(
  db: Kysely<Database>,
  company: Company,
  machineId: string,
  live: { state: StateName; since: number; connectedSince: number; now: number },
): Promise<void> {
  await companyScope(db, company.id)
    .insertInto('machine_live', {
      machine_id: machineId,
      state: live.state,
      state_since: live.since,
      connection: 'CONNECTED',
      connection_since: live.connectedSince,
      last_heartbeat: live.now - 1000,
      execution: null,
      execution_since: null,
      availability: 'AVAILABLE',
      controller_mode: null,
      program: null,
      part_count: null,
      spindle_speed: null,
      fault_since: null,
      fault_message: null,
      in_setup: 0,
      updated_at: live.now,
    })
    .execute();
}

/** Machine states as ingest writes them: [start, end) each, the last one may be open (end null). */
export async function someStates(
  db: Kysely<Database>,
  company: Company,
  machineId: string,
  rows: StateRows,
): Promise<void> {
  await companyScope(db, company.id)
    .insertInto(
      'state_intervals',
      rows.map(([start, end, state]) => ({ machine_id: machineId, start_at: start, end_at: end, state })),
    )
    .execute();
}

/** A day from `day` (ms): active, but down 01:00–02:00 (INACTIVE) and 05:00–07:00 (FAULT), ending at 12:00. */
export function downTwice(day: number): StateRows {
  const hour = 3_600_000;
  return [
    [day, day + hour, 'ACTIVE'],
    [day + hour, day + 2 * hour, 'INACTIVE'],
    [day + 2 * hour, day + 5 * hour, 'ACTIVE'],
    [day + 5 * hour, day + 7 * hour, 'FAULT'],
    [day + 7 * hour, day + 12 * hour, 'ACTIVE'],
  ];
}

export async function aDowntimeReason(
  db: Kysely<Database>,
  company: Company,
  over: Partial<Pick<AnnotationType, 'name' | 'plannedBehavior' | 'plannedLimitMs' | 'color'>> & {
    hidden?: boolean;
  } = {},
): Promise<AnnotationType> {
  const scope = companyScope(db, company.id);
  const id = await insertAnnotationType(
    scope,
    {
      name: over.name ?? `Reason ${crypto.randomUUID().slice(0, 6)}`,
      plannedBehavior: over.plannedBehavior ?? 'unplanned',
      plannedLimitMs: over.plannedLimitMs ?? (over.plannedBehavior === 'plannedWithLimit' ? 5 * MIN : null),
      color: over.color ?? '#123456',
    },
    1_700_000_000_000,
  );
  if (over.hidden)
    await scope.updateTable('annotation_types').set({ hidden: 1 }).where('id', '=', id).execute();
  return (await getAnnotationType(scope, id))!;
}

export async function anAnnotation(
  db: Kysely<Database>,
  company: Company,
  a: {
    machineId: string;
    start: number;
    end?: number | null;
    typeId?: string | null;
    setup?: boolean;
    planned?: boolean | null;
    message?: string | null;
  },
): Promise<string> {
  const scope = companyScope(db, company.id);
  // As services/annotations.ts does for every annotation write.
  await historyChanged(scope, a.machineId, a.start);
  return insertAnnotation(
    scope,
    {
      machineId: a.machineId,
      typeId: a.typeId ?? null,
      start: a.start,
      end: a.end ?? null,
      message: a.message ?? null,
      planned: a.planned ?? null,
      setup: a.setup ?? false,
    },
    null,
    1_700_000_000_000,
  );
}

export async function aRejectReason(
  db: Kysely<Database>,
  company: Company,
  over: Partial<Pick<PartAdjustmentType, 'name' | 'color' | 'scrap' | 'reject_behavior'>> & {
    hidden?: boolean;
  } = {},
): Promise<PartAdjustmentType> {
  const scope = companyScope(db, company.id);
  const id = await insertPartAdjustmentType(
    scope,
    {
      name: over.name ?? `Reject ${crypto.randomUUID().slice(0, 6)}`,
      color: over.color ?? '#654321',
      scrap: over.scrap ?? true,
      reject_behavior: over.reject_behavior ?? 'scrap',
    },
    1_700_000_000_000,
  );
  if (over.hidden) {
    await scope.updateTable('part_adjustment_types').set({ hidden: 1 }).where('id', '=', id).execute();
  }
  return (await getPartAdjustmentType(scope, id))!;
}

export async function aManualWorkcenter(
  db: Kysely<Database>,
  company: Company,
  name = 'Bench 1',
): Promise<string> {
  return createMachine(companyScope(db, company.id), { name, workcenterType: 'manual' }, 1_700_000_000_000);
}

/** A job and a run of it on the machine over [start, end). Returns the job name. */
export async function aJobRun(
  db: Kysely<Database>,
  company: Company,
  machineId: string,
  run: { start: number; end?: number | null; jobName?: string },
): Promise<string> {
  const name = run.jobName ?? `Job ${crypto.randomUUID().slice(0, 6)}`;
  await aJobWithRun(companyScope(db, company.id), {
    machineId,
    name,
    expected: 60_000,
    ideal: 60_000,
    jobCreatedAt: run.start,
    start: run.start,
    end: run.end ?? null,
  });
  return name;
}

/**
 * The usual start of a route test: a logged-in user (admin unless `role`) of a new company (full tier unless
 * `tier`) with one machine, and the machine's states when `states` are given.
 */
export async function aTenantWithMachine(
  h: ApiHarness,
  over: {
    tier?: Company['productTier'];
    role?: User['role'];
    machine?: Parameters<typeof aMachine>[2];
    states?: StateRows;
  } = {},
): Promise<{ company: Company; user: User; cookie: string; machineId: string }> {
  const company = await aCompany(h.t.db, { productTier: over.tier ?? 'full' });
  const user = await aUser(h.t.db, company, { role: over.role ?? 'admin' });
  const cookie = await h.login(user.email, user.password);
  const machineId = await aMachine(h.t.db, company, over.machine);
  if (over.states) await someStates(h.t.db, company, machineId, over.states);
  return { company, user, cookie, machineId };
}
