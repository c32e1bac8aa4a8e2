import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { DIALECTS, freshDb } from '@takt/db/testing';
import type { TestDb } from '@takt/db/testing';
import { autoDispatch } from '../services/auto-dispatch';
import { aCompany, aMachine } from '../testing/builders';
import { aJob } from '../testing/live-builders';
import { createMetrics } from './metrics';

// Auto job dispatch's outcomes as a Prometheus counter (issue 29 point 8, decision 1107): what the dispatch of a
// batch's values returns is what /metrics counts, unknown job names included (before: only logged).

const sample = (text: string, outcome: string) => {
  const line = text.split('\n').find((l) => l.startsWith(`takt_auto_dispatch_total{outcome="${outcome}"}`));
  return line === undefined ? undefined : Number(line.split(' ').pop());
};

describe.each(DIALECTS)('the auto dispatch metric on %s', (dialect) => {
  let t: TestDb;
  beforeEach(async () => {
    t = await freshDb(dialect);
  });
  afterEach(async () => {
    await t.cleanup();
  });

  it('counts started jobs and unknown job names from what the dispatch did', async () => {
    const metrics = createMetrics({ db: t.db, defaultMetrics: false });
    // Every outcome has a series at 0 before anything happened.
    const before = await metrics.registry.metrics();
    expect(['started', 'unknown', 'refused'].map((o) => sample(before, o))).toEqual([0, 0, 0]);

    const company = await aCompany(t.db, { timezone: 'UTC' });
    const machineId = await aMachine(t.db, company);
    await aJob(t.db, company, { name: 'BRACKET-7' });
    const T = 1_790_000_000_000;
    const value = (ts: number, v: string) => ({
      companyId: company.id,
      machineId,
      key: 'program',
      ts,
      value: v,
    });
    const counts = await autoDispatch(t.db, [value(T, 'NO-SUCH-JOB'), value(T + 1000, 'BRACKET-7')], {
      now: () => T + 2000,
      log: () => {},
    });
    expect(counts).toEqual({ started: 1, unknown: 1, refused: 0 });
    metrics.autoDispatched(counts);
    metrics.autoDispatched(
      await autoDispatch(t.db, [value(T + 3000, 'ALSO-UNKNOWN')], { now: () => T + 4000, log: () => {} }),
    );
    const after = await metrics.registry.metrics();
    expect(['started', 'unknown', 'refused'].map((o) => sample(after, o))).toEqual([1, 2, 0]);
  });
});
