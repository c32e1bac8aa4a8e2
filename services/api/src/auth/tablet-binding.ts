import type { Context } from 'hono';
import type { AppEnv, Caller } from '../http/context';
import { ApiError } from '../http/errors';
import type { SyncHandlers } from '../services/sync';

// The one place a bound tablet is held to its machine (issue 5 point 11, decision 0500): every /api request
// (via requireCaller) and every offline sync command (via the wrapped sync handlers).

export const BOUND_ELSEWHERE = 'This tablet is bound to another machine.';
export const boundElsewhere = () => new ApiError(403, 'TABLET_BOUND', BOUND_ELSEWHERE);

/** The machine a caller is held to, or null when it may act on any machine of its company. */
export const boundMachineOf = (caller: Caller): string | null =>
  caller.kind === 'tablet' ? caller.boundMachineId : null;

const MACHINE_KEYS = new Set(['machineId', 'machine_id', 'machine', 'machineIds', 'machine_ids']);
const MAX_CANDIDATES = 100;

/** Ids a body names as machines: machine keys at any depth (≤ 4), plus the top-level `id` (dispatch). */
function bodyCandidates(body: unknown, out: Set<string>, depth = 0): void {
  if (depth > 4 || out.size > MAX_CANDIDATES || body == null || typeof body !== 'object') return;
  if (Array.isArray(body)) {
    for (const item of body) bodyCandidates(item, out, depth + 1);
    return;
  }
  for (const [key, value] of Object.entries(body as Record<string, unknown>)) {
    if (MACHINE_KEYS.has(key) || (depth === 0 && key === 'id')) {
      for (const v of Array.isArray(value) ? value : [value]) if (typeof v === 'string') out.add(v);
    } else if (typeof value === 'object') {
      bodyCandidates(value, out, depth + 1);
    }
  }
}

/**
 * 403 when a bound tablet's request names another machine of its company: any path segment, the query
 * parameters machineId / machine_id / id, or a JSON body's machine fields (and `id`, which is the machine
 * for dispatch). Only ids that really are machines count, so other resources' ids never trip it. The sync
 * endpoint is judged per command instead (bindSyncHandlers), so one stray command does not block a batch.
 */
export async function enforceTabletBinding(c: Context<AppEnv>): Promise<void> {
  const bound = boundMachineOf(c.var.caller);
  if (bound == null) return;
  const path = c.req.path;
  if (/^\/api\/sync\/?$/.test(path)) return;
  const candidates = new Set<string>();
  for (const seg of path.split('/').slice(2)) if (seg) candidates.add(decodeURIComponent(seg));
  for (const key of ['machineId', 'machine_id', 'id', 'machine']) {
    for (const v of c.req.queries(key) ?? []) candidates.add(v);
  }
  const type = c.req.header('content-type') ?? '';
  if (c.req.method !== 'GET' && c.req.method !== 'HEAD' && type.includes('json')) {
    // Hono caches the parsed body, so the route's own jsonBody reads the same value; a malformed body is
    // left for the route to refuse.
    bodyCandidates(await c.req.json().catch(() => null), candidates);
  }
  candidates.delete(bound);
  const ids = [...candidates].filter((s) => s.length > 0 && s.length <= 200).slice(0, MAX_CANDIDATES);
  if (!ids.length) return;
  const other = await c.var.scope
    .selectFrom('machines')
    .select('id')
    .where('id', 'in', ids)
    .limit(1)
    .executeTakeFirst();
  if (other) throw boundElsewhere();
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
