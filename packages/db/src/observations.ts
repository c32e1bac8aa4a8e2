import type { ObservationsTable } from './schema';
import type { Executor } from './scope';
import { CompiledQuery } from 'kysely';
import { insertRows, numberedPlaceholders } from './batch-insert';
import { copyField, copyStatement } from './copy';

// The one writer of the observations table: the gateway push (API) and the ingest worker both store machine
// data through these. PostgreSQL loads a batch with COPY (copy.ts), SQLite with the batched prepared
// statements of batch-insert.ts. Observations have no key of their own: exactly-once storage comes from the
// caller's transaction, which stores them together with what marks them done (the inbox rows it deletes, the
// gateway sequence it acknowledges, the agent position it saves), so COPY keeps that guarantee as INSERT did.

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
const COPY_OBSERVATIONS = copyStatement('observations', OBSERVATION_COLUMNS);

/**
 * Fewer rows go by INSERT: COPY waits for the server's go-ahead before it sends the data (two round trips),
 * a multi-row INSERT is one, and a live batch of a few lines is latency, not throughput.
 */
const COPY_MIN_ROWS = 64;

/** The rows in COPY's text format, built by `line` (one row each, tab-separated, ending in a line break). */
async function copyObservations<T>(
  trx: Executor,
  rows: readonly T[],
  line: (row: T) => string,
): Promise<void> {
  let data = '';
  for (const r of rows) data += line(r);
  await trx.executeQuery(CompiledQuery.raw(COPY_OBSERVATIONS, [data]));
}

/** Stores observations as received (pass the transaction they belong to). */
export async function insertObservations(trx: Executor, rows: readonly ObservationRow[]): Promise<void> {
  if (rows.length >= COPY_MIN_ROWS && numberedPlaceholders(trx)) {
    await copyObservations(
      trx,
      rows,
      (r) =>
        `${copyField(r.company_id)}\t${copyField(r.machine_id)}\t${copyField(r.ts)}\t${copyField(r.key)}\t${copyField(r.value)}\n`,
    );
    return;
  }
  await insertRows(trx, numberedPlaceholders(trx), 'observations', OBSERVATION_COLUMNS, rows, putObservation);
}

/** Stores one machine's parsed observations without a row object each (replay: the hot path of a whole log). */
export async function insertMachineObservations(trx: Executor, m: MachineObservations): Promise<void> {
  if (m.observations.length >= COPY_MIN_ROWS && numberedPlaceholders(trx)) {
    const machine = `${copyField(m.companyId)}\t${copyField(m.machineId)}\t`;
    await copyObservations(
      trx,
      m.observations,
      (o) =>
        `${machine}${copyField(o.ts)}\t${copyField(o.key)}\t${copyField(o.kind === 'condition' && o.condition ? conditionText(o.condition) : o.value)}\n`,
    );
    return;
  }
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
