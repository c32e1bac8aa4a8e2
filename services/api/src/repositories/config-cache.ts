import type { CompanyScope } from '@takt/db';
import { oneCallScope, recomputesNoted, stampOf } from '@takt/db/rollups';
import type { Stamp } from '@takt/db/rollups';

// Decision 1250: a report call's reads of the company's configuration (its calendar, machines, settings, hidden
// reasons) are kept by the configuration generation the call's data version read (decision 1159: bumped by the
// database's own triggers in the writer's transaction on every write of a configuration row), so the calls after
// the first of a generation read none of them, and a value is never older than the generation its call read. A
// call with no generation (sharing off, a transaction, a path outside the shared answers) reads as before.
// Decision 1251: the same version read also counted the company's pending rollup marks from before the range's end;
// when there were none, the call's reads of its machines' marks before that end have nothing to find.
// Decision 1256: the calls of a company computed at one report instant under one data version share what they read
// or build of the facts at that instant (heldAtInstant): the same reads give the same rows.

/** What a scope's report call read with its data version (report-shared.ts): generation, range end, marks before it. */
interface VersionRead {
  generation: number;
  end: number;
  marks: number;
  /** The report instant the call is computed at and what its calls share (report-shared.ts, decision 1256). */
  instant?: ReportInstant | undefined;
}

/**
 * A report instant (decision 1256): the `now` the calls of a company under one data version are computed at, and
 * the values they read or built of the facts at it, by what they are (`life`, `build|…`); at most INSTANT_VALUES.
 */
export interface ReportInstant {
  now: number;
  values: Map<string, unknown>;
}
/** Values an instant holds (a call's builds and reads beyond it are its own). */
export const INSTANT_VALUES = 256;
const readOf = new WeakMap<CompanyScope, VersionRead>();

interface Held {
  generation: number;
  /** The values read at (or after) that generation, by what they are (`calendar`, `machines|group|id`, …). */
  values: Map<string, Promise<unknown>>;
}

/** Per database handle: each company's values at the latest generation seen, least recently used first. */
const caches = new WeakMap<object, Map<string, Held>>();

/** Companies whose values a database handle keeps; the least recently used go first. */
export const CONFIG_CACHE_COMPANIES = 256;
/** Values a company keeps (the machines of each group and machine filter asked count one each). */
export const CONFIG_CACHE_VALUES = 64;

/**
 * The scope's call read its data version at `end` (reportDataVersion's config generation and marks): it may take
 * values kept at that generation or later, and knows whether marks before `end` were pending, until the returned
 * function is called (when its computation has ended: a scope that outlives it then reads for itself).
 */
export function noteVersionRead(
  scope: CompanyScope,
  version: { config: string; end: number; marks: number },
  instant?: ReportInstant,
): () => void {
  const generation = Number(version.config);
  if (!Number.isFinite(generation)) return () => undefined;
  const read: VersionRead = { generation, end: version.end, marks: version.marks, instant };
  readOf.set(scope, read);
  return () => {
    if (readOf.get(scope) === read) readOf.delete(scope);
  };
}

/** The version read noted on the scope's call (noteVersionRead's argument), to hand to a report thread (1253). */
export function versionReadOf(
  scope: CompanyScope,
): { config: string; end: number; marks: number } | undefined {
  const read = readOf.get(scope);
  return read && { config: String(read.generation), end: read.end, marks: read.marks };
}

/** oneCallScope's scope for the call (a copy of `scope` unless it is one), with the version read noted on `scope`. */
export function reportCallScope(scope: CompanyScope, opts: { readStamp?: boolean } = {}): CompanyScope {
  const read = readOf.get(scope);
  // Decision 1258: the week rows stamp read once at the call's report instant for the calls computed at it (a
  // recompute of this process since is another key, read again), instead of once a call.
  const instant = read?.instant;
  let held: { recomputes: number; read: Promise<Stamp> } | undefined;
  if (instant && opts.readStamp) {
    const recomputes = recomputesNoted(scope.companyId);
    const stamp = heldAtInstant(scope, instant.now, `stamp|${recomputes}`, () => stampOf(scope));
    held = { recomputes, read: stamp };
  }
  const call = oneCallScope(scope, { ...opts, ...(held ? { held } : {}) });
  if (read !== undefined) readOf.set(call, read);
  return call;
}

/**
 * `make()`'s value shared by the calls computed at the scope's report instant (decision 1256) when `now` is that
 * instant: the first call's value (a promise: its read or build, under way or done) for every later one; else, or
 * once the instant holds INSTANT_VALUES, `make()` for this call alone. A promise that fails is not kept. The value is
 * shared: callers must not change it.
 */
export function heldAtInstant<T>(scope: CompanyScope, now: number, what: string, make: () => T): T {
  const instant = readOf.get(scope)?.instant;
  if (!instant || instant.now !== now) return make();
  if (instant.values.has(what)) return instant.values.get(what) as T;
  if (instant.values.size >= INSTANT_VALUES) return make();
  const value = make();
  instant.values.set(what, value);
  if (value instanceof Promise)
    value.catch(() => {
      if (instant.values.get(what) === value) instant.values.delete(what);
    });
  return value;
}

/**
 * True when the scope's call read, with its data version at an end at or after `end`, no pending rollup mark of its
 * company from before it (decision 1251): no machine of the company has a mark with from_at < `end`, as of the
 * version the answer is given under, so a read of them can be skipped (its answer is empty).
 */
export function noMarksBefore(scope: CompanyScope, end: number): boolean {
  const read = readOf.get(scope);
  return read !== undefined && read.marks === 0 && end <= read.end;
}

/**
 * `load()`'s value for the scope's company, kept by configuration generation: given again to the calls whose
 * generation is at most the one it was read at (it was read after that generation was committed, so it is as new
 * as any of them read); a newer generation reads again. Callers must not change the value (wrap it in a copy).
 * A failure is not kept.
 */
export function byConfig<T>(scope: CompanyScope, what: string, load: () => Promise<T>): Promise<T> {
  const generation = readOf.get(scope)?.generation;
  if (generation === undefined) return load();
  let companies = caches.get(scope.db);
  if (!companies) caches.set(scope.db, (companies = new Map()));
  let held = companies.get(scope.companyId);
  if (!held || held.generation < generation) held = { generation, values: new Map() };
  // The most recently used company goes last.
  companies.delete(scope.companyId);
  companies.set(scope.companyId, held);
  for (const id of companies.keys()) {
    if (companies.size <= CONFIG_CACHE_COMPANIES) break;
    companies.delete(id);
  }
  const seen = held.values.get(what);
  if (seen) return seen as Promise<T>;
  if (held.values.size >= CONFIG_CACHE_VALUES) return load();
  const value = load();
  held.values.set(what, value);
  const values = held.values;
  value.catch(() => {
    if (values.get(what) === value) values.delete(what);
  });
  return value;
}
