import type { ObservationsTable } from './schema';
import type { Executor } from './scope';
import { CompiledQuery } from 'kysely';
import {
  insertSizes,
  insertStatements,
  insertText,
  numberedPlaceholders,
  runStatements,
} from './batch-insert';
import { copyField, copyStatement } from './copy';
import { knownObservationIds, machineName, observationIds } from './observation-ids';

// The one writer of raw observations: the gateway push (API) and the ingest worker both store machine data through
// these, into the compact observation_rows (migration 0044, decision 1130; `observations` is the view readers
// read). PostgreSQL loads a batch with COPY (copy.ts), SQLite with the batched prepared statements of
// batch-insert.ts. Observations have no key of their own: exactly-once storage comes from the
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

/**
 * Fewer rows go by INSERT: COPY waits for the server's go-ahead before it sends the data (two round trips),
 * a multi-row INSERT is one, and a live batch of a few lines is latency, not throughput.
 */
const COPY_MIN_ROWS = 64;

/** PostgreSQL's columns (decision 1130): the heap partitioned by day on ts; ties keep their stored order. */
const PG_COLUMNS = ['ts', 'm', 'k', 'value'] as const;
const COPY_ROWS = copyStatement('observation_rows', PG_COLUMNS);
/** SQLite's: the WITHOUT ROWID key (m, ts, seq), seq numbering one machine's rows of one millisecond. */
const SQLITE_COLUMNS = ['m', 'ts', 'seq', 'k', 'value'] as const;

/** One observation in its stored form. */
interface Compact {
  m: number;
  ts: number;
  k: number;
  value: string | null;
  seq: number;
}

/** The rows' compact form, in the order given. */
async function compactRows<T>(
  trx: Executor,
  numbered: boolean,
  rows: readonly T[],
  machineOf: (r: T) => string,
  companyOf: (r: T) => string,
  keyOf: (r: T) => string,
  valueOf: (r: T) => string | null,
  tsOf: (r: T) => number,
): Promise<Compact[]> {
  const { names, keys } = namesOf(rows, machineOf, companyOf, keyOf);
  const ids = await observationIds(trx, numbered, new Set(names), keys);
  return compactOf(rows, names, ids, keyOf, valueOf, tsOf);
}

/**
 * Each row's machine name (a machine is its company and id: the same id under another company is another machine,
 * tenancy, decision 1130), and the keys.
 */
function namesOf<T>(
  rows: readonly T[],
  machineOf: (r: T) => string,
  companyOf: (r: T) => string,
  keyOf: (r: T) => string,
): { names: string[]; keys: Set<string> } {
  const names: string[] = new Array(rows.length);
  const keys = new Set<string>();
  for (let i = 0; i < rows.length; i++) {
    const r = rows[i] as T;
    names[i] = machineName(companyOf(r), machineOf(r));
    keys.add(keyOf(r));
  }
  return { names, keys };
}

function compactOf<T>(
  rows: readonly T[],
  names: readonly string[],
  ids: { machines: Map<string, number>; keys: Map<string, number> },
  keyOf: (r: T) => string,
  valueOf: (r: T) => string | null,
  tsOf: (r: T) => number,
): Compact[] {
  const out: Compact[] = new Array(rows.length);
  for (let i = 0; i < rows.length; i++) {
    const r = rows[i] as T;
    out[i] = {
      m: ids.machines.get(names[i]!)!,
      ts: tsOf(r),
      k: ids.keys.get(keyOf(r))!,
      value: valueOf(r),
      seq: 0,
    };
  }
  return out;
}

/** Numbers the rows of one machine and millisecond from `base(m, ts)` on, in their order. */
async function numberRows(rows: Compact[], base: (m: number, ts: number) => Promise<number> | number) {
  const next = new Map<string, number>();
  for (const r of rows) {
    const at = `${r.m} ${r.ts}`;
    let n = next.get(at);
    if (n === undefined) n = await base(r.m, r.ts);
    r.seq = n;
    next.set(at, n + 1);
  }
}

const isKeyConflict = (err: unknown) =>
  typeof err === 'object' &&
  err !== null &&
  (err as { code?: string }).code === 'SQLITE_CONSTRAINT_PRIMARYKEY';

/**
 * SQLite: the rows numbered from 0 for each machine and millisecond. A millisecond that already has rows (the
 * previous batch ended in it, or late data) makes a statement fail on the key, which changes nothing; the rows
 * from there on are numbered after the stored ones and written again.
 */
async function insertSqlite(trx: Executor, rows: Compact[]): Promise<void> {
  await numberRows(rows, () => 0);
  const width = SQLITE_COLUMNS.length;
  let i = 0;
  let renumbered = false;
  while (i < rows.length) {
    const sizes = insertSizes(rows.length - i, width, false);
    try {
      for (const n of sizes) {
        const params: unknown[] = new Array(n * width);
        for (let j = 0; j < n; j++) {
          const r = rows[i + j]!;
          const at = j * width;
          params[at] = r.m;
          params[at + 1] = r.ts;
          params[at + 2] = r.seq;
          params[at + 3] = r.k;
          params[at + 4] = r.value;
        }
        await trx.executeQuery(
          CompiledQuery.raw(insertText(false, 'observation_rows', SQLITE_COLUMNS, n, ''), params),
        );
        i += n;
      }
    } catch (err) {
      if (!isKeyConflict(err) || renumbered) throw err;
      renumbered = true;
      await numberRows(rows.slice(i), async (m, ts) => {
        const r = await trx.executeQuery<{ next: number }>(
          CompiledQuery.raw(
            'select coalesce(max(seq) + 1, 0) as next from observation_rows where m = ? and ts = ?',
            [m, ts],
          ),
        );
        return Number(r.rows[0]?.next ?? 0);
      });
    }
  }
}

async function insertCompact(trx: Executor, numbered: boolean, rows: Compact[]): Promise<void> {
  if (rows.length === 0) return;
  if (!numbered) return insertSqlite(trx, rows);
  await runStatements(trx, compactStatements(rows));
}

/** PostgreSQL's statement of compact rows: COPY for many, an INSERT for a few. */
function compactStatements(rows: readonly Compact[]): CompiledQuery[] {
  if (rows.length >= COPY_MIN_ROWS) {
    let data = '';
    for (const r of rows) data += `${r.ts}\t${r.m}\t${r.k}\t${copyField(r.value)}\n`;
    return [CompiledQuery.raw(COPY_ROWS, [data])];
  }
  return insertStatements(true, 'observation_rows', PG_COLUMNS, rows, (p, at, r) => {
    p[at] = r.ts;
    p[at + 1] = r.m;
    p[at + 2] = r.k;
    p[at + 3] = r.value;
  });
}

const OBSERVATION_ROW = {
  machineOf: (r: ObservationRow) => r.machine_id,
  companyOf: (r: ObservationRow) => r.company_id,
  keyOf: (r: ObservationRow) => r.key,
  valueOf: (r: ObservationRow) => r.value,
  tsOf: (r: ObservationRow) => r.ts,
};

/**
 * PostgreSQL, built before the transaction that runs them (decision 1177): the statements storing `rows` as
 * insertObservations does, when the dictionaries' ids of their machines and keys are all known to this handle; null
 * when one is not (insertObservations, in the transaction, then reads or makes it), and on SQLite (whose insert
 * numbers the rows of a millisecond from what it finds stored).
 */
export function observationStatements(db: Executor, rows: readonly ObservationRow[]): CompiledQuery[] | null {
  if (!numberedPlaceholders(db)) return null;
  if (rows.length === 0) return [];
  const { machineOf, companyOf, keyOf, valueOf, tsOf } = OBSERVATION_ROW;
  const { names, keys } = namesOf(rows, machineOf, companyOf, keyOf);
  const ids = knownObservationIds(db, names, keys);
  return ids && compactStatements(compactOf(rows, names, ids, keyOf, valueOf, tsOf));
}

/** Stores observations as received (pass the transaction they belong to). */
export async function insertObservations(trx: Executor, rows: readonly ObservationRow[]): Promise<void> {
  if (rows.length === 0) return;
  const numbered = numberedPlaceholders(trx);
  const { machineOf, companyOf, keyOf, valueOf, tsOf } = OBSERVATION_ROW;
  const compact = await compactRows(trx, numbered, rows, machineOf, companyOf, keyOf, valueOf, tsOf);
  await insertCompact(trx, numbered, compact);
}

/** Stores one machine's parsed observations (replay: the hot path of a whole log). */
export async function insertMachineObservations(trx: Executor, m: MachineObservations): Promise<void> {
  if (m.observations.length === 0) return;
  const numbered = numberedPlaceholders(trx);
  const compact = await compactRows(
    trx,
    numbered,
    m.observations,
    () => m.machineId,
    () => m.companyId,
    (o) => o.key,
    (o) => (o.kind === 'condition' && o.condition ? conditionText(o.condition) : o.value),
    (o) => o.ts,
  );
  await insertCompact(trx, numbered, compact);
}
