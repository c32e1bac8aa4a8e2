// `npm start` on a fresh database (issue 28 point 1): the demo plant gets its past, then the live simulation carries
// on from where the history ends, through the same ingest worker. The first live batch after the history used to
// fail on the state intervals' key for every machine (a re-derivation started at a job run's setup that ended hours
// before the worker's first data), so nothing live was stored at all; this boots the product as the README does,
// with one day of history.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { RunningProduct } from './harness';
import { startProduct } from './harness';
import { query } from './server-db';

describe('the demo plant after its history', () => {
  let product: RunningProduct;
  let listening = 0;
  beforeAll(async () => {
    product = await startProduct({ TAKT_DEMO_DAYS: '1' });
    listening = Date.now();
  }, 90_000);
  afterAll(async () => {
    await product?.stop();
  });

  it('stores every simulated machine’s live data after the history, with no failed write and no overlap', async () => {
    expect(product.output()).toContain('demo history: ready');
    const simulated = query<{ id: string; name: string }>(
      product,
      "SELECT m.id, m.name FROM machines m JOIN machine_sources s ON s.machine_id = m.id WHERE s.kind = 'shdr'",
    );
    expect(simulated.length).toBeGreaterThanOrEqual(12);
    // The history ends when the product boots and takes seconds to make: a second before the test saw the product
    // listen (it polls its output) is after the history and before the worker's first live data.
    const liveFrom = listening - 1_000;
    // Each machine's states go on past the history (its open intervals alone would not: the worker's first write closes
    // them and starts the live ones), and the lines after the product listens are stored.
    const liveStates = () =>
      query<{ name: string }>(
        product,
        'SELECT DISTINCT m.name FROM state_intervals si JOIN machines m ON m.id = si.machine_id ' +
          'WHERE si.start_at >= ? OR si.end_at >= ?',
        liveFrom,
        liveFrom,
      ).map((r) => r.name);
    // Counted after the worker's first tick (every 5 s, the product's default): it hands the day's setup events again,
    // which once re-derived each machine with a job run's setup in the history and merged its live state into the
    // history's (decision 1209). The worker says when the batch after that tick is stored (decision 1223).
    await expect
      .poll(() => product.output(), { timeout: 30_000, interval: 200 })
      .toContain('first tick stored');
    await expect
      .poll(() => liveStates().length, { timeout: 45_000, interval: 500 })
      .toBeGreaterThanOrEqual(simulated.length);
    const liveMachines = () =>
      query<{ n: number }>(
        product,
        'SELECT COUNT(DISTINCT machine_id) AS n FROM observations WHERE ts > ?',
        listening,
      )[0]!.n;
    // A simulated machine sends a line when a value changes, some only every few minutes: the busier ones do soon.
    await expect.poll(liveMachines, { timeout: 45_000, interval: 500 }).toBeGreaterThanOrEqual(3);
    expect(product.output()).not.toContain('write failed');
    // No machine has two state intervals over the same time (history and live meet, they do not overlap).
    const overlaps = query(
      product,
      'SELECT a.machine_id, a.start_at FROM state_intervals a JOIN state_intervals b ' +
        'ON a.machine_id = b.machine_id AND b.start_at > a.start_at ' +
        'AND (a.end_at IS NULL OR b.start_at < a.end_at) LIMIT 5',
    );
    expect(overlaps).toEqual([]);
  }, 90_000);
});
