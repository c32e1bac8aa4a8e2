// A batch replaces each machine's derived records from a time on (ARCHITECTURE "Ingest contract"): those ending at
// or after it and the open ones, found through the (machine_id, end_at) index of migration 0047 (decision 1122), for
// all the batch's machines in one statement a table on PostgreSQL. Records ending before the time, and every other
// machine's, stay as they were.
import { sql } from 'kysely';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { DerivationResult, DurationMs, EpochMs } from '@takt/domain';
import { DIALECTS, freshDb } from '@takt/db/testing';
import { runningCurrent as current } from '../testing/derivation';
import type { TestDb } from '@takt/db/testing';
import { writeBatch } from './store';
import type { DerivedWrite } from './store';

const ms = (n: number) => n as EpochMs;

/** Machine history: a program a second from `start` to `end`, the last open; a fault open from `start`. */
function history(start: number, end: number): DerivationResult {
  const programs = [];
  for (let t = start; t < end; t += 1000)
    programs.push({
      start: ms(t),
      end: ms(t + 1000),
      name: `P${t}`,
      ...(t + 1000 >= end ? { open: true } : {}),
    });
  return {
    intervals: [{ start: ms(start), end: ms(end), state: 'ACTIVE', reason: null, open: true }],
    cycles: programs.map((p) => ({
      start: p.start,
      end: p.end,
      duration: 1000 as DurationMs,
      count: 1,
      source: 'part_count' as const,
      setup: false,
    })),
    programs,
    subprograms: [],
    faults: [
      {
        item: 'system',
        start: ms(start),
        end: ms(end),
        duration: (end - start) as DurationMs,
        value: 'x',
        nativecode: null,
        type: null,
        open: true,
      },
    ],
    spindle: [],
    inCut: [],
    current,
  };
}

describe.each(DIALECTS)('replacing derived records from a time on (%s)', (dialect) => {
  let t: TestDb;
  beforeEach(async () => {
    t = await freshDb(dialect);
  });
  afterEach(async () => {
    await t.cleanup();
  });

  const write = (derived: DerivedWrite[]) =>
    writeBatch(t.db, { observations: [], derived, live: [], stats: [] });
  const rows = async (
    table: 'program_intervals' | 'cycles' | 'state_intervals' | 'faults',
    machine: string,
  ) =>
    (
      await t.db
        .selectFrom(table)
        .select(['start_at', 'end_at'])
        .where('machine_id', '=', machine)
        .orderBy('start_at')
        .execute()
    ).map((r) => [Number(r.start_at), r.end_at == null ? null : Number(r.end_at)]);

  /** A machine's spindle and in-cut spans, [kind, start, end], by kind and start. */
  const flagSpans = async (machine: string) =>
    (
      await t.db
        .selectFrom('flag_spans')
        .select(['kind', 'start_at', 'end_at'])
        .where('machine_id', '=', machine)
        .orderBy('kind')
        .orderBy('start_at')
        .execute()
    ).map((r) => [r.kind, Number(r.start_at), r.end_at == null ? null : Number(r.end_at)]);

  it('replaces what ends from the time on and the open records, of every machine of the batch, and nothing else', async () => {
    const machines = ['m1', 'm2', 'm3'];
    await write(machines.map((m) => ({ companyId: 'c', machineId: m, from: 0, result: history(0, 10_000) })));
    // m1 and m2 go on from 7 s: their records from there are replaced by the new history; m3 is not in the batch.
    await write(
      ['m1', 'm2'].map((m) => ({ companyId: 'c', machineId: m, from: 7000, result: history(0, 12_000) })),
    );
    for (const m of ['m1', 'm2']) {
      const programs = await rows('program_intervals', m);
      expect(programs.length).toBe(12);
      expect(programs.slice(0, 6)).toEqual([0, 1, 2, 3, 4, 5].map((s) => [s * 1000, (s + 1) * 1000]));
      expect(programs.at(-1)).toEqual([11_000, null]);
      // No record twice: each start once.
      expect(new Set(programs.map((p) => p[0])).size).toBe(programs.length);
      expect((await rows('cycles', m)).map((c) => c[1])).toEqual(
        Array.from({ length: 12 }, (_, i) => (i + 1) * 1000),
      );
      expect(await rows('state_intervals', m)).toEqual([[0, null]]);
      expect(await rows('faults', m)).toEqual([[0, null]]);
    }
    const untouched = await rows('program_intervals', 'm3');
    expect(untouched.length).toBe(10);
    expect(untouched.at(-1)).toEqual([9000, null]);
  });

  it('writes a record the batch leaves as it was no second time (decision 1149)', async () => {
    const again = (from: number, end: number) =>
      write([{ companyId: 'c', machineId: 'm1', from, result: history(0, end) }]);
    // The stored row versions (PostgreSQL's xmin: the transaction that wrote each), by table and start.
    const versions = async () => {
      const out = new Map<string, string>();
      // Program and state intervals are views over a closed and an open table since migrations 0059 and 0062
      // (decisions 1161, 1180), cycles one over cycle_rows since migration 0064 (decision 1182).
      const m1 = sql`(select id from observation_machines where machine_id = 'm1')`;
      const narrow = { program_intervals: 'program', state_intervals: 'state' } as const;
      for (const table of ['state_intervals', 'program_intervals', 'cycles'] as const) {
        const r = await sql<{ start_at: string; v: string }>`${
          table === 'cycles'
            ? sql`select start_at, xmin::text as v from cycle_rows where m = ${m1}`
            : sql`select start_at, xmin::text as v from ${sql.table(`${narrow[table]}_rows`)} where m = ${m1}
                union all select start_at, xmin::text as v from ${sql.table(`${narrow[table]}_open`)} where m = ${m1}`
        }`.execute(t.db);
        for (const row of r.rows) out.set(`${table} ${Number(row.start_at)}`, row.v);
      }
      return out;
    };
    await again(0, 10_000);
    const first = dialect === 'postgres' ? await versions() : null;
    // The same history from 9.5 s: the open state and program and the last cycle are as stored.
    await again(9500, 10_000);
    expect(await rows('program_intervals', 'm1')).toHaveLength(10);
    expect((await rows('program_intervals', 'm1')).at(-1)).toEqual([9000, null]);
    expect(await rows('state_intervals', 'm1')).toEqual([[0, null]]);
    if (first) expect(await versions()).toEqual(first);
    // A second more: the open program ends and a new one opens; the state is still the same open interval.
    await again(9500, 11_000);
    expect((await rows('program_intervals', 'm1')).slice(-2)).toEqual([
      [9000, 10_000],
      [10_000, null],
    ]);
    expect(await rows('state_intervals', 'm1')).toEqual([[0, null]]);
    expect((await rows('cycles', 'm1')).map((c) => c[1]).slice(-2)).toEqual([10_000, 11_000]);
    if (first) {
      const now = await versions();
      expect(now.get('state_intervals 0')).toBe(first.get('state_intervals 0'));
      expect(now.get('program_intervals 8000')).toBe(first.get('program_intervals 8000'));
      expect(now.get('program_intervals 9000')).not.toBe(first.get('program_intervals 9000'));
    }
  });

  it('a take-over ends the open program at its time and a new program updates the open row (decision 1161)', async () => {
    await write([{ companyId: 'c', machineId: 'm1', from: 0, result: history(0, 10_000) }]);
    const opening = (start: number, end: number) => ({
      ...history(start, end),
      programs: [{ start: ms(start), end: ms(end), name: `Q${start}`, open: true }],
    });
    await write([
      { companyId: 'c', machineId: 'm1', from: 9500, takeOverAt: 9500, result: opening(9500, 9800) },
    ]);
    expect((await rows('program_intervals', 'm1')).slice(-3)).toEqual([
      [8000, 9000],
      [9000, 9500],
      [9500, null],
    ]);
    // The next program: the open row of the machine takes its start and name, the one before is closed.
    await write([{ companyId: 'c', machineId: 'm1', from: 9800, result: opening(11_000, 12_000) }]);
    const open = await sql<{
      start_at: string;
      name: string;
    }>`select start_at, name from program_open`.execute(t.db);
    expect(open.rows.map((r) => [Number(r.start_at), r.name])).toEqual([[11_000, 'Q11000']]);
    expect((await rows('program_intervals', 'm1')).slice(-2)).toEqual([
      [9000, 9500],
      [11_000, null],
    ]);
  });

  it('stores a closed span once and the open span of each kind in place, and a take-over closes them (decision 1171)', async () => {
    const spans = (end: number, spindle: number[][], inCut: number[][]): DerivationResult => ({
      ...history(0, end),
      spindle: spindle.map(([s, e]) => ({ start: ms(s!), end: ms(e!) })),
      inCut: inCut.map(([s, e]) => ({ start: ms(s!), end: ms(e!) })),
      // A span reaching the machine's last heartbeat is stored open.
      current: { ...current, lastHeartbeat: ms(end) },
    });
    const stored = () => flagSpans('m1');
    const openVersions = async () =>
      (
        await sql<{
          kind: string;
          v: string;
        }>`select kind, xmin::text as v from flag_open order by kind`.execute(t.db)
      ).rows;
    await write([
      {
        companyId: 'c',
        machineId: 'm1',
        from: 0,
        result: spans(
          10_000,
          [
            [0, 1000],
            [2000, 3000],
            [9000, 10_000],
          ],
          [
            [500, 900],
            [9500, 10_000],
          ],
        ),
      },
    ]);
    const first = dialect === 'postgres' ? await openVersions() : null;
    // From 9 s: the open spindle span ended at 9.8 s and another is open since 9.9 s; in-cut is still open.
    await write([
      {
        companyId: 'c',
        machineId: 'm1',
        from: 9000,
        result: spans(
          11_000,
          [
            [9000, 9800],
            [9900, 11_000],
          ],
          [[9500, 11_000]],
        ),
      },
    ]);
    expect(await stored()).toEqual([
      ['incut', 500, 900],
      ['incut', 9500, null],
      ['spindle', 0, 1000],
      ['spindle', 2000, 3000],
      ['spindle', 9000, 9800],
      ['spindle', 9900, null],
    ]);
    const closed = await sql<{ n: number }>`select count(*) as n from flag_rows`.execute(t.db);
    expect(Number(closed.rows[0]!.n)).toBe(4);
    if (first) {
      // The open in-cut span was left as it was; the spindle's open row took the new start.
      const now = await openVersions();
      expect(now.map((r) => r.kind)).toEqual(['incut', 'spindle']);
      expect(now[0]!.v).toBe(first[0]!.v);
      expect(now[1]!.v).not.toBe(first[1]!.v);
    }
    // A new worker takes over at 10.5 s with no span after it: both open spans end there.
    await write([
      {
        companyId: 'c',
        machineId: 'm1',
        from: 10_500,
        takeOverAt: 10_500,
        result: spans(10_500, [], []),
      },
    ]);
    expect(await stored()).toEqual([
      ['incut', 500, 900],
      ['incut', 9500, 10_500],
      ['spindle', 0, 1000],
      ['spindle', 2000, 3000],
      ['spindle', 9000, 9800],
      ['spindle', 9900, 10_500],
    ]);
    const open = await sql<{ kind: string; start_at: string | null }>`select kind, start_at from flag_open
      order by kind`.execute(t.db);
    // PostgreSQL keeps each kind's row with no open span, for the next one to update in place; SQLite deletes it.
    expect(open.rows.map((r) => [r.kind, r.start_at])).toEqual(
      dialect === 'postgres'
        ? [
            ['incut', null],
            ['spindle', null],
          ]
        : [],
    );
    if (dialect === 'postgres') {
      // The next open span takes the kept row, and the view reads it.
      await write([
        { companyId: 'c', machineId: 'm1', from: 10_500, result: spans(12_000, [[11_000, 12_000]], []) },
      ]);
      expect((await stored()).at(-1)).toEqual(['spindle', 11_000, null]);
      const rows = await sql<{ n: number }>`select count(*) as n from flag_open`.execute(t.db);
      expect(Number(rows.rows[0]!.n)).toBe(2);
    }
  });

  // Decision 1225: the previous run's node's clock ahead of the new run's, so a closed record of that run starts before
  // the takeover and ends after it. The takeover cuts it there (programs, spindle and in-cut spans, states) and drops
  // a cycle ending after it (the new run derives from the rows stamped from its start on); no instant is held twice.
  it('a take-over cuts a closed record reaching past its time there and drops a cycle ending after it', async () => {
    await write([
      {
        companyId: 'c',
        machineId: 'm1',
        from: 0,
        result: {
          ...history(0, 10_000),
          intervals: [
            { start: ms(0), end: ms(8000), state: 'ACTIVE', reason: null },
            { start: ms(8000), end: ms(9200), state: 'INACTIVE', reason: null },
            { start: ms(9200), end: ms(10_000), state: 'ACTIVE', reason: null, open: true },
          ],
          spindle: [0, 4, 8].map((s) => ({ start: ms(s * 1000), end: ms(s * 1000 + 1000) })),
          inCut: [{ start: ms(8200), end: ms(9600) }],
          current: { ...current, lastHeartbeat: ms(10_000) },
        },
      },
    ]);
    await write([
      {
        companyId: 'c',
        machineId: 'm1',
        from: 8500,
        takeOverAt: 8500,
        result: {
          ...history(8500, 9000),
          intervals: [{ start: ms(8500), end: ms(9000), state: 'INACTIVE', reason: null, open: true }],
          cycles: [],
          current: { ...current, lastHeartbeat: ms(9000) },
        },
      },
    ]);
    expect(await rows('state_intervals', 'm1')).toEqual([
      [0, 8000],
      [8000, 8500],
      [8500, null],
    ]);
    expect((await rows('program_intervals', 'm1')).slice(-3)).toEqual([
      [7000, 8000],
      [8000, 8500],
      [8500, null],
    ]);
    expect(await flagSpans('m1')).toEqual([
      ['incut', 8200, 8500],
      ['spindle', 0, 1000],
      ['spindle', 4000, 5000],
      ['spindle', 8000, 8500],
    ]);
    expect((await rows('cycles', 'm1')).map((c) => c[1])).toEqual(
      Array.from({ length: 8 }, (_, i) => (i + 1) * 1000),
    );
  });

  it('finds the records to replace through the (machine_id, end_at) index of migration 0047', async () => {
    const names =
      dialect === 'sqlite'
        ? (
            await t.db
              .selectFrom('sqlite_master' as never)
              .select('name' as never)
              .where('type' as never, '=', 'index' as never)
              .execute()
          ).map((r) => (r as { name: string }).name)
        : (
            await t.db
              .selectFrom('pg_indexes' as never)
              .select('indexname' as never)
              .execute()
          ).map((r) => (r as { indexname: string }).indexname);
    expect(names).toContain('faults_machine_end');
    // program_rows and flag_rows are replaced through their primary key (decision 1181, migration 0063).
    expect(names).not.toContain('program_rows_m_end');
    expect(names).not.toContain('flag_rows_m_end');
    // Nor state_rows (decision 1180, migration 0062).
    expect(names).not.toContain('state_rows_m_end');
  });

  it('replaces the closed record reaching the time and none before it, from the last start before it (decision 1181)', async () => {
    // Programs of a second from 0 s to 10 s (the last open), spindle spans [0, 1), [2, 3), … [8, 9) s.
    const spans = (from: number, spindle: number[][]) => [
      {
        companyId: 'c',
        machineId: 'm1',
        from,
        result: {
          ...history(0, 10_000),
          spindle: spindle.map(([s, e]) => ({ start: ms(s!), end: ms(e!) })),
          current: { ...current, lastHeartbeat: ms(10_000) },
        },
      },
    ];
    await write(
      spans(
        0,
        [0, 2, 4, 6, 8].map((s) => [s * 1000, s * 1000 + 1000]),
      ),
    );
    const stored = async () => {
      const programs = await rows('program_intervals', 'm1');
      const spindle = await t.db
        .selectFrom('flag_spans')
        .select(['start_at', 'end_at'])
        .where('kind', '=', 'spindle')
        .orderBy('start_at')
        .execute();
      return { programs, spindle: spindle.map((r) => [Number(r.start_at), Number(r.end_at)]) };
    };
    // From 7 s, where [6, 7) s ends and [7, 8) s starts: both are replaced (a record ending at the time is, decision
    // 1122); the new history has neither (its program from 6.5 s on is open).
    const later = (from: number, programs: Array<[number, number | null]>, spindle: number[][]) =>
      write(
        spans(from, spindle).map((w) => ({
          ...w,
          result: {
            ...w.result,
            programs: programs.map(([s, e]) => ({
              start: ms(s),
              end: ms(e ?? 12_000),
              name: `R${s}`,
              ...(e == null ? { open: true } : {}),
            })),
          },
        })),
      );
    await later(7000, [[6500, null]], [[6500, 9000]]);
    expect((await stored()).programs.slice(-2)).toEqual([
      [5000, 6000],
      [6500, null],
    ]);
    // Inside a record (8.5 s in [6.5, 9) s): it is replaced, the one before it is not.
    await later(8500, [[6500, null]], [[6700, 8800]]);
    expect((await stored()).spindle).toEqual([
      [0, 1000],
      [2000, 3000],
      [4000, 5000],
      [6700, 8800],
    ]);
  });
});
