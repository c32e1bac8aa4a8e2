// docs/decisions/0201-shdr-durability.md: an ingest worker killed (SIGKILL) at random
// moments while a real SHDR adapter streams loses nothing it had committed, stores nothing twice, and its
// derived records equal a from-scratch derivation of the stored observations.
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { DIALECTS, freshDb } from '@takt/db/testing';
import type { TestDb } from '@takt/db/testing';
import { MachinePipeline } from './pipeline';
import { CONNECTION_KEY } from '@takt/db';
import { feedStored } from './rebuild';
import { loadFieldMaps } from './store';
import type { FakeAdapter, WorkerProcess } from '../testing/test-support';
import { fakeAdapter, sleep, spawnWorker, waitFor } from '../testing/test-support';
import { overlappingIntervalsOfAll } from '../testing/intervals';
import { mulberry32 } from '../demo/demo-script';
import { aShdrMachine } from '../testing/shdr-machine';

const KILLS = 6;
/**
 * The kill delays' seed, named in every failure: TAKT_TEST_SEED=<seed> replays a failed run's schedule (not its
 * timing, which the machine's load decides).
 */
const SEED = Number(process.env.TAKT_TEST_SEED ?? Math.floor(Math.random() * 2 ** 32));

/**
 * An adapter that streams a line every 3 ms on whatever connection is open, each line tagged `seq|n` (n
 * never repeats). Like a real adapter it sends its current values first on every connection, here once the
 * worker's `* PING` shows it took the link (so no line is stamped before the worker's CONNECTED).
 */
async function streamingAdapter() {
  const sent: number[][] = [];
  const keysOf = new Map<number, string[]>();
  const connectionOf = new Map<number, number>();
  /** Each line's stamp and the adapter's clock when it sent it (a stamp ahead of that clock is placed at its receipt). */
  const sentAt = new Map<number, string>();
  let streaming = true;
  let n = 0;
  let lastTs = 0;
  let step = 0;
  let execution = 'READY';
  let parts = 100;
  let program = 1;
  const started = new Set<number>();
  const adapter: FakeAdapter = await fakeAdapter(
    (_socket, index) => {
      sent[index] = [];
    },
    (socket, text, index) => {
      if (text !== '* PING' || started.has(index)) return;
      started.add(index);
      const line = (pairs: Array<[string, string | number]>) => {
        if (socket.destroyed) return;
        const seq = ++n;
        const now = Date.now();
        lastTs = Math.max(now, lastTs + 1); // one line per millisecond at most: ts names the line
        sent[index]!.push(seq);
        sentAt.set(seq, `stamped ${lastTs} at ${now}`);
        keysOf.set(seq, ['seq', ...pairs.map(([k]) => k)]);
        connectionOf.set(seq, index);
        const body = pairs.map(([k, v]) => `${k}|${v}`).join('|');
        socket.write(`${new Date(lastTs).toISOString()}|seq|${seq}|${body}\n`);
      };
      line([
        ['avail', 'AVAILABLE'],
        ['program', `O${program}`],
        ['execution', execution],
        ['part_count', parts],
      ]);
      const timer = setInterval(() => {
        if (!streaming) return;
        step++;
        const pairs: Array<[string, string | number]> = [];
        if (step % 15 === 0)
          pairs.push(['execution', (execution = execution === 'ACTIVE' ? 'READY' : 'ACTIVE')]);
        if (step % 25 === 0) pairs.push(['part_count', ++parts]);
        if (step % 70 === 0) pairs.push(['program', `O${++program}`]);
        if (pairs.length === 0) pairs.push(['execution', execution]);
        line(pairs);
      }, 3);
      socket.on('close', () => clearInterval(timer));
    },
  );
  return {
    adapter,
    sent,
    keysOf,
    connectionOf,
    sentAt,
    stop: () => {
      streaming = false;
    },
  };
}

/**
 * The stored observations as runs (each begins at a CONNECTED row), those that stored machine data: a run takes over
 * at its first data (decision 1065), so one killed before any derived nothing.
 */
function runsWithData<T extends { key: string; value: string | null }>(rows: readonly T[]): T[][] {
  const runs: T[][] = [];
  for (const r of rows) {
    if (r.key === CONNECTION_KEY && r.value === 'CONNECTED') runs.push([]);
    runs.at(-1)?.push(r);
  }
  return runs.filter((run) => run.some((r) => r.key !== CONNECTION_KEY));
}

describe.each(DIALECTS)('an ingest worker killed at random moments (%s)', (dialect) => {
  let t: TestDb;
  let adapter: Awaited<ReturnType<typeof streamingAdapter>>;

  beforeEach(async () => {
    t = await freshDb(dialect);
    adapter = await streamingAdapter();
  });
  afterEach(async () => {
    await adapter.adapter.close();
    // Whatever the kills did, a machine is in one state at a time in what the workers stored.
    expect(await overlappingIntervalsOfAll(t.db)).toEqual([]);
    await t.cleanup();
  });

  it('loses and doubles nothing it committed, and derives what a rebuild of the stored data derives', async () => {
    const { company, machineId } = await aShdrMachine(t.db, adapter.adapter.port);
    const observations = () =>
      t.db
        .selectFrom('observations')
        .select(['ts', 'key', 'value'])
        .where('machine_id', '=', machineId)
        .orderBy('ts')
        .orderBy('key')
        .execute();

    const kills: string[] = [];
    const random = mulberry32(SEED);
    const storedRuns = async () => runsWithData(await observations()).length;
    // Each worker's process is spawned while the one before runs: it loads its modules meanwhile and opens
    // nothing before start(), so the kills fall in the workers' own start-up and runs, never in module loading.
    const spawned: WorkerProcess[] = [];
    const spawnNext = () => {
      const w = spawnWorker(t.url);
      spawned.push(w);
      return w;
    };
    let next = spawnNext();
    /** The last run's link (its index among the adapter's connections). */
    let connection = -1;
    try {
      // On a loaded machine a kill can come before its worker stored anything: go on (up to 3× the kills)
      // until at least two killed runs stored data, or the test would prove nothing about restarts.
      for (let k = 0; k < KILLS || (k < 3 * KILLS && (await storedRuns()) < 2); k++) {
        const worker = next;
        const firstLink = adapter.adapter.sockets.length;
        expect(await worker.start(), worker.stderr()).toBe(true);
        let up = false;
        void worker.ready.then((ready) => (up = ready));
        next = spawnNext();
        // Every third kill counts from the start (it may hit start-up), the others from the first batches on.
        const fromStart = k % 3 === 0;
        const delay = Math.round(random() * (fromStart ? 1500 : 600));
        if (!fromStart && (await worker.ready)) await sleep(50);
        await sleep(delay);
        await worker.kill();
        // The adapter's connections accepted during this worker's life (the next one starts after the kill), so
        // that a failure naming a row's connection names its worker too.
        const accepted = adapter.adapter.sockets.length;
        const opened =
          accepted === firstLink
            ? 'no connection'
            : `connection ${firstLink}${accepted - firstLink > 1 ? `-${accepted - 1}` : ''}`;
        kills.push(`${fromStart ? 'start' : 'ready'}+${delay}ms${up ? '' : ' (in start-up)'} (${opened})`);
      }

      // A last run that is let finish: every line it was sent gets committed.
      const links = adapter.adapter.sockets.length;
      const last = next;
      expect(await last.start(), last.stderr()).toBe(true);
      expect(await last.ready, last.stderr()).toBe(true);
      await waitFor(() => adapter.adapter.sockets.length > links, 20_000, 'the last link');
      connection = adapter.adapter.sockets.length - 1;
      await waitFor(() => (adapter.sent[connection]?.length ?? 0) > 50, 20_000, 'lines on the last link');
      adapter.stop();
      await sleep(20);
      const lastSeq = String(adapter.sent[connection]!.at(-1));
      for (let tries = 0; ; tries++) {
        const rows = await observations();
        if (rows.some((r) => r.key === 'seq' && r.value === lastSeq)) break;
        if (tries > 400) throw new Error(`the last run never stored seq ${lastSeq}: ${last.stderr()}`);
        await sleep(25);
      }
      await sleep(100); // the batch with the last line holds its derived records: nothing else is due
    } finally {
      await Promise.all(spawned.map((w) => w.kill()));
    }
    const why = `seed ${SEED}; kills: ${kills.join(', ')}`;

    const rows = await observations();
    // Nothing doubled: one row per (ts, key), and the worker's own rows are only connection changes. A failure
    // names the rows and the connection their line came on: one line stored twice, or two lines placed alike.
    const count = new Map<string, number>();
    for (const r of rows) count.set(`${r.ts}|${r.key}`, (count.get(`${r.ts}|${r.key}`) ?? 0) + 1);
    const doubled = rows.filter((r) => count.get(`${r.ts}|${r.key}`)! > 1);
    const onConnection = (r: (typeof rows)[number]) =>
      `${r.ts} ${r.key}=${r.value}${r.key === 'seq' ? ` (connection ${adapter.connectionOf.get(Number(r.value))}, ${adapter.sentAt.get(Number(r.value))})` : ''}`;
    expect(doubled.map(onConnection), why).toEqual([]);
    const lines = rows.filter((r) => r.key !== CONNECTION_KEY);
    const stored = lines.filter((r) => r.key === 'seq').map((r) => Number(r.value));
    // Every stored line is whole (a batch commits whole lines) …
    const byTs = new Map<number, string[]>();
    for (const r of lines) byTs.set(r.ts, [...(byTs.get(r.ts) ?? []), r.key]);
    const seqAt = new Map(lines.filter((r) => r.key === 'seq').map((r) => [r.ts, Number(r.value)]));
    for (const [ts, keys] of byTs) {
      const seq = seqAt.get(ts);
      expect(seq, `a part of a line without its seq at ${ts}; ${why}`).toBeDefined();
      expect([...keys].sort(), why).toEqual([...adapter.keysOf.get(seq!)!].sort());
    }
    // … and what each connection stored is a prefix of what the adapter sent on it: no gap, no repeat.
    for (const [index, sent] of adapter.sent.entries()) {
      const mine = stored.filter((s) => adapter.connectionOf.get(s) === index).sort((a, b) => a - b);
      expect(mine, `connection ${index}; ${why}`).toEqual(sent.slice(0, mine.length));
    }
    expect(stored.filter((s) => adapter.connectionOf.get(s) === connection)).toHaveLength(
      adapter.sent[connection]!.length,
    );

    // Derived records equal deriving the stored observations from scratch: a restart is a new run that
    // takes over at its first stored machine data (decisions 0201, 1065), so each run is derived on its own
    // and the previous run's open records end where the next one's data begins.
    const runs = runsWithData(rows);
    expect(runs.length, `runs that stored data; ${why}`).toBeGreaterThanOrEqual(3);
    const fields = (await loadFieldMaps(t.db, [machineId])).get(machineId)!;
    const expected = { intervals: [] as unknown[], programs: [] as unknown[], cycles: [] as unknown[] };
    let current: string | undefined;
    for (const [i, run] of runs.entries()) {
      const next = runs[i + 1];
      const cut = next ? Math.min(...next.filter((r) => r.key !== CONNECTION_KEY).map((r) => r.ts)) : null;
      const pipeline = new MachinePipeline(company.id, machineId, fields, 'part_count', 'shdr', run[0]!.ts);
      feedStored(pipeline, run);
      const result = pipeline.take((cut ?? Date.now()) - 1)!.result;
      const end = (r: { end: number; open?: boolean }) => (r.open && cut === null ? null : r.end);
      expected.intervals.push(
        ...result.intervals.map((r) => ({
          start_at: r.start,
          end_at: end(r),
          state: r.state,
          reason: r.reason,
        })),
      );
      expected.programs.push(
        ...[
          ...result.programs.map((p) => ({ p, sub: 0 })),
          ...result.subprograms.map((p) => ({ p, sub: 1 })),
        ].map(({ p, sub }) => ({ sub, start_at: p.start, end_at: end(p), name: p.name })),
      );
      expected.cycles.push(
        ...result.cycles.map((c) => ({ start_at: c.start, end_at: c.end, count: c.count })),
      );
      current = result.current.state;
    }
    const table = async (name: 'state_intervals' | 'program_intervals' | 'cycles', columns: string[]) =>
      (await t.db
        .selectFrom(name)
        .select(columns as never[])
        .where('machine_id', '=', machineId)
        .orderBy('start_at')
        // Two cycles can start at one time (a part counted on the line that turns ACTIVE: a zero-length cycle and
        // the next); their order is the key's (start, end), not whatever the database returns first.
        .orderBy('end_at')
        .execute()) as unknown[];
    expect(await table('state_intervals', ['start_at', 'end_at', 'state', 'reason']), why).toEqual(
      expected.intervals,
    );
    const programs = (await table('program_intervals', ['sub', 'start_at', 'end_at', 'name'])) as Array<{
      sub: number;
      start_at: number;
    }>;
    const bySubThenStart = (a: { sub: number; start_at: number }, b: { sub: number; start_at: number }) =>
      a.sub - b.sub || a.start_at - b.start_at;
    expect(programs.sort(bySubThenStart), why).toEqual(
      (expected.programs as Array<{ sub: number; start_at: number }>).sort(bySubThenStart),
    );
    const byStartThenEnd = (
      a: { start_at: number; end_at: number },
      b: { start_at: number; end_at: number },
    ) => a.start_at - b.start_at || a.end_at - b.end_at;
    expect(await table('cycles', ['start_at', 'end_at', 'count']), why).toEqual(
      (expected.cycles as Array<{ start_at: number; end_at: number }>).sort(byStartThenEnd),
    );
    expect(expected.cycles.length, 'the runs made parts').toBeGreaterThan(0);
    const live = await t.db
      .selectFrom('machine_live')
      .select('state')
      .where('machine_id', '=', machineId)
      .executeTakeFirst();
    expect(live?.state, why).toBe(current);
  }, 240_000);
});
