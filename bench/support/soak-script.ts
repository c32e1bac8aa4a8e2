// The soak's script as a pipeline hears it, for the benchmarks that run pipelines without adapters
// (pipeline-memory.ts, pipeline-cpu.ts): the adapters' field mapping and machine `i`'s line at second `s`.
import type { FieldMeaning } from '../../services/ingest/src/worker/pipeline';
import type { Observation } from '../../services/ingest/src/sources/shdr/shdr';
import { scriptValues } from '../../tests/multihost/adapters';

export const T0 = Date.UTC(2026, 10, 2, 6);

export const FIELDS: ReadonlyMap<string, FieldMeaning> = new Map([
  ['execution', { type: 'EXECUTION', subType: null }],
  ['part_count', { type: 'PART_COUNT', subType: null }],
  ['program', { type: 'PROGRAM', subType: null }],
  ['path_feedrate', { type: 'PATH_FEEDRATE', subType: null }],
  ['avail', { type: 'AVAILABILITY', subType: null }],
]);

/**
 * One line of machine `i` at second `s` (the script of tests/multihost/adapters.ts): a feed rate and a new program
 * every line, the execution and part count every fourth.
 */
export function line(i: number, s: number): Observation[] {
  const ts = T0 + s * 1000;
  const values = scriptValues(i, s);
  const out: Observation[] = [
    { ts, key: 'path_feedrate', value: values.path_feedrate!, kind: 'value' },
    { ts, key: 'program', value: values.program!, kind: 'value' },
  ];
  if ((s + i) % 4 === 0)
    out.push(
      { ts, key: 'execution', value: values.execution!, kind: 'value' },
      { ts, key: 'part_count', value: values.part_count!, kind: 'value' },
    );
  return out;
}
