import { addMeasuresInto, epochMs, sumRollups } from '@takt/domain';
import type { RollupSum } from '@takt/domain';
import type { HeldRows } from '@takt/db/rollups';

// Decision 1191: a tile goal's held rows (decision 1155) are every stored hour since its run's production start, the
// same rows answer after answer but for the newest; their sum is kept between answers and only the rows it has not
// seen are added, so a goal's work follows the rows that changed, not the hours its run has gone on.

/** A machine's held rows as summed: each row's start, end, shift, computed_at and measures, and their sum. */
interface Kept {
  starts: number[];
  ends: number[];
  shifts: Array<string | null>;
  computedAt: number[];
  measures: string[];
  sum: RollupSum;
}

/**
 * At most this many rows are kept, over all machines (the machines kept longest go first): a stamp holds the row's
 * measures as stored (about 300 bytes), so some 30 MB at most.
 */
export const HELD_ROWS_MAX = 100_000;

/**
 * The held rows' sums of the machines an API process shows, by company and machine (another company's machine of
 * the same id is another machine, decision 1130). A kept sum is used only for the very rows it was made of
 * (start, end, shift, computed_at and measures: a recompute that changes a row's values rewrites its computed_at,
 * decision 1153), plus the rows after them; any other change sums the rows again. Mutated by `sumOf`.
 */
export class HeldSums {
  private readonly kept = new Map<string, Kept>();
  private rows = 0;

  constructor(private readonly maxRows = HELD_ROWS_MAX) {}

  /** sumRollups of `held.rows` over [held.from, held.to), from the kept sum where it still holds. Mutates the kept sums. */
  sumOf(companyId: string, machineId: string, held: HeldRows): RollupSum {
    const key = `${companyId}\n${machineId}`;
    const was = this.kept.get(key);
    const n = was ? samePrefix(was, held) : 0;
    if (was && n === held.rows.length) return was.sum;
    const range = { start: epochMs(held.from), end: epochMs(held.to) };
    const sum = sumRollups(held.rows.slice(n), range);
    // The kept sum is never changed in place: a goal may still hold it.
    if (was && n > 0) addInto(sum, was.sum);
    if (held.rows.length > this.maxRows) {
      this.forget(key);
      return sum;
    }
    const kept: Kept =
      was && n > 0 ? was : { starts: [], ends: [], shifts: [], computedAt: [], measures: [], sum };
    if (kept !== was) this.forget(key);
    // The rows after the kept ones (all of them for a machine new here or whose rows changed).
    const more = held.rows.length - n;
    while (this.kept.size > 0 && this.rows + more > this.maxRows) {
      const first = this.kept.keys().next().value!;
      this.forget(first);
      if (first === key) return sum;
    }
    for (let i = n; i < held.rows.length; i++) {
      const r = held.rows[i]!;
      kept.starts.push(r.start);
      kept.ends.push(r.end);
      kept.shifts.push(r.shiftId);
      kept.computedAt.push(held.stamps.computedAt[i]!);
      kept.measures.push(held.stamps.measures[i]!);
    }
    kept.sum = sum;
    this.rows += more;
    this.kept.set(key, kept);
    return sum;
  }

  private forget(key: string): void {
    const was = this.kept.get(key);
    if (!was) return;
    this.rows -= was.starts.length;
    this.kept.delete(key);
  }

  /** Machines and rows kept now. */
  get size(): { machines: number; rows: number } {
    return { machines: this.kept.size, rows: this.rows };
  }
}

/** How many of `held`'s first rows are the kept rows: all of them, or 0 when any differs or is missing. */
function samePrefix(was: Kept, held: HeldRows): number {
  const n = was.starts.length;
  if (held.rows.length < n) return 0;
  for (let i = 0; i < n; i++) {
    const r = held.rows[i]!;
    if (
      r.start !== was.starts[i] ||
      r.end !== was.ends[i] ||
      r.shiftId !== was.shifts[i] ||
      held.stamps.computedAt[i] !== was.computedAt[i] ||
      held.stamps.measures[i] !== was.measures[i]
    )
      return 0;
  }
  return n;
}

const addInto = (sum: RollupSum, more: RollupSum) => {
  addMeasuresInto(sum.all, more.all);
  addMeasuresInto(sum.inShift, more.inShift);
  sum.aligned = sum.aligned && more.aligned;
};
