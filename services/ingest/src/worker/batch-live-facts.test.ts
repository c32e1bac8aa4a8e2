// Decision 1234: on PostgreSQL an ingest batch tells migration 0074's triggers that it marks every machine whose facts
// it writes (liveFactsMarked), so its state, cycle and open-state rows bump no live generation themselves. Its rollup
// marks must then move the company's generation (decision 1222's guarantee: the dashboard's version moves with every
// fact written): a batch writing only facts of a machine (no live row, no observation) moves its company's
// generation, in its first batches (ids made in the transaction) as in later ones (one message), and not another's.
import { sql } from 'kysely';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { DerivationResult, DurationMs, EpochMs } from '@takt/domain';
import { DIALECTS, freshDb } from '@takt/db/testing';
import type { TestDb } from '@takt/db/testing';
import { runningCurrent as current } from '../testing/derivation';
import { writeBatch } from './store';

const ms = (n: number) => n as EpochMs;

/** A machine ACTIVE from 0, then `state` from `at` to `now` (open), a cycle ending at `at`. */
function result(at: number, now: number, state: 'ACTIVE' | 'INACTIVE'): DerivationResult {
  return {
    intervals: [
      { start: ms(0), end: ms(at), state: 'ACTIVE', reason: null },
      { start: ms(at), end: ms(now), state, reason: null, open: true },
    ],
    cycles: [
      { start: ms(0), end: ms(at), duration: at as DurationMs, count: 1, source: 'part_count', setup: false },
    ],
    programs: [],
    subprograms: [],
    faults: [],
    spindle: [],
    inCut: [],
    current: { ...current, lastHeartbeat: ms(now) },
  };
}

describe.each(DIALECTS)('an ingest batch writing facts on %s', (dialect) => {
  let t: TestDb;
  beforeEach(async () => {
    t = await freshDb(dialect);
  });
  afterEach(async () => {
    await t.cleanup();
  });

  const generation = async (company: string) =>
    Number(
      (
        await sql<{ n: number | string | null }>`select sum(generation) as n from live_generations
          where company_id = ${company}`.execute(t.db)
      ).rows[0]?.n ?? 0,
    );

  it("moves its company's live generation with its rollup marks, not another company's", async () => {
    // Another company's machine of the same id, so a bump by machine id alone would show.
    await writeBatch(t.db, {
      now: 500,
      observations: [],
      derived: [{ companyId: 'd', machineId: 'm1', from: 0, result: result(100, 500, 'ACTIVE') }],
      live: [],
      stats: [],
    });
    const other = await generation('d');
    let seen = await generation('c');
    for (let i = 1; i <= 4; i++) {
      const now = 1000 * (i + 1);
      await writeBatch(t.db, {
        now,
        observations: [],
        derived: [
          {
            companyId: 'c',
            machineId: 'm1',
            from: 1000 * i,
            result: result(1000 * i, now, i % 2 ? 'INACTIVE' : 'ACTIVE'),
          },
        ],
        live: [],
        stats: [],
      });
      const states = await sql<{ n: number | string }>`select count(*) as n from state_intervals
        where company_id = 'c' and start_at = ${1000 * i}`.execute(t.db);
      expect({ i, states: Number(states.rows[0]!.n) }).toEqual({ i, states: 1 });
      const g = await generation('c');
      expect({ i, moved: g > seen }).toEqual({ i, moved: true });
      seen = g;
    }
    expect(await generation('d')).toBe(other);
  });
});
