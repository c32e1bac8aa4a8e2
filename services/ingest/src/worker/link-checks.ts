import type { Kysely } from 'kysely';
import type { Database } from '@takt/db';
import { gatewayLinkLostAt } from '@takt/domain';
import type { TransportStatus } from '../sources/transport';
import type { Link } from './link';
import { gatewayLastResponses, loadSetupEvents } from './store';

/**
 * Link evidence that arrives as no line (METRICS.md §1, derive/link.ts): a link the worker holds open is
 * alive (an idle machine sends nothing, and must not look lost), and a gateway whose edge health turned
 * NotReporting has lost its machines' link from that moment. `mqttStatus` is the broker connection, which
 * MQTT sources' links hold through. Mutates the links' transports and pipelines.
 */
export async function checkLinks(
  db: Kysely<Database>,
  links: Iterable<Link>,
  now: () => number,
  mqttStatus: TransportStatus | undefined,
): Promise<void> {
  const t = now();
  const all = [...links];
  const gateways = all.filter((l) => l.source.kind === 'gateway' && l.source.gatewayId);
  const lastResponse = await gatewayLastResponses(db, [...new Set(gateways.map((l) => l.source.gatewayId!))]);
  for (const l of gateways) {
    if (l.transport.status !== 'CONNECTED') continue;
    const lostAt = gatewayLinkLostAt(lastResponse.get(l.source.gatewayId!) ?? null, t);
    if (lostAt === null) continue;
    l.transport.status = 'DISCONNECTED';
    l.connection('DISCONNECTED', lostAt);
  }
  for (const l of all) {
    const held =
      l.transport.status === 'CONNECTED' && (l.source.kind !== 'mqtt' || mqttStatus === 'CONNECTED');
    if (held) l.pipeline.heartbeat(t);
  }
}

/**
 * The setup flow lives in job runs (written by the API); feed their START/END events of the last day to
 * each machine. Mutates the links' pipelines.
 */
export async function syncSetup(
  db: Kysely<Database>,
  links: Iterable<Link>,
  now: () => number,
): Promise<void> {
  const byMachine = new Map([...links].map((l) => [l.source.machineId, l]));
  const events = await loadSetupEvents(db, [...byMachine.keys()], now() - 24 * 3_600_000);
  for (const [machineId, list] of events) {
    const link = byMachine.get(machineId);
    if (link) link.pipeline.setSetup(list); // the pipeline passes on only the events it has not seen
    if (link && link.pipeline.dirty) link.liveDirty = true;
  }
}
