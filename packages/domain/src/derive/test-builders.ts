// Builders with defaults for deriver tests (STYLE.md: builders for test data). Not exported from index.
import type { EpochMs } from '../brand';
import { epochMs, MINUTE_MS } from '../brand';
import type { ConditionValue, Observation } from './observations';

export const T0 = Date.UTC(2024, 0, 15, 8, 0, 0); // a Monday, 08:00Z
export const at = (seconds: number): EpochMs => epochMs(T0 + seconds * 1000);
export const atMin = (minutes: number): EpochMs => epochMs(T0 + minutes * MINUTE_MS);

export const exec = (ts: EpochMs, value: string | null): Observation => ({ ts, key: 'execution', value });
export const count = (ts: EpochMs, value: number | null): Observation => ({ ts, key: 'part_count', value });
export const avail = (ts: EpochMs, value: string | null): Observation => ({ ts, key: 'availability', value });
export const program = (ts: EpochMs, value: string | null): Observation => ({ ts, key: 'program', value });
export const mode = (ts: EpochMs, value: string | null): Observation => ({
  ts,
  key: 'controller_mode',
  value,
});
export const subprogram = (ts: EpochMs, value: string | null): Observation => ({
  ts,
  key: 'subprogram',
  value,
});
export const spindle = (ts: EpochMs, value: number | null): Observation => ({
  ts,
  key: 'spindle_speed',
  value,
});
export const feed = (ts: EpochMs, value: number | null): Observation => ({ ts, key: 'path_feedrate', value });
export const ping = (ts: EpochMs): Observation => ({ ts, key: 'heartbeat', value: null });
export const cycleSignal = (ts: EpochMs): Observation => ({ ts, key: 'cycle', value: null });
export const setupStart = (ts: EpochMs): Observation => ({ ts, key: 'setup', value: 'START' });
export const setupEnd = (ts: EpochMs): Observation => ({ ts, key: 'setup', value: 'END' });
export const disconnect = (ts: EpochMs): Observation => ({ ts, key: 'connection', value: 'DISCONNECTED' });
export const connect = (ts: EpochMs): Observation => ({ ts, key: 'connection', value: 'CONNECTED' });
export const condition = (
  ts: EpochMs,
  c: Partial<ConditionValue> & Pick<ConditionValue, 'level'>,
): Observation => ({
  ts,
  key: 'condition',
  value: { item: 'system', nativeCode: null, message: null, type: 'SYSTEM', ...c },
});

/** Heartbeats every 30 s over [fromS, toS) seconds, so tests of long periods do not time out. */
export function pings(fromS: number, toS: number): Observation[] {
  const out: Observation[] = [];
  for (let s = fromS; s < toS; s += 30) out.push(ping(at(s)));
  return out;
}
