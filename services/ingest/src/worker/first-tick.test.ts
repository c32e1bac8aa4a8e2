// Decision 1223: the worker says once when the batch after its first tick (the job runs' setup read, decision 1025)
// is stored, so a caller that needs a tick's effect (tests/e2e/demo-live) waits for it instead of a fixed time.
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { DIALECTS, freshDb } from '@takt/db/testing';
import type { TestDb } from '@takt/db/testing';
import { LOOPBACK_SOURCES, waitFor } from '../testing/test-support';
import { startIngest } from './ingest';
import type { IngestService } from './ingest';

describe.each(DIALECTS)('the worker’s first tick on %s', (dialect) => {
  let t: TestDb;
  let ingest: IngestService | undefined;
  beforeEach(async () => {
    t = await freshDb(dialect);
  });
  afterEach(async () => {
    await ingest?.stop();
    await t.cleanup();
  });

  it('says once that the batch after its first tick is stored', async () => {
    const logged: string[] = [];
    ingest = await startIngest({
      sourcePolicy: LOOPBACK_SOURCES,
      db: t.db,
      flushIntervalMs: 60_000,
      rollupIntervalMs: 0,
      tickIntervalMs: 50,
      sourcesIntervalMs: 0,
      log: (m) => logged.push(m),
    });
    const said = () => logged.filter((m) => m.includes('first tick stored'));
    await waitFor(() => (said().length > 0 ? true : undefined), 10_000, 'the first tick');
    // Later ticks (every 50 ms) say nothing more.
    await new Promise((resolve) => setTimeout(resolve, 300));
    expect(said()).toEqual(["[ingest] first tick stored: 0 machine source(s), job runs' setup read"]);
  });
});
