// Decision 1169: a batch sends no delete for a machine whose stored records this writer knows can lose none, and no
// row it stored unchanged in its last committed batch; a batch that did not commit is remembered as nothing.
import pg from 'pg';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { DerivationResult, DurationMs, EpochMs } from '@takt/domain';
import { DIALECTS, freshDb } from '@takt/db/testing';
import { runningCurrent as current } from '../testing/derivation';
import type { TestDb } from '@takt/db/testing';
import { DerivedMemory } from './derived-memory';
import { writeBatch } from './store';
import type { DerivedWrite } from './store';

const ms = (n: number) => n as EpochMs;

/** Running from 0: ACTIVE, then (from `stopAt`) INACTIVE; program P1 open unless `programEnds`; a cycle a second. */
function result(now: number, stopAt?: number, programEnds?: number): DerivationResult {
  const intervals =
    stopAt == null
      ? [{ start: ms(0), end: ms(now), state: 'ACTIVE' as const, reason: null, open: true }]
      : [
          { start: ms(0), end: ms(stopAt), state: 'ACTIVE' as const, reason: null },
          { start: ms(stopAt), end: ms(now), state: 'INACTIVE' as const, reason: null, open: true },
        ];
  const cycles = [];
  for (let t = 1000; t <= now; t += 1000)
    cycles.push({
      start: ms(t - 1000),
      end: ms(t),
      duration: 1000 as DurationMs,
      count: 1,
      source: 'part_count' as const,
      setup: false,
    });
  return {
    intervals,
    cycles,
    programs: [
      programEnds == null
        ? { start: ms(0), end: ms(now), name: 'P1', open: true }
        : { start: ms(0), end: ms(programEnds), name: 'P1' },
    ],
    subprograms: [],
    faults: [],
    spindle: [{ start: ms(0), end: ms(now) }],
    inCut: [],
    current: { ...current, lastHeartbeat: ms(now) },
  };
}

describe.each(DIALECTS)('what a writer stored last (%s)', (dialect) => {
  let t: TestDb;
  let statements = 0;
  let failAt = Infinity;
  const query = pg.Client.prototype.query as (...args: unknown[]) => unknown;
  beforeEach(async () => {
    t = await freshDb(dialect);
    // PostgreSQL sends a batch's statements as one message (decision 1194): each of them counts.
    pg.Client.prototype.query = function (this: pg.Client, ...args: unknown[]) {
      if (typeof args[0] === 'string') statements += args[0].split(';\n').length - 1;
      return query.apply(this, args);
    } as typeof pg.Client.prototype.query;
  });
  afterEach(async () => {
    pg.Client.prototype.query = query as typeof pg.Client.prototype.query;
    await t.cleanup();
  });

  /** The database counting its statements; the `failAt`-th of a batch fails. */
  const counted = () =>
    t.db.withPlugin({
      transformQuery: (args) => args.node,
      transformResult: async (args) => {
        if (++statements >= failAt) throw new Error('the batch fails here');
        return args.result;
      },
    });

  /** A batch as the batch writer sends it: planned from memory, remembered once committed, forgotten if not. */
  async function batch(memory: DerivedMemory | null, owner: object, w: DerivedWrite): Promise<number> {
    statements = 0;
    const plan = memory?.plan([{ write: w, owner }]);
    try {
      await writeBatch(
        counted(),
        { observations: [], derived: [w], live: [], stats: [] },
        undefined,
        plan?.skip,
      );
    } catch (err) {
      memory?.forget([w.machineId]);
      throw err;
    } finally {
      failAt = Infinity;
    }
    if (plan) memory!.committed(plan);
    return statements;
  }

  const stored = async (machineId: string) => {
    const out: Record<string, unknown[]> = {};
    for (const table of ['state_intervals', 'program_intervals', 'cycles', 'flag_spans', 'faults'] as const)
      out[table] = (
        await t.db
          .selectFrom(table)
          .selectAll()
          .where('machine_id', '=', machineId)
          .orderBy('start_at')
          .execute()
      ).map((r) => {
        const { machine_id: _m, ...rest } = r as Record<string, unknown>;
        return Object.fromEntries(
          Object.entries(rest).map(([k, v]) => [
            k,
            typeof v === 'bigint' || typeof v === 'string' ? String(v) : v,
          ]),
        );
      });
    return out;
  };

  const write = (machineId: string, from: number, r: DerivationResult): DerivedWrite => ({
    companyId: 'c',
    machineId,
    from,
    result: r,
  });

  it('sends fewer statements for a machine whose open records did not change, and stores what a whole write stores', async () => {
    const memory = new DerivedMemory();
    const owner = {};
    const sent: Array<[number, number]> = [];
    // m1 through the memory, m2 without: the same writes.
    const steps: Array<[number, DerivationResult]> = [
      [0, result(5000)],
      [4000, result(6000)],
      [5000, result(7000)],
      // The state changes: the open interval closes and a new one opens (its key is new: still no delete).
      [6000, result(8000, 7500)],
      // The program ends with no next one: its open row has to go, so the delete is sent.
      [7000, result(9000, 7500, 8500)],
      [8000, result(10_000, 7500, 8500)],
    ];
    for (const [from, r] of steps)
      sent.push([
        await batch(memory, owner, write('m1', from, r)),
        await batch(null, owner, write('m2', from, r)),
      ]);
    expect(await stored('m1')).toEqual(await stored('m2'));
    // The first write is whole; the next two leave out the deletes (5 fewer on PostgreSQL, 8 on SQLite).
    expect(sent[0]![0]).toBe(sent[0]![1]);
    expect(sent[1]![0]).toBeLessThan(sent[1]![1]);
    expect(sent[2]![0]).toBeLessThan(sent[2]![1]);
    expect(sent[3]![0]).toBeLessThan(sent[3]![1]);
    expect(sent[4]![0]).toBe(sent[4]![1]);
    expect(sent[5]![0]).toBeLessThan(sent[5]![1]);
    // A late write (from before the remembered one) and another pipeline are written whole.
    const late = write('m1', 1000, result(10_000, 7500, 8500));
    expect(await batch(memory, owner, late)).toBe(await batch(null, owner, { ...late, machineId: 'm2' }));
    const rebuilt = write('m1', 9000, result(11_000, 7500, 8500));
    expect(await batch(memory, {}, rebuilt)).toBe(await batch(null, owner, { ...rebuilt, machineId: 'm2' }));
    expect(await stored('m1')).toEqual(await stored('m2'));
  });

  it('stores everything of the batch after one that rolled back', async () => {
    const memory = new DerivedMemory();
    const owner = {};
    await batch(memory, owner, write('m1', 0, result(5000)));
    await batch(null, owner, write('m2', 0, result(5000)));
    // The next batch (the state changes) fails at its last statement, after the derived writes: rolled back. Its
    // statements are counted on m3, written the same way.
    const m3 = new DerivedMemory();
    await batch(m3, owner, write('m3', 0, result(5000)));
    failAt = await batch(m3, owner, write('m3', 4000, result(6000, 5500)));
    await expect(batch(memory, owner, write('m1', 4000, result(6000, 5500)))).rejects.toThrow('fails here');
    expect((await stored('m1')).state_intervals).toHaveLength(1);
    // Tried again, it is stored as without any memory.
    await batch(memory, owner, write('m1', 4000, result(6000, 5500)));
    await batch(null, owner, write('m2', 4000, result(6000, 5500)));
    expect(await stored('m1')).toEqual(await stored('m2'));
    expect((await stored('m1')).state_intervals).toHaveLength(2);
  });
});
