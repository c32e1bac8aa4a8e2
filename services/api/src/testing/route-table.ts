import { z } from 'zod';
import type { Company } from '../repositories/company';
import type { ApiHarness } from './app';
import { aGroup, aMachine, aUser } from './builders';
import { aDowntimeReason, anAnnotation, aRejectReason, HOUR } from './downtime-builders';
import { aJob, aJobMachine, anOperator, aSetupStage, aShift } from './live-builders';
import { madeParts } from './parts-builders';
import { aTablet } from './tablet-builders';
import { QUERY_ROUTES } from './route-table-queries';

// The live-operations write routes and queries in one table, each with a valid body or query built from a
// shop's ids, so table-driven tests (malformed input, tenancy, bound tablets) walk every route the same way.

export type Method = 'GET' | 'POST' | 'PUT' | 'DELETE';

/** One company's live data: a machine with a job running in setup, and the reference data around it. */
export interface Shop {
  machineId: string;
  jobId: string;
  /** The job run (job schedule group) started in setup; also its labor activity set. */
  jsgId: string;
  /** Another job's job machine on the shop's machine, with no run (JobMachine delete removes it; decision 1106). */
  spareJobMachineId: string;
  stageId: string;
  operatorId: string;
  reasonId: string;
  rejectReasonId: string;
  annotationId: string;
  adjustmentId: string;
  /** An unbound tablet of the company. */
  tabletId: string;
  shiftId: string;
  /** A machine group with the shop's machine and downtime reason. */
  groupId: string;
  /** An operator's account of the company, and an open invite (reports-admin §2 Users, Invites). */
  userId: string;
  inviteId: string;
  T: number;
}

/**
 * What a route names of a shop: `machine` a machine or one of its records (tenancy and bound tablets apply),
 * `company` a record of the company that belongs to no machine (tenancy applies), `own` nothing of the shop
 * (it creates or reads the caller's own data).
 */
export type Reach = 'machine' | 'company' | 'own';

export interface RouteCase {
  method: Method;
  /** `:id` stands for the record `id` picks from the shop (malformed tests also try bad ids). */
  path: string;
  reach: Reach;
  /** The JSON body, or for GET the query parameters. */
  body?: (s: Shop) => Record<string, unknown>;
  id?: (s: Shop) => string;
  /** Gated by the FullProduct permission (live-operations §6). */
  full?: true;
}

/** Replaced by a new UUID in every request (`withFreshIds`), so no sync command repeats an earlier one. */
export const FRESH_ID = '<fresh id>';
export const withFreshIds = (raw: string) =>
  raw.replaceAll(JSON.stringify(FRESH_ID), () => JSON.stringify(crypto.randomUUID()));

/** Each offline command type with its HTTP call's body as the payload (ARCHITECTURE.md "Offline sync contract"). */
export const SYNC_PAYLOADS: Record<string, (s: Shop) => Record<string, unknown>> = {
  start_job: (s) => ({ id: s.machineId, jobId: s.jobId, setup: true, setupStageId: s.stageId }),
  stop_job: (s) => ({ id: s.machineId, jobId: s.jobId }),
  setup_stage: (s) => ({ laborActivitySetId: s.jsgId, setupStageId: s.stageId }),
  start_production: (s) => ({ jsgId: s.jsgId, machineId: s.machineId, keptParts: 1, message: 'n' }),
  categorize_downtime: (s) => ({
    machineId: s.machineId,
    start: s.T - HOUR,
    end: s.T - 1000,
    category_id: s.reasonId,
  }),
  split_downtime: () => ({}),
  reject_part: (s) => ({
    machine_id: s.machineId,
    adjustmenttime: s.T - 1000,
    category_id: s.rejectReasonId,
    scrapcount: 2,
    deductFromGoodParts: true,
  }),
  part_correction: (s) => ({ machine_id: s.machineId, adjustmenttime: s.T - 1000, count: -2 }),
  manual_add_part: (s) => ({ machineId: s.machineId, count: 2 }),
  manual_undo: (s) => ({ machineId: s.machineId }),
  operator_login: (s) => ({ machineId: s.machineId, operatorId: s.operatorId, pinToPreviousEvent: true }),
  operator_logout: (s) => ({ machineId: s.machineId }),
};

const annotation = (s: Shop) => ({
  machineId: s.machineId,
  start: s.T - HOUR,
  end: s.T - 1000,
  category_id: s.reasonId,
});

export { distinctMachineBodies } from './route-table-queries';

export const ROUTES: RouteCase[] = [
  {
    method: 'POST',
    path: '/api/jobs',
    full: true,
    reach: 'own',
    body: () => ({ name: 'J', expectedCycleTime: 60_000, actualParts: 1 }),
  },
  {
    method: 'POST',
    path: '/api/jobmachines',
    full: true,
    reach: 'machine',
    body: (s) => ({
      job_id: s.jobId,
      job_machine: { machine_id: s.machineId, expectedCycleTime: 60_000, actualParts: 1, setuptime: 10 },
    }),
  },
  {
    method: 'POST',
    path: '/api/dispatch/start',
    full: true,
    reach: 'machine',
    body: (s) => ({ id: s.machineId, jobId: s.jobId, setup: true, setupStageId: s.stageId }),
  },
  {
    method: 'POST',
    path: '/api/dispatch/stop',
    full: true,
    reach: 'machine',
    body: (s) => ({ id: s.machineId, jobId: s.jobId }),
  },
  {
    method: 'POST',
    path: '/api/setup/transition',
    full: true,
    reach: 'machine',
    body: (s) => ({ laborActivitySetId: s.jsgId, setupStageId: s.stageId }),
  },
  {
    method: 'POST',
    path: '/api/setup/end',
    full: true,
    reach: 'machine',
    body: (s) => ({ jsgId: s.jsgId, machineId: s.machineId, keptParts: 1, message: 'n' }),
  },
  {
    method: 'PUT',
    path: '/api/setup/stages',
    full: true,
    reach: 'company',
    body: (s) => ({ setupStages: [{ id: s.stageId, name: 'A', stageOrder: 0, setupPercentage: 100 }] }),
  },
  {
    method: 'POST',
    path: '/api/operators',
    full: true,
    reach: 'own',
    body: () => ({ name: 'Ann', erpId: 'E1' }),
  },
  {
    method: 'PUT',
    path: '/api/operators/:id',
    full: true,
    reach: 'company',
    body: () => ({ name: 'Ann' }),
    id: (s) => s.operatorId,
  },
  {
    method: 'PUT',
    path: '/api/operators/:id/archive',
    full: true,
    reach: 'company',
    id: (s) => s.operatorId,
  },
  { method: 'DELETE', path: '/api/operators/:id', full: true, reach: 'company', id: (s) => s.operatorId },
  {
    method: 'POST',
    path: '/api/operatorruns/start',
    full: true,
    reach: 'machine',
    body: (s) => ({ machineId: s.machineId, operatorId: s.operatorId, pinToPreviousEvent: true }),
  },
  {
    method: 'POST',
    path: '/api/operatorruns/stop',
    full: true,
    reach: 'machine',
    body: (s) => ({ machineId: s.machineId }),
  },
  {
    method: 'POST',
    path: '/api/downtime/split',
    full: true,
    reach: 'machine',
    body: (s) => ({ machineId: s.machineId }),
  },
  { method: 'POST', path: '/api/annotations', full: true, reach: 'machine', body: annotation },
  {
    method: 'POST',
    path: '/api/annotations/bulk',
    full: true,
    reach: 'machine',
    body: (s) => ({ annotations: [annotation(s)] }),
  },
  {
    method: 'POST',
    path: '/api/annotations/setRange',
    full: true,
    reach: 'machine',
    body: (s) => ({ annotations: [annotation(s)], start: s.T - 2 * HOUR, end: s.T }),
  },
  {
    method: 'PUT',
    path: '/api/annotations/:id',
    full: true,
    reach: 'machine',
    body: (s) => ({ category_id: s.reasonId, message: 'm', planned: false }),
    id: (s) => s.annotationId,
  },
  {
    method: 'POST',
    path: '/api/annotations/:id/split',
    full: true,
    reach: 'machine',
    id: (s) => s.annotationId,
  },
  {
    method: 'POST',
    path: '/api/annotations/:id/merge',
    full: true,
    reach: 'machine',
    id: (s) => s.annotationId,
  },
  { method: 'DELETE', path: '/api/annotations/:id', full: true, reach: 'machine', id: (s) => s.annotationId },
  {
    method: 'POST',
    path: '/api/annotationtypes',
    full: true,
    reach: 'own',
    body: () => ({
      name: 'R',
      plannedBehavior: 'plannedWithLimit',
      plannedLimitMs: 60_000,
      color: '#828282',
    }),
  },
  {
    method: 'PUT',
    path: '/api/annotationtypes/:id',
    full: true,
    reach: 'company',
    body: () => ({ name: 'R2', plannedLimitMs: 60_000 }),
    id: (s) => s.reasonId,
  },
  {
    method: 'POST',
    path: '/api/annotationtypes/:id/archive',
    full: true,
    reach: 'company',
    id: (s) => s.reasonId,
  },
  {
    method: 'POST',
    path: '/api/partadjustment',
    full: true,
    reach: 'machine',
    body: (s) => ({
      machine_id: s.machineId,
      adjustmenttime: s.T - 1000,
      category_id: s.rejectReasonId,
      scrapcount: 2,
      scrap: true,
      deductFromGoodParts: true,
    }),
  },
  {
    method: 'PUT',
    path: '/api/partadjustment/:id',
    full: true,
    reach: 'machine',
    body: () => ({ scrapcount: 3, scrap: true }),
    id: (s) => s.adjustmentId,
  },
  {
    method: 'DELETE',
    path: '/api/partadjustment/:id',
    full: true,
    reach: 'machine',
    id: (s) => s.adjustmentId,
  },
  {
    method: 'POST',
    path: '/api/partadjustment/manual',
    full: true,
    reach: 'machine',
    body: (s) => ({ machineId: s.machineId, count: 2 }),
  },
  {
    method: 'POST',
    path: '/api/partadjustment/manual/undo',
    full: true,
    reach: 'machine',
    body: (s) => ({ machineId: s.machineId }),
  },
  {
    method: 'POST',
    path: '/api/partadjustmenttypes',
    full: true,
    reach: 'own',
    body: () => ({ name: 'Burr', color: '#828282', scrap: true, reject_behavior: 'operator' }),
  },
  {
    method: 'PUT',
    path: '/api/partadjustmenttypes/:id',
    full: true,
    reach: 'company',
    body: () => ({ name: 'Burr 2', scrap: true }),
    id: (s) => s.rejectReasonId,
  },
  {
    method: 'POST',
    path: '/api/partadjustmenttypes/:id/archive',
    full: true,
    reach: 'company',
    id: (s) => s.rejectReasonId,
  },
  ...Object.entries(SYNC_PAYLOADS).map(([type, payload]): RouteCase => ({
    method: 'POST',
    path: '/api/sync',
    full: true,
    reach: 'machine',
    body: (s) => ({
      commands: [{ id: FRESH_ID, type, machineId: s.machineId, payload: payload(s), occurredAt: s.T - 1000 }],
    }),
  })),
  {
    method: 'PUT',
    path: '/api/emailnotifications',
    reach: 'own',
    body: () => ({
      receiveDowntimeEmail: true,
      receiveUtilizationEmail: false,
      receiveBenchmarkingEmail: true,
    }),
  },
  ...QUERY_ROUTES,
];

/** Query parameters as the apps send them. */
export const asQuery = (o: Record<string, unknown>) =>
  new URLSearchParams(
    Object.entries(o).map(([k, v]) => [
      k,
      typeof v === 'object' && v !== null ? JSON.stringify(v) : String(v),
    ]),
  ).toString();

/** A route's request with the shop's ids: path, and the raw JSON body for writes. */
export function requestFor(route: RouteCase, s: Shop): { path: string; raw?: string } {
  const path = route.id ? route.path.replace(':id', encodeURIComponent(route.id(s))) : route.path;
  const body = route.body?.(s);
  if (route.method === 'GET') return { path: body ? `${path}?${asQuery(body)}` : path };
  return body ? { path, raw: JSON.stringify(body) } : { path };
}

/** Send a raw request as the apps do (JSON, same origin), with fresh sync command ids. */
export function sendRaw(h: ApiHarness, cookie: string, method: Method, path: string, raw?: string) {
  return h.app.request(path, {
    method,
    headers: { cookie, origin: 'http://localhost', 'content-type': 'application/json' },
    ...(raw === undefined ? {} : { body: withFreshIds(raw) }),
  });
}

/**
 * A shop in `company`: a machine with a job started in setup through the API (so job run, labor activity set
 * and setup parts exist), a downtime reason with an annotation, a reject reason with a reject, an operator
 * and a setup stage. `machineId` may name an existing machine of the company.
 */
export async function aShop(
  h: ApiHarness,
  company: Company,
  cookie: string,
  machineId?: string,
): Promise<Shop> {
  const db = h.t.db;
  const T = h.clock.now;
  const machine = machineId ?? (await aMachine(db, company));
  const jobId = await aJob(db, company, { setuptime: 600 });
  await aJobMachine(db, company, jobId, machine, { setuptime: 600 });
  const stageId = await aSetupStage(db, company, { setupPercentage: 100 });
  const rejectReasonId = (await aRejectReason(db, company)).id;
  const idOf = async (res: Response) => {
    if (res.status !== 201) throw new Error(`shop setup failed: ${res.status} ${await res.text()}`);
    return z.object({ id: z.string() }).parse(await res.json()).id;
  };
  const jsgId = await idOf(
    await h.send('POST', '/api/dispatch/start', cookie, {
      id: machine,
      jobId,
      setup: true,
      setupStageId: stageId,
    }),
  );
  // Parts made before the reject (rejects never take more than were made: decision 0997), enough for every
  // caller's reject of the route walks.
  await madeParts(db, company, machine, T - 2000, 1000);
  const adjustmentId = await idOf(
    await h.send('POST', '/api/partadjustment', cookie, {
      machine_id: machine,
      adjustmenttime: T - 1000,
      category_id: rejectReasonId,
      scrapcount: 1,
      scrap: true,
    }),
  );
  return {
    machineId: machine,
    jobId,
    jsgId,
    spareJobMachineId: await aJobMachine(db, company, await aJob(db, company, { name: 'Spare' }), machine),
    stageId,
    operatorId: await anOperator(db, company),
    reasonId: (await aDowntimeReason(db, company)).id,
    rejectReasonId,
    annotationId: await anAnnotation(db, company, { machineId: machine, start: T - 2 * HOUR, end: T - HOUR }),
    adjustmentId,
    tabletId: (await aTablet(db, company, null, T)).id,
    shiftId: await aShift(db, company),
    groupId: await aGroup(db, company),
    userId: (await aUser(db, company, { role: 'operator', displayName: 'Otto Operator' })).id,
    inviteId: await anInvite(h, cookie),
    T,
  };
}

/** An open invite of the caller's company, made through the API (reports-admin §2 Invites). */
async function anInvite(h: ApiHarness, cookie: string): Promise<string> {
  const res = await h.send('POST', '/api/invites', cookie, {
    invitees: [`invitee-${crypto.randomUUID().slice(0, 8)}@shop.example`],
  });
  if (res.status !== 201) throw new Error(`invite setup failed: ${res.status} ${await res.text()}`);
  return z.object({ invites: z.array(z.object({ id: z.string() })) }).parse(await res.json()).invites[0]!.id;
}
