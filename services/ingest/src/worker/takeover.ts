import { epochMs } from '@takt/domain';
import type { DerivationResult, Observation as DomainObservation } from '@takt/domain';

// A new pipeline's takeover of the machine's stored history (decisions 0201, 1065): where it starts, and what of
// the new run's derivation it writes.

/** The operator's setup events as the engine's observations. */
export const setupObservations = (events: ReadonlyArray<{ at: number; value: 'START' | 'END' }>) =>
  events.map((e): DomainObservation => ({ ts: epochMs(e.at), key: 'setup', value: e.value }));

/**
 * Machine data: what tells the state of the machine or of its link (a line's values, a link drop). A connect, a
 * heartbeat and a setup event do not: a new pipeline takes over from its first machine data (decision 1065).
 */
export function isMachineData(o: DomainObservation): boolean {
  if (o.key === 'setup' || o.key === 'heartbeat') return false;
  return o.key !== 'connection' || o.value !== 'CONNECTED';
}

/**
 * The records of a pipeline that took over at `at`, as of `at`: between its connect and its first machine data the
 * engine knows no value (UNAVAILABLE), but that time is the previous run's, whose records the takeover closed at
 * `at` (decision 1065). A state interval reaching past `at` starts there; the other records start at machine data.
 */
export function startingAt(r: DerivationResult, at: number): DerivationResult {
  const before = (x: { start: number }) => x.start < at;
  if (
    ![r.intervals, r.cycles, r.programs, r.subprograms, r.faults, r.spindle, r.inCut].some((a) =>
      a.some(before),
    )
  )
    return r;
  const after = <T extends { start: number; end: number }>(xs: T[]) =>
    xs.filter((x) => !before(x) || x.end > at);
  return {
    ...r,
    intervals: after(r.intervals).map((x) => (before(x) ? { ...x, start: epochMs(at) } : x)),
    cycles: after(r.cycles),
    programs: after(r.programs),
    subprograms: after(r.subprograms),
    faults: after(r.faults),
    spindle: after(r.spindle),
    inCut: after(r.inCut),
  };
}
