// Decision 0970: ingest nodes share the machines through leases in PostgreSQL. Two worker processes on four real
// SHDR adapters split the machines; a node started later gets half; a node killed with SIGKILL has its machines
// taken over within a lease period and a balancing round (15 s at the defaults; the nodes here run on half of
// them); and every machine's stored observations and state time equal those of a single node that listened to
// the same adapters all along. Decision 0971: a machine handed over while its adapter sends changes continues
// its run on the new node, with nothing lost, doubled or moved.
import type net from 'node:net';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { Kysely } from 'kysely';
import type { Database } from '@takt/db';
import { CONNECTION_KEY, leaseHolders } from '@takt/db';
import { DIALECTS, freshDb } from '@takt/db/testing';
import type { TestDb } from '@takt/db/testing';
import type { FakeAdapter, WorkerProcess } from '../testing/test-support';
import { LOOPBACK_SOURCES, fakeAdapter, sleep, spawnWorker, waitFor } from '../testing/test-support';
import type { IngestService } from './ingest';
import { startIngest } from './ingest';
import { LEASE_RENEW_MS, LEASE_TTL_MS } from './leases';
import { overlappingIntervalsOfAll } from '../testing/intervals';
import { shdrMachinesOn } from '../testing/shdr-machine';

const MACHINES = 4;
/** Script lines per phase and the time between them. */
const LINES = 120;
const STEP_MS = 8;
/** issue: a dead node's machines are taken over within 15 s. */
const TAKEOVER_MS = 15_000;
/**
 * A takeover waits for the dead node's leases to run out (at most a lease period after its last renewal) and
 * for the survivor's next balancing round (at most a renewal period), then takes the round's own work.
 */
const ROUND_WORK_MS = 2_000;
/**
 * The nodes' lease period and renewal here: half of the defaults, in the same ratio (the takeover, the
 * hand-overs and the balancing rounds take half the time); the defaults are checked against the 15 s apart.
 */
const NODE_LEASES = { ttlMs: LEASE_TTL_MS / 2, renewMs: LEASE_RENEW_MS / 2 };
/** The time between the adapters' changes while node B joins. */
const BUSY_MS = 200;

/**
 * A simulated SHDR adapter playing one script to every client that took the link (sent `* PING`), as a real
 * adapter serves several agents. `play(n)` sends the next n script lines, each tagged `seq|n`; a client that
 * connects gets the current values first, stamped with the time they were last sent (a new run starts from
 * them at its connect: decision 0201).
 */
async function scriptedAdapter(index: number) {
  const clients = new Set<net.Socket>();
  let n = 0;
  let lastTs = Date.now();
  let execution = 'READY';
  let parts = 10 * index;
  let program = 1;
  const current = () => `avail|AVAILABLE|program|O${program}|execution|${execution}|part_count|${parts}`;
  const send = (socket: net.Socket, ts: number, body: string) => {
    if (!socket.destroyed) socket.write(`${new Date(ts).toISOString()}|${body}\n`);
  };
  const adapter: FakeAdapter = await fakeAdapter(
    (socket) => socket.on('close', () => clients.delete(socket)),
    (socket, text) => {
      if (text !== '* PING' || clients.has(socket)) return;
      clients.add(socket);
      send(socket, lastTs, current());
    },
  );
  return {
    adapter,
    clients: () => clients.size,
    /** Lines sent so far (seq 1..sent). */
    sent: () => n,
    /** `busy`: every line changes the execution and counts a part (a change in any gap is noticed). */
    async play(lines: number, busy = false) {
      for (let i = 0; i < lines; i++) {
        const seq = ++n;
        const pairs: string[] = [];
        // Machine-specific rhythm, so the four machines' state times differ.
        if (busy || seq % (11 + index) === 0)
          pairs.push(`execution|${(execution = execution === 'ACTIVE' ? 'READY' : 'ACTIVE')}`);
        if (busy || seq % 7 === 0) pairs.push(`part_count|${++parts}`);
        if (seq % 50 === 0) pairs.push(`program|O${++program}`);
        lastTs = Math.max(Date.now(), lastTs + 1);
        for (const socket of clients) send(socket, lastTs, [`seq|${seq}`, ...pairs].join('|'));
        await sleep(STEP_MS);
      }
    },
  };
}

type Scripted = Awaited<ReturnType<typeof scriptedAdapter>>;

/** A company with one SHDR machine per adapter; the machine ids in adapter order. */
function plant(db: Kysely<Database>, adapters: readonly Scripted[]): Promise<string[]> {
  return shdrMachinesOn(
    db,
    adapters.map((a) => a.adapter.port),
  );
}

/** Waits until every machine stored every script line its adapter sent. */
async function allStored(
  db: Kysely<Database>,
  machines: readonly string[],
  adapters: readonly Scripted[],
  what: string,
) {
  for (const [i, machineId] of machines.entries()) {
    const want = adapters[i]!.sent();
    for (let tries = 0; ; tries++) {
      const rows = await db
        .selectFrom('observations')
        .select((eb) => eb.fn.countAll<number>().as('n'))
        .where('machine_id', '=', machineId)
        .where('key', '=', 'seq')
        .executeTakeFirstOrThrow();
      if (Number(rows.n) >= want) break;
      if (tries > 600) throw new Error(`${what}: machine ${i} stored ${rows.n} of ${want} lines`);
      await sleep(25);
    }
  }
  await sleep(100); // the batch with the last line holds its derived records: nothing else is due
}

/**
 * State time per state within [from, to], and the order of states there (adjacent repeats merged); `at` maps the
 * stored times (`inCluster`).
 */
async function stateTime(
  db: Kysely<Database>,
  machineId: string,
  from: number,
  to: number,
  at: (t: number) => number = (t) => t,
) {
  const rows = await db
    .selectFrom('state_intervals')
    .select(['start_at', 'end_at', 'state'])
    .where('machine_id', '=', machineId)
    .orderBy('start_at')
    .execute();
  const ms: Record<string, number> = {};
  const order: string[] = [];
  for (const r of rows) {
    const start = Math.max(at(r.start_at), from);
    const end = Math.min(r.end_at == null ? Infinity : at(r.end_at), to);
    if (end <= start) continue;
    ms[r.state] = (ms[r.state] ?? 0) + (end - start);
    if (order.at(-1) !== r.state) order.push(r.state);
  }
  return { ms, order };
}

/** The script's observations as stored: every row of a line tagged `seq` (current values and link rows aside). */
async function scriptRows(db: Kysely<Database>, machineId: string) {
  const rows = await db
    .selectFrom('observations')
    .select(['ts', 'key', 'value'])
    .where('machine_id', '=', machineId)
    .where('key', '!=', CONNECTION_KEY)
    .orderBy('ts')
    .orderBy('key')
    .execute();
  const lineTimes = new Set(rows.filter((r) => r.key === 'seq').map((r) => r.ts));
  return rows.filter((r) => lineTimes.has(r.ts));
}

type Row = { ts: number; key: string; value: string | null };

/** A machine's link rows: its runs' connects (and drops). */
const linkRows = (db: Kysely<Database>, machineId: string): Promise<Row[]> =>
  db
    .selectFrom('observations')
    .select(['ts', 'key', 'value'])
    .where('machine_id', '=', machineId)
    .where('key', '=', CONNECTION_KEY)
    .orderBy('ts')
    .execute();

/**
 * Where the cluster places what the single node stored at a script line's time. A new run (node A's first connect,
 * node B's after the kill) places the adapter's current values at its connect (decision 0201, and decision 0112: a
 * connect starts a run), and two receipts never share a millisecond: a line the adapter stamped in that millisecond
 * goes a millisecond after it, as do the lines after it until their stamps pass what was placed (decision 0112,
 * "moved data keeps its order"). The single node, connected long before, keeps each stamp. That is the one
 * difference allowed: every other time must be the same.
 */
function inCluster(connects: readonly number[], lineTimes: readonly number[]): (t: number) => number {
  const moved = new Map<number, number>();
  const times = [...new Set(lineTimes)].sort((x, y) => x - y);
  for (const connect of connects) {
    let placed = connect;
    for (const t of times.filter((x) => x >= connect)) {
      if (t > placed) break;
      moved.set(t, ++placed);
    }
  }
  return (t) => moved.get(t) ?? t;
}

/** What a failure names: the rows stored by one side only, and the cluster's link rows. */
function rowDiff(rows: readonly Row[], expected: readonly Row[], links: readonly Row[]): string {
  const text = (r: Row) => `${r.ts} ${r.key}=${r.value}`;
  const mine = new Set(rows.map(text));
  const theirs = new Set(expected.map(text));
  return [
    `only in the cluster: ${[...mine].filter((r) => !theirs.has(r)).join(', ')}`,
    `only in the single node (its times as the cluster places them): ${[...theirs].filter((r) => !mine.has(r)).join(', ')}`,
    `the cluster's links: ${links.map(text).join(', ')}`,
  ].join('\n');
}

/**
 * Per machine, what the cluster stored equals what the single node stored: every script observation exactly once
 * at the same time, the same state time state by state in the same order from the first script line to the
 * last, and the same parts at the same times; times as the cluster's runs place them (`inCluster`).
 */
async function expectSameAsSingleNode(
  runs: {
    cluster: Kysely<Database>;
    machines: readonly string[];
    reference: Kysely<Database>;
    refMachines: readonly string[];
    adapters: readonly Scripted[];
  },
  log: () => string,
) {
  const { cluster, machines, reference, refMachines, adapters } = runs;
  for (const [i, machineId] of machines.entries()) {
    const why = `machine ${i}: ${log()}`;
    const rows = await scriptRows(cluster, machineId);
    const refRows = await scriptRows(reference, refMachines[i]!);
    const seqs = rows.filter((r) => r.key === 'seq').map((r) => Number(r.value));
    expect(seqs, why).toEqual(Array.from({ length: adapters[i]!.sent() }, (_, k) => k + 1));
    expect(new Set(rows.map((r) => `${r.ts}|${r.key}`)).size, why).toBe(rows.length);
    const links = await linkRows(cluster, machineId);
    const at = inCluster(
      links.filter((r) => r.value === 'CONNECTED').map((r) => r.ts),
      refRows.map((r) => r.ts),
    );
    const expected = refRows.map((r) => ({ ...r, ts: at(r.ts) }));
    expect(rows, `${why}\n${rowDiff(rows, expected, links)}`).toEqual(expected);
    const from = rows[0]!.ts;
    const to = rows.at(-1)!.ts;
    const mine = await stateTime(cluster, machineId, from, to);
    const theirs = await stateTime(reference, refMachines[i]!, from, to, at);
    expect(mine, why).toEqual(theirs);
    expect(Object.keys(mine.ms).length, 'the script changes state').toBeGreaterThan(1);
    // A new run does not know when the cycle under way at its connect began (decision 0201: it starts from its
    // own connect), so the start of a cycle spanning a takeover is left out. Two cycles can start at one time (a
    // part counted by the line that turned execution ACTIVE ends a cycle of no length there, and the next starts
    // there, decision 0100): ordered by their end as well, or PostgreSQL returns those two in either order.
    const cycles = async (db: Kysely<Database>, id: string, placed: (t: number) => number = (t) => t) =>
      (
        await db
          .selectFrom('cycles')
          .select(['end_at', 'count'])
          .where('machine_id', '=', id)
          .orderBy('start_at')
          .orderBy('end_at')
          .execute()
      )
        .map((c) => ({ ...c, end_at: placed(c.end_at) }))
        .filter((c) => c.end_at > from);
    expect(await cycles(cluster, machineId), why).toEqual(await cycles(reference, refMachines[i]!, at));
  }
}

const holdersBy = async (db: Kysely<Database>) => {
  const byNode = new Map<string, number>();
  for (const node of (await leaseHolders(db)).values()) byNode.set(node, (byNode.get(node) ?? 0) + 1);
  return byNode;
};

async function poll(check: () => Promise<boolean>, timeoutMs: number, what: () => string): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!(await check())) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what()}`);
    await sleep(50);
  }
}

/** Waits until node A and node B hold half of the machines each. */
async function halfEach(db: Kysely<Database>, a: WorkerProcess, b: WorkerProcess): Promise<void> {
  await poll(
    async () => {
      const by = await holdersBy(db);
      return by.get('node-a') === MACHINES / 2 && by.get('node-b') === MACHINES / 2;
    },
    4 * LEASE_TTL_MS,
    () => `half of the machines each: ${a.stderr()} ${b.stderr()}`,
  );
}

describe('ingest nodes sharing machines on PostgreSQL', () => {
  let reference: TestDb;
  let cluster: TestDb;
  let adapters: Scripted[];
  let single: IngestService | undefined;
  const workers: WorkerProcess[] = [];

  beforeEach(async () => {
    reference = await freshDb('postgres');
    cluster = await freshDb('postgres');
    adapters = await Promise.all(Array.from({ length: MACHINES }, (_, i) => scriptedAdapter(i)));
  });
  afterEach(async () => {
    await single?.stop();
    await Promise.all(workers.map((w) => w.kill()));
    await Promise.all(adapters.map((a) => a.adapter.close()));
    // A machine is in one state at a time in what the nodes stored.
    expect(await overlappingIntervalsOfAll(reference.db)).toEqual([]);
    expect(await overlappingIntervalsOfAll(cluster.db)).toEqual([]);
    await reference.cleanup();
    await cluster.cleanup();
  });

  /**
   * Both plants, the single node on the reference, and worker A alone on the cluster; worker B's process is
   * spawned alongside and loads its modules meanwhile, but opens nothing before the test starts it.
   */
  async function startNodeA() {
    const a = spawnWorker(cluster.url, { nodeId: 'node-a', ...NODE_LEASES });
    const b = spawnWorker(cluster.url, { nodeId: 'node-b', ...NODE_LEASES });
    workers.push(a, b);
    const refMachines = await plant(reference.db, adapters);
    const machines = await plant(cluster.db, adapters);
    // The single-node run: the same adapters, heard by one node all along.
    single = await startIngest({
      sourcePolicy: LOOPBACK_SOURCES,
      db: reference.db,
      flushIntervalMs: 20,
      rollupIntervalMs: 0,
      leases: { nodeId: 'single' },
    });
    expect(single.leases()).toBe(MACHINES);
    expect(await a.start(), a.stderr()).toBe(true);
    expect(await a.ready, a.stderr()).toBe(true);
    expect(await b.loaded, b.stderr()).toBe(true);
    return { refMachines, machines, a, b };
  }

  it('splits the machines, takes a killed node’s over within a lease period and a round (15 s at the defaults), and stores what a single node stores', async () => {
    const { refMachines, machines, a, b } = await startNodeA();
    // Node A alone holds every machine.
    expect(await holdersBy(cluster.db)).toEqual(new Map([['node-a', MACHINES]]));
    // Each adapter serves the single node and the one cluster node holding its machine.
    const oneNodeEach = (what: string) =>
      waitFor(() => adapters.every((s) => s.clients() === 2), 20_000, what);
    await oneNodeEach('node A on every adapter');
    await Promise.all(adapters.map((s) => s.play(LINES)));
    await allStored(cluster.db, machines, adapters, 'node A alone');

    // Node B starts: A hands half of the machines over (no drop recorded), B takes them.
    await b.start();
    expect(await b.ready, b.stderr()).toBe(true);
    await halfEach(cluster.db, a, b);
    await oneNodeEach('node A or node B on every adapter');
    await Promise.all(adapters.map((s) => s.play(LINES)));
    await allStored(cluster.db, machines, adapters, 'two nodes');

    // A dies without a word: B holds every machine within a lease period, a renewal and a round's work (with
    // the defaults, within 15 s).
    expect(LEASE_TTL_MS + LEASE_RENEW_MS + ROUND_WORK_MS).toBeLessThanOrEqual(TAKEOVER_MS);
    await a.kill();
    const killedAt = Date.now();
    await poll(
      async () => (await holdersBy(cluster.db)).get('node-b') === MACHINES,
      NODE_LEASES.ttlMs + NODE_LEASES.renewMs + ROUND_WORK_MS - (Date.now() - killedAt),
      () => `node B taking node A's machines over: ${b.stderr()}`,
    );
    await oneNodeEach('node B on every adapter');
    await Promise.all(adapters.map((s) => s.play(LINES)));
    await allStored(cluster.db, machines, adapters, 'node B after the kill');
    await allStored(reference.db, refMachines, adapters, 'the single node');

    await expectSameAsSingleNode(
      { cluster: cluster.db, machines, reference: reference.db, refMachines, adapters },
      b.stderr,
    );
  }, 120_000);

  it('hands machines over to a node that joins while the adapters send changes, continuing their runs', async () => {
    const { refMachines, machines, a, b } = await startNodeA();
    await waitFor(() => adapters.every((s) => s.clients() === 2), 20_000, 'node A on every adapter');
    // Every machine changes its execution and counts a part every 200 ms, from before node B starts until
    // after it took its half over: changes fall while each machine is handed over.
    let playing = true;
    const player = (async () => {
      while (playing) {
        await Promise.all(adapters.map((s) => s.play(1, true)));
        await sleep(BUSY_MS);
      }
    })();
    /** Waits until every adapter sent `lines` more lines (its machine changed that many times). */
    const changes = async (lines: number, what: string) => {
      const from = adapters.map((s) => s.sent());
      await waitFor(() => adapters.every((s, i) => s.sent() >= from[i]! + lines), 20_000, what);
    };
    try {
      await changes(5, 'changes before node B starts');
      await b.start();
      expect(await b.ready, b.stderr()).toBe(true);
      await halfEach(cluster.db, a, b);
      await waitFor(
        () => adapters.every((s) => s.clients() === 2),
        20_000,
        'node A or node B on every adapter',
      );
      await changes(5, 'changes after the hand-over');
    } finally {
      playing = false;
      await player;
    }
    await allStored(cluster.db, machines, adapters, 'two nodes');
    await allStored(reference.db, refMachines, adapters, 'the single node');

    const logs = () => `${a.stderr()} ${b.stderr()}`;
    await expectSameAsSingleNode(
      { cluster: cluster.db, machines, reference: reference.db, refMachines, adapters },
      logs,
    );
    // Node B continued the runs node A handed over: no new run began (one connect per machine, node A's).
    expect(b.stderr().split('continues the run handed over').length - 1, logs()).toBe(MACHINES / 2);
    for (const machineId of machines) {
      const links = await cluster.db
        .selectFrom('observations')
        .select('value')
        .where('machine_id', '=', machineId)
        .where('key', '=', CONNECTION_KEY)
        .execute();
      expect(links, logs()).toEqual([{ value: 'CONNECTED' }]);
    }
  }, 90_000);
});

describe.each(DIALECTS.filter((d) => d === 'sqlite'))('one ingest node on %s', (dialect) => {
  let t: TestDb;
  let adapter: Scripted;
  let ingest: IngestService | undefined;

  beforeEach(async () => {
    t = await freshDb(dialect);
    adapter = await scriptedAdapter(0);
  });
  afterEach(async () => {
    await ingest?.stop();
    await adapter.adapter.close();
    expect(await overlappingIntervalsOfAll(t.db)).toEqual([]);
    await t.cleanup();
  });

  it('holds no leases and derives every source', async () => {
    const [machineId] = await plant(t.db, [adapter]);
    ingest = await startIngest({
      sourcePolicy: LOOPBACK_SOURCES,
      db: t.db,
      flushIntervalMs: 20,
      rollupIntervalMs: 0,
    });
    expect(ingest.leases()).toBe(0);
    await waitFor(() => adapter.clients() === 1, 10_000, 'the link');
    await adapter.play(20);
    await allStored(t.db, [machineId!], [adapter], 'the one node');
    expect(await t.db.selectFrom('source_leases').selectAll().execute()).toEqual([]);
  });
});
