import type { LinkInput, TransportEnv, TransportStatus } from '../transport';
import { MqttSubscriber } from './mqtt';
import { DEFAULT_MQTT_PREFIX, parseMqttTopic } from './mqtt-payload';

export interface MqttSourceOptions {
  /** The broker (topic scheme: docs/decisions/0200-mqtt-topics.md). */
  url: string;
  prefix?: string;
  /**
   * A fixed client id gives the worker a persistent session: QoS 1 messages it had not acknowledged (not
   * yet stored) when it died are delivered again when it comes back (decision 0200).
   */
  clientId?: string;
  env: TransportEnv;
  /** The worker's links; MQTT sources among them have a passive transport this source drives. */
  links: () => Iterable<LinkInput>;
  /**
   * Resolves once everything received so far for the machine is committed; rejects when the worker stops first.
   */
  committed: (machineId: string) => Promise<void>;
}

/**
 * MQTT: one subscriber for the worker; each message goes to the link of the machine its topic names, whose
 * passive transport takes the message's status and counts.
 */
export class MqttSource {
  private readonly subscriber: MqttSubscriber;

  constructor(private readonly options: MqttSourceOptions) {
    const { env } = options;
    const prefix = options.prefix ?? DEFAULT_MQTT_PREFIX;
    this.subscriber = new MqttSubscriber({
      url: options.url,
      ...(options.prefix ? { prefix: options.prefix } : {}),
      ...(options.clientId ? { clientId: options.clientId } : {}),
      now: env.now,
      keyKinds: (companyRef, machineRef) => this.link(companyRef, machineRef)?.kinds,
      // QoS 1: the broker's message is acknowledged when this resolves, so resolve only once what it
      // carried is committed (a worker killed before that gets the message again).
      onObservations: async (machineRef, obs, rejected, meta) => {
        const link = this.link(meta.companyRef, machineRef);
        if (!link) return this.unknownMachine(meta.companyRef, machineRef);
        // A message is the MQTT source's line: one with anything rejected is one rejected line.
        const c = link.transport.counters;
        c.lines += 1;
        c.observations += obs.length;
        c.rejected += rejected;
        if (rejected > 0) c.rejectedLines += 1;
        c.lastLineAt = meta.receivedAt;
        if (link.transport.status !== 'CONNECTED') {
          link.transport.status = 'CONNECTED';
          link.connection('CONNECTED', meta.receivedAt);
        }
        link.received(obs, meta.receivedAt, true);
        await options.committed(link.source.machineId);
      },
      // A message refused whole (bad topic, oversized payload, bad status word): counted against its machine
      // when the topic names one we derive, and logged either way.
      onRejected: (topic, reason) => {
        const refs = parseMqttTopic(topic, prefix);
        const link = refs && this.link(refs.companyRef, refs.machineRef);
        if (link) {
          const c = link.transport.counters;
          c.lines += 1;
          c.rejected += 1;
          c.rejectedLines += 1;
          c.lastLineAt = env.now();
        }
        env.logLimited(
          link ? `${link.source.sourceId} refused` : 'mqtt refused',
          `[ingest] mqtt: refused a message on ${JSON.stringify(topic.slice(0, 200))}${link ? ` (${link.source.machineName})` : ''}: ${reason}`,
        );
      },
      onMachineStatus: (machineRef, online, meta) => {
        const link = this.link(meta.companyRef, machineRef);
        if (!link) return this.unknownMachine(meta.companyRef, machineRef);
        link.transport.status = online ? 'CONNECTED' : 'DISCONNECTED';
        link.connection(link.transport.status, meta.receivedAt);
      },
      onError: (err) => env.log(`[ingest] mqtt: ${err.message}`),
    });
  }

  /** The broker connection: an MQTT source's link is held only while it is up. */
  get status(): TransportStatus {
    return this.subscriber.status;
  }

  start(): void {
    this.subscriber.start();
  }

  stop(): Promise<void> {
    return this.subscriber.stop();
  }

  private link(companyRef: string, machineRef: string): LinkInput | undefined {
    for (const l of this.options.links())
      if (
        l.source.kind === 'mqtt' &&
        l.source.machineRef === machineRef &&
        l.source.companyRef === companyRef
      )
        return l;
    return undefined;
  }

  private unknownMachine(companyRef: string, machineRef: string): void {
    this.options.env.logLimited(
      `mqtt unknown ${companyRef}/${machineRef}`,
      `[ingest] mqtt: no machine has MQTT source ${companyRef}/${machineRef}; its messages are dropped`,
    );
  }
}
