import type { Kysely } from 'kysely';
import type { Database } from '@takt/db';
import { EARLIEST_TIME_MS, timeProblem } from '@takt/domain';
import {
  claimDirty,
  finishDirty,
  loadCalendar,
  markManualStatesDue,
  markRollupsDirtyMany,
  recomputeRollups,
  rollupGaps,
  storedRollupsEnd,
  takeDirty,
  unclaimDirty,
} from '@takt/db/rollups';

/** Dirty marks recomputed per run. */
const MARKS_PER_RUN = 50;
/**
 * The most of one mark's history recomputed in one run (decision 0980): a longer mark (a backfill, an edge back
 * from weeks offline) is advanced by this much and left for the next runs, so no run holds a node for long.
 */
export const MARK_SPAN_PER_RUN_MS = 28 * 86_400_000;
/**
 * The longest a mark waits for the node's report computations (decision 1261): under a steady stream of them the
 * marks still go on, one every half second at the least.
 */
export const ROLLUP_YIELD_MAX_MS = 500;
/** How often a mark waiting for the report computations looks again. */
const ROLLUP_YIELD_POLL_MS = 20;

/**
 * The rollup worker: recompute the report buckets of machines marked dirty (by ingest or by the API
 * after annotations, rejects and job changes). Any worker may take any mark; a recompute is idempotent.
 * With several nodes (`claims`, PostgreSQL) a worker claims its marks, so each is recomputed by one node
 * (decision 0970).
 */
export class RollupWorker {
  private rolling = false;
  /** No mark begins once set (`stop`). */
  private stopped = false;
  /** The run going, or the last one. */
  private current: Promise<void> = Promise.resolve();
  /** Whether this process has looked for gaps left in the stored rows (decision 1016). */
  private swept = false;

  constructor(
    private readonly db: Kysely<Database>,
    private readonly now: () => number,
    private readonly log: (message: string) => void,
    private readonly claims = false,
    private readonly onTimeRefused?: (source: string, count: number) => void,
    /** Awaited before each mark (decision 1238: the ingest's batches running or asked for end first). */
    private readonly ready?: () => Promise<void>,
    /** True while the node's report computations are under way: a mark waits for them (decision 1261). */
    private readonly yieldTo?: () => boolean,
  ) {}

  /**
   * Decision 1261: a recompute shares the two cores of a small node (its statements, PostgreSQL's backend) with the
   * report computations managers wait for; a mark waits until none is under way, ROLLUP_YIELD_MAX_MS at the most.
   */
  private async yielded(): Promise<void> {
    const busy = this.yieldTo;
    if (!busy) return;
    const until = Date.now() + ROLLUP_YIELD_MAX_MS;
    while (busy() && !this.stopped && Date.now() < until)
      await new Promise<void>((resolve) => setTimeout(resolve, ROLLUP_YIELD_POLL_MS));
  }

  /** One run; a run asked for while one is going is skipped (the next timer's run takes what is left). */
  run(): Promise<void> {
    if (this.rolling || this.stopped) return Promise.resolve();
    return (this.current = this.roll());
  }

  /**
   * No mark begins after this; resolves once the run going has ended, its marks not begun freed for another node. The
   * worker's handle may be closed then (a run waiting for the last batch, decision 1238, used to go on after it).
   */
  async stop(): Promise<void> {
    this.stopped = true;
    await this.current;
  }

  private async roll(): Promise<void> {
    this.rolling = true;
    const { db } = this;
    let marks: Awaited<ReturnType<typeof claimDirty>> = [];
    let done = 0;
    try {
      if (!this.swept) {
        this.swept = true;
        // Decision 1016: gaps stored before the worker recomputed from where a machine's rows stop are
        // marked once per process, so the runs below fill them. A failure here never holds the marks up.
        try {
          const gaps = await rollupGaps(db);
          if (gaps.length > 0) {
            this.log(`[ingest] rollup gaps of ${gaps.length} machine(s) marked for recompute`);
            await markRollupsDirtyMany(
              db,
              gaps.map((g) => ({ ...g, now: this.now() })),
            );
          }
        } catch (err) {
          this.log(`[ingest] looking for rollup gaps failed: ${(err as Error).message}`);
        }
      }
      // Decision 1073: a manual work center whose operator stopped adding parts turns from ACTIVE to INACTIVE with
      // no new evidence: marked here when its open gap passes the limit. A failure never holds the marks up.
      try {
        await markManualStatesDue(db, this.now());
      } catch (err) {
        this.log(`[ingest] looking for manual work centers to review failed: ${(err as Error).message}`);
      }
      marks = this.claims ? await claimDirty(db, MARKS_PER_RUN) : await takeDirty(db, MARKS_PER_RUN);
      const calendars = new Map<string, Awaited<ReturnType<typeof loadCalendar>>>();
      for (const mark of marks) {
        // Decision 1224: one mark a turn of the event loop. On SQLite every statement runs synchronously and Kysely's
        // awaits are microtasks, so a run of 50 marks held the loop for seconds (HTTP calls, the ingest's batches
        // waited behind it); here what waits runs between two marks.
        if (done > 0) await new Promise<void>((resolve) => setImmediate(resolve));
        // Decision 1238: a batch asked (a line arrived, the timer ticked) goes before the next recompute, which on
        // PostgreSQL would otherwise share the cores, the pool and the event loop with it.
        if (this.ready) await this.ready();
        await this.yielded();
        if (this.stopped) break;
        let calendar = calendars.get(mark.company_id);
        if (!calendar) calendars.set(mark.company_id, (calendar = await loadCalendar(db, mark.company_id)));
        const t = this.now();
        // Decision 0980: a mark from before 2014-04-01 (year 1) starts at the floor; one more than a year ahead
        // (9999) has nothing to recompute and goes. Either is said once and counted, never retried as it was.
        const problem = timeProblem('from', mark.from_at, t, 'planned');
        const dropped = problem !== null && !(mark.from_at < t);
        if (problem) {
          const what = dropped ? 'dropped' : `recomputed from ${EARLIEST_TIME_MS}`;
          this.log(
            `[ingest] rollup mark of machine ${mark.machine_id}: ${problem} (${mark.from_at}): ${what}`,
          );
          this.onTimeRefused?.('rollup', 1);
        }
        // Decision 1016: from where the machine's rows stop when that is earlier (a machine silent overnight is
        // marked again from its next data only), so its rows never have a gap before the mark.
        const marked = Math.max(mark.from_at, EARLIEST_TIME_MS);
        const stop = dropped ? null : await storedRollupsEnd(db, mark.company_id, mark.machine_id);
        const from = stop !== null && stop >= EARLIEST_TIME_MS && stop < marked ? stop : marked;
        const to = dropped ? t : Math.min(t, from + MARK_SPAN_PER_RUN_MS);
        if (!dropped)
          await recomputeRollups(db, {
            companyId: mark.company_id,
            machineId: mark.machine_id,
            from,
            to,
            now: t,
            calendar,
          });
        // Cleared when done; a longer mark goes on from `to` in the next run (or from a renewal before it).
        await finishDirty(db, {
          companyId: mark.company_id,
          machineId: mark.machine_id,
          markedAt: mark.marked_at,
          to,
          done: to >= t,
        });
        done++;
      }
      // Stopped: the claims not begun go back, so the next run (of any node) takes them.
      if (this.claims)
        for (const mark of marks.slice(done)) await unclaimDirty(db, mark, null).catch(() => {});
    } catch (err) {
      this.log(`[ingest] rollup recompute failed, will retry: ${(err as Error).message}`);
      // Free the claims not done, so the next run (of any node) takes them again.
      if (this.claims)
        for (const mark of marks.slice(done)) await unclaimDirty(db, mark, null).catch(() => {});
    } finally {
      this.rolling = false;
    }
  }
}
