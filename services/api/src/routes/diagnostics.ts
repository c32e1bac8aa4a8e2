import { Hono } from 'hono';
import { linkLost } from '@takt/domain';
import { CONNECTION_KEY } from '@takt/db';
import type { AppEnv } from '../http/context';
import { notFound } from '../http/errors';
import { getMachine } from '../repositories/machines';
import { adapterFieldTypes, lastHeartbeat, latestPerKey, sourceCounters } from '../repositories/diagnostics';

/** Keys seen this long ago still count for the latest values and the unmapped list. */
export const DIAGNOSTICS_WINDOW_MS = 24 * 3_600_000;

export type LiveConnection = 'CONNECTING' | 'DISCONNECTED' | 'NOT CONFIGURED' | number;

/**
 * live-operations §4 live connection status: NOT CONFIGURED without adapter fields; CONNECTING before the
 * first heartbeat; DISCONNECTED when no heartbeat for 5 minutes (§9), by the same link heartbeat rule as the
 * tiles and the card (packages/domain live/link.ts); otherwise the last heartbeat (epoch ms).
 */
export function liveConnection(hasFields: boolean, heartbeat: number | null, now: number): LiveConnection {
  if (!hasFields) return 'NOT CONFIGURED';
  if (heartbeat === null) return 'CONNECTING';
  if (linkLost(heartbeat, now)) return 'DISCONNECTED';
  return heartbeat;
}

/** GET /api/machines/:id/diagnostics (live-operations §4 live connection status), company scoped: another company's machine is not found. */
export const diagnosticsRoutes = new Hono<AppEnv>().get('/:id/diagnostics', async (c) => {
  const scope = c.var.scope;
  const id = c.req.param('id');
  const now = c.var.deps.now();
  if (!(await getMachine(scope, id))) throw notFound('Machine');
  const since = now - DIAGNOSTICS_WINDOW_MS;
  const [mapped, latest, heartbeat, counters] = await Promise.all([
    adapterFieldTypes(scope, id),
    latestPerKey(scope, id, since),
    lastHeartbeat(scope, id),
    sourceCounters(scope, id),
  ]);
  // The connection log lives among the observations under an internal key: not a field.
  const seen = latest.filter((o) => o.key !== CONNECTION_KEY);
  const seenKeys = new Set(seen.map((o) => o.key));
  const fields = [
    ...seen.map((o) => ({
      key: o.key,
      value: o.value,
      ts: o.ts as number | null,
      dataItemType: mapped.get(o.key)?.dataItemType ?? null,
    })),
    // Mapped fields not heard from in the window still show, without a value.
    ...[...mapped]
      .filter(([key]) => !seenKeys.has(key))
      .map(([key, f]) => ({ key, value: null, ts: null, dataItemType: f.dataItemType })),
  ].sort((a, b) => (a.key < b.key ? -1 : a.key > b.key ? 1 : 0));
  return c.json({
    connection: liveConnection(mapped.size > 0, heartbeat, now),
    lastHeartbeat: heartbeat,
    fields,
    unmapped: seen.filter((o) => !mapped.has(o.key)).map((o) => o.key),
    counters,
    window: { from: since, to: now },
  });
});
