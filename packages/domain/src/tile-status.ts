import type { EpochMs } from './brand';
import { MINUTE_MS } from './brand';
import type { DashboardType } from './dashboard';
import { MACHINE_CONNECTION_WORDS } from './live/machine-connection';
import type { MachineConnectionState } from './live/machine-connection';
import type { MachineState } from './machine-state';

// live-operations §4 "Tile status".
export const TILE_STATUSES = [
  'success',
  'inactive',
  'unavailable',
  'warning',
  'danger',
  'setup',
  'fault',
] as const;
export type TileStatus = (typeof TILE_STATUSES)[number];

export interface TileInput {
  status: MachineState;
  statusSince: number | null;
  scheduled: boolean;
  stale: boolean;
  faultSince: number | null;
  faultMessage: string | null;
  lastHeartbeat: number | null;
  downtimefailuredelay: number;
  downtime_reason: string | null;
  /**
   * The machine's connection (machineConnection, decision 1055): a machine work center not connected shows its
   * words (Not configured, Never Reported, Disconnected), as the Machines list and Diagnostics do. Omitted or
   * another value (an older client's cache): the stale rule below decides.
   */
  connection?: string;
  workcenterType?: 'machine' | 'manual' | 'other';
}

const NOT_UP: readonly string[] = ['NOT CONFIGURED', 'NEVER REPORTED', 'DISCONNECTED'];

export interface TileView {
  status: TileStatus;
  description: string;
}

/**
 * The tile's class and words. Class precedence (live-operations §4): setup, then stale (unavailable),
 * then fault (danger), then extended unavailable, then the status rule:
 * not scheduled on a non-Downtime dashboard → unavailable when there is no statusSince; success stays
 * success; otherwise warning while minutes since statusSince are below downtimefailuredelay, danger after.
 * An unscheduled idle machine on a non-Downtime dashboard has no goal to miss, so it is shown inactive.
 */
export function tileView(m: TileInput, dashboard: DashboardType, now: EpochMs): TileView {
  if (m.status === 'SETUP') return { status: 'setup', description: 'Setup' };
  if (
    (m.workcenterType ?? 'machine') === 'machine' &&
    m.connection != null &&
    NOT_UP.includes(m.connection)
  ) {
    return {
      status: 'unavailable',
      description: MACHINE_CONNECTION_WORDS[m.connection as MachineConnectionState],
    };
  }
  if (m.stale) {
    return {
      status: 'unavailable',
      description: m.lastHeartbeat == null && m.statusSince == null ? 'Never Reported' : 'Disconnected',
    };
  }
  if (m.status === 'FAULT' || m.faultSince != null) {
    if (m.status !== 'ACTIVE') return { status: 'fault', description: m.faultMessage?.trim() || 'Fault' };
  }
  if (m.status === 'UNAVAILABLE') {
    return { status: 'unavailable', description: m.statusSince == null ? 'Never Reported' : 'Not Reported' };
  }
  if (!m.scheduled && dashboard !== 'downtime' && m.statusSince == null) {
    return { status: 'unavailable', description: 'Never Reported' };
  }
  if (m.status === 'ACTIVE') return { status: 'success', description: 'Active' };
  const idle = m.downtime_reason ? `Idle - ${m.downtime_reason}` : 'Idle';
  if (!m.scheduled && dashboard !== 'downtime') return { status: 'inactive', description: idle };
  const minutesDown = m.statusSince == null ? Infinity : (now - m.statusSince) / MINUTE_MS;
  return { status: minutesDown < m.downtimefailuredelay ? 'warning' : 'danger', description: idle };
}

/**
 * Time in state for a tile or card, "h:mm:ss" under a day and "Nd h:mm:ss" beyond; '-' when unknown.
 */
export function formatElapsed(since: number | null, now: number): string {
  if (since == null) return '-';
  const total = Math.max(0, Math.floor((now - since) / 1000));
  const d = Math.floor(total / 86_400);
  const h = Math.floor((total % 86_400) / 3600);
  const m = Math.floor((total % 3600) / 60);
  const s = total % 60;
  const hms = `${h}:${String(m).padStart(2, '0')}:${String(s).padStart(2, '0')}`;
  return d > 0 ? `${d}d ${hms}` : hms;
}
