import type { DerivedWrite } from './store';
import { derivedRows } from './store';
import { FLAGS, PROGRAMS, STATES, narrowKey } from './store-narrow';

// What this writer stored last for each machine's derived records (decision 1169). After a committed write of a
// machine from time f, its stored records ending at or after f and its open ones are exactly the write's rows (the
// replace deleted the others, the upsert gave the kept keys the new values). A later write from f' >= f by the same
// pipeline can then be checked in memory: when each such record in its range has the key of one of its new rows, the
// delete would remove nothing and is not sent, and a new row equal to the stored one is not sent either (its upsert
// would leave it as it was). Anything that may make the database differ from this memory forgets it: a take-over, a
// new pipeline (a rebuild, a new lease's link), a batch that did not commit, a write of more rows than remembered.

/** A write's rows by table, by key: their values and where they end (null: open). */
type Rows = Map<string, Map<string, { json: string; end: unknown }>>;

/** A derived table's row key (its primary key after the machine) and the index of its end in the row's values. */
const KEYS: Record<string, { key: (v: readonly unknown[]) => string | null; end: number }> = {
  // Faults have no key: any stored in the range has to be deleted.
  faults: { key: () => null, end: 2 },
  cycles: { key: (v) => String(v[1]), end: 1 },
  // An open program (span) is program_open's (flag_open's) row of the machine and sub (kind); a closed one
  // program_rows' (flag_rows') by sub (kind) and start.
  program_intervals: { key: (v) => narrowKey(PROGRAMS, v), end: PROGRAMS.end },
  flag_spans: { key: (v) => narrowKey(FLAGS, v), end: FLAGS.end },
  // The open state is state_open's row of the machine, a closed one state_rows' by start (decision 1180).
  state_intervals: { key: (v) => narrowKey(STATES, v), end: STATES.end },
};

/** A machine with more rows in one write than this is not remembered (late data, a long backlog). */
const MOST_ROWS = 256;

type DerivedRows = ReturnType<typeof derivedRows>;

/** What a batch may leave out: the writes whose delete is not sent, and their rows stored as they are. */
export interface DerivedSkip {
  clean: ReadonlySet<DerivedWrite>;
  /** The clean writes' rows equal to those stored (objects of `rowsOf`'s answer for the planned writes). */
  unchanged: ReadonlySet<DerivedRows[string][number]>;
  /** The writes' rows: those the plan derived when `writes` are the planned ones, else derived again. */
  rowsOf: (writes: readonly DerivedWrite[]) => DerivedRows;
}

export interface DerivedPlan {
  skip: DerivedSkip;
  remember: Array<{ machineId: string; owner: object; from: number; rows: Rows }>;
}

const inRange = (end: unknown, from: number) => end == null || Number(end) >= from;

export class DerivedMemory {
  private readonly stored = new Map<string, { owner: object; from: number; rows: Rows }>();

  /** The skip of a batch's writes, each with the pipeline that made it; nothing is remembered until `committed`. */
  plan(entries: ReadonlyArray<{ write: DerivedWrite; owner: object }>): DerivedPlan {
    const all = derivedRows(entries.map((e) => e.write));
    const jsonOf = new Map<DerivedRows[string][number], string>();
    const byWrite = new Map<DerivedWrite, Rows>();
    const unusable = new Set<DerivedWrite>();
    const counts = new Map<DerivedWrite, number>();
    for (const [table, rows] of Object.entries(all)) {
      const k = KEYS[table]!;
      for (const r of rows) {
        const tables = byWrite.get(r.w) ?? new Map<string, Map<string, { json: string; end: unknown }>>();
        byWrite.set(r.w, tables);
        const of = tables.get(table) ?? new Map<string, { json: string; end: unknown }>();
        tables.set(table, of);
        const key = k.key(r.values) ?? `#${of.size}`;
        // A key twice in one write: the engine makes none; not remembered rather than reasoned about.
        if (of.has(key)) unusable.add(r.w);
        const json = JSON.stringify(r.values);
        jsonOf.set(r, json);
        of.set(key, { json, end: r.values[k.end] });
        counts.set(r.w, (counts.get(r.w) ?? 0) + 1);
      }
    }
    const machines = entries.map((e) => e.write.machineId);
    const twice = new Set(machines.filter((m, i) => machines.indexOf(m) !== i));
    const clean = new Set<DerivedWrite>();
    const before = new Map<DerivedWrite, Rows>();
    const remember: DerivedPlan['remember'] = [];
    for (const { write: w, owner } of entries) {
      const rows = byWrite.get(w) ?? new Map<string, Map<string, { json: string; end: unknown }>>();
      if (
        w.takeOverAt != null ||
        twice.has(w.machineId) ||
        unusable.has(w) ||
        (counts.get(w) ?? 0) > MOST_ROWS
      ) {
        remember.push({ machineId: w.machineId, owner: FORGET, from: w.from, rows });
        continue;
      }
      remember.push({ machineId: w.machineId, owner, from: w.from, rows });
      const last = this.stored.get(w.machineId);
      if (last && last.owner === owner && w.from >= last.from && nothingToDelete(last.rows, rows, w.from)) {
        clean.add(w);
        before.set(w, last.rows);
      }
    }
    const unchanged = new Set<DerivedRows[string][number]>();
    for (const [table, rows] of Object.entries(all))
      for (const r of rows) {
        const last = before.get(r.w);
        const k = last && KEYS[table]!.key(r.values);
        if (k != null && last!.get(table)?.get(k)?.json === jsonOf.get(r)) unchanged.add(r);
      }
    const planned = entries.map((e) => e.write);
    const same = (writes: readonly DerivedWrite[]) =>
      writes.length === planned.length && writes.every((w, i) => w === planned[i]);
    return {
      skip: { clean, unchanged, rowsOf: (writes) => (same(writes) ? all : derivedRows(writes)) },
      remember,
    };
  }

  /** The plan's batch committed: its writes' rows are what is stored. */
  committed(plan: DerivedPlan): void {
    for (const r of plan.remember) {
      if (r.owner === FORGET) this.stored.delete(r.machineId);
      else this.stored.set(r.machineId, { owner: r.owner, from: r.from, rows: r.rows });
    }
  }

  /** A batch that may not have committed (or did, unseen): its machines are written whole next time. */
  forget(machineIds: Iterable<string>): void {
    for (const m of machineIds) this.stored.delete(m);
  }
}

const FORGET = {};

/** Whether every stored row in the new write's range has the key of one of its new rows (faults: none stored). */
function nothingToDelete(last: Rows, now: Rows, from: number): boolean {
  for (const [table, rows] of last)
    for (const [key, r] of rows)
      if (inRange(r.end, from) && (table === 'faults' || !now.get(table)?.has(key))) return false;
  return true;
}
