// Decision 1177: a batch's statements are built before its transaction begins, array parameters already in
// PostgreSQL's text form, so the transaction only sends them and reads the answers. What is stored is what the
// values were: text that an array literal must quote or escape included, in the first batches of a machine (its
// dictionary ids read or made in the transaction) as in the later ones (its ids known before).
import pg from 'pg';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { DerivationResult, EpochMs } from '@takt/domain';
import type { ObservationRow } from '@takt/db';
import { AWKWARD_TEXT as AWKWARD, DIALECTS, freshDb } from '@takt/db/testing';
import type { TestDb } from '@takt/db/testing';
import { runningCurrent as current } from '../testing/derivation';
import { writeBatch } from './store';

const ms = (n: number) => n as EpochMs;

/** A machine running program `name` from 0 to `now` (open), its spindle turning. */
function result(now: number, name: string): DerivationResult {
  return {
    intervals: [{ start: ms(0), end: ms(now), state: 'ACTIVE', reason: name, open: true }],
    cycles: [],
    programs: [{ start: ms(0), end: ms(now), name, open: true }],
    subprograms: [],
    faults: [],
    spindle: [{ start: ms(0), end: ms(now) }],
    inCut: [],
    current: { ...current, lastHeartbeat: ms(now) },
  };
}

/** `n` observations of `machineId` from `ts` on, a millisecond apart, their keys and values awkward text. */
const observationsOf = (machineId: string, ts: number, n: number): ObservationRow[] =>
  Array.from({ length: n }, (_, i) => ({
    company_id: 'c',
    machine_id: machineId,
    ts: ts + i,
    key: `k,"${i % 3}"`,
    value: AWKWARD[i % AWKWARD.length]!,
  }));

describe.each(DIALECTS)('a batch built before its transaction (%s)', (dialect) => {
  let t: TestDb;
  beforeEach(async () => {
    t = await freshDb(dialect);
  });
  afterEach(async () => {
    await t.cleanup();
  });

  /**
   * PostgreSQL: the texts and parameters the driver was given while `work` ran (an array is one it would encode element
   * by element there, while the transaction waits). SQLite's driver is not pg: none.
   */
  async function driverGot(work: () => Promise<void>): Promise<{ texts: string[]; params: unknown[] }> {
    const query = pg.Client.prototype.query as (...args: unknown[]) => unknown;
    const texts: string[] = [];
    const params: unknown[] = [];
    pg.Client.prototype.query = function (this: pg.Client, ...args: unknown[]) {
      if (typeof args[0] === 'string') texts.push(args[0]);
      if (Array.isArray(args[1])) params.push(...(args[1] as unknown[]));
      return query.apply(this, args);
    } as typeof pg.Client.prototype.query;
    try {
      await work();
    } finally {
      pg.Client.prototype.query = query as typeof pg.Client.prototype.query;
    }
    return { texts, params };
  }

  /** The machine's stored observations, oldest first. */
  const storedOf = async (machineId: string) =>
    (
      await t.db
        .selectFrom('observations')
        .select(['company_id', 'machine_id', 'ts', 'key', 'value'])
        .where('machine_id', '=', machineId)
        .orderBy('ts')
        .execute()
    ).map((r) => ({ ...r, ts: Number(r.ts) }));

  it("stores awkward text as it was, in a machine's first batches and later ones, and gives the driver no array to encode", async () => {
    const sent: ObservationRow[] = [];
    // Batch 1 makes the machine's and keys' ids, batch 2 reads them again (not yet known committed), from the
    // third on they are known before the transaction: 5 rows (a multi-row insert), then 70 (COPY).
    for (const [i, n] of [5, 5, 5, 70].entries()) {
      const observations = observationsOf('m1', 1000 * (i + 1), n);
      sent.push(...observations);
      const name = AWKWARD[i % AWKWARD.length] ?? 'P';
      const write = () =>
        writeBatch(t.db, {
          now: 1000 * (i + 2),
          observations,
          derived: [{ companyId: 'c', machineId: 'm1', from: 0, result: result(1000 * (i + 2), name) }],
          live: [],
          stats: [],
        });
      // Parameters in the driver's hands (a machine's first batches, a COPY's data), or written into one message's
      // text as literals (decision 1194): never an array.
      const { texts, params } = await driverGot(write);
      expect(texts.length > 0).toBe(dialect === 'postgres');
      expect(params.filter((p) => Array.isArray(p))).toEqual([]);
      const programs = await t.db
        .selectFrom('program_intervals')
        .select(['name', 'end_at'])
        .where('machine_id', '=', 'm1')
        .execute();
      expect(programs).toEqual([{ name, end_at: null }]);
      const states = await t.db.selectFrom('state_intervals').select('reason').execute();
      expect(states).toEqual([{ reason: name }]);
    }
    expect(await storedOf('m1')).toEqual(sent);
    const spans = await t.db.selectFrom('flag_spans').select(['kind', 'start_at', 'end_at']).execute();
    expect(spans.map((s) => ({ ...s, start_at: Number(s.start_at) }))).toEqual([
      { kind: 'spindle', start_at: 0, end_at: null },
    ]);
  });

  // Decision 1194: on PostgreSQL a batch whose ids are known is its statements in one message (their parameters
  // written as literals), with its begin and commit since decision 1199: one round trip for all its statements.
  // Text that a literal must escape (quotes, backslashes, a placeholder's look) is stored as it was, and no
  // statement of it runs as SQL.
  it('sends a batch as one message on PostgreSQL and stores text a literal must escape as it was', async () => {
    const names = [
      "it's",
      "\\'; drop table machine_live; --",
      '$1 $2',
      "E'x'",
      ...AWKWARD.filter((a) => a !== null),
    ];
    const stored: ObservationRow[] = [];
    for (const [i, name] of names.entries()) {
      const observations = [
        { company_id: 'c', machine_id: 'm1', ts: 1000 * (i + 1), key: 'program', value: name },
      ];
      stored.push(...observations);
      const { texts, params } = await driverGot(() =>
        writeBatch(t.db, {
          now: 1000 * (i + 2),
          observations,
          derived: [{ companyId: 'c', machineId: 'm1', from: 0, result: result(1000 * (i + 2), name) }],
          live: [],
          stats: [
            { sourceId: 's1', lines: i + 1, observations: i + 1, rejected: 0, lastLineAt: 1000 * (i + 1) },
          ],
        }),
      );
      if (dialect === 'postgres' && i >= 2) {
        // The first batches read or make the machine's and keys' ids in the transaction; from the third on, none.
        // Decision 1199: its begin and commit in the same message, one round trip for the whole batch.
        expect(texts).toHaveLength(1);
        expect(texts[0]).toMatch(/^begin;\nset local jit = off;\n[\s\S]*;\ncommit$/);
        expect(params).toEqual([]);
      }
      const programs = await t.db.selectFrom('program_intervals').select(['name', 'end_at']).execute();
      expect(programs).toEqual([{ name, end_at: null }]);
    }
    expect(await storedOf('m1')).toEqual(stored);
    expect(await t.db.selectFrom('machine_live').select('machine_id').execute()).toEqual([]);
  });
});
