import { randomUUID } from 'node:crypto';
import { isDeepStrictEqual } from 'node:util';
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it, onTestFailed } from 'vitest';
import WebSocket from 'ws';
import { CONNECTION_KEY } from '@takt/db';
import type { Db } from '@takt/db';
import type { Phase } from './adapters';
import { logIn, sourceMachines, startCluster, storedObservations } from './cluster';
import type { Cluster, SetName } from './cluster';
import { until } from './netns';

// Issue "scale out on PostgreSQL": 50 simulated adapters, 2 ingest and 2 API nodes behind a proxy, each on a
// host of its own (network namespaces the test makes; decision 0975). An ingest node is killed with SIGKILL
// and started again, an API node is cut off from the database and healed, while operator commands go through
// the proxy the way the floor app's outbox sends them. The same adapter script feeds a single-node baseline
// at the same times, on a database of its own; per machine, state time must be the same.
const MACHINES = 50;
/** Data phases between quiet windows; the kill and the restart happen in quiet windows (decision 0975). */
const PHASES: Phase[] = [
  { steps: 12, quiet: false },
  { steps: 30, quiet: true }, // kill -9 an ingest node; its machines move to the other
  { steps: 16, quiet: false }, // api2 is partitioned from the database, then healed
  { steps: 25, quiet: true }, // the killed node starts again and takes its share back
  { steps: 12, quiet: false },
];
const stepsBefore = (phase: number) => PHASES.slice(0, phase).reduce((n, p) => n + p.steps, 0);

type Outcome = { id: string; status: string };

/**
 * The floor app's outbox in small: commands keep their id until the server answers for them (applied,
 * duplicate or rejected); a failed post, or an `error` answer, is sent again with the same ids.
 */
class Outbox {
  readonly pending = new Map<string, Record<string, unknown>>();
  readonly acknowledged = new Map<string, string>();
  failures = 0;
  constructor(
    private readonly url: string,
    private readonly cookie: string,
  ) {}

  add(command: Record<string, unknown>): void {
    this.pending.set(String(command.id), command);
  }

  async push(): Promise<void> {
    const commands = [...this.pending.values()].slice(0, 20);
    if (commands.length === 0) return;
    try {
      const res = await fetch(`${this.url}/api/sync`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', cookie: this.cookie },
        body: JSON.stringify({ commands }),
        signal: AbortSignal.timeout(15_000),
      });
      if (res.status !== 200) {
        this.failures += 1;
        return;
      }
      const body = (await res.json()) as { results?: Outcome[]; outcomes?: Outcome[] } | Outcome[];
      const outcomes = Array.isArray(body) ? body : (body.results ?? body.outcomes ?? []);
      for (const o of outcomes) {
        if (o.status === 'error') continue;
        this.acknowledged.set(o.id, this.acknowledged.get(o.id) ?? o.status);
        this.pending.delete(o.id);
      }
    } catch {
      this.failures += 1;
    }
  }
}

/** Per machine name: milliseconds in each state between `from` and `to`, from the stored state intervals. */
async function stateTime(db: Db, from: number, to: number): Promise<Record<string, Record<string, number>>> {
  const { rows } = await sql<{ name: string; state: string; start_at: number; end_at: number | null }>`
    SELECT m.name, s.state, s.start_at, s.end_at FROM state_intervals s JOIN machines m ON m.id = s.machine_id
    WHERE s.start_at < ${to} AND (s.end_at IS NULL OR s.end_at > ${from})`.execute(db.db);
  const out: Record<string, Record<string, number>> = {};
  for (const r of rows) {
    const ms = Math.min(Number(r.end_at ?? to), to) - Math.max(Number(r.start_at), from);
    const m = (out[r.name] ??= {});
    m[r.state] = (m[r.state] ?? 0) + ms;
  }
  return out;
}

/** One machine's state intervals and link events, in ms after `from` (for a failure message). */
async function history(db: Db, name: string, from: number): Promise<string> {
  const states = await sql<{ start_at: number; end_at: number | null; state: string }>`
    SELECT s.start_at, s.end_at, s.state FROM state_intervals s JOIN machines m ON m.id = s.machine_id
    WHERE m.name = ${name} ORDER BY s.start_at`.execute(db.db);
  const links = await sql<{ ts: number; value: string }>`SELECT o.ts, o.value FROM observations o
    JOIN machines m ON m.id = o.machine_id WHERE m.name = ${name} AND o.key = ${CONNECTION_KEY}
    ORDER BY o.ts`.execute(db.db);
  const rel = (t: number | null) => (t === null ? 'open' : String(Number(t) - from));
  return JSON.stringify({
    states: states.rows.map((r) => `${r.state} ${rel(r.start_at)}..${rel(r.end_at)}`),
    links: links.rows.map((r) => `${r.value} ${rel(r.ts)}`),
  });
}

async function dashboardPrograms(url: string, cookie: string): Promise<Map<string, string | null>> {
  const res = await fetch(`${url}/api/dashboard`, {
    headers: { cookie },
    signal: AbortSignal.timeout(15_000),
  });
  if (res.status !== 200) throw new Error(`GET /api/dashboard answered ${res.status}`);
  const body = (await res.json()) as { machines: Array<{ name: string; program: string | null }> };
  return new Map(body.machines.map((m) => [m.name, m.program]));
}

/** The tiles moved: some machine shows another program than in `before`. */
async function tilesMoveFrom(url: string, cookie: string, before: Map<string, string | null>, what: string) {
  return until(
    async () => {
      const now = await dashboardPrograms(url, cookie).catch(() => null);
      return now && [...now].some(([name, p]) => p !== null && p !== before.get(name)) ? now : undefined;
    },
    60_000,
    `the tiles to update through the proxy ${what}`,
  );
}

const sleepUntil = (at: number) => new Promise((r) => setTimeout(r, Math.max(0, at - Date.now())));

describe('several ingest and API nodes on PostgreSQL, on hosts of their own', () => {
  let cluster: Cluster;

  beforeAll(async () => {
    cluster = await startCluster({ machines: MACHINES, phases: PHASES });
  }, 180_000);

  afterAll(async () => {
    await cluster?.destroy();
  });

  it('survives a killed ingest node and a partitioned API node: nothing lost, nothing doubled, same state time', async () => {
    const { lab, dbs, stepMs } = cluster;
    // The nodes' output outlives the lab when the test fails.
    onTestFailed(() => console.log(`multi-host logs: ${cluster.keepLogs()}`));
    const cookie = await logIn(cluster.proxyUrl);
    const machines = await sourceMachines(dbs.multi);
    expect(machines).toHaveLength(MACHINES);
    const ids = await sql<{ id: string; name: string }>`SELECT id, name FROM machines`.execute(dbs.multi.db);
    const idOf = new Map(ids.rows.map((r) => [r.name, r.id]));
    const reason = await sql<{ id: string }>`SELECT id FROM part_adjustment_types
      WHERE scrap = 1 ORDER BY name LIMIT 1`.execute(dbs.multi.db);
    const reasonId = reason.rows[0]!.id;

    // Every machine is linked once in both runs, and the two ingest nodes share them, before the script starts:
    // the faults come from the script, not from the nodes finding each other at start.
    await until(
      async () => {
        const s = await cluster.adapters();
        const linkedOnce = Object.values(s.sets).every((set) => set.peers.every((p) => p.length === 1));
        const holders = s.sets.multi!.peers.flat();
        const half = (h: string) => holders.filter((a) => a === lab.ip(h)).length === MACHINES / 2;
        return linkedOnce && half('ingest1') && half('ingest2');
      },
      90_000,
      'every adapter to have one client, and each ingest node to hold half of the machines',
    );
    const startAt = Date.now() + 2000;
    await cluster.play(startAt);
    const at = (phase: number) => startAt + stepsBefore(phase) * stepMs;

    // Operator commands all along, through the proxy: a reject on a machine each 400 ms, its id made once.
    const outbox = new Outbox(cluster.proxyUrl, cookie);
    let sending = true;
    let n = 0;
    const sender = (async () => {
      while (sending || outbox.pending.size > 0) {
        if (sending) {
          const id = randomUUID();
          const machine = machines[n++ % machines.length]!.name;
          outbox.add({
            id,
            type: 'reject_part',
            machineId: idOf.get(machine),
            occurredAt: Date.now(),
            payload: {
              machine_id: idOf.get(machine),
              adjustmenttime: Date.now(),
              category_id: reasonId,
              scrapcount: 1,
              deductFromGoodParts: false,
              message: id,
            },
          });
        }
        await outbox.push();
        await new Promise((r) => setTimeout(r, 400));
        if (!sending && Date.now() > at(PHASES.length) + 90_000) break;
      }
    })();

    // The live channel through the proxy's WebSocket upgrade.
    const ws = new WebSocket(`${cluster.proxyUrl.replace('http', 'ws')}/live`, { headers: { cookie } });
    const updates: Array<{ event: string }> = [];
    ws.on('message', (data) => updates.push(JSON.parse(String(data)) as { event: string }));
    ws.on('error', () => {});
    await new Promise((resolve, reject) => {
      ws.once('open', resolve);
      ws.once('error', reject);
    });
    for (const id of idOf.values()) ws.send(JSON.stringify({ event: 'join', machine_id: id, name: 'live' }));

    try {
      // Phase 0 plays; at its end every line sent is stored, then an ingest node dies without a word.
      const tiles0 = await dashboardPrograms(cluster.proxyUrl, cookie);
      await sleepUntil(at(1));
      await tilesMoveFrom(cluster.proxyUrl, cookie, tiles0, 'while both ingest nodes run');
      await until(
        () => updates.some((u) => u.event === 'channel_update'),
        30_000,
        'a live channel update through the proxy',
      );
      ws.terminate();
      await until(
        async () => (await unstored(cluster, 'multi')).length === 0,
        30_000,
        'phase 0 stored',
      ).catch(() => {});
      expect(await unstored(cluster, 'multi'), 'the lines of phase 0 not stored as sent').toEqual([]);
      // The victim is the node holding the most machines (both, when the leases are balanced).
      const held = (await cluster.adapters()).sets.multi!.peers.flat();
      const count = (h: 'ingest1' | 'ingest2') => held.filter((a) => a === lab.ip(h)).length;
      const [victim, survivor] =
        count('ingest1') >= count('ingest2')
          ? (['ingest1', 'ingest2'] as const)
          : (['ingest2', 'ingest1'] as const);
      await cluster.procs.get(victim)!.kill9();
      // Its leases expire and the survivor dials every adapter (issue: taken over within 15 s).
      await until(
        async () => {
          const peers = (await cluster.adapters()).sets.multi!.peers;
          return peers.every((p) => p.length === 1 && p[0] === lab.ip(survivor));
        },
        Math.max(at(2) - Date.now() - 1000, 20_000),
        `${survivor} to take over every machine of the killed ${victim}`,
      );

      // Phase 2 plays while api2 cannot reach the database for 8 s.
      await sleepUntil(at(2) + 2000);
      const tiles2 = await dashboardPrograms(cluster.proxyUrl, cookie);
      lab.partition('api2', 'db');
      try {
        await tilesMoveFrom(cluster.proxyUrl, cookie, tiles2, 'while api2 is cut off from the database');
        await new Promise((r) => setTimeout(r, 8000));
      } finally {
        lab.heal('api2', 'db');
      }

      // Phase 3: the killed node comes back (same node id) and the machines are shared again.
      await sleepUntil(at(3));
      await cluster.startNode(victim);
      await until(
        async () => {
          const peers = (await cluster.adapters()).sets.multi!.peers.flat();
          return peers.includes(lab.ip(victim)) || Date.now() > at(4) - 2000;
        },
        Math.max(at(4) - Date.now(), 1000),
        `${victim} to hold machines again`,
      );
      const tiles4 = await dashboardPrograms(cluster.proxyUrl, cookie);
      await sleepUntil(at(PHASES.length));
      await tilesMoveFrom(cluster.proxyUrl, cookie, tiles4, 'after the killed node came back');
    } finally {
      sending = false;
      ws.terminate();
    }
    await sender;

    // Every acknowledged command is stored exactly once: one log row, and one reject carrying its id.
    expect(outbox.pending.size).toBe(0);
    const acked = [...outbox.acknowledged.keys()];
    expect(acked.length).toBeGreaterThan(50);
    const logged = await sql<{ id: string }>`SELECT id FROM sync_commands`.execute(dbs.multi.db);
    const loggedIds = new Set(logged.rows.map((r) => r.id));
    expect(acked.filter((id) => !loggedIds.has(id))).toEqual([]);
    const rejects = await sql<{ message: string; n: number | string }>`SELECT message, COUNT(*) AS n
      FROM part_adjustments GROUP BY message`.execute(dbs.multi.db);
    const rejectCount = new Map(rejects.rows.map((r) => [r.message, Number(r.n)]));
    const applied = acked.filter((id) => outbox.acknowledged.get(id) !== 'rejected');
    expect(applied.filter((id) => rejectCount.get(id) !== 1)).toEqual([]);
    expect(rejectCount.size).toBe(applied.length);

    // Every observation the adapters wrote is stored exactly once, in both runs.
    const status = await cluster.adapters();
    expect(status.done).toBe(true);
    for (const set of ['multi', 'solo'] as const) {
      await until(async () => (await unstored(cluster, set)).length === 0, 30_000, 'stored').catch(() => {});
      expect(await unstored(cluster, set), `observations not stored as sent in the ${set} run`).toEqual([]);
      const doubled = await sql<{ machine_id: string; ts: number; key: string; n: number }>`
        SELECT machine_id, ts, key, COUNT(*) AS n FROM observations GROUP BY machine_id, ts, key
        HAVING COUNT(*) > 1 LIMIT 5`.execute(dbs[set].db);
      expect(doubled.rows, `observation rows stored twice in the ${set} run`).toEqual([]);
    }

    // Per machine, the same state time as the single-node run of the same script.
    const from = startAt;
    const to = at(PHASES.length);
    const [multi, solo] = await Promise.all([stateTime(dbs.multi, from, to), stateTime(dbs.solo, from, to)]);
    expect(Object.keys(solo)).toHaveLength(MACHINES);
    const differing = Object.keys(solo).find((name) => !isDeepStrictEqual(multi[name], solo[name]));
    const detail = differing
      ? `${differing}: ${await history(dbs.multi, differing, from)} (2 ingest nodes) against ${await history(dbs.solo, differing, from)} (single node)`
      : '';
    expect(multi, detail).toEqual(solo);
  }, 240_000);
});

/** Where the stored observation pairs differ from what the adapters wrote: "machine key: sent n, stored m". */
async function unstored(cluster: Cluster, set: SetName): Promise<string[]> {
  const sent = (await cluster.adapters()).sets[set]!.sent;
  const stored = await storedObservations(cluster.dbs[set]);
  const names = await sourceMachines(cluster.dbs[set]);
  return names.flatMap((m, i) => {
    const a = sent[i] ?? {};
    const b = stored.get(m.name) ?? {};
    return [...new Set([...Object.keys(a), ...Object.keys(b)])]
      .filter((k) => (a[k] ?? 0) !== (b[k] ?? 0))
      .map((k) => `${m.name} ${k}: sent ${a[k] ?? 0}, stored ${b[k] ?? 0}`);
  });
}
