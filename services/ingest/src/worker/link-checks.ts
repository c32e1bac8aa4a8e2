import type { Kysely } from 'kysely';
import type { Database } from '@takt/db';
import { setupMarksOf } from '@takt/db';
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
    // A heartbeat handed to the engine moves the live row's: the link is marked for the batch (decision 1203).
    if (held && l.pipeline.heartbeat(t)) l.liveDirty = true;
  }
}

/** The job runs fed at each tick are those reaching into the last day (memory only: older ones are read on demand). */
export const SETUP_TICK_MS = 24 * 3_600_000;

const eventKey = (e: { at: number; value: string }) => `${e.at}|${e.value}`;

/**
 * The setup flow lives in job runs (written by the API); feed their START/END events of the last day to
 * each machine, and re-derive the machines whose job runs changed at any age (decision 1025). Mutates the links'
 * pipelines. Returns the setup marks applied: the caller clears them once the re-derivation is stored.
 */
export async function syncSetup(
  db: Kysely<Database>,
  links: Iterable<Link>,
  now: () => number,
): Promise<Array<{ companyId: string; machineId: string; markedAt: number }>> {
  const byMachine = new Map([...links].map((l) => [l.source.machineId, l]));
  const since = now() - SETUP_TICK_MS;
  const events = await loadSetupEvents(db, [...byMachine.keys()], since);
  for (const [machineId, link] of byMachine) {
    // The pipeline passes on only the events it has not seen; those it forgot after a write are not handed again (an
    // open run's start, older than its setup memory, would make it re-derive from storage at every tick, decision
    // 1065): a change there comes with a setup mark.
    const known = (events.get(machineId) ?? []).filter((e) => link.pipeline.remembersSetupFrom(e.at));
    link.pipeline.setSetup(known, since);
    if (link.pipeline.dirty || link.pipeline.rebuildFrom != null) link.liveDirty = true;
  }
  const applied: Array<{ companyId: string; machineId: string; markedAt: number }> = [];
  const held = [...byMachine.values()].map((l) => l.source);
  for (const mark of await setupMarksOf(db, held)) {
    const link = byMachine.get(mark.machine_id)!;
    const list = (await loadSetupEvents(db, [mark.machine_id], mark.from_at)).get(mark.machine_id) ?? [];
    // An event known and no longer in the job runs (a run deleted, a setup end moved): re-derive from the mark.
    const current = new Set(list.map(eventKey));
    const gone = link.pipeline
      .knownSetupEvents()
      .some((e) => e.at >= mark.from_at && !current.has(eventKey(e)));
    // So does a change before the history the pipeline derived itself (a worker started after it).
    // So does one older than the setup events it remembers (the tick no longer hands them).
    if (
      gone ||
      !link.pipeline.holdsHistoryFrom(mark.from_at) ||
      !link.pipeline.remembersSetupFrom(mark.from_at)
    )
      link.pipeline.rederiveFrom(mark.from_at);
    // New events older than the engine's memory make it re-derive from storage by themselves.
    link.pipeline.setSetup(list, mark.from_at);
    link.liveDirty = true;
    applied.push({ companyId: mark.company_id, machineId: mark.machine_id, markedAt: mark.marked_at });
  }
  return applied;
}
