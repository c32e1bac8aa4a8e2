import { machineConnection } from '@takt/domain';
import type { LiveConnection, MachineConnection } from '@takt/domain';
import { CONNECTION_KEY } from '@takt/db';
import type { CompanyScope } from '@takt/db';
import { notFound } from '../http/errors';
import { getMachine } from '../repositories/machines';
import { adapterFieldTypes, latestPerKey, sourceCounters } from '../repositories/diagnostics';
import { liveByMachine } from '../repositories/live';
import { connectionFacts, connectionFactsOf } from '../repositories/machine-connection';

// live-operations §4 machine diagnostics: the live connection status, the latest value of every key with its
// mapping, the keys no adapter field maps, and the source's counters.

/** Keys seen this long ago still count for the latest values and the unmapped list. */
export const DIAGNOSTICS_WINDOW_MS = 24 * 3_600_000;

/** A machine's diagnostics at `now`, company scoped: another company's machine is not found. */
export async function machineDiagnostics(scope: CompanyScope, id: string, now: number) {
  if (!(await getMachine(scope, id))) throw notFound('Machine');
  const since = now - DIAGNOSTICS_WINDOW_MS;
  const [mapped, latest, live, facts, counters] = await Promise.all([
    adapterFieldTypes(scope, id),
    latestPerKey(scope, id, since),
    liveByMachine(scope, [id]).then((rows) => rows.get(id)),
    connectionFacts(scope, [id]),
    sourceCounters(scope, id),
  ]);
  // The same words and heartbeat as the Machines list and the tiles (decision 1055).
  const connectionInput = {
    ...connectionFactsOf(facts, id),
    link: live?.connection ?? null,
    lastHeartbeat: live?.last_heartbeat ?? null,
  };
  const machine = machineConnection(connectionInput, now);
  const heartbeat = machine.lastHeartbeat;
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
    connection: specConnection(machine, heartbeat),
    machineConnection: machine,
    connectionInput,
    lastHeartbeat: heartbeat,
    fields,
    unmapped: seen.filter((o) => !mapped.has(o.key)).map((o) => o.key),
    counters,
    window: { from: since, to: now },
  };
}

/**
 * The spec's live connection value (live-operations §4) of the machine's connection: NOT CONFIGURED, CONNECTING
 * before the first data, DISCONNECTED, or the last heartbeat while connected.
 */
function specConnection(c: MachineConnection, heartbeat: number | null): LiveConnection {
  if (c.state === 'NOT CONFIGURED') return 'NOT CONFIGURED';
  if (c.state === 'NEVER REPORTED') return 'CONNECTING';
  if (c.state === 'DISCONNECTED' || heartbeat === null) return 'DISCONNECTED';
  return heartbeat;
}
