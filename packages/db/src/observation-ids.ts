import { CompiledQuery } from 'kysely';
import type { Executor } from './scope';

// The two dictionaries of compact observations (decision 1130): a machine's and a key's small integer id. Each
// database handle keeps the ids it knows committed, so a batch of known machines and keys costs no statement. An id
// this handle inserted inside a transaction is not kept until a later transaction sees it (the first may roll
// back, and SQLite would then give the id to another name): until then each batch reads it again.

interface Known {
  ids: Map<string, number>;
  /** Names this handle inserted, by the transaction that inserted them (not yet known committed). */
  insertedIn: Map<string, object>;
}

interface Dictionary {
  table: 'observation_machines' | 'observation_keys';
  /** The name as the cache and the batch know it: a machine's is its company and id joined by a tab. */
  name: string;
  /** The column read by `in (…)`, and what a name puts in it. */
  lookup: 'machine_id' | 'key';
  lookupOf: (name: string) => string;
  /** The columns an insert writes, their values from a name, and the unique key a conflict is on. */
  columns: string;
  valuesOf: (name: string) => string[];
  unique: string;
}

/** A machine's name in its dictionary: its company and id (the same machine id under another company is another). */
export const machineName = (companyId: string, machineId: string) => `${companyId}\t${machineId}`;

const MACHINES: Dictionary = {
  table: 'observation_machines',
  name: "company_id || '\t' || machine_id",
  lookup: 'machine_id',
  lookupOf: (name) => name.slice(name.indexOf('\t') + 1),
  columns: 'company_id, machine_id',
  valuesOf: (name) => [name.slice(0, name.indexOf('\t')), name.slice(name.indexOf('\t') + 1)],
  unique: 'machine_id, company_id',
};
const KEYS: Dictionary = {
  table: 'observation_keys',
  name: 'key',
  lookup: 'key',
  lookupOf: (name) => name,
  columns: 'key',
  valuesOf: (name) => [name],
  unique: 'key',
};

const knownByHandle = new WeakMap<object, { machines: Known; keys: Known }>();

function knownOf(trx: Executor) {
  const handle = trx.getExecutor().adapter;
  let known = knownByHandle.get(handle);
  if (!known) {
    known = {
      machines: { ids: new Map(), insertedIn: new Map() },
      keys: { ids: new Map(), insertedIn: new Map() },
    };
    knownByHandle.set(handle, known);
  }
  return known;
}

/** Most names in one statement (far below either dialect's bind limit). */
const NAMES_PER_STATEMENT = 400;

async function readIds(
  trx: Executor,
  numbered: boolean,
  d: Dictionary,
  names: readonly string[],
  out: Map<string, number>,
) {
  const wanted = new Set(names);
  for (let i = 0; i < names.length; i += NAMES_PER_STATEMENT) {
    const part = [...new Set(names.slice(i, i + NAMES_PER_STATEMENT).map(d.lookupOf))];
    const marks = part.map((_, j) => (numbered ? `$${j + 1}` : '?')).join(', ');
    const r = await trx.executeQuery<{ id: number; name: string }>(
      CompiledQuery.raw(`select id, ${d.name} as name from ${d.table} where ${d.lookup} in (${marks})`, part),
    );
    for (const row of r.rows) if (wanted.has(row.name)) out.set(row.name, Number(row.id));
  }
}

/**
 * The ids of `names` in dictionary `d`, inserting the missing ones. Concurrent writers on PostgreSQL: the insert
 * waits for another's uncommitted one and skips it, and the read after it sees it.
 */
async function idsOf(
  trx: Executor,
  numbered: boolean,
  d: Dictionary,
  known: Known,
  names: Iterable<string>,
): Promise<Map<string, number>> {
  const out = new Map<string, number>();
  const missing: string[] = [];
  for (const n of names) {
    const id = known.ids.get(n);
    if (id === undefined) missing.push(n);
    else out.set(n, id);
  }
  if (missing.length === 0) return out;
  const inTransaction = trx.isTransaction;
  const found = new Map<string, number>();
  await readIds(trx, numbered, d, missing, found);
  for (const [name, id] of found) {
    out.set(name, id);
    const by = known.insertedIn.get(name);
    // Seen from another transaction than the one that inserted it (or outside any): it is committed.
    if (!inTransaction || by === undefined || by !== trx) {
      known.ids.set(name, id);
      known.insertedIn.delete(name);
    }
  }
  const fresh = missing.filter((n) => !found.has(n));
  if (fresh.length === 0) return out;
  const width = d.valuesOf(fresh[0]!).length;
  for (let i = 0; i < fresh.length; i += NAMES_PER_STATEMENT) {
    const part = fresh.slice(i, i + NAMES_PER_STATEMENT);
    const params: string[] = [];
    const tuples = part.map((name, j) => {
      params.push(...d.valuesOf(name));
      const marks = Array.from({ length: width }, (_, c) => (numbered ? `$${j * width + c + 1}` : '?'));
      return `(${marks.join(', ')})`;
    });
    await trx.executeQuery(
      CompiledQuery.raw(
        `insert into ${d.table} (${d.columns}) values ${tuples.join(', ')} on conflict (${d.unique}) do nothing`,
        params,
      ),
    );
  }
  const made = new Map<string, number>();
  await readIds(trx, numbered, d, fresh, made);
  for (const name of fresh) {
    const id = made.get(name);
    if (id === undefined) throw new Error(`observation dictionary ${d.table}: no id for ${name}`);
    out.set(name, id);
    if (inTransaction) known.insertedIn.set(name, trx);
    else known.ids.set(name, id);
  }
  return out;
}

/**
 * The ids of `machines` and `keys` (as observationIds takes them) this handle knows committed, read from its memory
 * with no statement: null when one is not known, and observationIds must read or make it in the transaction. A batch
 * builds its statements with them before its transaction begins (decision 1177).
 */
export function knownObservationIds(
  db: Executor,
  machines: Iterable<string>,
  keys: Iterable<string>,
): { machines: Map<string, number>; keys: Map<string, number> } | null {
  const known = knownOf(db);
  const pick = (of: Known, names: Iterable<string>) => {
    const out = new Map<string, number>();
    for (const n of names) {
      const id = of.ids.get(n);
      if (id === undefined) return null;
      out.set(n, id);
    }
    return out;
  };
  const m = pick(known.machines, machines);
  const k = m && pick(known.keys, keys);
  return m && k ? { machines: m, keys: k } : null;
}

/** The ids of one batch's machines (by machineName; a new one gets its dictionary row) and keys. */
export async function observationIds(
  trx: Executor,
  numbered: boolean,
  machines: Iterable<string>,
  keys: Iterable<string>,
): Promise<{ machines: Map<string, number>; keys: Map<string, number> }> {
  const known = knownOf(trx);
  return {
    machines: await idsOf(trx, numbered, MACHINES, known.machines, machines),
    keys: await idsOf(trx, numbered, KEYS, known.keys, keys),
  };
}
