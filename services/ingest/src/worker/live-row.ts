import type { CompiledQuery } from 'kysely';
import type { MachineLiveTable } from '@takt/db';
import { insertStatements } from '@takt/db';

/**
 * A live row whose only change is its last heartbeat is written once the heartbeat moved this far from the one
 * stored (decision 1145): a connected machine that sends nothing the tile shows (or only its PONGs) costs a row
 * update every 10 s, not one per batch and tick. The heartbeat rules read it against 2 and 5 minutes (spec
 * live-operations: link lost after 5 minutes without one).
 */
export const LIVE_HEARTBEAT_MS = 10_000;

/** Not compared as the others: the key, the heartbeat (above) and updated_at (when the row was written: nobody reads it). */
const NOT_COMPARED: ReadonlySet<string> = new Set(['machine_id', 'last_heartbeat', 'updated_at']);

/**
 * Whether `row` must be written over `stored` (the row this worker last wrote for the machine, undefined when it
 * wrote none): a column a reader sees changed, or the heartbeat appeared, went, or moved by LIVE_HEARTBEAT_MS.
 */
export function liveChanged(stored: MachineLiveTable | undefined, row: MachineLiveTable): boolean {
  if (!stored) return true;
  for (const c of Object.keys(row) as Array<keyof MachineLiveTable>)
    if (!NOT_COMPARED.has(c) && stored[c] !== row[c]) return true;
  const a = stored.last_heartbeat;
  const b = row.last_heartbeat;
  if (a == null || b == null) return a !== b;
  return Math.abs(b - a) >= LIVE_HEARTBEAT_MS;
}

const LIVE_COLUMNS = [
  'machine_id',
  'company_id',
  'state',
  'state_since',
  'connection',
  'connection_since',
  'last_heartbeat',
  'execution',
  'execution_since',
  'availability',
  'controller_mode',
  'program',
  'part_count',
  'spindle_speed',
  'fault_since',
  'fault_message',
  'in_setup',
  'updated_at',
] as const satisfies ReadonlyArray<keyof MachineLiveTable>;
// Every column of machine_live is written: a column added to the table and not to the list fails to compile.
const LIVE_COLUMNS_COMPLETE: Exclude<keyof MachineLiveTable, (typeof LIVE_COLUMNS)[number]> extends never
  ? true
  : never = true;
void LIVE_COLUMNS_COMPLETE;
/** The PostgreSQL types of LIVE_COLUMNS, in their order (one array a column, decision 1165). */
const LIVE_TYPES = [
  'text',
  'text',
  'text',
  'bigint',
  'text',
  'bigint',
  'bigint',
  'text',
  'bigint',
  'text',
  'text',
  'text',
  'bigint',
  'float8',
  'bigint',
  'text',
  'int',
  'bigint',
] as const satisfies { length: (typeof LIVE_COLUMNS)['length'] };
/** The upsert's tail: every column but the key (machine_id, company_id) takes the new row's value. */
const LIVE_ON_CONFLICT = `on conflict ("machine_id", "company_id") do update set ${LIVE_COLUMNS.slice(2)
  .map((c) => `"${c}" = excluded."${c}"`)
  .join(', ')}`;

/**
 * The machines' live rows, a multi-row upsert per chunk (one statement, not one a machine: on PostgreSQL each
 * is a round trip). A machine's later row wins: one statement may not touch a row twice.
 */
export function liveStatements(numbered: boolean, live: readonly MachineLiveTable[]): CompiledQuery[] {
  // By company and machine: the same machine id under another company is another machine (decision 1190).
  const rows = [...new Map(live.map((r) => [`${r.company_id}\u0000${r.machine_id}`, r])).values()];
  return insertStatements(
    numbered,
    'machine_live',
    LIVE_COLUMNS,
    rows,
    (params, at, row) => {
      for (let c = 0; c < LIVE_COLUMNS.length; c++) params[at + c] = row[LIVE_COLUMNS[c]!];
    },
    LIVE_ON_CONFLICT,
    LIVE_TYPES,
  );
}
