import type { MachineState } from '../machine-state';
import { HEARTBEAT_TIMEOUT_MS, MACHINE_STATES } from '../machine-state';

// METRICS.md §1: a value holds until it changes; only link-level evidence makes a machine UNAVAILABLE. The
// ingest worker writes the link's status (`connection`) and the last time it had evidence the link was alive
// (`lastHeartbeat`: any line, `* PONG`, agent response, MQTT message, gateway push) into the live row. The one
// rule left for the readers of that row is the link heartbeat: when the row's heartbeat is older than
// HEARTBEAT_TIMEOUT_MS nobody is keeping the link alive any more (the worker itself may have died and stopped
// updating the row), so the link is lost from the moment the timeout ran out. Every screen that reads the
// live row (tile, card, gateway health, diagnostics) asks these functions, so they cannot disagree.

/** live-operations §4 live connection status of a machine's link. */
export type LinkConnection = 'CONNECTING' | 'CONNECTED' | 'DISCONNECTED' | 'NOT CONFIGURED';

/** The live row's fields the link rule reads. */
export interface LiveLinkRow {
  /** The link status the ingest worker reports. */
  connection: string | null;
  /** Last time the worker had evidence the link was alive (epoch ms), null before any. */
  lastHeartbeat: number | null;
  /** The METRICS.md §1 state the worker derived, and since when. */
  state?: string | null;
  stateSince?: number | null;
}

export interface LiveLink {
  /** The heartbeat is older than HEARTBEAT_TIMEOUT_MS: the link is lost. */
  lost: boolean;
  /** The connection to show: NOT CONFIGURED without a live row, DISCONNECTED once lost, else the worker's. */
  connection: LinkConnection;
  /** The link is up and its heartbeat fresh (connection CONNECTED): anything else is stale. */
  up: boolean;
  /** The state to show, and since when: UNAVAILABLE from the heartbeat + timeout once the link is lost. */
  state: MachineState;
  since: number | null;
}

/** The link heartbeat rule: no evidence of the link for more than HEARTBEAT_TIMEOUT_MS. */
export const linkLost = (lastHeartbeat: number | null | undefined, now: number): boolean =>
  lastHeartbeat != null && now - lastHeartbeat > HEARTBEAT_TIMEOUT_MS;

const CONNECTIONS: readonly string[] = ['CONNECTING', 'CONNECTED', 'DISCONNECTED', 'NOT CONFIGURED'];
const asConnection = (c: string | null): LinkConnection =>
  c != null && CONNECTIONS.includes(c) ? (c as LinkConnection) : 'DISCONNECTED';
const asState = (s: string | null | undefined): MachineState =>
  s != null && (MACHINE_STATES as readonly string[]).includes(s) ? (s as MachineState) : 'UNAVAILABLE';

/**
 * What a machine's live row means at `now` (`row` undefined or null: the machine has no live row yet).
 * Once the link is lost the state turns UNAVAILABLE from last heartbeat + HEARTBEAT_TIMEOUT_MS, unless it is
 * already UNAVAILABLE (its own since stays) or SETUP (an operator's setup overrides the machine, METRICS.md §1).
 */
export function liveLink(row: LiveLinkRow | null | undefined, now: number): LiveLink {
  if (!row) {
    return { lost: false, connection: 'NOT CONFIGURED', up: false, state: 'UNAVAILABLE', since: null };
  }
  const lost = linkLost(row.lastHeartbeat, now);
  const connection = lost ? 'DISCONNECTED' : asConnection(row.connection);
  let state = asState(row.state);
  let since = row.stateSince ?? null;
  if (lost && row.lastHeartbeat != null && state !== 'UNAVAILABLE' && state !== 'SETUP') {
    state = 'UNAVAILABLE';
    since = row.lastHeartbeat + HEARTBEAT_TIMEOUT_MS;
  }
  return { lost, connection, up: connection === 'CONNECTED', state, since };
}

/**
 * reports-admin §4 edge health counts each machine behind a gateway by its link: UNKNOWN without a live row
 * (`connection` null), CONNECTED while the link is up and fresh, otherwise DISCONNECTED.
 */
export function edgeMachineLink(
  row: { connection: string | null; lastHeartbeat: number | null },
  now: number,
): 'CONNECTED' | 'DISCONNECTED' | 'UNKNOWN' {
  if (row.connection === null) return 'UNKNOWN';
  return liveLink(row, now).up ? 'CONNECTED' : 'DISCONNECTED';
}

/** What the diagnostics screen shows for a machine's link: a status, or the last heartbeat (epoch ms). */
export type LiveConnection = 'CONNECTING' | 'DISCONNECTED' | 'NOT CONFIGURED' | number;

/**
 * live-operations §4 live connection status: NOT CONFIGURED without adapter fields; CONNECTING before the
 * first heartbeat; DISCONNECTED when no heartbeat for 5 minutes (§9), by the same link heartbeat rule as the
 * tiles and the card (linkLost); otherwise the last heartbeat (epoch ms).
 */
export function liveConnection(hasFields: boolean, heartbeat: number | null, now: number): LiveConnection {
  if (!hasFields) return 'NOT CONFIGURED';
  if (heartbeat === null) return 'CONNECTING';
  if (linkLost(heartbeat, now)) return 'DISCONNECTED';
  return heartbeat;
}
