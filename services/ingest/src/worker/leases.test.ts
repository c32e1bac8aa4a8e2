// Decision 0970: the lease and rollup-claim statements on PostgreSQL, the one arbiter between ingest nodes.
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import {
  beatNode,
  claimHandedLeases,
  claimLeases,
  companyScope,
  fenceLeases,
  handOverLease,
  leaseHolders,
  liveNodeCount,
  markSuccessorReady,
  offerLeases,
  releaseLeases,
  renewLeases,
  reserveLeases,
  standingReservations,
} from '@takt/db';
import { claimDirty, markRollupsDirty, unclaimDirty } from '@takt/db/rollups';
import { freshDb } from '@takt/db/testing';
import type { TestDb } from '@takt/db/testing';
import { createShdrSource } from '../../../api/src/repositories/machine-sources';
import { aCompany, aMachine } from '../../../api/src/testing/builders';
import { sleep } from '../testing/test-support';
import { LeaseKeeper, LeaseLostError } from './leases';
import { writeBatch } from './store';
import { overlappingIntervalsOfAll } from '../testing/intervals';

const TTL = 10_000;

describe('ingest leases on PostgreSQL', () => {
  let t: TestDb;
  let sources: string[];
  let machines: string[];
  let companyId: string;

  beforeEach(async () => {
    t = await freshDb('postgres');
    const company = await aCompany(t.db);
    companyId = company.id;
    machines = [];
    sources = [];
    for (let i = 0; i < 4; i++) {
      const machineId = await aMachine(t.db, company, { name: `M${i}` });
      machines.push(machineId);
      sources.push(
        await createShdrSource(
          companyScope(t.db, company.id),
          { machineId, host: '127.0.0.1', port: 7000 + i },
          0,
        ),
      );
    }
  });
  afterEach(async () => {
    // A machine is in one state at a time in what the nodes stored.
    expect(await overlappingIntervalsOfAll(t.db)).toEqual([]);
    await t.cleanup();
  });

  it('gives each source to one of two nodes claiming at the same time', async () => {
    const [a, b] = await Promise.all([
      claimLeases(t.db, 'a', [], 4, TTL),
      claimLeases(t.db, 'b', [], 4, TTL),
    ]);
    const claimed = [...a, ...b].map((l) => l.sourceId);
    expect(new Set(claimed).size).toBe(claimed.length);
    expect(claimed.sort()).toEqual([...sources].sort());
    // Nothing is left to claim while the leases run.
    expect(await claimLeases(t.db, 'c', [], 4, TTL)).toEqual([]);
  });

  it('fences a node out once its lease expired and another node claimed it', async () => {
    const [held] = await claimLeases(t.db, 'a', [], 1, TTL);
    expect(await fenceLeases(t.db, 'a', [held!])).toEqual(new Set([held!.sourceId]));
    await t.db
      .updateTable('source_leases')
      .set({ expires_at: 0 })
      .where('source_id', '=', held!.sourceId)
      .execute();
    expect(await renewLeases(t.db, 'a', [held!], TTL)).toEqual([]);
    const [taken] = await claimLeases(t.db, 'b', [], 1, TTL);
    expect(taken).toEqual({ sourceId: held!.sourceId, epoch: held!.epoch + 1 });
    expect(await fenceLeases(t.db, 'a', [held!])).toEqual(new Set());
    // The other three are still free.
    expect(await claimLeases(t.db, 'a', [], 4, TTL)).toHaveLength(3);
  });

  it('keeps a lease out of any claim while a batch fenced by it is being stored', async () => {
    const [held] = await claimLeases(t.db, 'a', [], 1, TTL);
    let others: string[] = [];
    await t.db.transaction().execute(async (trx) => {
      expect(await fenceLeases(trx, 'a', [held!])).toEqual(new Set([held!.sourceId]));
      // The lease runs out while the batch is stored (its time set past, as the clock would; the fence's lock
      // lets that update through, as it lets renewals through).
      await t.db
        .updateTable('source_leases')
        .set({ expires_at: 0 })
        .where('source_id', '=', held!.sourceId)
        .execute();
      // Expired now, but the batch's transaction holds the row: a claim skips it rather than waiting.
      others = (await claimLeases(t.db, 'b', [], 4, TTL)).map((l) => l.sourceId);
      expect(others).not.toContain(held!.sourceId);
    });
    expect((await claimLeases(t.db, 'b', others, 4, TTL)).map((l) => l.sourceId)).toEqual([held!.sourceId]);
    await releaseLeases(t.db, 'b', [{ sourceId: held!.sourceId, epoch: held!.epoch + 1 }]);
    expect((await leaseHolders(t.db)).get(held!.sourceId)).toBeUndefined();
  });

  it('renews the leases a long batch is storing under, without waiting for the batch (decision 0977)', async () => {
    // Three pauses outlast a lease; a renewal's longest wait and a pause stay within one.
    const ttl = 1700;
    const pauseMs = 600;
    const held = await claimLeases(t.db, 'a', [], 4, ttl);
    await t.db.transaction().execute(async (trx) => {
      expect(await fenceLeases(trx, 'a', held)).toEqual(new Set(sources));
      // The batch outlives a lease period; the renewals go through meanwhile (each waits at most 1 s here).
      for (let i = 0; i < 3; i++) {
        const renewed = await Promise.race([
          renewLeases(t.db, 'a', held, ttl).then((r) => r.map((l) => l.sourceId).sort()),
          sleep(1000).then(() => 'waited for the batch' as const),
        ]);
        expect(renewed).toEqual([...sources].sort());
        await sleep(pauseMs);
      }
      expect(await claimLeases(t.db, 'b', [], 4, TTL)).toEqual([]);
    });
    expect(await fenceLeases(t.db, 'a', held)).toEqual(new Set(sources));
  });

  it("lets a successor claim a handed lease only after the old holder's last batch committed", async () => {
    await beatNode(t.db, 'a');
    await beatNode(t.db, 'b');
    const held = await claimLeases(t.db, 'a', [], 1, TTL);
    const id = held[0]!.sourceId;
    await offerLeases(t.db, 'a', held, held, TTL);
    expect(await reserveLeases(t.db, 'b', 1)).toEqual([id]);
    await markSuccessorReady(t.db, 'b', [id]);
    await offerLeases(t.db, 'a', held, held, TTL);
    await t.db.transaction().execute(async (trx) => {
      expect(await fenceLeases(trx, 'a', held)).toEqual(new Set([id]));
      // The hand-over itself does not wait for the batch, but the successor's claim skips the row it fences.
      expect(await handOverLease(t.db, 'a', held[0]!, TTL)).toBe(true);
      expect(await claimHandedLeases(t.db, 'b', TTL)).toEqual([]);
    });
    expect(await claimHandedLeases(t.db, 'b', TTL)).toEqual([{ sourceId: id, epoch: held[0]!.epoch + 1 }]);
  });

  it('balances: a node claims its share of the live nodes, and hands back what is over it', async () => {
    const lost: string[] = [];
    const a = new LeaseKeeper(
      t.db,
      { nodeId: 'a' },
      () => {},
      (ids) => lost.push(...ids),
    );
    await a.renew();
    expect((await a.balance(4)).extras).toEqual([]);
    expect(a.count).toBe(4);
    await beatNode(t.db, 'b');
    expect(await liveNodeCount(t.db, TTL)).toBe(2);
    const { extras: extra } = await a.balance(4);
    expect(extra).toHaveLength(2);
    await a.release(extra);
    const b = new LeaseKeeper(
      t.db,
      { nodeId: 'b' },
      () => {},
      () => {},
    );
    await b.renew();
    expect((await b.balance(4)).extras).toEqual([]);
    expect([a.count, b.count]).toEqual([2, 2]);
    // A lease taken from under a node is lost at its next renewal.
    const [mine] = a.leases();
    await t.db
      .updateTable('source_leases')
      .set({ node_id: 'c' })
      .where('source_id', '=', mine!.sourceId)
      .execute();
    await a.renew();
    expect(lost).toEqual([mine!.sourceId]);
    expect(a.count).toBe(1);
  });

  it('hands a lease over make-before-break: offered, reserved, ready, freed for the successor alone', async () => {
    await beatNode(t.db, 'a');
    await beatNode(t.db, 'b');
    const held = await claimLeases(t.db, 'a', [], 4, TTL);
    const [offered, kept] = [held.slice(0, 1), held.slice(1)];
    const id = offered[0]!.sourceId;
    expect(await offerLeases(t.db, 'a', offered, held, TTL)).toEqual(new Map());
    // Only an offered SHDR lease can be reserved, by one node.
    expect(await reserveLeases(t.db, 'b', 4)).toEqual([id]);
    expect(await reserveLeases(t.db, 'c', 4)).toEqual([]);
    expect(await standingReservations(t.db, 'b', [id])).toEqual(new Set([id]));
    // Not ready yet: the holder keeps it.
    expect(await handOverLease(t.db, 'a', offered[0]!, TTL)).toBe(false);
    expect(await offerLeases(t.db, 'a', offered, held, TTL)).toEqual(new Map());
    await markSuccessorReady(t.db, 'b', [id]);
    expect(await offerLeases(t.db, 'a', offered, held, TTL)).toEqual(new Map([[id, 'b']]));
    expect(await handOverLease(t.db, 'a', offered[0]!, TTL)).toBe(true);
    // The old holder is fenced out at once; nobody but the successor claims the freed lease.
    expect(await fenceLeases(t.db, 'a', offered)).toEqual(new Set());
    expect(await claimLeases(t.db, 'c', [], 4, TTL)).toEqual([]);
    expect(await standingReservations(t.db, 'b', [id])).toEqual(new Set([id]));
    expect(await claimHandedLeases(t.db, 'b', TTL)).toEqual([{ sourceId: id, epoch: offered[0]!.epoch + 1 }]);
    expect((await leaseHolders(t.db)).get(id)).toBe('b');
    // An offer withdrawn (the holder is back within its share) drops the reservation.
    await offerLeases(t.db, 'a', kept.slice(0, 1), kept, TTL);
    expect(await reserveLeases(t.db, 'b', 4)).toEqual([kept[0]!.sourceId]);
    await offerLeases(t.db, 'a', [], kept, TTL);
    expect(await standingReservations(t.db, 'b', [kept[0]!.sourceId])).toEqual(new Set());
    // A successor that is no longer a live node is forgotten, and a live one may reserve again.
    await offerLeases(t.db, 'a', kept.slice(0, 1), kept, TTL);
    expect(await reserveLeases(t.db, 'gone', 4)).toEqual([kept[0]!.sourceId]);
    await offerLeases(t.db, 'a', kept.slice(0, 1), kept, TTL);
    expect(await reserveLeases(t.db, 'b', 4)).toEqual([kept[0]!.sourceId]);
  });

  // Decision 1199: the fence is a statement in the batch's one message, failing the transaction itself: a batch
  // under a lease another node claimed meanwhile stores nothing (its leading COPY included) and fails with a
  // LeaseLostError naming the source, while a batch under a lease still held is stored.
  it("fails a batch whose lease another node claimed, from inside the batch's message, and stores none of it", async () => {
    const keeper = new LeaseKeeper(
      t.db,
      { nodeId: 'a', ttlMs: TTL },
      () => {},
      () => {},
    );
    await keeper.renew();
    await keeper.balance(sources.length);
    const [source, other] = [sources[0]!, sources[1]!];
    expect(keeper.holds(source) && keeper.holds(other)).toBe(true);
    const rows = (machineId: string, from: number, n: number) =>
      Array.from({ length: n }, (_, i) => ({
        company_id: companyId,
        machine_id: machineId,
        ts: from + i,
        key: 'program',
        value: `P${from + i}`,
      }));
    const batch = async (source: string, machineId: string, from: number, n: number) => {
      const fence = keeper.fenceOf([source]);
      try {
        await writeBatch(t.db, { observations: rows(machineId, from, n), derived: [], live: [], stats: [] }, [
          fence.statement!,
        ]);
      } catch (err) {
        throw fence.lost(err);
      }
    };
    const stored = async (machineId: string) =>
      (await t.db.selectFrom('observations').select('ts').where('machine_id', '=', machineId).execute())
        .length;
    // The first batches make and read the machines' ids; then they are known and a batch is one message (70 rows:
    // a COPY before it).
    for (let i = 0; i < 3; i++) await batch(source, machines[0]!, 1000 * i, 5);
    await batch(source, machines[0]!, 5000, 70);
    expect(await stored(machines[0]!)).toBe(85);
    await t.db.updateTable('source_leases').set({ expires_at: 0 }).where('source_id', '=', source).execute();
    expect(await claimLeases(t.db, 'b', [], 1, TTL)).toHaveLength(1);
    const failed = await batch(source, machines[0]!, 9000, 70).catch((err: unknown) => err);
    expect(failed).toBeInstanceOf(LeaseLostError);
    expect((failed as LeaseLostError).sourceIds).toEqual([source]);
    expect(await stored(machines[0]!)).toBe(85);
    // The connection is left usable, outside any transaction; a batch under a lease still held is stored.
    for (let i = 0; i < 4; i++) await batch(other, machines[1]!, 1000 * i, 70);
    expect(await stored(machines[1]!)).toBe(280);
  });

  it('gives each dirty rollup mark to one worker, and frees a mark renewed while it was claimed', async () => {
    for (const machineId of machines)
      await markRollupsDirty(t.db, { companyId, machineId, from: 100, now: 1000 });
    const [x, y] = await Promise.all([claimDirty(t.db, 3), claimDirty(t.db, 3)]);
    const taken = [...x, ...y].map((m) => m.machine_id);
    expect(new Set(taken).size).toBe(taken.length);
    expect(taken.sort()).toEqual([...machines].sort());
    expect(await claimDirty(t.db, 10)).toEqual([]);
    const mark = x[0] ?? y[0]!;
    // Renewed after it was taken: done by the next run, by any worker.
    await markRollupsDirty(t.db, { companyId, machineId: mark.machine_id, from: 50, now: 2000 });
    await unclaimDirty(t.db, mark, mark.marked_at);
    expect((await claimDirty(t.db, 10)).map((m) => [m.machine_id, m.from_at])).toEqual([
      [mark.machine_id, 50],
    ]);
  });
});
