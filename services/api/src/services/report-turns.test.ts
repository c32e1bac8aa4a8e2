import { AsyncLocalStorage } from 'node:async_hooks';
import { afterEach, describe, expect, it } from 'vitest';
import { Worker } from 'node:worker_threads';
import {
  ACCEPT_TURNS_MAX,
  REPORTS_UNDER_WAY,
  inTurn,
  noteConnection,
  reportsUnderWay,
  useReportTurns,
} from './report-turns';

// Decision 1259: report computations start in turns of their own, one a turn, in the order asked, and not in a turn
// whose poll accepted a connection (the event loop accepts one a turn: a burst of connections is accepted in short
// turns before the computations run), at most ACCEPT_TURNS_MAX turns in a row.

/** One turn of the event loop (a check phase) later. */
const aTurn = () => new Promise<void>((resolve) => setImmediate(resolve));

describe('report computations taking turns', () => {
  afterEach(async () => {
    useReportTurns(true);
    // Nothing left waiting for the next test: a turn that sees no connection.
    await aTurn();
    await aTurn();
  });

  it('start one a turn, in the order they were asked, each giving its own answer', async () => {
    const started: string[] = [];
    const asked = ['a', 'b', 'c'].map((name) =>
      inTurn(async () => {
        started.push(name);
        return name.toUpperCase();
      }),
    );
    // Asked, not started: the asking code goes on (its request's turn ends) first.
    expect(started).toEqual([]);
    await aTurn();
    expect(started).toEqual(['a']);
    await aTurn();
    expect(started).toEqual(['a', 'b']);
    await aTurn();
    expect(started).toEqual(['a', 'b', 'c']);
    expect(await Promise.all(asked)).toEqual(['A', 'B', 'C']);
  });

  it('wait while connections are being accepted, and start in the first turn that accepted none', async () => {
    let started = false;
    const answer = inTurn(async () => {
      started = true;
      return 1;
    });
    // A connection accepted in each of the next three turns (a burst: one a turn).
    for (let turn = 0; turn < 3; turn++) {
      noteConnection();
      await aTurn();
      expect(started).toBe(false);
    }
    await aTurn();
    expect(started).toBe(true);
    expect(await answer).toBe(1);
  });

  it('go on under a flood of connections once ACCEPT_TURNS_MAX turns in a row went to them', async () => {
    let startedAt = -1;
    let turn = 0;
    const answer = inTurn(async () => {
      startedAt = turn;
      return 'done';
    });
    for (; turn < ACCEPT_TURNS_MAX + 5 && startedAt < 0; turn++) {
      noteConnection();
      await aTurn();
    }
    expect(startedAt).toBe(ACCEPT_TURNS_MAX);
    expect(await answer).toBe('done');
  });

  it('give a failure to the call that asked, whether thrown or rejected, and the next one still starts', async () => {
    const thrown = inTurn<number>(() => {
      throw new Error('thrown');
    });
    const rejected = inTurn<number>(() => Promise.reject(new Error('rejected')));
    const next = inTurn(async () => 3);
    await expect(thrown).rejects.toThrow('thrown');
    await expect(rejected).rejects.toThrow('rejected');
    expect(await next).toBe(3);
  });

  it("run in the asking call's async context (its request's), not the turn's", async () => {
    const request = new AsyncLocalStorage<string>();
    const seen = await Promise.all(
      ['r1', 'r2'].map((id) => request.run(id, () => inTurn(async () => request.getStore()))),
    );
    expect(seen).toEqual(['r1', 'r2']);
  });

  it('start where asked when turned off (a bench comparing both)', async () => {
    useReportTurns(false);
    let started = false;
    const answer = inTurn(async () => {
      started = true;
      return 0;
    });
    expect(started).toBe(true);
    expect(await answer).toBe(0);
  });

  // Decision 1261: the node's rollup marks (in its ingest thread) wait while computations are under way.
  it('count as under way from when asked until they end, failed or not, where another thread reads them', async () => {
    const underWay = reportsUnderWay();
    expect(underWay()).toBe(false);
    let finish!: () => void;
    const held = inTurn(() => new Promise<void>((resolve) => (finish = resolve)));
    const failing = inTurn<number>(() => Promise.reject(new Error('failed')));
    // Asked, waiting for their turns: under way.
    expect(underWay()).toBe(true);
    // What another thread reads of the same memory (the ingest thread is handed REPORTS_UNDER_WAY).
    const readElsewhere = () =>
      new Promise<boolean>((resolve, reject) => {
        const code = `const { parentPort, workerData } = require('node:worker_threads');
          parentPort.postMessage(Atomics.load(new Int32Array(workerData), 0) > 0);`;
        const worker = new Worker(code, { eval: true, workerData: REPORTS_UNDER_WAY });
        worker.once('message', (m: boolean) => resolve(m));
        worker.once('error', reject);
      });
    expect(await readElsewhere()).toBe(true);
    await expect(failing).rejects.toThrow('failed');
    // One still running.
    expect(underWay()).toBe(true);
    finish();
    await held;
    expect(underWay()).toBe(false);
    expect(await readElsewhere()).toBe(false);
  });
});
