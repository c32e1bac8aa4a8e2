import type { SourcePolicy } from '@takt/domain';
import type { FieldMeaning, SourceRow } from './source';
import type { KeyKind, Observation } from './shdr/shdr';
import type { BackoffOptions, ShdrCounters } from './shdr/shdr-client';

export type TransportStatus = 'CONNECTING' | 'CONNECTED' | 'DISCONNECTED';

/**
 * A source's transport: an SHDR socket, an agent poller, or a passive one whose lines arrive from outside
 * (MQTT messages routed by the worker's one subscriber, gateway pushes read from the inbox).
 */
export interface Transport {
  status: TransportStatus;
  counters: ShdrCounters;
  stop(): Promise<void>;
}

/** What a transport feeds: the worker's link of one source (worker/link.ts). */
export interface LinkInput {
  readonly source: SourceRow;
  /** The adapter's field mapping; the agent transport fills it from /probe when the machine has none. */
  readonly fields: Map<string, FieldMeaning>;
  /** What each key is, from the field mapping: how the SHDR parser reads its tokens. */
  readonly kinds: ReadonlyMap<string, KeyKind>;
  readonly transport: Transport;
  /** Observations as received: placed among the link's events, then buffered for storage when `store`. */
  received(raw: readonly Observation[], at: number, store: boolean): void;
  /** A connection change, placed among the link's events and buffered for storage as placed. */
  connection(status: TransportStatus, at: number): void;
  /**
   * Evidence that the link is alive without an observation (a PONG, an agent's empty answer); `markLive`
   * false leaves the live row to the next tick (a gateway's pushed command line).
   */
  heartbeat(at: number, markLive?: boolean): void;
  /** Agent: the position reached by the buffered observations, saved in the same batch as they are. */
  savePosition(position: { instanceId: string; nextSequence: number }): void;
}

/** What every transport of a worker shares. */
export interface TransportEnv {
  now: () => number;
  log: (message: string) => void;
  /** Logs the first message per key, then at most once a minute (a flood must not flood the log). */
  logLimited: (key: string, message: string) => void;
  /** Redial backoff for adapter links. */
  backoff?: BackoffOptions;
  /** Where SHDR and agent sources may point (decision 0985): checked before every connect. */
  sourcePolicy: SourcePolicy;
  /** Lines or observations refused for a time outside the window of decision 0980, by source kind. */
  onTimeRefused?: (source: string, count: number) => void;
}

export const noCounters = (): ShdrCounters => ({
  lines: 0,
  observations: 0,
  rejected: 0,
  rejectedLines: 0,
  lastLineAt: null,
});

/**
 * A transport for sources fed from outside the worker (MQTT messages, gateway pushes): whoever feeds the
 * link sets its status and counts into its counters in place.
 */
export function passiveTransport(): Transport {
  return { status: 'CONNECTING', counters: noCounters(), stop: async () => {} };
}
