import { liveConnection } from '@takt/domain';
import { CONNECTION_KEY } from '@takt/db';
import type { CompanyScope } from '@takt/db';
import { notFound } from '../http/errors';
import { getMachine } from '../repositories/machines';
import { adapterFieldTypes, lastHeartbeat, latestPerKey, sourceCounters } from '../repositories/diagnostics';

// live-operations §4 machine diagnostics: the live connection status, the latest value of every key with its
// mapping, the keys no adapter field maps, and the source's counters.

/** Keys seen this long ago still count for the latest values and the unmapped list. */
export const DIAGNOSTICS_WINDOW_MS = 24 * 3_600_000;

/** A machine's diagnostics at `now`, company scoped: another company's machine is not found. */
export async function machineDiagnostics(scope: CompanyScope, id: string, now: number) {
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
  return {
    connection: liveConnection(mapped.size > 0, heartbeat, now),
    lastHeartbeat: heartbeat,
    fields,
    unmapped: seen.filter((o) => !mapped.has(o.key)).map((o) => o.key),
    counters,
    window: { from: since, to: now },
  };
}
