// MQTT subscriber: machine data published to a broker (Mosquitto) under
// `<prefix>/<companyRef>/<machineRef>/{shdr,json,status}` (docs/decisions/0200-mqtt-topics.md) enters the
// same observation path as SHDR adapters. Malformed messages are counted and reported, never thrown.
//
// Delivery: we subscribe with QoS 1 and acknowledge a message only after onObservations has settled, so
// a worker that dies mid-message gets it again (from a persistent session) instead of losing it.
import mqtt from 'mqtt';
import type { IPublishPacket, MqttClient } from 'mqtt';
import type { MqttFormat } from './mqtt-payload';
import { DEFAULT_MQTT_PREFIX, parseMqttMessage } from './mqtt-payload';
import type { KeyKinds, Observation } from '../shdr/shdr';

export type MqttStatus = 'CONNECTING' | 'CONNECTED' | 'DISCONNECTED';

export interface MqttMeta {
  companyRef: string;
  format: MqttFormat;
  topic: string;
  receivedAt: number;
}

export interface MqttCounters {
  messages: number;
  observations: number;
  /** bad lines, pairs, values or records, plus whole messages refused */
  rejected: number;
  /** messages refused whole (unknown topic, oversized, unreadable status) */
  rejectedMessages: number;
  /** onObservations threw or rejected (the message was acknowledged anyway, see below) */
  consumerErrors: number;
  connects: number;
  lastMessageAt: number | null;
}

export interface MqttSubscriberOptions {
  /** mqtt://host:1883 (mqtts:// and ws:// work too) */
  url: string;
  prefix?: string;
  /** one company's machines, or every company ('+', the default) */
  companyRef?: string;
  clientId?: string;
  username?: string;
  password?: string;
  /**
   * Keep the broker session across reconnects so QoS 1 messages published meanwhile are queued for us.
   * Needs a fixed clientId. Default: true when a clientId is given.
   */
  persistentSession?: boolean;
  /** what each key is, per machine (from its Devices.xml or adapter fields) */
  keyKinds?: (companyRef: string, machineRef: string) => KeyKinds | undefined;
  onObservations: (
    machineRef: string,
    observations: Observation[],
    rejected: number,
    meta: MqttMeta,
  ) => void | Promise<void>;
  /** a message refused whole */
  onRejected?: (topic: string, reason: string) => void;
  /** an edge's status topic: ONLINE, or OFFLINE (typically its last will) */
  onMachineStatus?: (machineRef: string, online: boolean, meta: MqttMeta) => void;
  onStatus?: (status: MqttStatus, at: number) => void;
  onError?: (error: Error) => void;
  /** wait between reconnect attempts (default 1000 ms) */
  reconnectMs?: number;
  connectTimeoutMs?: number;
  now?: () => number;
}

export class MqttSubscriber {
  private readonly options: MqttSubscriberOptions;
  private readonly now: () => number;
  private readonly prefix: string;
  private client: MqttClient | null = null;
  private currentStatus: MqttStatus = 'DISCONNECTED';
  private subscribedOnce: Promise<void>;
  private markSubscribed: () => void = () => {};
  private readonly stats: MqttCounters = {
    messages: 0,
    observations: 0,
    rejected: 0,
    rejectedMessages: 0,
    consumerErrors: 0,
    connects: 0,
    lastMessageAt: null,
  };

  constructor(options: MqttSubscriberOptions) {
    this.options = options;
    this.now = options.now ?? Date.now;
    this.prefix = options.prefix ?? DEFAULT_MQTT_PREFIX;
    if (/[#+]/.test(this.prefix)) throw new Error(`MQTT prefix must not hold wildcards: ${this.prefix}`);
    this.subscribedOnce = new Promise((resolve) => (this.markSubscribed = resolve));
  }

  get status(): MqttStatus {
    return this.currentStatus;
  }

  get counters(): Readonly<MqttCounters> {
    return { ...this.stats };
  }

  /** The subscription filter: `<prefix>/<companyRef or +>/+/+`. */
  get filter(): string {
    return `${this.prefix}/${this.options.companyRef ?? '+'}/+/+`;
  }

  /** Connects (and keeps reconnecting). Resolves at once; `subscribed()` tells when data can flow. */
  start(): void {
    if (this.client) return;
    const persistent = this.options.persistentSession ?? this.options.clientId !== undefined;
    this.setStatus('CONNECTING');
    const client = mqtt.connect(this.options.url, {
      ...(this.options.clientId ? { clientId: this.options.clientId } : {}),
      ...(this.options.username ? { username: this.options.username } : {}),
      ...(this.options.password ? { password: this.options.password } : {}),
      clean: !persistent,
      reconnectPeriod: this.options.reconnectMs ?? 1_000,
      connectTimeout: this.options.connectTimeoutMs ?? 10_000,
      // We subscribe on every connect ourselves (below), knowing whether the broker kept the session.
      resubscribe: false,
    });
    this.client = client;
    // mqtt.js acknowledges a QoS 1 message when this callback is called: only after we handled it.
    client.handleMessage = (packet, done) => {
      this.onMessage(packet).then(
        () => done(),
        () => done(),
      );
    };
    client.on('connect', (connack) => {
      this.stats.connects++;
      this.setStatus('CONNECTED');
      if (connack.sessionPresent) return this.markSubscribed();
      client.subscribe(this.filter, { qos: 1 }, (error) => {
        if (error) this.report(error);
        else this.markSubscribed();
      });
    });
    client.on('reconnect', () => this.setStatus('CONNECTING'));
    client.on('close', () => this.setStatus('DISCONNECTED'));
    client.on('offline', () => this.setStatus('DISCONNECTED'));
    client.on('error', (error) => this.report(error));
  }

  /** Resolves once the first subscription is in place. */
  subscribed(): Promise<void> {
    return this.subscribedOnce;
  }

  async stop(): Promise<void> {
    const client = this.client;
    this.client = null;
    if (!client) return;
    await client.endAsync();
    this.setStatus('DISCONNECTED');
  }

  private async onMessage(packet: IPublishPacket): Promise<void> {
    const receivedAt = this.now();
    const topic = packet.topic;
    this.stats.messages++;
    this.stats.lastMessageAt = receivedAt;
    const refs = topic.split('/').slice(-3);
    const kinds = refs.length === 3 ? this.options.keyKinds?.(refs[0] ?? '', refs[1] ?? '') : undefined;
    const message = parseMqttMessage(topic, packet.payload, receivedAt, {
      prefix: this.prefix,
      ...(kinds ? { keyKinds: kinds } : {}),
    });
    this.stats.rejected += message.rejected;
    if (!message.ok) {
      this.stats.rejectedMessages++;
      this.safely(() => this.options.onRejected?.(topic, message.reason));
      return;
    }
    const meta: MqttMeta = {
      companyRef: message.topic.companyRef,
      format: message.topic.format,
      topic,
      receivedAt,
    };
    if (message.online !== undefined) {
      const online = message.online;
      this.safely(() => this.options.onMachineStatus?.(message.topic.machineRef, online, meta));
      return;
    }
    if (message.observations.length === 0 && message.rejected === 0) return;
    this.stats.observations += message.observations.length;
    try {
      await this.options.onObservations(
        message.topic.machineRef,
        message.observations,
        message.rejected,
        meta,
      );
    } catch (error) {
      // The consumer owns its durability (the ingest service buffers and retries its writes); a throw here
      // is a bug we report rather than a reason to stall the whole subscription on one message.
      this.stats.consumerErrors++;
      this.report(error);
    }
  }

  private safely(call: () => void): void {
    try {
      call();
    } catch (error) {
      this.stats.consumerErrors++;
      this.report(error);
    }
  }

  private setStatus(status: MqttStatus): void {
    if (status === this.currentStatus) return;
    this.currentStatus = status;
    this.safely(() => this.options.onStatus?.(status, this.now()));
  }

  private report(error: unknown): void {
    try {
      this.options.onError?.(error instanceof Error ? error : new Error(String(error)));
    } catch {
      // A failing error sink must not stop the subscriber.
    }
  }
}
