import { performance } from 'node:perf_hooks';
import { fedByInbox } from '../sources/source';
import type { Link } from './link';
import type { SourceStats } from './store';

/** A source's counts not yet written, with the machine it belongs to (the batch's lease fence covers it). */
export type PendingStats = SourceStats & { machineId: string };

/**
 * The sources' line counters (machine_sources stat_lines, stat_observations, stat_rejected, last_line_at) as the
 * batches collect them: added up in memory and written at most every `everyMs` in one statement, instead of a row
 * update per source at every batch (decision 1145). A source this writer has not written yet is written at once
 * (its first line shows without the wait), and a flush that asks for them (tests, stop, a hand-over) writes them
 * all. Mutable: the pending counts and the links' `flushed`.
 */
export class SourceCounters {
  private readonly pending = new Map<string, PendingStats>();
  /** Sources written at least once by this writer. */
  private readonly written = new Set<string>();
  /** Local monotonic time of the last write taken. */
  private takenAt = -Infinity;

  constructor(private readonly everyMs: number) {}

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
   * Mutates: the pending counts of `picked` machines a batch writes now, taken out; none when the last write is
   * less than `everyMs` ago, unless `force` or a source not written yet waits.
   */
  take(picked: (machineId: string) => boolean, force: boolean): PendingStats[] {
    if (!this.due(force)) return [];
    const out = [...this.pending.values()].filter((s) => picked(s.machineId));
    for (const s of out) this.pending.delete(s.sourceId);
    this.takenAt = performance.now();
    return out;
  }

  /** Whether a batch now writes the counts (`take` returns them): forced, the period passed, or a source is new. */
  due(force: boolean): boolean {
    return (
      force ||
      performance.now() - this.takenAt >= this.everyMs ||
      [...this.pending.keys()].some((id) => !this.written.has(id))
    );
  }

  /** The write of `taken` committed. */
  stored(taken: readonly PendingStats[]): void {
    for (const s of taken) this.written.add(s.sourceId);
  }

  /** Mutates: a failed write's counts wait again, added to what was counted meanwhile. */
  putBack(taken: readonly PendingStats[]): void {
    for (const s of taken) this.add(s);
    // The next batch tries again rather than waiting a period.
    if (taken.length > 0) this.takenAt = -Infinity;
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

  private add(s: PendingStats): void {
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
