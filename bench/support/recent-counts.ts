// Decision 1218: the counts of the report plant's recent days (bench/support/report-mix.ts `aReportPlant`), made from
// its stored state intervals before the product's recompute rewrites their rows: job runs (most machines a job with
// a standard, every tenth machine a job without one: METRICS.md §3, no standard is not slow), cycles only while
// ACTIVE (each wholly inside one ACTIVE interval, one part-counter increment each, stored narrow as ingest stores
// them: cycle_rows by the machine's dictionary id, decision 1182), rejects of parts already made in the same run and
// a few part corrections (part_adjustments rows as the API writes them). A fixed seed per machine.
import type { Company } from '../../services/api/src/repositories/company';
import {
  companyScope,
  insertStatements,
  numberedPlaceholders,
  observationIds,
  runStatements,
} from '@takt/db';
import { machineName } from '@takt/db';
import type { ApiHarness } from '../../services/api/src/testing/app';
import { aRejectReason } from '../../services/api/src/testing/downtime-builders';
import { aJob } from '../../services/api/src/testing/live-builders';
import { anAdjustmentRow, aRejectRow } from '../../services/api/src/testing/report-plant';
import type { AdjustmentRow } from '../../services/api/src/testing/report-plant';
import { mulberry32 } from '../../services/ingest/src/demo/demo-script';

const MIN = 60_000;
const DAY = 86_400_000;

/** The jobs of the plant: ideal and expected cycle times, parts a cycle (`manyparts` when over 1). */
const JOBS = Array.from({ length: 12 }, (_, k) => {
  const ideal = (4 + k) * MIN;
  return { name: `Part ${100 + k}`, ideal, expected: Math.round(ideal * 1.15), parts: k % 4 === 3 ? 2 : 1 };
});

/** A job run row as the API's job start stores it (the job's standards copied onto the run). */
const runRow = (
  machineId: string,
  job: { id: string; ideal: number; expected: number; parts: number },
  start: number,
  end: number | null,
) => ({
  id: crypto.randomUUID(),
  machine_id: machineId,
  job_id: job.id,
  job_machine_id: null,
  start_at: start,
  end_at: end,
  setup_mode: 'none' as const,
  setup_end: start,
  expected_cycle_time: job.expected,
  ideal_cycle_time: job.ideal,
  part_count_multiplier: job.parts,
  actual_parts: job.parts,
  reported_parts: null,
  required_cycles: null,
  part_behavior: job.parts > 1 ? ('manyparts' as const) : ('one' as const),
  expected_setup_ms: null,
  setup_note: null,
  created_at: start,
});

type RunRow = ReturnType<typeof runRow>;

/**
 * The counts of each machine over [from, now) from its stored state intervals: runs of 1 to 4 days back to back (the
 * last still open), cycles in its ACTIVE intervals at 1.1–1.4 × the run's ideal cycle time (8–10 min without a
 * standard), a reject of 1–2 of the run's parts after about one cycle in 60 and a correction (+1, or −1 while the
 * run has good parts) after about one in 400. Returns how many cycles, runs and adjustments it wrote.
 */
export async function recentCounts(
  h: ApiHarness,
  company: Company,
  ids: readonly string[],
  from: number,
  now: number,
): Promise<{ cycles: number; runs: number; adjustments: number }> {
  const db = h.t.db;
  const scope = companyScope(db, company.id);
  const jobs = [];
  for (const j of JOBS)
    jobs.push({
      ...j,
      id: await aJob(db, company, {
        name: j.name,
        idealCycleTime: j.ideal,
        expectedCycleTime: j.expected,
        actualParts: j.parts,
      }),
    });
  const noStandard = {
    id: await aJob(db, company, { name: 'Rework', idealCycleTime: 0, expectedCycleTime: 0 }),
    ideal: 0,
    expected: 0,
    parts: 1,
  };
  const reasons = [
    await aRejectReason(db, company, { name: 'Burr', reject_behavior: 'scrap' }),
    await aRejectReason(db, company, { name: 'Out of tolerance', reject_behavior: 'nonconform' }),
  ];
  const numbered = numberedPlaceholders(db);
  const { machines: mOf } = await observationIds(
    db,
    numbered,
    ids.map((id) => machineName(company.id, id)),
    [],
  );
  const total = { cycles: 0, runs: 0, adjustments: 0 };
  for (const [m, machineId] of ids.entries()) {
    const rnd = mulberry32(5000 + m);
    const runs: RunRow[] = [];
    for (let t = from; t < now;) {
      const next = t + Math.floor((1 + rnd() * 3) * DAY);
      const job = m % 10 === 9 ? noStandard : jobs[Math.floor(rnd() * jobs.length)]!;
      runs.push(runRow(machineId, job, t, next >= now ? null : next));
      t = next;
    }
    const active = await scope
      .selectFrom('state_intervals')
      .select(['start_at', 'end_at'])
      .where('machine_id', '=', machineId)
      .where('state', '=', 'ACTIVE')
      .where('start_at', '>=', from)
      .orderBy('start_at')
      .execute();
    const cycles: Array<[start: number, end: number]> = [];
    const adjustments: AdjustmentRow[] = [];
    let r = 0;
    /** The current run's good parts so far (made less rejected, with corrections). */
    let good = 0;
    for (const a of active) {
      const end = a.end_at ?? now;
      for (let t = a.start_at; ;) {
        while (runs[r + 1] && runs[r + 1]!.start_at <= t) {
          r++;
          good = 0;
        }
        const run = runs[r]!;
        const ct = Math.round((run.ideal_cycle_time || 8 * MIN) * (1.1 + rnd() * 0.3));
        // A cycle ends inside this ACTIVE interval (and before now: the interval's open end), in its run.
        if (t + ct >= end || (run.end_at !== null && t + ct >= run.end_at)) break;
        cycles.push([t, t + ct]);
        t += ct;
        good += run.actual_parts;
        const roll = rnd();
        if (roll < 1 / 60 && good > 0) {
          const scrapcount = Math.min(good, 1 + Math.floor(rnd() * 2));
          const reason = reasons[Math.floor(rnd() * reasons.length)]!;
          adjustments.push({
            ...aRejectRow(machineId, t, {
              typeId: reason.id,
              scrapcount,
              behavior: reason.reject_behavior === 'nonconform' ? 'nonconform' : 'scrap',
            }),
            job_run_id: run.id,
          });
          good -= scrapcount;
        } else if (roll > 1 - 1 / 400) {
          const count = good > 1 && rnd() < 0.5 ? -1 : 1;
          adjustments.push(anAdjustmentRow(machineId, t, { count, job_run_id: run.id }));
          good += count;
        }
      }
    }
    for (let i = 0; i < runs.length; i += 500)
      await scope.insertInto('job_runs', runs.slice(i, i + 500)).execute();
    const mid = mOf.get(machineName(company.id, machineId))!;
    await runStatements(
      db,
      insertStatements(
        numbered,
        'cycle_rows',
        ['m', 'start_at', 'end_at', 'duration', 'count', 'source', 'setup'],
        cycles,
        (params, at, [s, e]) => {
          params[at] = mid;
          params[at + 1] = s;
          params[at + 2] = e;
          params[at + 3] = e - s;
          params[at + 4] = 1;
          params[at + 5] = 'part_count';
          params[at + 6] = 0;
        },
        '',
        ['int', 'bigint', 'bigint', 'bigint', 'int', 'text', 'int'],
      ),
    );
    for (let i = 0; i < adjustments.length; i += 500)
      await scope.insertInto('part_adjustments', adjustments.slice(i, i + 500)).execute();
    total.cycles += cycles.length;
    total.runs += runs.length;
    total.adjustments += adjustments.length;
  }
  return total;
}
