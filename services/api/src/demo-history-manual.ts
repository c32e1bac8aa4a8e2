// The demo's manual work centers get their past too (TAKT_DEMO_DAYS, decision 1035): nothing simulates a manual
// station's machine data, so its history is only what its operators record on the tablet, applied as those sync
// commands at their past times through the same handlers as a tablet's outbox: operator_login at each shift's
// start, start_job (through the setup stages when the job has a setup time) and stop_job at job changes,
// manual_add_part (the run's Add Part step) as each kit is done, categorize_downtime for most long pauses, and
// reject_part (count 0: the parts were entered by hand, decision 0107) in every other shift.
import type { Kysely } from 'kysely';
import { epochMs, shiftOccurrences } from '@takt/domain';
import type { Database } from '@takt/db';
import { loadCalendar } from '@takt/db/rollups';
import type { DemoMachineProgram } from './demo-history';
import { demoFloor, demoMachinePrograms } from './demo-history';
import { findDemoCompany } from './repositories/company';
import type { LiveBus } from './live/bus';
import { listAnnotationTypes } from './repositories/annotation-types';
import { jobMachinesOfMachine } from './repositories/jobs';
import { listOperators } from './repositories/operators';
import { listPartAdjustmentTypes } from './repositories/part-adjustment-types';
import { listSetupStages } from './repositories/setup-stages';

/** Reasons operators give a bench's long pauses, in turn (one pause in four stays uncategorized). */
const PAUSE_REASONS = ['Waiting for material', 'Lunch break', 'No operator', 'Operator choice'];

/** The demo company's manual work centers with their programs (their jobs, as demoMachinePrograms gives them). */
export async function demoManualStations(db: Kysely<Database>): Promise<Map<string, DemoMachineProgram[]>> {
  const company = await findDemoCompany(db);
  if (!company) return new Map();
  const rows = await db
    .selectFrom('machines')
    .select('id')
    .where('company_id', '=', company.id)
    .where('workcenter_type', '=', 'manual')
    .orderBy('sort_order')
    .execute();
  return demoMachinePrograms(
    db,
    rows.map((r) => r.id),
  );
}

/** A small seeded generator (mulberry32): the same seed makes the same bench history. */
function seeded(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4_294_967_296;
  };
}

/**
 * The manual work centers' history over [from, to): each shift its operator logs in, works the shift's job
 * (a new job every other shift), adds a kit at its job's expected time ± a working pace of 90–125 % of it,
 * pauses now and then for 8–40 minutes, and stops adding 20 minutes before the shift ends. Time outside the
 * shifts has no count. The programs are the stations' jobs (demoMachinePrograms), in their order.
 */
export async function recordDemoManualHistory(
  db: Kysely<Database>,
  input: {
    bus: LiveBus;
    now: number;
    from: number;
    to: number;
    seed: number;
    stations: ReadonlyMap<string, readonly DemoMachineProgram[]>;
  },
): Promise<{
  counts: number;
  runs: number;
  annotations: number;
  rejects: number;
  failures: number;
  errors: string[];
}> {
  const floor = await demoFloor(db, input.bus, input.now);
  const { scope } = floor;
  const stages = await listSetupStages(scope);
  const operators = (await listOperators(scope)).filter((o) => o.archivedAt == null);
  const reasons = new Map((await listAnnotationTypes(scope, {})).map((t) => [t.name, t.id]));
  const rejectTypes = (await listPartAdjustmentTypes(scope, {})).filter((t) => t.scrap);
  const calendar = await loadCalendar(db, scope.companyId);
  const shifts = shiftOccurrences(calendar, calendar.shifts, epochMs(input.from), epochMs(input.to));
  let counts = 0;
  let runs = 0;
  let annotations = 0;
  let rejects = 0;
  for (const [m, [machineId, programs]] of [...input.stations.entries()].entries()) {
    if (programs.length === 0) continue;
    const steps = new Map(
      (await jobMachinesOfMachine(scope, machineId)).map((jm) => [jm.job_id, jm.part_count_multiplier]),
    );
    const random = seeded(input.seed + m * 7919);
    let running: DemoMachineProgram | null = null;
    let pauses = 0;
    for (const [s, shift] of shifts.entries()) {
      const start = Number(shift.start);
      const end = Math.min(Number(shift.end), input.to);
      const operator = operators[(s + m + 5) % Math.max(1, operators.length)];
      if (operator)
        await floor.run('operator_login', machineId, start, { machineId, operatorId: operator.id });
      let t = start + (5 + Math.floor(random() * 10)) * 60_000;
      const program = programs[Math.floor(s / 2) % programs.length]!;
      if (running?.jobId !== program.jobId) {
        if (running) await floor.run('stop_job', machineId, start, { id: machineId, jobId: running.jobId });
        running = null;
        const inSetup = program.setupMs != null && stages.length > 0;
        const started = await floor.run('start_job', machineId, t, {
          id: machineId,
          jobId: program.jobId,
          setup: inSetup,
          ...(inSetup ? { setupStageId: stages[0]!.id } : {}),
        });
        const runId =
          started.status === 'applied' && started.result && typeof started.result === 'object'
            ? String((started.result as { id?: unknown }).id ?? '')
            : '';
        if (!runId) continue;
        running = program;
        runs++;
        if (inSetup) {
          const span = program.setupMs! * (0.9 + random() * 0.5);
          let at = t;
          for (const [i, stage] of stages.entries()) {
            if (i > 0)
              await floor.run('setup_stage', machineId, Math.round(at), {
                laborActivitySetId: runId,
                setupStageId: stage.id,
              });
            at += (span * stage.setupPercentage) / 100;
          }
          t += Math.round(span);
          await floor.run('start_production', machineId, t, { jsgId: runId, machineId });
        }
      }
      const step = steps.get(program.jobId) ?? 1;
      let added = 0;
      const stopAt = end - 20 * 60_000;
      for (;;) {
        // A pause of 8–40 minutes about once per 25 kits; three in four get a reason.
        if (random() < 0.04) {
          const pause = (8 + Math.floor(random() * 32)) * 60_000;
          const reason = PAUSE_REASONS[(pauses + m) % PAUSE_REASONS.length]!;
          const categoryId = reasons.get(reason);
          if (pauses++ % 4 !== 3 && categoryId && t + pause < stopAt) {
            const o = await floor.run('categorize_downtime', machineId, t + pause, {
              machineId,
              start: t,
              end: t + pause,
              category_id: categoryId,
            });
            if (o.status === 'applied') annotations++;
          }
          t += pause;
        }
        t += Math.round(program.cycleMs * (0.9 + random() * 0.35));
        if (t >= stopAt) break;
        const o = await floor.run('manual_add_part', machineId, t, { machineId, count: step });
        if (o.status === 'applied') {
          counts++;
          added += step;
        }
      }
      // Every other shift the operator finds a kit or two not good at the end of it.
      const type = rejectTypes[(s + m) % Math.max(1, rejectTypes.length)];
      if (s % 2 === 1 && type && added >= 10) {
        const at = stopAt + 5 * 60_000;
        const o = await floor.run('reject_part', machineId, at, {
          machine_id: machineId,
          adjustmenttime: at,
          category_id: type.id,
          scrapcount: 1 + Math.floor(random() * 2),
          count: 0,
        });
        if (o.status === 'applied') rejects++;
      }
    }
  }
  return { counts, runs, annotations, rejects, failures: floor.failures, errors: floor.errors };
}
