import type { Kysely } from 'kysely';
import type { Database } from '@takt/db';
import {
  claimDirty,
  clearDirty,
  loadCalendar,
  recomputeRollups,
  takeDirty,
  unclaimDirty,
} from '@takt/db/rollups';

/** Dirty marks recomputed per run. */
const MARKS_PER_RUN = 50;

/**
 * The rollup worker: recompute the report buckets of machines marked dirty (by ingest or by the API
 * after annotations, rejects and job changes). Any worker may take any mark; a recompute is idempotent.
 * With several nodes (`claims`, PostgreSQL) a worker claims its marks, so each is recomputed by one node
 * (decision 0970).
 */
export class RollupWorker {
  private rolling = false;

  constructor(
    private readonly db: Kysely<Database>,
    private readonly now: () => number,
    private readonly log: (message: string) => void,
    private readonly claims = false,
  ) {}

  /** One run; a run asked for while one is going is skipped (the next timer's run takes what is left). */
  async run(): Promise<void> {
    if (this.rolling) return;
    this.rolling = true;
    const { db } = this;
    let marks: Awaited<ReturnType<typeof claimDirty>> = [];
    let done = 0;
    try {
      marks = this.claims ? await claimDirty(db, MARKS_PER_RUN) : await takeDirty(db, MARKS_PER_RUN);
      const calendars = new Map<string, Awaited<ReturnType<typeof loadCalendar>>>();
      for (const mark of marks) {
        let calendar = calendars.get(mark.company_id);
        if (!calendar) calendars.set(mark.company_id, (calendar = await loadCalendar(db, mark.company_id)));
        const t = this.now();
        await recomputeRollups(db, {
          companyId: mark.company_id,
          machineId: mark.machine_id,
          from: mark.from_at,
          to: t,
          now: t,
          calendar,
        });
        if (this.claims) await unclaimDirty(db, mark.machine_id, mark.marked_at);
        else await clearDirty(db, mark.machine_id, mark.marked_at);
        done++;
      }
    } catch (err) {
      this.log(`[ingest] rollup recompute failed, will retry: ${(err as Error).message}`);
      // Free the claims not done, so the next run (of any node) takes them again.
      if (this.claims)
        for (const mark of marks.slice(done)) await unclaimDirty(db, mark.machine_id, null).catch(() => {});
    } finally {
      this.rolling = false;
    }
  }
}
