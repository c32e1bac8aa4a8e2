import { epochMs } from '@takt/domain';
import type { Observation as DomainObservation } from '@takt/domain';
import type { Observation as RawObservation } from '../sources/shdr/shdr';
import type { FieldMeaning } from '../sources/source';

// One raw observation resolved to the domain engine's input (split from pipeline.ts, decision 1208).

const num = (v: string | null): number | null => {
  if (v == null) return null;
  const n = Number(v);
  return Number.isFinite(n) ? n : null;
};

/**
 * Resolve one raw observation (an SHDR, MQTT or agent key) to the domain engine's input through the
 * adapter's field mapping. Keys the mapping does not know are stored but not derived from.
 */
export function toDomainObservation(
  o: RawObservation,
  field: FieldMeaning | undefined,
  ts: number,
): DomainObservation | null {
  const at = epochMs(ts);
  if (o.kind === 'condition' && o.condition) {
    return {
      ts: at,
      key: 'condition',
      value: {
        item: o.key,
        level: o.condition.level,
        nativeCode: o.condition.nativeCode || null,
        message: o.condition.message || null,
        type: field?.type ?? null,
      },
    };
  }
  if (!field || o.kind !== 'value') return null;
  switch (field.type.toUpperCase()) {
    case 'EXECUTION':
      return { ts: at, key: 'execution', value: o.value?.toUpperCase() ?? null };
    case 'AVAILABILITY':
      // The source saying it has no availability value is the device being UNAVAILABLE (METRICS.md §1), as
      // an agent reports every item of a device whose adapter it lost.
      return { ts: at, key: 'availability', value: o.value?.toUpperCase() ?? 'UNAVAILABLE' };
    case 'CONTROLLER_MODE':
      return { ts: at, key: 'controller_mode', value: o.value };
    case 'PART_COUNT':
      return { ts: at, key: 'part_count', value: num(o.value) };
    case 'PROGRAM':
      // MTConnect PROGRAM subType ACTIVE is the program running now (a sub-program when nested).
      return {
        ts: at,
        key: field.subType?.toUpperCase() === 'ACTIVE' ? 'subprogram' : 'program',
        value: o.value,
      };
    case 'SUB_PROGRAM':
      return { ts: at, key: 'subprogram', value: o.value };
    case 'ROTARY_VELOCITY':
    case 'SPINDLE_SPEED':
      return { ts: at, key: 'spindle_speed', value: num(o.value) };
    case 'PATH_FEEDRATE':
      return { ts: at, key: 'path_feedrate', value: num(o.value) };
    default:
      return null;
  }
}
