import { liveLink } from './link';

// One vocabulary for a machine's connection (issue 28 point 5, decision 1055). The Machines list, the machine's
// Diagnostics and the tiles all ask this one function, from the same facts, so the same machine reads the same
// words everywhere. The spec's words: Not configured (no adapter fields; here also no data source), Never
// Reported, Disconnected (no heartbeat for 5 minutes, or the link is down); a connected machine shows its
// state (Active, Idle, …) on a tile and its last heartbeat in Diagnostics.

/** The state of a machine's connection, in the spec's words (live-operations §4 "Live connection status"). */
export type MachineConnectionState = 'NOT CONFIGURED' | 'NEVER REPORTED' | 'CONNECTED' | 'DISCONNECTED';

/** Why the machine is in that state, for the longer text beside the words. */
export type MachineConnectionWhy =
  /** No data source (SHDR, agent, MQTT or gateway) is set up for the machine. */
  | 'noSource'
  /** The source is set up, but the machine has no adapter, or its adapter maps no field. */
  | 'noFields'
  /** The link is up and fresh. */
  | 'linkUp'
  /** Never reported: the server has not reached the source yet (or no worker has picked it up). */
  | 'connecting'
  /** Never reported: the server tried and the source did not answer (refused, unreachable, dropped). */
  | 'refused'
  /** It reported before; its link is down or no heartbeat came for 5 minutes. */
  | 'lost';

export interface MachineConnectionInput {
  /** A data source is configured for the machine. */
  sourceConfigured: boolean;
  /** The machine's adapter maps at least one field. */
  fieldsMapped: boolean;
  /** The source has ever sent machine data (any stored observation but the link log). */
  everReported: boolean;
  /** The ingest worker's link status from the live row ('CONNECTING', 'CONNECTED', 'DISCONNECTED'); null without one. */
  link: string | null;
  /** The live row's last link evidence (epoch ms), null before any. */
  lastHeartbeat: number | null;
}

export interface MachineConnection {
  state: MachineConnectionState;
  why: MachineConnectionWhy;
  /** The words every screen shows for the state. */
  words: string;
  /**
   * The last heartbeat to show: none for a machine that never reported while its link is not up. Every failed dial of a source that
   * refuses connections is logged as a link drop, which the engine counts as link evidence (its time is fresh),
   * but no machine ever answered: showing it as a heartbeat made a dead adapter look alive.
   */
  lastHeartbeat: number | null;
}

/** The words of each state: the same on the list, in Diagnostics and on tiles. */
export const MACHINE_CONNECTION_WORDS: Readonly<Record<MachineConnectionState, string>> = {
  'NOT CONFIGURED': 'Not configured',
  'NEVER REPORTED': 'Never Reported',
  CONNECTED: 'Connected',
  DISCONNECTED: 'Disconnected',
};

const of = (
  state: MachineConnectionState,
  why: MachineConnectionWhy,
  lastHeartbeat: number | null,
): MachineConnection => ({
  state,
  why,
  words: MACHINE_CONNECTION_WORDS[state],
  lastHeartbeat,
});

/**
 * A machine's connection at `now`, in this order:
 *  - no data source and no data ever → NOT CONFIGURED (noSource); a machine whose data came without a source (a
 *    replayed log, a source since removed) goes on by its link below;
 *  - no adapter fields → NOT CONFIGURED (noFields): whatever arrives, nothing can be read from it;
 *  - link up and its heartbeat within 5 minutes → CONNECTED;
 *  - never sent data → NEVER REPORTED: refused when the worker's link is down (the adapter refuses or cannot be
 *    reached), connecting while it is still trying or no worker has it yet;
 *  - otherwise DISCONNECTED (lost): link down, or no heartbeat for 5 minutes (the link heartbeat rule, liveLink).
 * A link-down entry in the link log is not machine data: a source that refuses every connection never reported.
 */
export function machineConnection(input: MachineConnectionInput, now: number): MachineConnection {
  const link =
    input.link == null ? null : liveLink({ connection: input.link, lastHeartbeat: input.lastHeartbeat }, now);
  // A heartbeat is shown once the machine sent data or while its link is up: never from logged drops alone.
  const beat = input.everReported || link?.up ? input.lastHeartbeat : null;
  if (!input.sourceConfigured && !input.everReported) return of('NOT CONFIGURED', 'noSource', beat);
  if (!input.fieldsMapped) return of('NOT CONFIGURED', 'noFields', beat);
  if (link?.up) return of('CONNECTED', 'linkUp', beat);
  if (!input.everReported) {
    const why = link != null && link.connection === 'DISCONNECTED' ? 'refused' : 'connecting';
    return of('NEVER REPORTED', why, beat);
  }
  return of('DISCONNECTED', 'lost', beat);
}
