import type { EpochMs } from '../brand';
import type { DeriverConfig, Observation, ObservationKey } from './observations';
import type { DerivationResult } from './outputs';
import type { Fold, OutputLengths, Outputs } from './fold';
import { cloneFold, emptyOutputs, initialFold, lengthsOf, step, truncateOutputs } from './fold';
import { materialize } from './materialize';

// METRICS.md §1: observations → state intervals, cycles, programs, faults, flags.
//
// The derivation is a left fold over observations sorted by (ts, seq, key, value). The fold state is small
// plain data; every CHECKPOINT_EVERY observations a copy of it is kept together with the number of output
// records emitted so far. Appending folds forward only. A late observation is inserted in order and the fold
// restarts from the last checkpoint at or before it: the outputs emitted after that checkpoint are dropped
// and re-emitted; history before it is never reprocessed. The fold and its step are fold.ts, the results
// materialize.ts.

const CHECKPOINT_EVERY = 256;

/** Order of keys at equal ts and seq: link state first, then signals, then derived events. */
const KEY_RANK: Record<ObservationKey, number> = {
  connection: 0,
  heartbeat: 1,
  availability: 2,
  controller_mode: 3,
  setup: 4,
  condition: 5,
  execution: 6,
  program: 7,
  subprogram: 8,
  spindle_speed: 9,
  path_feedrate: 10,
  part_count: 11,
  cycle: 12,
};

function valueKey(o: Observation): string {
  if (o.key === 'condition') {
    const c = o.value;
    return `${c.item}\u0000${c.level}\u0000${c.nativeCode ?? ''}\u0000${c.message ?? ''}\u0000${c.type ?? ''}`;
  }
  const v = o.value;
  return v === null ? '' : typeof v === 'string' ? v : String(v);
}

/** Total order of observations; 0 means the two are the same observation (a redelivery). */
export function compareObservations(a: Observation, b: Observation): number {
  const d = a.ts - b.ts || (a.seq ?? 0) - (b.seq ?? 0) || KEY_RANK[a.key] - KEY_RANK[b.key];
  if (d !== 0) return d;
  // Hot path of every push: the value keys are built only on a tie, and once per side.
  const va = valueKey(a);
  const vb = valueKey(b);
  return va < vb ? -1 : va > vb ? 1 : 0;
}

interface Checkpoint {
  /** Number of log entries folded before this checkpoint. */
  index: number;
  fold: Fold;
  lengths: OutputLengths;
}

/**
 * Per output list, how many of its first `lengths` records end before `t` (each list is in the order of its
 * records' ends, fold.ts).
 */
function closedBefore(out: Outputs, lengths: OutputLengths, t: number): OutputLengths {
  const count = (rows: ReadonlyArray<{ end: number }>, n: number) => {
    let k = 0;
    while (k < n && (rows[k] as { end: number }).end < t) k++;
    return k;
  };
  return {
    intervals: count(out.intervals, lengths.intervals),
    cycles: count(out.cycles, lengths.cycles),
    programs: count(out.programs, lengths.programs),
    subprograms: count(out.subprograms, lengths.subprograms),
    faults: count(out.faults, lengths.faults),
    spindle: count(out.spindle, lengths.spindle),
    inCut: count(out.inCut, lengths.inCut),
  };
}

// ---------------------------------------------------------------------------------------------------------
// The incremental deriver

export interface PushResult {
  /**
   * Earliest time whose outputs may have changed: every output record with `end >= changedFrom` (and every
   * open record) must be replaced by the ones in `result(now)`; records ending before it are unchanged.
   * null when nothing changed (only redeliveries, or nothing pushed).
   */
  changedFrom: EpochMs | null;
  /** Observations that were exact repeats of ones already folded (at-least-once delivery) and were ignored. */
  duplicates: number;
  /** Observations older than what this deriver still holds (see forgetBefore); not applied. */
  tooLate: Observation[];
}

/**
 * Incremental state derivation for one machine. Mutable by design: ingest keeps one per
 * machine, pushes observations as they arrive (in order or not), persists the changed outputs, and calls
 * `forgetBefore` once history is stored.
 */
export class StateDeriver {
  private readonly config: DeriverConfig;
  private log: Observation[] = [];
  private fold: Fold = initialFold();
  private out: Outputs = emptyOutputs();
  private checkpoints: Checkpoint[] = [{ index: 0, fold: initialFold(), lengths: lengthsOf(emptyOutputs()) }];
  /** Observations at or before this time were forgotten; input that old is refused. */
  private horizon = -Infinity;
  /** Number of log entries folded into `fold`. */
  private foldedCount = 0;

  constructor(config: DeriverConfig) {
    this.config = config;
  }

  /** Number of observations currently held. */
  get size(): number {
    return this.log.length;
  }

  /** Time of the latest observation folded, or null. */
  get lastTs(): EpochMs | null {
    const last = this.log[this.log.length - 1];
    return last ? last.ts : null;
  }

  /** Mutates: inserts the observations in order and refolds from the last checkpoint before the earliest. */
  push(observations: readonly Observation[]): PushResult {
    const tooLate: Observation[] = [];
    let duplicates = 0;
    let firstChanged = Infinity; // smallest log index changed
    // One line's observations usually arrive in order already: copy and sort only when they do not.
    let inOrder = true;
    for (let i = 1; i < observations.length && inOrder; i++)
      inOrder = compareObservations(observations[i - 1] as Observation, observations[i] as Observation) <= 0;
    const sorted = inOrder ? observations : [...observations].sort(compareObservations);
    for (const o of sorted) {
      if (o.ts <= this.horizon) {
        tooLate.push(o);
        continue;
      }
      const at = this.insertionPoint(o);
      if (at < 0) {
        duplicates++;
        continue;
      }
      if (at === this.log.length) this.log.push(o);
      else this.log.splice(at, 0, o);
      firstChanged = Math.min(firstChanged, at);
    }
    if (firstChanged === Infinity) return { changedFrom: null, duplicates, tooLate };

    // Pure append folds forward from where we are; a late insert restarts at the checkpoint before it.
    const from =
      firstChanged >= this.foldedCount
        ? this.foldedCount
        : this.restoreCheckpointAtOrBefore(firstChanged).index;
    // Records emitted from here on end at or after the fold's clock (or the first observation when new).
    const changedFrom = this.fold.started ? this.fold.t : (this.log[from] as Observation).ts;
    this.foldFrom(from);
    return { changedFrom: changedFrom as EpochMs, duplicates, tooLate };
  }

  /**
   * All outputs, with open records cut at `now` (now earlier than the last observation is ignored). With
   * `since`, closed state intervals, cycles, programs, sub-programs and faults ending before it are left out:
   * a write that replaces records from `since` on keeps none of them, and copying the whole history held at
   * every write made each one cost the history, not the change. Spindle and in-cut spans ending before it are
   * left out too, but for those that merge into a kept one (adjacent ones merge, whatever their end; decision
   * 1123). `result(now, since)` equals `result(now)` with those left out.
   */
  result(now: EpochMs, since = -Infinity): DerivationResult {
    return materialize(this.fold, this.out, now, since);
  }

  /**
   * Mutates: drops observations and closed outputs that end before the last checkpoint at or before `t`,
   * once ingest has stored them. Late input older than that point is then refused (PushResult.tooLate) and
   * needs a rebuild from stored observations with deriveMachineHistory.
   */
  forgetBefore(t: EpochMs): void {
    // The last checkpoint whose preceding observations are all before t.
    let keep: Checkpoint | undefined;
    for (const c of this.checkpoints) {
      if (c.index > 0 && c.index <= this.foldedCount && (this.log[c.index - 1] as Observation).ts < t)
        keep = c;
    }
    if (!keep) return;
    const cut = keep.index;
    // Records emitted before the kept checkpoint that end at its time are kept: a late insert restarting from it
    // reports its time as `changedFrom`, so a writer replaces every record ending there, and it must still hold
    // them (a cycle ends at the count that precedes the checkpoint). Only those ending before it go (decision 1063).
    const drop = closedBefore(this.out, keep.lengths, keep.fold.t);
    this.horizon = Math.max(this.horizon, (this.log[cut - 1] as Observation).ts);
    this.log = this.log.slice(cut);
    this.foldedCount -= cut;
    const keys = Object.keys(drop) as (keyof Outputs)[];
    this.checkpoints = this.checkpoints.filter((c) => c.index >= cut);
    for (const c of this.checkpoints) {
      c.index -= cut;
      for (const k of keys) c.lengths[k] -= drop[k];
    }
    // Outputs ending before the kept checkpoint's time are final (ingest has stored them).
    for (const k of keys) (this.out[k] as unknown[]).splice(0, drop[k]);
  }

  /** Index to insert o at, or -1 when an identical observation is already held. */
  private insertionPoint(o: Observation): number {
    let lo = 0;
    let hi = this.log.length;
    // Fast path for in-order arrival.
    const last = this.log[hi - 1];
    if (!last || compareObservations(last, o) < 0) return hi;
    while (lo < hi) {
      const mid = (lo + hi) >>> 1;
      const c = compareObservations(this.log[mid] as Observation, o);
      if (c === 0) return -1;
      if (c < 0) lo = mid + 1;
      else hi = mid;
    }
    return lo;
  }

  private restoreCheckpointAtOrBefore(index: number): Checkpoint {
    let i = this.checkpoints.length - 1;
    while (i > 0 && (this.checkpoints[i] as Checkpoint).index > index) i--;
    const cp = this.checkpoints[i] as Checkpoint;
    this.checkpoints.length = i + 1;
    this.fold = cloneFold(cp.fold);
    truncateOutputs(this.out, cp.lengths);
    this.foldedCount = cp.index;
    return cp;
  }

  private foldFrom(index: number): void {
    for (let i = index; i < this.log.length; i++) {
      step(this.fold, this.log[i] as Observation, this.config, this.out);
      this.foldedCount = i + 1;
      const lastCp = this.checkpoints[this.checkpoints.length - 1] as Checkpoint;
      if (this.foldedCount - lastCp.index >= CHECKPOINT_EVERY) {
        this.checkpoints.push({
          index: this.foldedCount,
          fold: cloneFold(this.fold),
          lengths: lengthsOf(this.out),
        });
      }
    }
  }
}

/** One-shot derivation of a whole history (pure): the reference the incremental deriver must equal. */
export function deriveMachineHistory(
  observations: readonly Observation[],
  config: DeriverConfig,
  now: EpochMs,
): DerivationResult {
  const d = new StateDeriver(config);
  d.push(observations);
  return d.result(now);
}
