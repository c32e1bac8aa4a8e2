import type { ObservationsTable } from './schema';
import type { Executor } from './scope';
import { insertRows, numberedPlaceholders } from './batch-insert';

// The one writer of the observations table: the gateway push (API) and the ingest worker both store machine
// data through these, with the batched prepared statements of batch-insert.ts.

/** Connection changes are stored with the observations under this key, so history can be re-derived. */
export const CONNECTION_KEY = '@connection';

/** One observation as stored. */
export type ObservationRow = ObservationsTable;

/** An SHDR condition's fields (the parser's condition value). */
export interface StoredCondition {
  level: string;
  nativeCode: string;
  nativeSeverity: string;
  qualifier: string;
  message: string;
}

/** Stored form of a condition: the SHDR condition fields, so a rebuild can read it back. */
export function conditionText(c: StoredCondition): string {
  return [c.level, c.nativeCode, c.nativeSeverity, c.qualifier, c.message].join('|');
}

/** One machine's observations as the parser made them (a condition is stored as conditionText). */
export interface MachineObservations {
  companyId: string;
  machineId: string;
  observations: ReadonlyArray<{
    ts: number;
    key: string;
    value: string | null;
    kind?: string;
    condition?: StoredCondition;
  }>;
}

const OBSERVATION_COLUMNS = ['company_id', 'machine_id', 'ts', 'key', 'value'] as const;
const putObservation = (p: unknown[], at: number, r: ObservationRow) => {
  p[at] = r.company_id;
  p[at + 1] = r.machine_id;
  p[at + 2] = r.ts;
  p[at + 3] = r.key;
  p[at + 4] = r.value;
};

/** Stores observations as received (pass the transaction they belong to). */
export async function insertObservations(trx: Executor, rows: readonly ObservationRow[]): Promise<void> {
  await insertRows(trx, numberedPlaceholders(trx), 'observations', OBSERVATION_COLUMNS, rows, putObservation);
}

/** Stores one machine's parsed observations without a row object each (replay: the hot path of a whole log). */
export async function insertMachineObservations(trx: Executor, m: MachineObservations): Promise<void> {
  await insertRows(
    trx,
    numberedPlaceholders(trx),
    'observations',
    OBSERVATION_COLUMNS,
    m.observations,
    (p, at, o) => {
      p[at] = m.companyId;
      p[at + 1] = m.machineId;
      p[at + 2] = o.ts;
      p[at + 3] = o.key;
      p[at + 4] = o.kind === 'condition' && o.condition ? conditionText(o.condition) : o.value;
    },
  );
}
