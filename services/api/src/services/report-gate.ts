import { AsyncLocalStorage } from 'node:async_hooks';
import type { Kysely } from 'kysely';
import type { Database } from '@takt/db';
import { isPostgres } from '@takt/db/rollups';

// Report computations run a few at a time per database handle, first come first served (decision 1239), for
// sharedAnswer (services/report-shared.ts): every report call whose answer is shared goes through it. Off by default
// (REPORT_SLOTS): what it does to the p99 is not settled yet.
//
// Why: 20 managers' calls on one event loop interleave. Each call's synchronous chunks wait for every other call's,
// so a long call (a range built from the facts over 100 machines, a year's production) takes its own work times the
// calls in flight, and those are the p99. Run one or a few at a time, in order of arrival, a call waits for the work
// queued before it and then runs nearly alone: every call of a closed loop of managers waits about as long, which is
// what a p99 asks for. Callers of an answer already being computed (queued or running) wait for it and take no slot.

/**
 * Computations a handle runs at once (0: no gate). Off on both dialects until a run on a quiet machine shows a gain:
 * on SQLite 1 slot against none gave p99 ratios of 0.32–0.48 in three ABAB cycles and 2.30 and 4.61 in two, at load
 * 7–12 (decision 1239); PostgreSQL was not measured. Set with `useReportGate` in benches.
 */
export const REPORT_SLOTS: Readonly<Record<'sqlite' | 'postgres', number>> = { sqlite: 0, postgres: 0 };
/**
 * A computation holding its slot this long gives it to the next one waiting and goes on outside the gate: a call
 * stuck on its database (or a year of facts) never holds the others for longer than this.
 */
export const REPORT_LEND_MS = 2_000;

interface Gate {
  /** Computations at once; 0: no gate. */
  slots: number;
  /** Slots taken (running computations not yet lent out). */
  running: number;
  /** Those waiting for a slot, in order of arrival. */
  queue: Array<() => void>;
  /** Waits for a slot since the gate was made (for benches): how many, their sum and the longest (ms). */
  waits: { n: number; sumMs: number; maxMs: number };
}

/** One gate per database handle (a test's harness, the API process's pool), as the shared answers' caches. */
const gates = new WeakMap<object, Gate>();
/** Set inside a computation the gate let in: a report computed inside another takes no second slot. */
const inside = new AsyncLocalStorage<true>();

function gateOf(db: Kysely<Database>): Gate {
  let gate = gates.get(db);
  if (!gate) {
    const slots = isPostgres(db) ? REPORT_SLOTS.postgres : REPORT_SLOTS.sqlite;
    gates.set(db, (gate = { slots, running: 0, queue: [], waits: { n: 0, sumMs: 0, maxMs: 0 } }));
  }
  return gate;
}

/**
 * `compute()` once one of `db`'s slots is free (at once when one is), first come first served; its slot is
 * passed on when it settles or after REPORT_LEND_MS, whichever comes first.
 */
export async function gated<T>(db: Kysely<Database>, compute: () => Promise<T>): Promise<T> {
  const gate = gateOf(db);
  if (gate.slots <= 0 || inside.getStore()) return compute();
  if (gate.running < gate.slots) gate.running++;
  else {
    const since = performance.now();
    // Woken with the slot of the computation that passed it on: `running` stays as it is.
    await new Promise<void>((resolve) => gate.queue.push(resolve));
    const ms = performance.now() - since;
    gate.waits.n++;
    gate.waits.sumMs += ms;
    gate.waits.maxMs = Math.max(gate.waits.maxMs, ms);
  }
  let held = true;
  const pass = () => {
    if (!held) return;
    held = false;
    const next = gate.queue.shift();
    if (next) next();
    else gate.running--;
  };
  const lend = setTimeout(pass, REPORT_LEND_MS);
  lend.unref();
  try {
    return await inside.run(true, compute);
  } finally {
    clearTimeout(lend);
    pass();
  }
}

/**
 * For benches, which compare arrangements in one run: `db`'s gate with `slots` (0: none; undefined: the dialect's
 * REPORT_SLOTS), its waits counted from zero. Only between parts, with no computation in flight.
 */
export function useReportGate(db: Kysely<Database>, slots?: number): void {
  gates.delete(db);
  if (slots !== undefined) gateOf(db).slots = slots;
}

/** The waits for a slot of `db`'s gate so far (for benches). */
export function reportGateWaits(db: Kysely<Database>): Gate['waits'] {
  return { ...gateOf(db).waits };
}
