import { CompiledQuery } from 'kysely';
import type { Kysely } from 'kysely';
import type { Database, MachineLiveTable, MachineObservations, ObservationRow } from '@takt/db';
import {
  insertMachineObservations,
  insertObservations,
  insertStatements,
  knownObservationIds,
  machineName,
  joinable,
  liveFactsMarked,
  numberedPlaceholders,
  observationIds,
  oneMessage,
  observationStatements,
  pgArray,
  runStatements,
  sqlStatement,
} from '@takt/db';
import type { DerivationResult } from '@takt/domain';
import { markRollupsDirtyStatements } from '@takt/db/rollups';
import { narrowStatements } from './store-narrow';
import { cycleStatements } from './store-cycles';
import type { DerivedSkip } from './derived-memory';
import { sourceStatsStatements } from './source-stats-store';
import { liveStatements } from './live-row';

// Ingest writes for every company, so it takes the bare database and sets company_id on each row itself.

export * from './store-reads';

// Observations are written by @takt/db's one writer (observations.ts); these names stay ingest's API.
export type { MachineObservations, ObservationRow } from '@takt/db';
export { conditionText } from '@takt/db';

export interface SourceStats {
  sourceId: string;
  lines: number;
  observations: number;
  /** rejected lines (stat_rejected): a line with any rejected token, or dropped whole, counts once */
  rejected: number;
  lastLineAt: number | null;
}

export interface IngestBatch {
  /** The worker's clock when the batch was built (marks dirty rollups). */
  now?: number;
  observations: ObservationRow[];
  /**
   * Observations of one machine as the parser made them, written without a row object each (replay: the
   * hot path of a whole log). A condition is stored as its SHDR fields (conditionText).
   */
  machineObservations?: MachineObservations[];
  /** Inbox lines derived in this batch: removed in the same transaction, so a crash repeats, never loses. */
  inboxDone?: string[];
  /** Agent positions reached by this batch's observations, saved with them. */
  agentPositions?: Array<{ sourceId: string; instanceId: string; nextSequence: number }>;
  derived: DerivedWrite[];
  live: MachineLiveTable[];
  stats: SourceStats[];
}

// The hot writes of ingest (bench/ingest-insert.ts measures them) go through @takt/db's batched prepared
// statements (batch-insert.ts), not the query builder; the live rows' are in live-row.ts.

/**
 * One of a batch's steps, made before its transaction begins (decision 1177): a statement built whole, or (only when
 * an id it needs is not known yet: a new machine or key) work that reads or makes it in the transaction first.
 */
type Step = CompiledQuery | ((trx: Kysely<Database>) => Promise<void>);

async function runSteps(trx: Kysely<Database>, steps: readonly Step[]): Promise<void> {
  for (const s of steps) await (typeof s === 'function' ? s(trx) : trx.executeQuery(s));
}

/**
 * PostgreSQL (decision 1194): the steps in order, each run of statements that can go together sent as one message
 * (one round trip: at 1,000 machines a batch's dozen statements each waited for the server's turn on a busy host);
 * a COPY or a step that reads first (a new machine's ids) between them is run alone.
 */
async function runJoined(trx: Kysely<Database>, steps: readonly Step[]): Promise<void> {
  let run: CompiledQuery[] = [];
  const send = async () => {
    if (run.length > 0) await trx.executeQuery(oneMessage(run));
    run = [];
  };
  for (const s of steps) {
    if (typeof s !== 'function' && joinable(s)) {
      run.push(s);
      continue;
    }
    await send();
    await (typeof s === 'function' ? s(trx) : trx.executeQuery(s));
  }
  await send();
}

const JIT_OFF = CompiledQuery.raw('set local jit = off');
const BEGIN = CompiledQuery.raw('begin');
const COMMIT = CompiledQuery.raw('commit');
const ROLLBACK = CompiledQuery.raw('rollback');

/**
 * Write one batch in one transaction: observations, the derived records that changed, the live rows and the
 * per-source counters. Either all of it is stored or none. Every statement, its text and its parameters (arrays in
 * their text form), is built before the transaction begins, so the transaction sends them one after the other while
 * it holds its locks, the node doing nothing between them but read each answer (decision 1177).
 */
export async function writeBatch(
  db: Kysely<Database>,
  batch: IngestBatch,
  /**
   * Run first in the transaction, before the batch's own statements (after its leading COPY on PostgreSQL): a
   * statement that fails stores nothing (several nodes: the lease fence, decision 1199; the setup marks cleared).
   */
  lead: readonly CompiledQuery[] = [],
  /** What this writer knows it stored unchanged (decision 1169). */
  skip?: DerivedSkip,
): Promise<void> {
  const numbered = numberedPlaceholders(db);
  const steps = batchSteps(db, numbered, batch, skip);
  if (!numbered) {
    await db.transaction().execute(async (trx) => {
      await runStatements(trx, lead);
      await runSteps(trx, steps);
    });
    return;
  }
  // PostgreSQL compiles a statement it guesses to be large (a batch's statements over a thousand machines) to
  // machine code first, which took longer than running it: never for a batch's small writes (decision 1122). Set
  // after the COPYs that lead (they plan nothing), so it goes in one message with the statements after them. The
  // transaction's begin and commit go in the messages too (decision 1199): a batch without a COPY or a read is one
  // round trip, one with a COPY three (begin, the COPY's two, the rest and the commit). A failed statement stops
  // the message before its commit; the transaction is then rolled back here. `liveFactsMarked` (decision 1234): the
  // batch marks every machine it writes facts for (batchSteps' rollup marks of batch.derived), so migration 0074's
  // triggers on the fact tables skip its rows.
  const at = steps.findIndex((s) => typeof s === 'function' || joinable(s));
  const copies = at < 0 ? steps : steps.slice(0, at);
  const rest = at < 0 ? [] : steps.slice(at);
  // A step that reads first (a new machine's or key's ids) keeps the ids it makes as the transaction's until a later
  // one sees them (observation-ids.ts): it runs in a transaction of Kysely's (a machine's first batches only).
  if (steps.some((s) => typeof s === 'function')) {
    await db
      .transaction()
      .execute((trx) => runJoined(trx, [...copies, JIT_OFF, liveFactsMarked, ...lead, ...rest]));
    return;
  }
  await db.connection().execute(async (conn) => {
    try {
      await runJoined(conn, [BEGIN, ...copies, JIT_OFF, liveFactsMarked, ...lead, ...rest, COMMIT]);
    } catch (err) {
      await conn.executeQuery(ROLLBACK).catch(() => {});
      throw err;
    }
  });
}

/** A batch's steps in the order they run. */
function batchSteps(db: Kysely<Database>, numbered: boolean, batch: IngestBatch, skip?: DerivedSkip): Step[] {
  const steps: Step[] = observationStatements(db, batch.observations) ?? [
    (trx) => insertObservations(trx, batch.observations),
  ];
  for (const m of batch.machineObservations ?? []) steps.push((trx) => insertMachineObservations(trx, m));
  const done = batch.inboxDone ?? [];
  for (let i = 0; i < done.length; i += 500)
    steps.push(
      db
        .deleteFrom('ingest_inbox')
        .where('id', 'in', done.slice(i, i + 500))
        .compile(),
    );
  for (const p of batch.agentPositions ?? [])
    steps.push(
      sqlStatement(
        numbered,
        'update "machine_sources" set "agent_instance_id" = ?, "agent_next_sequence" = ? where "id" = ?',
        [p.instanceId, p.nextSequence, p.sourceId],
      ),
    );
  steps.push(...derivedSteps(db, numbered, batch.derived, skip));
  // The rollup worker recomputes reports' buckets from here (late data included).
  steps.push(
    ...markRollupsDirtyStatements(
      db,
      batch.derived.map((d) => ({
        companyId: d.companyId,
        machineId: d.machineId,
        from: d.from,
        now: batch.now ?? d.from,
      })),
    ),
  );
  steps.push(...liveStatements(numbered, batch.live));
  steps.push(...sourceStatsStatements(numbered, batch.stats));
  return steps;
}

export interface DerivedWrite {
  companyId: string;
  machineId: string;
  /** Every stored record ending at or after this time (and every open one) is replaced. */
  from: number;
  result: DerivationResult;
  /** A new worker's first write: open records end here, and records starting at or after it are replaced. */
  takeOverAt?: number;
}

// Program intervals, flag spans and state intervals are stored narrow (store-narrow.ts, decisions 1161, 1171, 1180).
// Cycles are stored narrow too (store-cycles.ts, decision 1182).
const DERIVED_TABLES = ['faults'] as const;

const openEnd = (r: { end: number; open?: boolean }) => (r.open ? null : r.end);

/** The columns each derived table's rows are written with, after company_id and machine_id. */
const DERIVED_COLUMNS: Record<string, readonly string[]> = {
  faults: ['item', 'start_at', 'end_at', 'value', 'nativecode', 'type'],
};

/** The PostgreSQL types of company_id, machine_id and each table's DERIVED_COLUMNS (decision 1165). */
const DERIVED_TYPES: Record<string, readonly string[]> = {
  faults: ['text', 'text', 'text', 'bigint', 'bigint', 'text', 'text', 'text'],
};

/** Each write's new rows of each derived table: the values of DERIVED_COLUMNS, with the write they belong to. */
export function derivedRows(
  writes: readonly DerivedWrite[],
): Record<string, Array<{ w: DerivedWrite; values: unknown[] }>> {
  const rowsOf = <T>(
    pick: (w: DerivedWrite) => readonly T[],
    values: (row: T, w: DerivedWrite) => unknown[],
  ) => writes.flatMap((w) => pick(w).map((row) => ({ w, values: values(row, w) })));
  const keep = <T extends { end: number; open?: boolean }>(w: DerivedWrite, rows: readonly T[]) =>
    rows.filter((r) => r.open || r.end >= w.from);
  return {
    state_intervals: rowsOf(
      (w) => keep(w, w.result.intervals),
      (i) => [i.start, openEnd(i), i.state, i.reason],
    ),
    cycles: rowsOf(
      (w) => w.result.cycles.filter((c) => c.end >= w.from),
      (c) => [c.start, c.end, c.duration, c.count, c.source, c.setup ? 1 : 0],
    ),
    program_intervals: rowsOf(
      (w) => [
        ...keep(w, w.result.programs).map((p) => ({ p, sub: 0 })),
        ...keep(w, w.result.subprograms).map((p) => ({ p, sub: 1 })),
      ],
      ({ p, sub }) => [sub, p.start, openEnd(p), p.name],
    ),
    faults: rowsOf(
      (w) => keep(w, w.result.faults),
      (f) => [f.item, f.start, openEnd(f), f.value, f.nativecode, f.type],
    ),
    // Spans have no open flag: one reaching the machine's `now` may still grow, so store it open.
    flag_spans: rowsOf(
      (w) => [
        ...w.result.spindle.filter((s) => s.end >= w.from).map((s) => ({ s, kind: 'spindle' as const })),
        ...w.result.inCut.filter((s) => s.end >= w.from).map((s) => ({ s, kind: 'incut' as const })),
      ],
      ({ s, kind }, w) => {
        const now = w.result.current.lastHeartbeat ?? 0;
        return [kind, s.start, s.end >= now && now > 0 ? null : s.end];
      },
    ),
  };
}

/**
 * Replace a machine's derived records from `from` on with the engine's latest result (late data,
 * ARCHITECTURE.md "Ingest contract"):
 * state intervals, cycles, programs and sub-programs, faults, spindle and in-cut spans.
 */
export async function writeDerived(trx: Kysely<Database>, w: DerivedWrite): Promise<void> {
  await writeDerivedMany(trx, numberedPlaceholders(trx), [w]);
}

/**
 * writeDerived for every machine of a batch: the replaced records deleted (per table, one statement for all
 * the machines on PostgreSQL), then each table's new rows of all the machines in multi-row INSERTs. Per machine,
 * a dozen statements each a round trip made PostgreSQL ingest fall behind at 1,000 machines (decision 0976).
 * On PostgreSQL a stored record with a new row's key is not deleted: the INSERT's upsert gives it the new values,
 * or leaves it alone when it has them, so a batch writes only the records it changed (decision 1149).
 */
export async function writeDerivedMany(
  trx: Kysely<Database>,
  numbered: boolean,
  writes: readonly DerivedWrite[],
  /** Writes whose delete can remove nothing, and their rows stored as they are (decision 1169): not sent. */
  skip?: DerivedSkip,
): Promise<void> {
  await runSteps(trx, derivedSteps(trx, numbered, writes, skip));
}

/** writeDerivedMany's steps, built before the transaction (decision 1177). */
function derivedSteps(
  db: Kysely<Database>,
  numbered: boolean,
  writes: readonly DerivedWrite[],
  skip?: DerivedSkip,
): Step[] {
  if (writes.length === 0) return [];
  // A machine twice (not sent by the batch writer): one write after the other, as each replaces the last.
  if (new Set(writes.map((w) => w.machineId)).size < writes.length)
    return writes.flatMap((w) => derivedSteps(db, numbered, [w], skip));
  const out: Step[] = [];
  const newRows = unsent(skip ? skip.rowsOf(writes) : derivedRows(writes), skip);
  const takeOvers = writes.filter((w) => w.takeOverAt != null);
  const replaced = writes.filter((w) => w.takeOverAt == null && !skip?.clean.has(w));
  if (numbered) {
    // PostgreSQL: one statement per table and kind for all the machines (unnest pairs each machine with its
    // time). A new run's first write: open records end at its start, records from it on are replaced.
    const unnest = (ws: readonly DerivedWrite[], at: (w: DerivedWrite) => number) => [
      ws.map((w) => w.machineId),
      ws.map(at),
    ];
    const using = 'using unnest($1::text[], $2::bigint[]) as d(machine_id, at)';
    const statement = (text: string, params: unknown[][]) => {
      out.push(CompiledQuery.raw(text, params.map(pgArray)));
    };
    if (takeOvers.length > 0) {
      const params = unnest(takeOvers, (w) => w.takeOverAt!);
      for (const table of DERIVED_TABLES) {
        statement(
          `delete from "${table}" as t ${using} where t."machine_id" = d.machine_id and t."start_at" >= d.at`,
          params,
        );
        statement(
          `update "${table}" as t set "end_at" = d.at from unnest($1::text[], $2::bigint[]) as d(machine_id, at) ` +
            'where t."machine_id" = d.machine_id and t."end_at" is null',
          params,
        );
      }
    }
    // Taking over already cleared everything from `at` on; the records it closed at `at` stay.
    if (replaced.length > 0) {
      // Each machine's records are found through its (machine_id, end_at) index, one machine after the other (a
      // lateral subquery the planner keeps): joined whole, the planner hashed every machine's whole history at
      // every batch, so a batch cost more the longer the plant ran. The open records are a plain index scan of their
      // own, which marks the entries of the open rows earlier batches replaced as dead (a bitmap scan would visit
      // them all again at every batch until a vacuum; decision 1122).
      const params = unnest(replaced, (w) => w.from);
      // Faults have no key: every one in the range is deleted and the batch's inserted again. (The tables whose
      // records keep their key and are rewritten only when they changed, decision 1149, are stored narrow.)
      const replace = (table: string, endings: string[]) =>
        statement(
          `delete from "${table}" where ctid = any(array(select x.ctid from unnest($1::text[], $2::bigint[]) ` +
            'as d(machine_id, at) cross join lateral (' +
            endings
              .map((e) => `select t.ctid from "${table}" as t where t."machine_id" = d.machine_id and ${e}`)
              .join(' union all ') +
            ' offset 0) as x))',
          params,
        );
      for (const table of DERIVED_TABLES) replace(table, ['t."end_at" >= d.at', 't."end_at" is null']);
    }
  } else {
    // SQLite: in-process, a prepared statement a machine costs no round trip.
    for (const w of takeOvers) {
      const at = w.takeOverAt!;
      for (const table of DERIVED_TABLES) {
        out.push(
          sqlStatement(numbered, `delete from "${table}" where "machine_id" = ? and "start_at" >= ?`, [
            w.machineId,
            at,
          ]),
        );
        out.push(
          sqlStatement(
            numbered,
            `update "${table}" set "end_at" = ? where "machine_id" = ? and "end_at" is null`,
            [at, w.machineId],
          ),
        );
      }
    }
    for (const w of replaced) {
      for (const table of DERIVED_TABLES)
        out.push(
          sqlStatement(
            numbered,
            `delete from "${table}" where "machine_id" = ? and ("end_at" is null or "end_at" >= ?)`,
            [w.machineId, w.from],
          ),
        );
    }
  }

  out.push(...narrowStep(db, numbered, takeOvers, replaced, [...(skip?.clean ?? [])], newRows));
  for (const table of DERIVED_TABLES)
    out.push(
      ...insertStatements(
        numbered,
        table,
        ['company_id', 'machine_id', ...DERIVED_COLUMNS[table]!],
        newRows[table]!,
        (params, at, r) => {
          params[at] = r.w.companyId;
          params[at + 1] = r.w.machineId;
          for (let i = 0; i < r.values.length; i++) params[at + 2 + i] = r.values[i];
        },
        '',
        DERIVED_TYPES[table],
      ),
    );
  return out;
}

/**
 * The narrow tables' statements (store-narrow.ts) and the cycles' (store-cycles.ts), built now when this handle knows
 * the dictionary id of every machine they write for; else (a machine's first batches) in the transaction, once the
 * ids are read or made there.
 */
function narrowStep(
  db: Kysely<Database>,
  numbered: boolean,
  takeOvers: readonly DerivedWrite[],
  replaced: readonly DerivedWrite[],
  clean: readonly DerivedWrite[],
  newRows: ReturnType<typeof derivedRows>,
): Step[] {
  const writes = [...takeOvers, ...replaced, ...clean];
  const names = new Set(writes.map((w) => machineName(w.companyId, w.machineId)));
  const build = (machines: ReadonlyMap<string, number>) => {
    const mOf = (w: DerivedWrite) => machines.get(machineName(w.companyId, w.machineId))!;
    return [
      ...narrowStatements(numbered, takeOvers, replaced, (t) => newRows[t.view]!, mOf),
      ...cycleStatements(numbered, takeOvers, replaced, newRows.cycles!, mOf),
    ];
  };
  const known = knownObservationIds(db, names, [])?.machines;
  if (known) return build(known);
  return [
    async (trx) => {
      const { machines } = await observationIds(trx, numbered, names, []);
      await runStatements(trx, build(machines));
    },
  ];
}

/** The rows to send: all, but a clean write's rows stored as they are (decision 1169). */
function unsent(rows: ReturnType<typeof derivedRows>, skip?: DerivedSkip): ReturnType<typeof derivedRows> {
  if (!skip || skip.clean.size === 0) return rows;
  const out: ReturnType<typeof derivedRows> = {};
  for (const [table, of] of Object.entries(rows)) out[table] = of.filter((r) => !skip.unchanged.has(r));
  return out;
}
