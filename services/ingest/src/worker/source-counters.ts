import { performance } from 'node:perf_hooks';
import { fedByInbox } from '../sources/source';
import type { Link } from './link';
import type { SourceStats } from './store';

/** A source's counts not yet written, with the machine it belongs to (the batch's lease fence covers it). */
export type PendingStats = SourceStats & { machineId: string };

/**
 * How much faster than once a period the sources' counts may be written: a batch takes at most this many times the
 * share that writes each source once per `everyMs` (decision 1243). Above 1, so a backlog drains: the sources first
 * written together at a start or a takeover come due together, and at 2 they are written within half a period.
 */
const CATCH_UP = 2;

/** A batch with nothing else to write takes due counts once they are this share of a period late (decision 1243). */
const LATE = 0.25;

/**
 * The sources' line counters (machine_sources stat_lines, stat_observations, stat_rejected, last_line_at) as the
 * batches collect them: added up in memory instead of a row update per source at every batch (decision 1145), and
 * each source's written at most every `everyMs`, a slice a batch (decision 1243): a batch takes the sources due (last
 * written `everyMs` ago or more), oldest first, at most its share of the period (`CATCH_UP` × the sources it writes ×
 * the time since the last batch / `everyMs`). So the writes spread over the period, a batch's share grows with the
 * time it covers, and a source waits `everyMs` plus a batch or two (at most half a period more, while the sources
 * first written together at a start come due together).
 * A source this writer has not written yet is written at once (its first line shows without the wait), and a flush
 * that asks for them (tests, stop, a hand-over) writes them all. Mutable: the pending counts, the write times and the
 * links' `flushed`.
 */
export class SourceCounters {
  private readonly pending = new Map<string, PendingStats>();
  /** When each source's counts were last written by this writer (`clock`); absent: never written. */
  private readonly writtenAt = new Map<string, number>();
  /** When a batch last took counts, and when every link's were last collected (`sweep`). */
  private takenAt = -Infinity;
  private sweptAt = -Infinity;
  /** The last take was forced, and (after its write failed) the next one is too. */
  private forcedTake = false;
  private forceNext = false;

  /** `clock`: local monotonic time (tests drive it by hand). */
  constructor(
    private readonly everyMs: number,
    private readonly clock: () => number = () => performance.now(),
  ) {}

  /** Mutates `link.flushed` and the pending counts: what the link counted since is added to them. */
  collect(link: Link): void {
    if (fedByInbox(link.source.kind)) return; // a gateway push (and a simulated line) counts its own lines
    // A copy: passive and agent transports count into one object in place.
    const c = { ...link.transport.counters };
    const lines = c.lines - link.flushed.lines;
    if (lines <= 0) return;
    const delta = {
      lines,
      observations: c.observations - link.flushed.observations,
      // Stored as "rejected lines": a line with any rejected token counts once.
      rejected: c.rejectedLines - link.flushed.rejectedLines,
      lastLineAt: c.lastLineAt,
    };
    link.flushed = c;
    this.add({ sourceId: link.source.sourceId, machineId: link.source.machineId, ...delta });
  }

  /**
   * Whether every link's counts are to be collected now: a transport counts lines no link hears (a rejected document,
   * a cut line), and those are collected once a period (or when forced), not per batch. Mutates: the period restarts.
   */
  sweep(force: boolean): boolean {
    const now = this.clock();
    if (!force && now - this.sweptAt < this.everyMs) return false;
    this.sweptAt = now;
    return true;
  }

  /**
   * Mutates: the pending counts of `picked` machines a batch writes now, taken out: all of them when `force` (or a
   * forced write failed), else those never written and a slice of those due (see the class). A batch with nothing
   * else to write (`alone`) takes the due ones only once the oldest is `LATE` late: they ride on the batches that
   * store lines, not in transactions of their own (decision 1243).
   */
  take(picked: (machineId: string) => boolean, force: boolean, alone = false): PendingStats[] {
    const now = this.clock();
    const since = Math.min(now - this.takenAt, this.everyMs);
    const forced = force || this.forceNext;
    const out: PendingStats[] = [];
    const due: Array<{ s: PendingStats; at: number }> = [];
    let oldest = Infinity;
    for (const s of this.pending.values()) {
      if (!picked(s.machineId)) continue;
      const at = this.writtenAt.get(s.sourceId);
      if (forced || at == null) out.push(s);
      else if (now - at >= this.everyMs) {
        due.push({ s, at });
        oldest = Math.min(oldest, at);
      }
    }
    const waits = !alone || now - oldest >= this.everyMs * (1 + LATE);
    // Taking nothing alone, the share of the time since is kept for the next batch.
    if (out.length === 0 && !waits) return [];
    this.takenAt = now;
    this.forcedTake = forced;
    this.forceNext = false;
    if (waits && due.length > 0) {
      // Of the sources written before (or waiting now): not only those waiting, which fall as a backlog drains.
      const sources = Math.max(this.pending.size, this.writtenAt.size);
      const share =
        this.everyMs > 0 ? Math.max(1, Math.ceil((CATCH_UP * sources * since) / this.everyMs)) : Infinity;
      if (due.length > share) due.sort((a, b) => a.at - b.at);
      for (const d of due.slice(0, share)) out.push(d.s);
    }
    for (const s of out) this.pending.delete(s.sourceId);
    return out;
  }

  /** Mutates: the write of `taken` committed now (each source's next is due `everyMs` later). */
  stored(taken: readonly PendingStats[]): void {
    const now = this.clock();
    for (const s of taken) this.writtenAt.set(s.sourceId, now);
  }

  /**
   * Mutates: a failed write's counts wait again, added to what was counted meanwhile. The next batch takes them again
   * before the other sources due (a new source's as new), all of them when the failed one was forced.
   */
  putBack(taken: readonly PendingStats[]): void {
    for (const s of taken) {
      this.add(s);
      // It was due (or forced): the oldest now. Its last write committed still lies a period or more back.
      if (this.writtenAt.has(s.sourceId)) this.writtenAt.set(s.sourceId, -Infinity);
    }
    if (taken.length > 0 && this.forcedTake) this.forceNext = true;
  }

  /** Mutates: the counts of machines `keep` refuses are dropped (a lease lost: the next holder counts on). */
  discard(keep: (machineId: string) => boolean): void {
    for (const [id, s] of this.pending) if (!keep(s.machineId)) this.pending.delete(id);
  }

  /** Whether counts of the machine wait to be written. */
  holds(machineId: string): boolean {
    for (const s of this.pending.values()) if (s.machineId === machineId) return true;
    return false;
  }

  /** Mutates: a source's counts added to what waits for it. */
  add(s: PendingStats): void {
    const seen = this.pending.get(s.sourceId);
    this.pending.set(
      s.sourceId,
      seen
        ? {
            ...s,
            lines: seen.lines + s.lines,
            observations: seen.observations + s.observations,
            rejected: seen.rejected + s.rejected,
            lastLineAt: maxOrNull(seen.lastLineAt, s.lastLineAt),
          }
        : s,
    );
  }
}

const maxOrNull = (a: number | null, b: number | null) => (a == null ? b : b == null ? a : Math.max(a, b));
