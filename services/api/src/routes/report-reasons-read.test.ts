import { describe, expect, it } from 'vitest';
import type { KyselyPlugin } from 'kysely';
import type { OeeReportResponse } from '@takt/domain';
import { DIALECTS } from '@takt/db/testing';
import { apiHarnessOn } from '../testing/app';
import { aDowntimeReason, anAnnotation, MIN } from '../testing/downtime-builders';
import { aMachineWithFacts, apiPerTest, aReportTenant, generatedFacts } from '../testing/report-plant';

// Decision 1214: the OEE waterfall of a range whose whole days reach past now (this week, this month) reads the
// stored downtime by reason of its whole days once, up to today's start (where the cells of a machine whose rows
// hold to now stop), instead of reading the whole days' reasons first and, every machine's cells stopping at
// today's start, reading them again up to there. The figures are those of the same facts built from the facts.
// Both dialects.

const HOUR = 60 * MIN;
const DAY = 24 * HOUR;
/** Local time in America/Chicago (CST, UTC−6) in November 2025; the company day starts at 06:00. */
const at = (day: number, h: number, m = 0) => Date.UTC(2025, 10, day, h + 6, m);
const T0 = at(3, 6);
/** Wednesday 2025-11-12 14:37:12.345 local. */
const NOW = at(12, 14, 37) + 12_345;
const SHIFTS = [['Day', 420, 900] as const, ['Swing', 900, 1380] as const];

/** The statements whose text names the `reasons` column (the stored downtime by reason), counted. */
function reasonsReads(): { plugin: KyselyPlugin; count: () => number } {
  let n = 0;
  return {
    plugin: {
      transformQuery: ({ node }) => {
        if (JSON.stringify(node).includes('reasons')) n++;
        return node;
      },
      transformResult: async ({ result }) => result,
    },
    count: () => n,
  };
}

describe.each(DIALECTS)('the waterfall reads its whole days’ reasons once on %s', (dialect) => {
  const api = apiPerTest(dialect, NOW);

  it('a week reaching past now: one read of the stored reasons, figures of the facts', async () => {
    const { company, cookie, scope, recompute } = await aReportTenant(api.h, SHIFTS, {
      dayStartMs: 6 * HOUR,
    });
    const jam = await aDowntimeReason(api.h.t.db, company, { name: 'Jam', plannedBehavior: 'unplanned' });
    const facts = generatedFacts({
      t0: T0,
      now: NOW,
      cuts: 120,
      cycles: 200,
      corrections: 2,
      states: ['ACTIVE', 'INACTIVE', 'FAULT'],
      seed: 1214,
    });
    const ids: string[] = [];
    for (const name of ['Stored', 'Facts']) {
      const m = await aMachineWithFacts(api.h, company, name, T0, facts);
      ids.push(m.id);
      for (const [k, d] of m.downtime.entries())
        if (k % 2 === 0) await anAnnotation(api.h.t.db, company, { machineId: m.id, ...d, typeId: jam.id });
    }
    const [stored, built] = ids as [string, string];
    await recompute(ids, { from: T0 - DAY, to: NOW, now: NOW });
    await api.h.t.db.deleteFrom('rollup_dirty').execute();
    for (const t of ['rollups', 'rollup_days', 'rollup_weeks'] as const)
      await scope.deleteFrom(t).where('machine_id', '=', built).execute();

    // Monday 06:00 to next Monday 06:00: whole days past now (Wednesday 14:37).
    const q = `start=${at(10, 6)}&end=${at(17, 6)}&interval=day`;
    // A harness on the same database whose statements are counted (its own kept reads: a cold call).
    const reads = reasonsReads();
    const counted = apiHarnessOn({ ...api.h.t, db: api.h.t.db.withPlugin(reads.plugin) }, NOW);
    const oee = async (h: typeof api.h, machineId: string) => {
      const res = await h.get(`/api/reports/oee?${q}&machineId=${machineId}`, cookie);
      expect(res.status, await res.clone().text()).toBe(200);
      const { efficiency, intervals, waterfall } = (await res.json()) as OeeReportResponse;
      return { efficiency, intervals, waterfall };
    };
    const fromStored = await oee(counted, stored);
    expect(reads.count()).toBe(1);
    const fromFacts = await oee(api.h, built);
    expect(fromStored).toEqual(fromFacts);
    // The stored reasons are in it: the annotated downtime has its step.
    expect(fromStored.waterfall.some((s) => s.reasonId === jam.id && s.ms > 0)).toBe(true);
  });
});
