import 'fake-indexeddb/auto';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { refTo } from './commands';
import { FloorDb, KV, kvGet } from './db';
import { applyOutcomes, dropConfirmedOverlays, enqueue, nextBatch, retryRejected } from './outbox';

let db: FloorDb;
let n = 0;
beforeEach(async () => {
  // A fresh database per test: no shared ids, no order (STYLE.md "Tests").
  db = new FloorDb(`outbox-test-${++n}`);
  await db.open();
});
afterEach(async () => {
  db.close();
  await db.delete();
});

const reject = (id: string, machineId = 'm1') =>
  enqueue(db, { id, type: 'reject_part', machineId, payload: { scrapcount: 1 }, occurredAt: 1000 });

describe('outbox', () => {
  it('writes the command and its local change together', async () => {
    const e = await reject('a');
    expect(await db.outbox.count()).toBe(1);
    const o = await db.overlays.get('a');
    expect(o).toMatchObject({ state: 'pending', seq: e.seq, type: 'reject_part' });
  });

  it('writes neither when the transaction fails', async () => {
    await reject('a');
    // Same id again: the unique index refuses the outbox row, and the overlay must not stay behind.
    await expect(
      enqueue(db, { id: 'a', type: 'stop_job', machineId: 'm2', payload: {}, occurredAt: 1 }),
    ).rejects.toThrow();
    expect(await db.outbox.count()).toBe(1);
    expect((await db.overlays.get('a'))?.type).toBe('reject_part');
  });

  it('deletes only confirmed entries that were sent', async () => {
    await reject('a');
    await reject('b');
    await reject('late'); // queued after the batch was cut
    const r = await applyOutcomes(
      db,
      ['a', 'b'],
      [
        { id: 'a', status: 'applied', result: null },
        { id: 'b', status: 'error', error: { code: 'INTERNAL', message: 'boom' } },
        { id: 'late', status: 'applied', result: null },
      ],
    );
    expect(r).toMatchObject({ confirmed: 1, retry: 1, rejected: 0, machines: ['m1'] });
    const left = await db.outbox.orderBy('seq').toArray();
    expect(left.map((e) => e.id)).toEqual(['b', 'late']);
    expect(left[0]).toMatchObject({ attempts: 1, lastError: { message: 'boom' } });
    expect((await db.overlays.get('a'))?.state).toBe('confirmed');
  });

  it('keeps a refused command visible with the server message, and its dependents too', async () => {
    await enqueue(db, {
      id: 'start',
      type: 'start_job',
      machineId: 'm1',
      payload: { id: 'm1', jobId: 'j', setup: true },
      occurredAt: 1,
    });
    await enqueue(db, {
      id: 'stage',
      type: 'setup_stage',
      machineId: 'm1',
      payload: { laborActivitySetId: refTo('start'), setupStageId: 's' },
      occurredAt: 2,
    });
    await applyOutcomes(
      db,
      ['start'],
      [
        {
          id: 'start',
          status: 'rejected',
          error: { code: 'JOB_START_FAILED', message: 'Job could not be started' },
        },
      ],
    );
    expect(await db.outbox.count()).toBe(0);
    expect(await db.overlays.count()).toBe(0);
    const rejected = await db.rejected.toArray();
    expect(rejected.map((r) => [r.id, r.error.message])).toEqual([
      ['stage', 'This action depended on an earlier action that was not accepted.'],
      ['start', 'Job could not be started'],
    ]);
  });

  it('fills in the job run id for the stage change once the start is confirmed', async () => {
    await enqueue(db, {
      id: 'start',
      type: 'start_job',
      machineId: 'm1',
      payload: { id: 'm1', jobId: 'j', setup: true },
      occurredAt: 1,
    });
    await enqueue(db, {
      id: 'stage',
      type: 'setup_stage',
      machineId: 'm1',
      payload: { laborActivitySetId: refTo('start'), setupStageId: 's' },
      occurredAt: 2,
    });
    expect((await nextBatch(db)).map((c) => c.id)).toEqual(['start']);
    await applyOutcomes(
      db,
      ['start'],
      [{ id: 'start', status: 'applied', result: { id: 'run-7', job_id: 'j' } }],
    );
    const batch = await nextBatch(db);
    expect(batch).toEqual([
      expect.objectContaining({ id: 'stage', payload: { laborActivitySetId: 'run-7', setupStageId: 's' } }),
    ]);
    expect(await kvGet(db, KV.currentRun('m1'))).toMatchObject({ id: 'run-7' });
  });

  it('a duplicate answer counts as the first one (redelivery is harmless)', async () => {
    await reject('a');
    await applyOutcomes(db, ['a'], [{ id: 'a', status: 'duplicate', first: 'applied', result: null }]);
    expect(await db.outbox.count()).toBe(0);
    expect(await db.rejected.count()).toBe(0);
  });

  it('tries a refused command again under a new id, and drops confirmed overlays after a pull', async () => {
    await reject('a');
    await applyOutcomes(db, ['a'], [{ id: 'a', status: 'rejected', error: { code: 'X', message: 'no' } }]);
    await retryRejected(db, 'a');
    const [again] = await db.outbox.toArray();
    expect(again?.id).not.toBe('a');
    expect(again?.occurredAt).toBe(1000);
    expect(await db.rejected.count()).toBe(0);
    await applyOutcomes(db, [again!.id], [{ id: again!.id, status: 'applied', result: null }]);
    await dropConfirmedOverlays(db, 'm1');
    expect(await db.overlays.count()).toBe(0);
  });
});
