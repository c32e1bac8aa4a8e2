import { GATEWAY_RESPONSE_TIMEOUT_MS } from '../derive/link';

// Edge health of a gateway (reports-admin §4, §9): pure rules the gateway list, the dashboard's gateway status
// and the ingest worker share.

export type EdgeHealth = 'NeverReported' | 'NotReporting' | 'MixedStatus' | 'Normal' | 'Unknown';
export type Tone = 'success' | 'warning' | 'danger';

/** reports-admin §4: the tone each health shows in. */
export const EDGE_HEALTH_TONE: Readonly<Record<EdgeHealth, Tone>> = {
  NeverReported: 'warning',
  NotReporting: 'danger',
  MixedStatus: 'warning',
  Normal: 'success',
  Unknown: 'danger',
};

/** reports-admin §4: MixedStatus reads "Degraded". */
export const EDGE_HEALTH_LABEL: Readonly<Record<EdgeHealth, string>> = {
  NeverReported: 'Never Reported',
  NotReporting: 'Not Reporting',
  MixedStatus: 'Degraded',
  Normal: 'Normal',
  Unknown: 'Unknown',
};

/** reports-admin §9: a buffer above this many records is danger. */
export const GATEWAY_BUFFER_DANGER = 1_000;
/** A clock this far ahead of ours is not trusted. */
const CLOCK_SKEW_MS = 60_000;

export interface EdgeHealthInput {
  /** epoch ms of the gateway's last push or heartbeat; null when it never reported */
  lastResponse: number | null;
  /** live connection of each machine behind the gateway; omitted when not known */
  machines?: ReadonlyArray<'CONNECTED' | 'DISCONNECTED' | 'UNKNOWN'>;
}

/**
 * Edge health, in this order:
 *  - never reported → NeverReported;
 *  - a last response we cannot place (not a number, or ahead of our clock) → Unknown;
 *  - last response older than 300000 ms → NotReporting;
 *  - the gateway answers but some or all of its machines do not → MixedStatus (Degraded);
 *  - a machine whose state is unknown → Unknown;
 *  - otherwise Normal.
 */
export function edgeHealth(input: EdgeHealthInput, now: number): EdgeHealth {
  const { lastResponse } = input;
  if (lastResponse === null) return 'NeverReported';
  if (!Number.isFinite(lastResponse) || lastResponse - now > CLOCK_SKEW_MS) return 'Unknown';
  if (now - lastResponse > GATEWAY_RESPONSE_TIMEOUT_MS) return 'NotReporting';
  const machines = input.machines ?? [];
  if (machines.includes('DISCONNECTED')) return 'MixedStatus';
  if (machines.includes('UNKNOWN')) return 'Unknown';
  return 'Normal';
}

/** reports-admin §9: Buffer Size cell tone. Unknown size → no tone. */
export function bufferTone(bufferedRecords: number | null): Tone | null {
  if (bufferedRecords === null || !Number.isFinite(bufferedRecords)) return null;
  return bufferedRecords > GATEWAY_BUFFER_DANGER ? 'danger' : 'success';
}

/** reports-admin §9: last response cell tone. Never responded → no tone (NeverReported says it). */
export function lastResponseTone(lastResponse: number | null, now: number): Tone | null {
  if (lastResponse === null) return null;
  return now - lastResponse > GATEWAY_RESPONSE_TIMEOUT_MS ? 'danger' : 'success';
}

export type SupervisorHeartbeat =
  { tone: Tone; text: 'ok' | 'late' | 'lost' } | { tone: null; text: 'waiting' };

/** reports-admin §4: supervised heartbeat over 5 min danger, over 2 min warning, none yet waiting. */
export function supervisorHeartbeat(lastJoin: number | null, now: number): SupervisorHeartbeat {
  if (lastJoin === null) return { tone: null, text: 'waiting' };
  const age = now - lastJoin;
  if (age > 5 * 60_000) return { tone: 'danger', text: 'lost' };
  if (age > 2 * 60_000) return { tone: 'warning', text: 'late' };
  return { tone: 'success', text: 'ok' };
}
