import type { Context } from 'hono';
import type { AppEnv, Caller } from '../http/context';
import { ApiError } from '../http/errors';
import {
  anyRecordOfOtherMachine,
  existingMachineIds,
  machinesOfRecords,
} from '../repositories/machine-records';
import type { SyncHandlers } from '../services/sync';

// The one place a bound tablet is held to its machine (live-operations §2 tablet registration, decision 0500): every /api request
// (via requireCaller) and every offline sync command (via the wrapped sync handlers).

export const BOUND_ELSEWHERE = 'This tablet is bound to another machine.';
export const boundElsewhere = () => new ApiError(403, 'TABLET_BOUND', BOUND_ELSEWHERE);

/** The machine a caller is held to, or null when it may act on any machine of its company. */
export const boundMachineOf = (caller: Caller): string | null =>
  caller.kind === 'tablet' ? caller.boundMachineId : null;

const MACHINE_KEYS = new Set(['machineId', 'machine_id', 'machine', 'machines', 'machineIds', 'machine_ids']);
/**
 * Keys that name a record of one machine rather than the machine: a part adjustment or annotation `id`, a
 * job run as `jsgId` / `laborActivitySetId` (decision 0300), a job machine, an operator run.
 */
const RECORD_KEYS = new Set([
  'id',
  'jsgId',
  'laborActivitySetId',
  'jobScheduleGroupId',
  'jobschedulegroup_id',
  'annotationId',
  'jobMachineId',
  'job_machine_id',
  'operatorRunId',
]);
const MAX_CANDIDATES = 100;

interface Candidates {
  /** Ids named as machines. */
  machines: Set<string>;
  /** Ids of records whose machine decides (path segments count as both). */
  records: Set<string>;
}

const addAll = (out: Set<string>, value: unknown) => {
  for (const v of Array.isArray(value) ? value : [value]) if (typeof v === 'string') out.add(v);
};

/** Ids a body names: machine keys at any depth (≤ 4), plus the top-level `id` (dispatch); record keys too. */
function bodyCandidates(body: unknown, out: Candidates, depth = 0): void {
  if (
    depth > 4 ||
    out.machines.size + out.records.size > MAX_CANDIDATES ||
    body == null ||
    typeof body !== 'object'
  )
    return;
  if (Array.isArray(body)) {
    for (const item of body) bodyCandidates(item, out, depth + 1);
    return;
  }
  for (const [key, value] of Object.entries(body as Record<string, unknown>)) {
    if (MACHINE_KEYS.has(key) || (depth === 0 && key === 'id')) addAll(out.machines, value);
    if (RECORD_KEYS.has(key)) addAll(out.records, value);
    else if (!MACHINE_KEYS.has(key) && typeof value === 'object') bodyCandidates(value, out, depth + 1);
  }
}

const usable = (ids: Set<string>, bound: string) =>
  [...ids].filter((s) => s !== bound && s.length > 0 && s.length <= 200).slice(0, MAX_CANDIDATES);

/** A path segment as the route sees it; a malformed %-sequence (no id of ours) stays as sent. */
function decodedSegment(seg: string): string {
  try {
    return decodeURIComponent(seg);
  } catch {
    return seg;
  }
}

/**
 * Every id a request names: any path segment below /api/<resource>, the query parameters machineId /
 * machine_id / id / machine and RECORD_KEYS, and a JSON body's machine fields (and `id`, which is the
 * machine for dispatch) and record keys. Hono caches the parsed body, so the route's own jsonBody reads the
 * same value; a malformed body is left for the route to refuse.
 */
async function namedIds(c: Context<AppEnv>): Promise<Candidates> {
  const found: Candidates = { machines: new Set(), records: new Set() };
  for (const seg of c.req.path.split('/').slice(2)) {
    if (!seg) continue;
    const id = decodedSegment(seg);
    found.machines.add(id);
    found.records.add(id);
  }
  for (const key of ['machineId', 'machine_id', 'id', 'machine'])
    addAll(found.machines, c.req.queries(key) ?? []);
  for (const key of RECORD_KEYS) addAll(found.records, c.req.queries(key) ?? []);
  // A CSV link carries its POST's body as `request` JSON (GET /api/reports/warehouse/production/csv).
  const request = c.req.query('request');
  if (request) {
    try {
      bodyCandidates(JSON.parse(request), found);
    } catch {
      // malformed: the route refuses it
    }
  }
  // Any body, whatever its label: the handler parses any body as JSON, so the check reads every one the same
  // way (issue 26 finding 7: a text/plain or unlabelled body skipped it). The app refuses a non-JSON label
  // with 415 before this runs (http/content-type.ts); this is the second line.
  if (c.req.method !== 'GET' && c.req.method !== 'HEAD' && c.req.raw.body) {
    bodyCandidates(await c.req.json().catch(() => null), found);
  }
  return found;
}

/**
 * 403 when a bound tablet's request names another machine of its company (namedIds), or names a record of
 * another machine (RECORD_KEYS, path segments). Only ids that really are machines or such records count, so
 * other resources' ids never trip it. The sync endpoint is judged per command instead (bindSyncHandlers), so
 * one stray command does not block a batch.
 */
export async function enforceTabletBinding(c: Context<AppEnv>): Promise<void> {
  const bound = boundMachineOf(c.var.caller);
  if (bound == null) return;
  if (/^\/api\/sync\/?$/.test(c.req.path)) return;
  const found = await namedIds(c);
  const machineIds = usable(found.machines, bound);
  if ((await existingMachineIds(c.var.scope, machineIds)).length > 0) throw boundElsewhere();
  // A call that names only a record (PUT /api/partadjustment/:id, an annotation id, a job run as jsgId or
  // laborActivitySetId) is held to the record's machine.
  if (await anyRecordOfOtherMachine(c.var.scope, usable(found.records, bound), bound)) throw boundElsewhere();
}

/**
 * The machines of the caller's company a request acts on: those it names, and those whose records it names
 * (the same reading of the request as the binding check). Read before the request runs, so a deleted
 * record still counts.
 */
export async function machinesActedOn(c: Context<AppEnv>): Promise<string[]> {
  const found = await namedIds(c);
  const machineIds = usable(found.machines, '');
  const recordIds = usable(found.records, '');
  const [machines, records] = await Promise.all([
    existingMachineIds(c.var.scope, machineIds),
    machinesOfRecords(c.var.scope, recordIds),
  ]);
  return [...new Set([...machines, ...records])];
}

/** Sync commands of a bound tablet for another machine are rejected (403 TABLET_BOUND), each on its own. */
export function bindSyncHandlers(handlers: SyncHandlers): SyncHandlers {
  return Object.fromEntries(
    Object.entries(handlers).map(([type, handler]) => [
      type,
      async (ctx, command) => {
        const bound = boundMachineOf(ctx.caller);
        if (bound != null && command.machineId !== bound) throw boundElsewhere();
        return handler!(ctx, command);
      },
    ]),
  ) as SyncHandlers;
}
