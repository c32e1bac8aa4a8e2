import { liveDataVersion } from '@takt/db/rollups';
import type { CompanyScope } from '@takt/db';

// Decision 1200: the answer of GET /api/dashboard computed once for every caller of the same company and view
// (group, FullProduct) while the company's live data version stays the same, for at most DASHBOARD_REUSE_MS after
// the now it was computed at; callers asking while it is computed wait for that computation. Kept as the JSON
// text the responses send, so it is serialized once.

/** How long after its `now` an answer is given again while the data version stays the same (ms). */
export const DASHBOARD_REUSE_MS = 1_000;
/** What the kept answers may weigh (the sum of their JSON texts' lengths); the least recently used go first. */
export const DASHBOARD_ANSWERS_BUDGET = 32 * 1024 * 1024;

interface Kept {
  version: string;
  /** The now it was computed at. */
  now: number;
  /** The answer's JSON text. */
  text: Promise<string>;
  /** Its length once computed (0 while computing). */
  size: number;
}

/**
 * The dashboard answers an API process keeps, by company and view (one per view: a new version replaces it). One per
 * app (buildApp), never shared between processes.
 */
export class DashboardAnswers {
  private readonly kept = new Map<string, Kept>();
  private size = 0;
  /** Answers computed (for tests and benches). */
  computed = 0;

  constructor(private readonly budget = DASHBOARD_ANSWERS_BUDGET) {}

  /**
   * The JSON text of `compute`'s answer for the company of `scope` and `view` at `now`: the kept one when its data
   * version is the company's version now, it was computed at or before now and at most DASHBOARD_REUSE_MS
   * before, or is being computed; else computed (and kept). Inside a transaction it is always computed.
   */
  async json(
    scope: CompanyScope,
    view: string,
    now: number,
    compute: () => Promise<unknown>,
  ): Promise<string> {
    if (scope.db.isTransaction) return JSON.stringify(await compute());
    // Read by each caller after it arrived (never joined), so a kept answer is never older than what it could see.
    const version = await liveDataVersion(scope, now);
    const key = `${scope.companyId}\n${view}`;
    const seen = this.kept.get(key);
    if (
      seen &&
      seen.version === version &&
      now >= seen.now &&
      (seen.size === 0 || now - seen.now <= DASHBOARD_REUSE_MS)
    ) {
      this.kept.delete(key);
      this.kept.set(key, seen);
      return seen.text;
    }
    this.computed++;
    const entry: Kept = { version, now, size: 0, text: compute().then((a) => JSON.stringify(a)) };
    this.forget(key);
    this.kept.set(key, entry);
    entry.text.then(
      (text) => this.settle(key, entry, text.length),
      () => this.forget(key, entry),
    );
    return entry.text;
  }

  private settle(key: string, entry: Kept, size: number): void {
    if (this.kept.get(key) !== entry) return;
    entry.size = size;
    this.size += size;
    for (const [k, e] of this.kept) {
      if (this.size <= this.budget) break;
      if (e.size > 0) this.forget(k, e);
    }
  }

  private forget(key: string, entry?: Kept): void {
    const held = this.kept.get(key);
    if (!held || (entry && held !== entry)) return;
    this.kept.delete(key);
    this.size -= held.size;
  }

  /** Answers kept now and the sum of their sizes. */
  get held(): { answers: number; size: number } {
    return { answers: this.kept.size, size: this.size };
  }
}
