import { addDays, epochMs, formatDay, shopDateOf } from '@takt/domain';
import type { StartInSetup, CompanyScope } from '@takt/db';
import { countJobs, getJob, insertJob, insertJobMachine } from './repositories/jobs';
import { listGroups, listMachines } from './repositories/machines';
import { insertOperator } from './repositories/operators';
import { insertSetupStage } from './repositories/setup-stages';
import { companyClock, insertShift, insertShiftVersion } from './repositories/shifts';
import { jobMachineFromJob } from './services/jobs';

// The demo company's jobs, setup stages, operators and shifts, so Start Job (in setup or
// in production), Change Stage, Start Production, operator log-in (also pinned to the shift start) can be
// tried the moment the product starts.

/** Setup stages in order; the percentages total 100 (reports-admin §5). */
export const DEMO_SETUP_STAGES = [
  { name: 'Teardown', setupPercentage: 20 },
  { name: 'Load tools and fixtures', setupPercentage: 35 },
  { name: 'Program prove-out', setupPercentage: 25 },
  { name: 'First article inspection', setupPercentage: 20 },
] as const;

export const DEMO_OPERATORS = [
  { name: 'Maria Lopez', erpId: 'E-1001' },
  { name: 'James Carter', erpId: 'E-1002' },
  { name: 'Aisha Khan', erpId: 'E-1003' },
  { name: 'Tom Becker', erpId: 'E-1004' },
  { name: 'Lena Novak', erpId: 'E-1005' },
  { name: 'Diego Alvarez', erpId: null },
] as const;

interface DemoJob {
  name: string;
  erp: string;
  /** The demo group whose machines (or manual stations) get the job. */
  group: 'Milling' | 'Turning' | 'Assembly';
  /** ms per cycle; 0 = no standard. */
  expected: number;
  ideal: number;
  /** Parts per cycle. */
  parts: number;
  /** Seconds; null = no setup (start in production only). */
  setup: number | null;
  startInSetup?: StartInSetup;
}

/** Realistic jobs; the last two have no standards (minExpectedPartTime 0, reports show the warning). */
export const DEMO_JOBS: readonly DemoJob[] = [
  {
    name: 'Bracket 7075-A',
    erp: 'WO-24101',
    group: 'Milling',
    expected: 95_000,
    ideal: 85_000,
    parts: 1,
    setup: 2700,
  },
  {
    name: 'Manifold Block MB-220',
    erp: 'WO-24102',
    group: 'Milling',
    expected: 240_000,
    ideal: 210_000,
    parts: 1,
    setup: 5400,
    startInSetup: 'planned',
  },
  {
    name: 'Gear Housing GH-8',
    erp: 'WO-24103',
    group: 'Milling',
    expected: 180_000,
    ideal: 165_000,
    parts: 1,
    setup: 3600,
  },
  {
    name: 'Fixture Plate FP-4 (4-up)',
    erp: 'WO-24104',
    group: 'Milling',
    expected: 320_000,
    ideal: 300_000,
    parts: 4,
    setup: 1800,
  },
  {
    name: 'Pump Cover PC-12',
    erp: 'WO-24105',
    group: 'Milling',
    expected: 75_000,
    ideal: 70_000,
    parts: 1,
    setup: null,
  },
  {
    name: 'Shaft S-450',
    erp: 'WO-24201',
    group: 'Turning',
    expected: 62_000,
    ideal: 55_000,
    parts: 1,
    setup: 1800,
    // Planned: its setup counts as planned downtime (METRICS.md §2). It starts with setup time 0 and is timed
    // against these 30 minutes, its standard (decision 1083).
    startInSetup: 'planned',
  },
  {
    name: 'Bushing BU-19',
    erp: 'WO-24202',
    group: 'Turning',
    expected: 28_000,
    ideal: 25_000,
    parts: 1,
    setup: 1200,
  },
  {
    name: 'Flange FL-300',
    erp: 'WO-24203',
    group: 'Turning',
    expected: 110_000,
    ideal: 100_000,
    parts: 1,
    setup: 2400,
    startInSetup: 'planned',
  },
  {
    name: 'Pin P-6 (2 per cycle)',
    erp: 'WO-24204',
    group: 'Turning',
    expected: 40_000,
    ideal: 36_000,
    parts: 2,
    setup: null,
  },
  // The manual station Assembly Bench 1 (provision.ts DEMO_MANUAL_STATIONS): operators count with Add Part,
  // which adds the run's multiplier, so a kit of 3 shows Add 1 Part too (live-operations §2).
  {
    name: 'Gearbox Kit GK-3 (3 per kit)',
    erp: 'WO-24301',
    group: 'Assembly',
    expected: 240_000,
    ideal: 210_000,
    parts: 3,
    setup: null,
  },
  {
    name: 'Valve Assembly VA-10',
    erp: 'WO-24302',
    group: 'Assembly',
    expected: 180_000,
    ideal: 150_000,
    parts: 1,
    setup: 600,
  },
  {
    name: 'Sensor Harness SH-2',
    erp: 'WO-24303',
    group: 'Assembly',
    expected: 90_000,
    ideal: 80_000,
    parts: 1,
    setup: null,
  },
  {
    name: 'Prototype Rework',
    erp: 'WO-24901',
    group: 'Milling',
    expected: 0,
    ideal: 0,
    parts: 1,
    setup: null,
  },
  {
    name: 'Customer Sample Run',
    erp: 'WO-24902',
    group: 'Turning',
    expected: 0,
    ideal: 0,
    parts: 1,
    setup: 900,
  },
];

/**
 * Three 8-hour shifts every day (a 24/7 plant, so a pinned log-in works whenever the demo is opened). The
 * first shift moved from 06:30 to 06:00 a month ago: it has two versions.
 */
const DEMO_SHIFTS = [
  {
    name: 'First shift',
    versions: [
      { start: 390, end: 870, daysAgo: 120 },
      { start: 360, end: 840, daysAgo: 30 },
    ],
  },
  { name: 'Second shift', versions: [{ start: 840, end: 1320, daysAgo: 120 }] },
  { name: 'Third shift', versions: [{ start: 1320, end: 360, daysAgo: 120 }] },
] as const;

const EVERY_DAY = [0, 1, 2, 3, 4, 5, 6];

/**
 * Seed the demo company's jobs (associated with the machines of their group), setup stages, operators and
 * shifts. Does nothing when the company already has jobs, so it is safe on every start.
 */
export async function seedDemoJobs(scope: CompanyScope, now: number): Promise<void> {
  await scope.transaction(async (tx) => {
    if ((await countJobs(tx)) > 0) return;

    for (const [i, s] of DEMO_SETUP_STAGES.entries()) {
      await insertSetupStage(tx, { name: s.name, stageOrder: i, setupPercentage: s.setupPercentage });
    }
    for (const o of DEMO_OPERATORS)
      await insertOperator(tx, { name: o.name, erpId: o.erpId, createdAt: now });

    const today = shopDateOf(await companyClock(tx), epochMs(now));
    for (const s of DEMO_SHIFTS) {
      const shiftId = await insertShift(tx, { name: s.name, createdAt: now });
      for (const v of s.versions) {
        await insertShiftVersion(tx, {
          shiftId,
          startoffsetminutes: v.start,
          endoffsetminutes: v.end,
          byweekday: EVERY_DAY,
          effectivedate: formatDay(addDays(today, -v.daysAgo)),
          createdAt: now,
        });
      }
    }

    const [machines, groups] = await Promise.all([listMachines(tx), listGroups(tx)]);
    const machinesOf = (group: string): string[] => {
      const g = groups.find((x) => x.name === group);
      // Without the demo groups every job goes on every machine.
      return g ? g.machineIds : machines.map((m) => m.id);
    };
    for (const j of DEMO_JOBS) {
      const jobId = crypto.randomUUID();
      await insertJob(tx, {
        id: jobId,
        name: j.name,
        erp_job_id: j.erp,
        expected_cycle_time: j.expected,
        ideal_cycle_time: j.ideal,
        part_count_multiplier: j.parts,
        actual_parts: j.parts,
        setuptime: j.setup,
        quantity: null,
        hidden: 0,
        created_at: now,
      });
      const job = await getJob(tx, jobId);
      if (!job) throw new Error('demo job vanished after insert');
      const standards = jobMachineFromJob(job);
      for (const machineId of machinesOf(j.group)) {
        await insertJobMachine(tx, {
          id: crypto.randomUUID(),
          job_id: jobId,
          machine_id: machineId,
          created_at: now,
          ...standards,
          ...(j.startInSetup ? { start_in_setup: j.startInSetup } : {}),
        });
      }
    }
  });
}
