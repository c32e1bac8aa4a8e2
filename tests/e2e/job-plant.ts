import type { Database } from '@takt/db';
import type { Kysely } from 'kysely';
import { MIN, someStates } from '../../services/api/src/testing/downtime-builders';
import { aShift } from '../../services/api/src/testing/live-builders';
import { aJobWithRun, recomputeMachines, someCycles } from '../../services/api/src/testing/report-plant';
import { anOfficePlant } from './office-harness';

// The plant of the job report tests (office-jobs, office-production-runs): anOfficePlant with a Day shift
// 06:00–14:00 and two jobs run last week (weekday 0 = Monday), both within the default 30 days (the runs are
// in the shift, so all their time is shift time for the OEE factors):
// - Flange (expected 10 min, ideal 8 min, one part a cycle) on the Lathe, run Tuesday 06:00–08:00 without
//   setup; the Lathe is in cycle 06:00–07:00 with six cycles of 10 min, idle otherwise.
//   Run time 60 min of 120 planned: availability 50.0 %; performance 6 × 8 / 60 = 80.0 %; quality 6 / 6 =
//   100.0 %; OEE 40.0 %. Expected parts 120 / 10 = 12, good 6: 50.0 % of the parts goal, below the failure
//   cut-off (75 %): "Far behind goal". No setup: 0.0 h.
// - Bracket (expected = ideal = 10 min) on the Mill, run Wednesday 06:00–07:05 (a cycle ending at the run's
//   end would not count: runs are [start, end)), in cycle 06:00–07:00 with six cycles of 10 min: expected
//   ⌊65 / 10⌋ = 6, good 6, 100.0 % of the goal: "On goal"; availability 60 / 65, performance and quality
//   100 %: OEE 92.3 %.

/** The plant above, seeded for `range` (last week) with rollups up to `now`; `flange` is Flange's job id. */
export async function aJobPlant(db: Kysely<Database>, range: { start: number; end: number }, now: number) {
  const plant = await anOfficePlant(db, range);
  const { company, lathe, mill, press, at, scope } = plant;
  await aShift(db, company, { name: 'Day', startoffsetminutes: 360, endoffsetminutes: 840 });
  await someStates(db, company, lathe, [
    [range.start, at(1, 6), 'INACTIVE'],
    [at(1, 6), at(1, 7), 'ACTIVE'],
    [at(1, 7), range.end, 'INACTIVE'],
  ]);
  await someStates(db, company, mill, [
    [range.start, at(2, 6), 'INACTIVE'],
    [at(2, 6), at(2, 7), 'ACTIVE'],
    [at(2, 7), range.end, 'INACTIVE'],
  ]);
  await someStates(db, company, press, [[range.start, range.end, 'INACTIVE']]);
  const flange = await aJobWithRun(scope, {
    machineId: lathe,
    name: 'Flange',
    expected: 10 * MIN,
    ideal: 8 * MIN,
    jobCreatedAt: range.start,
    start: at(1, 6),
    end: at(1, 8),
  });
  await aJobWithRun(scope, {
    machineId: mill,
    name: 'Bracket',
    expected: 10 * MIN,
    ideal: 10 * MIN,
    jobCreatedAt: range.start,
    start: at(2, 6),
    end: at(2, 7, 5),
  });
  const sixCycles = (day: number) =>
    [0, 1, 2, 3, 4, 5].map((k) => ({ start: at(day, 6, k * 10), end: at(day, 6, (k + 1) * 10) }));
  await someCycles(scope, lathe, sixCycles(1));
  await someCycles(scope, mill, sixCycles(2));
  await recomputeMachines(db, company, [lathe, mill, press], { from: range.start, to: range.end, now });
  return { ...plant, flange };
}
