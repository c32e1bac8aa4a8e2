// The demo plant's past, operator side (TAKT_DEMO_DAYS, decision 1035): what the floor would have recorded over
// the simulated history (job runs with their setups and stages, operators logged in by shift, downtime
// categorized, rejects), applied as the tablets' sync commands at their past times, through the same handlers
// and services as a tablet's outbox. The machine data itself comes from the ingest engine (demo-history.ts of
// @takt/ingest), handed over by the composition root (decision 0113: the API never imports ingest).
import type { Kysely } from 'kysely';
import { sql, SqliteAdapter } from 'kysely';
import type { SyncCommand, SyncCommandType, SyncOutcome } from '@takt/domain';
import { epochMs, shiftOccurrences } from '@takt/domain';
import type { CompanyScope, Database } from '@takt/db';
import { companyScope } from '@takt/db';
import { loadCalendar } from '@takt/db/rollups';
import type { Caller } from './http/context';
import type { LiveBus } from './live/bus';
import { listAnnotationTypes } from './repositories/annotation-types';
import { findDemoCompany } from './repositories/company';
import { jobMachinesOfMachine } from './repositories/jobs';
import { listOperators } from './repositories/operators';
import { listPartAdjustmentTypes } from './repositories/part-adjustment-types';
import { listSetupStages } from './repositories/setup-stages';
import { findUserForLogin } from './repositories/users';
import { applySyncBatch } from './services/sync';
import { syncHandlers } from './services/sync-handlers';
import { DEMO_LOGINS } from './provision';
import { demoManualStations, recordDemoManualHistory } from './demo-history-manual';

/** A program of a demo machine: one per job associated with it, named after the job's ERP id. */
export interface DemoMachineProgram {
  name: string;
  jobId: string;
  /** the job machine's expected cycle time: what the simulated program cycles at */
  cycleMs: number;
  /** the job machine's setup time; null: the job starts in production */
  setupMs: number | null;
}

/** What happened on a machine that the floor records (planDemoHistory of @takt/ingest, same shape). */
export interface DemoMachineEvents {
  machineId: string;
  firstProgram: string;
  changes: Array<{ program: string; start: number; production: number }>;
  stops: Array<{ start: number; end: number; cause: 'break' | 'fault' }>;
  cycleEnds: number[];
}

/** The demo machines' programs, from the jobs associated with each (hidden jobs aside). */
export async function demoMachinePrograms(
  db: Kysely<Database>,
  machineIds: readonly string[],
): Promise<Map<string, DemoMachineProgram[]>> {
  const company = await findDemoCompany(db);
  if (!company) return new Map();
  const scope = companyScope(db, company.id);
  const hidden = new Set(
    (await scope.selectFrom('jobs').select('id').where('hidden', '=', 1).execute()).map((j) => j.id),
  );
  const out = new Map<string, DemoMachineProgram[]>();
  for (const machineId of machineIds) {
    const jms = (await jobMachinesOfMachine(scope, machineId)).filter((jm) => !hidden.has(jm.job_id));
    const jobs = await scope
      .selectFrom('jobs')
      .select(['id', 'erp_job_id'])
      .where('id', 'in', jms.length > 0 ? jms.map((jm) => jm.job_id) : [''])
      .execute();
    const erp = new Map(jobs.map((j) => [j.id, j.erp_job_id]));
    out.set(
      machineId,
      jms.map((jm, i) => ({
        name: `O${(erp.get(jm.job_id) ?? '').replace(/\D/g, '') || String(1001 + i)}`,
        jobId: jm.job_id,
        // A job without a standard still runs: at a made-up cycle of two minutes.
        cycleMs: jm.expected_cycle_time > 0 ? jm.expected_cycle_time : 120_000,
        setupMs: jm.setuptime != null && jm.setuptime > 0 ? jm.setuptime * 1000 : null,
      })),
    );
  }
  return out;
}

/** The demo company has no machine data yet: its first start, when the history is made. */
export async function demoHistoryNeeded(db: Kysely<Database>): Promise<boolean> {
  const company = await findDemoCompany(db);
  if (!company) return false;
  const any = await db
    .selectFrom('observations')
    .select('machine_id')
    .where('company_id', '=', company.id)
    .limit(1)
    .executeTakeFirst();
  return any === undefined;
}

/** Applies the floor's commands as the demo operator's tablet would sync them. */
export class Floor {
  failures = 0;
  applied = 0;
  /** The first refusals, for the start log. */
  readonly errors: string[] = [];

  constructor(
    readonly scope: CompanyScope,
    private readonly caller: Caller,
    private readonly bus: LiveBus,
    private readonly now: number,
  ) {}

  async run(
    type: SyncCommandType,
    machineId: string,
    occurredAt: number,
    payload: Record<string, unknown>,
  ): Promise<SyncOutcome> {
    const command: SyncCommand = { id: crypto.randomUUID(), type, machineId, payload, occurredAt };
    const [outcome] = await applySyncBatch(
      { scope: this.scope, caller: this.caller, now: this.now, bus: this.bus, handlers: syncHandlers },
      { commands: [command] },
    );
    if (outcome?.status === 'applied') this.applied++;
    else {
      this.failures++;
      if (this.errors.length < 5 && outcome && 'error' in outcome)
        this.errors.push(
          `${type}: ${outcome.error?.message ?? ''} ${JSON.stringify(outcome.error?.issues ?? [])}`,
        );
    }
    return outcome!;
  }
}

export async function demoFloor(db: Kysely<Database>, bus: LiveBus, now: number): Promise<Floor> {
  const company = await findDemoCompany(db);
  if (!company) throw new Error('the demo company is missing');
  const operator = DEMO_LOGINS.find((l) => l.role === 'operator')!;
  const found = await findUserForLogin(db, operator.email);
  if (!found) throw new Error(`the demo user ${operator.email} is missing`);
  const caller: Caller = { kind: 'user', user: found.user, company, sessionToken: '' };
  return new Floor(companyScope(db, company.id), caller, bus, now);
}

const resultId = (o: SyncOutcome): string | null =>
  o.status === 'applied' && o.result && typeof o.result === 'object' && 'id' in o.result
    ? String((o.result as { id: unknown }).id)
    : null;

/**
 * Job runs and operators over [from, to): the program running at `from` is its job in production; each program
 * change stops the job and starts the next one in setup (through the setup stages by their percentages) until
 * production, or in production when the job has no setup time. Operators log in at each shift's start, a
 * different one on each machine and shift. Done before the machine data, whose setup periods come from the runs.
 */
export async function recordDemoJobRuns(
  db: Kysely<Database>,
  input: {
    bus: LiveBus;
    now: number;
    from: number;
    to: number;
    programs: ReadonlyMap<string, readonly DemoMachineProgram[]>;
    events: readonly DemoMachineEvents[];
  },
): Promise<{ runs: number; logins: number; failures: number; errors: string[] }> {
  const floor = await demoFloor(db, input.bus, input.now);
  const { scope } = floor;
  const stages = await listSetupStages(scope);
  const operators = (await listOperators(scope)).filter((o) => o.archivedAt == null);
  const calendar = await loadCalendar(db, scope.companyId);
  const shifts = shiftOccurrences(calendar, calendar.shifts, epochMs(input.from), epochMs(input.to));
  let runs = 0;
  let logins = 0;
  for (const [m, events] of input.events.entries()) {
    const machineId = events.machineId;
    const programs = new Map((input.programs.get(machineId) ?? []).map((p) => [p.name, p]));
    const first = programs.get(events.firstProgram);
    // Operators first: each shift's operator is logged in before the jobs of the shift start.
    for (const [s, shift] of shifts.entries()) {
      const operator = operators[(m + s) % Math.max(1, operators.length)];
      if (!operator) break;
      const o = await floor.run('operator_login', machineId, shift.start, {
        machineId,
        operatorId: operator.id,
      });
      if (o.status === 'applied') logins++;
    }
    let running: string | null = null;
    if (first) {
      const o = await floor.run('start_job', machineId, input.from, {
        id: machineId,
        jobId: first.jobId,
        setup: false,
      });
      if (o.status === 'applied') {
        running = first.jobId;
        runs++;
      }
    }
    for (const change of events.changes) {
      const program = programs.get(change.program);
      if (!program) continue;
      if (running) await floor.run('stop_job', machineId, change.start, { id: machineId, jobId: running });
      running = null;
      const inSetup = program.setupMs != null && stages.length > 0;
      const started = await floor.run('start_job', machineId, inSetup ? change.start : change.production, {
        id: machineId,
        jobId: program.jobId,
        setup: inSetup,
        ...(inSetup ? { setupStageId: stages[0]!.id } : {}),
      });
      const runId = resultId(started);
      if (!runId) continue;
      running = program.jobId;
      runs++;
      if (!inSetup) continue;
      // The stages by their share of the setup (reports-admin §5), then production.
      let at = change.start;
      const span = change.production - change.start;
      for (const [i, stage] of stages.entries()) {
        if (i > 0)
          await floor.run('setup_stage', machineId, Math.round(at), {
            laborActivitySetId: runId,
            setupStageId: stage.id,
          });
        at += (span * stage.setupPercentage) / 100;
      }
      await floor.run('start_production', machineId, change.production, { jsgId: runId, machineId });
    }
  }
  return { runs, logins, failures: floor.failures, errors: floor.errors };
}

/** Reasons for long breaks, in turn; about one stop in four is left uncategorized, as on a real floor. */
const BREAK_REASONS = [
  'Lunch break',
  'Waiting for material',
  'No operator',
  'Preventive maintenance',
  'Operator choice',
  'Lunch break',
  'Waiting for material',
];

/**
 * Downtime categorized and rejects over the history, once the machine data is stored (a reject needs the parts
 * it takes from): most stops get a reason (faults: Machine breakdown; breaks: one of BREAK_REASONS), a setup
 * gap of a job started in production is a Tool change, and every other production run has 1–3.5 % of its
 * parts rejected with a reason.
 */
export async function recordDemoFloorEvents(
  db: Kysely<Database>,
  input: {
    bus: LiveBus;
    now: number;
    programs: ReadonlyMap<string, readonly DemoMachineProgram[]>;
    events: readonly DemoMachineEvents[];
  },
): Promise<{ annotations: number; rejects: number; failures: number; errors: string[] }> {
  const floor = await demoFloor(db, input.bus, input.now);
  const { scope } = floor;
  const reasons = new Map((await listAnnotationTypes(scope, {})).map((t) => [t.name, t.id]));
  const rejectTypes = (await listPartAdjustmentTypes(scope, {})).filter((t) => t.scrap);
  let annotations = 0;
  let rejects = 0;
  for (const [m, events] of input.events.entries()) {
    const machineId = events.machineId;
    const programs = new Map((input.programs.get(machineId) ?? []).map((p) => [p.name, p]));
    const categorize = async (start: number, end: number, reason: string | undefined) => {
      const categoryId = reason ? reasons.get(reason) : undefined;
      if (!categoryId) return;
      const o = await floor.run('categorize_downtime', machineId, end, {
        machineId,
        start,
        end,
        category_id: categoryId,
      });
      if (o.status === 'applied') annotations++;
    };
    for (const [i, stop] of events.stops.entries()) {
      if ((i + m) % 4 === 3) continue;
      const reason =
        stop.cause === 'fault'
          ? i % 3 === 2
            ? 'Tool change'
            : 'Machine breakdown'
          : BREAK_REASONS[(i + m) % BREAK_REASONS.length];
      await categorize(stop.start, stop.end, reason);
    }
    for (const change of events.changes) {
      const program = programs.get(change.program);
      if (program && program.setupMs == null)
        await categorize(change.start, change.production, 'Tool change');
    }
    // Rejects: a count in every other production run of 60 cycles or more, 1–3.5 % of its cycles, found by the
    // operator late in the run (each reject reads its run's parts: a count per run keeps the start fast).
    const productionStarts = [...events.changes.map((c) => c.production), Infinity];
    let previous = -Infinity;
    for (const [k, end] of productionStarts.entries()) {
      const cycles = events.cycleEnds.filter((t) => t >= previous && t < end);
      previous = end;
      const type = rejectTypes[(k + m) % Math.max(1, rejectTypes.length)];
      if (cycles.length < 60 || (k + m) % 2 === 1 || !type) continue;
      const rate = 0.01 + ((k * 7 + m * 3) % 11) * 0.0025;
      const at = cycles[Math.floor(cycles.length * 0.8)]! + 30_000;
      const o = await floor.run('reject_part', machineId, at, {
        machine_id: machineId,
        adjustmenttime: at,
        category_id: type.id,
        scrapcount: Math.max(1, Math.round(cycles.length * rate)),
      });
      if (o.status === 'applied') rejects++;
    }
  }
  return { annotations, rejects, failures: floor.failures, errors: floor.errors };
}

/**
 * What the ingest engine does for the history, handed over by the composition root (decision 0113): plan the
 * machines' events, play their data through the ingest pipeline, run the rollup worker. `Profile` and `Resume`
 * are the simulator's, opaque here.
 */
export interface DemoHistoryEngine<Profile, Resume> {
  plan(
    machines: ReadonlyArray<{ machineId: string; seed: number; profile?: Profile }>,
    from: number,
    to: number,
  ): DemoMachineEvents[];
  play(
    db: Kysely<Database>,
    machines: ReadonlyArray<{ machineId: string; seed: number; profile?: Profile }>,
    from: number,
    to: number,
    progress: (done: number, total: number) => void,
  ): Promise<Map<string, Resume>>;
  rollups(db: Kysely<Database>, now: () => number, progress: (left: number) => void): Promise<void>;
}

/**
 * SQLite during the one-shot history load (decision 1076): commits not synced to disk (a crash of the process
 * loses nothing committed; only a power loss may, and the demo's first start then simply runs again on a fresh
 * file) and a larger page cache; both back to the product's settings (connect.ts) afterwards.
 * PostgreSQL is left as it is.
 */
async function bulkLoad<T>(db: Kysely<Database>, load: () => Promise<T>): Promise<T> {
  if (!(db.getExecutor().adapter instanceof SqliteAdapter)) return load();
  await sql`pragma synchronous = OFF`.execute(db);
  await sql`pragma cache_size = -131072`.execute(db);
  try {
    return await load();
  } finally {
    await sql`pragma cache_size = -2000`.execute(db);
    await sql`pragma synchronous = NORMAL`.execute(db);
  }
}

/**
 * The demo plant's history over the `days` before `now` (decision 1035): the operators' job runs first (the
 * machine data's setup periods come from them), then the machine data through the ingest engine, then the
 * floor's categorizations and rejects, then the rollups. Says its progress; returns where each machine's
 * script is at `now`, for the live plant to go on from.
 */
export async function makeDemoHistory<Profile, Resume>(
  db: Kysely<Database>,
  input: {
    days: number;
    now: () => number;
    bus: LiveBus;
    machines: ReadonlyArray<{ machineId: string; seed: number; profile?: Profile }>;
    programs: ReadonlyMap<string, readonly DemoMachineProgram[]>;
    engine: DemoHistoryEngine<Profile, Resume>;
    say: (message: string) => void;
  },
): Promise<Map<string, Resume>> {
  const started = input.now();
  const to = started;
  const from = to - input.days * 86_400_000;
  const { engine, machines, say } = input;
  const secs = () => `${((input.now() - started) / 1000).toFixed(1)} s`;
  say(`[takt] demo history: ${input.days} days of ${machines.length} machines…`);
  return bulkLoad(db, async () => {
    const events = engine.plan(machines, from, to);
    const jobs = await recordDemoJobRuns(db, {
      bus: input.bus,
      now: to,
      from,
      to,
      programs: input.programs,
      events,
    });
    say(`[takt] demo history: ${jobs.runs} job runs, ${jobs.logins} operator shifts (${secs()})`);
    for (const e of jobs.errors) say(`[takt] demo history: refused ${e}`);
    let lastSaid = 0;
    const resume = await engine.play(db, machines, from, to, (done, total) => {
      if (done === total || input.now() - lastSaid > 3_000) {
        lastSaid = input.now();
        say(`[takt] demo history: machine data ${done}/${total} (${secs()})`);
      }
    });
    const floor = await recordDemoFloorEvents(db, {
      bus: input.bus,
      now: to,
      programs: input.programs,
      events,
    });
    say(`[takt] demo history: ${floor.annotations} downtime reasons, ${floor.rejects} rejects (${secs()})`);
    for (const e of floor.errors) say(`[takt] demo history: refused ${e}`);
    // The manual bench's operators: its states come from their Add Parts (decision 1073).
    const bench = await recordDemoManualHistory(db, {
      bus: input.bus,
      now: to,
      from,
      to,
      seed: machines[0]?.seed ?? 1,
      stations: await demoManualStations(db),
    });
    say(
      `[takt] demo history: manual work centers, ${bench.counts} Add Parts, ${bench.runs} job runs (${secs()})`,
    );
    for (const e of bench.errors) say(`[takt] demo history: refused ${e}`);
    await engine.rollups(db, input.now, (left) => {
      if (left > 0) say(`[takt] demo history: report rollups, ${left} machine(s) to go (${secs()})`);
    });
    say(`[takt] demo history: ready in ${secs()}`);
    return resume;
  });
}
