// The demo plant's past (TAKT_DEMO_DAYS, decision 1035): each simulated machine's script is played from days
// ago up to now, and what its adapter would have sent goes through the live engine: SHDR lines in the adapter's
// format, parsed by the SHDR parser, placed by the machine's link and pipeline and stored by the batch writer,
// with the link drops a client would have seen. planDemoHistory reads the same scripts for what the operators
// on the floor would have recorded (program changes, stops, parts); the API records that through its own
// services. The live plant then resumes each script where its history ends.
import type { Kysely } from 'kysely';
import type { Database } from '@takt/db';
import { clearSetupMark, setupMarksOf } from '@takt/db';
import type { DemoCondition, DemoProfile, DemoStep, DemoValues } from './demo-script';
import { CONDITION_NORMAL, DEMO_VALUE_KEYS, demoMachineScript } from './demo-script';
import { parseShdrLine } from '../sources/shdr/shdr';
import type { Transport } from '../sources/transport';
import { noCounters } from '../sources/transport';
import { BatchWriter } from '../worker/batch-writer';
import { Link, LinkMap } from '../worker/link';
import { RollupWorker } from '../worker/rollup';
import { loadFieldMaps, loadSetupEvents, loadSources } from '../worker/store';

export interface DemoHistoryMachine {
  machineId: string;
  seed: number;
  profile?: Partial<DemoProfile>;
}

/** What happened on one machine that an operator on the floor would record (planDemoHistory). */
export interface DemoMachineEvents {
  machineId: string;
  /** the program the machine runs when its history starts */
  firstProgram: string;
  /** program changes: setup from `start` (manual mode) until production at `production` (automatic again) */
  changes: Array<{ program: string; start: number; production: number }>;
  /** long breaks (execution STOPPED) and faults: from the stop to the next cycle start */
  stops: Array<{ start: number; end: number; cause: 'break' | 'fault' }>;
  /** when each part (cycle) was completed */
  cycleEnds: number[];
}

/** Where a machine's script is when its history ends: the live adapter goes on from there. */
export interface DemoResume {
  script: Generator<DemoStep, never>;
  values: DemoValues;
  condition: DemoCondition;
  /** the first step after the history, due at `at` */
  next: { step: DemoStep; at: number };
}

/** The SHDR client drops a hung adapter's link after 2× its announced heartbeat (10 s) of silence. */
const SILENCE_DROP_MS = 20_000;
/** Observations buffered before a batch is written (a one-shot load: larger than the live writer's, decision 1076). */
const BATCH_OBSERVATIONS = 40_000;

interface TimedStep {
  at: number;
  step: DemoStep;
}

/** The script's steps with their times, the first (every value) at `from`. */
function* timed(machine: DemoHistoryMachine, from: number): Generator<TimedStep, never> {
  const script = demoMachineScript(machine.seed, machine.profile);
  let at = from;
  for (;;) {
    const step = script.next().value;
    at += step.afterMs;
    yield { at, step };
  }
}

/** Pure: what the operators would record on each machine in [from, to). */
export function planDemoHistory(
  machines: readonly DemoHistoryMachine[],
  from: number,
  to: number,
): DemoMachineEvents[] {
  return machines.map((machine) => {
    const steps = timed(machine, from);
    const first = steps.next().value.step.set as DemoValues;
    const events: DemoMachineEvents = {
      machineId: machine.machineId,
      firstProgram: first.program,
      changes: [],
      stops: [],
      cycleEnds: [],
    };
    let program = first.program;
    let setupFrom: number | null = null;
    let nextProgram: string | null = null;
    let stop: { start: number; cause: 'break' | 'fault' } | null = null;
    for (let { at, step } = steps.next().value; at < to; { at, step } = steps.next().value) {
      const set = step.set ?? {};
      const keys = Object.keys(set);
      if (step.condition?.level === 'FAULT') stop = { start: at, cause: 'fault' };
      else if (keys.length === 1 && set.execution === 'STOPPED') stop = { start: at, cause: 'break' };
      if (set.execution === 'ACTIVE' && stop) {
        events.stops.push({ ...stop, end: at });
        stop = null;
      }
      if (set.execution === 'PROGRAM_COMPLETED') events.cycleEnds.push(at);
      // A program change (demo-script changeProgram): manual mode, the new program, automatic again. A
      // power-on also comes back in manual mode, with every value and the same program: not a change.
      if (keys.length === 2 && set.mode === 'MANUAL') setupFrom = at;
      else if (keys.length === 1 && set.program !== undefined && setupFrom !== null)
        nextProgram = set.program;
      else if (keys.length === 1 && set.mode === 'AUTOMATIC' && setupFrom !== null && nextProgram !== null) {
        if (nextProgram !== program)
          events.changes.push({ program: nextProgram, start: setupFrom, production: at });
        program = nextProgram;
        setupFrom = null;
        nextProgram = null;
      } else if (keys.length > 2) setupFrom = null;
    }
    return events;
  });
}

function conditionLine(ts: string, c: DemoCondition): string {
  return `${ts}|system|${c.level}|${c.nativeCode}|${c.nativeSeverity}|${c.qualifier}|${c.message}`;
}

/**
 * Play the machines' scripts over [from, to) into storage through the live engine, one machine after the
 * other, and return where each script is at `to`. The machines' job runs (their setup periods) must be
 * recorded first: the pipeline takes them as the live worker does. `progress` is told each machine done.
 */
export async function playDemoHistory(
  db: Kysely<Database>,
  machines: readonly DemoHistoryMachine[],
  from: number,
  to: number,
  progress: (done: number, total: number) => void = () => {},
): Promise<Map<string, DemoResume>> {
  const sources = new Map((await loadSources(db)).map((s) => [s.machineId, s]));
  const fields = await loadFieldMaps(
    db,
    machines.map((m) => m.machineId),
  );
  const setups = await loadSetupEvents(
    db,
    machines.map((m) => m.machineId),
    from,
  );
  // The job runs just recorded marked the machines' setup changed (decision 1025): this play derives with every
  // one of their setup events, so the marks taken now are done once it is stored (no second derivation live).
  const marks = new Map(
    (
      await setupMarksOf(
        db,
        machines.flatMap((m) => sources.get(m.machineId) ?? []),
      )
    ).map((m) => [m.machine_id, { companyId: m.company_id, machineId: m.machine_id, markedAt: m.marked_at }]),
  );
  const out = new Map<string, DemoResume>();
  for (const [i, machine] of machines.entries()) {
    const source = sources.get(machine.machineId);
    if (!source) continue;
    let clock = from;
    const links = new LinkMap();
    // A failed write keeps its rows for the next one (the live writer's rule); the last one must succeed.
    let failed: string | null = null;
    const writer = new BatchWriter({
      db,
      now: () => clock,
      log: (message) => {
        failed = message;
      },
      links,
      rebuild: async () => {},
    });
    const link = new Link(source, fields.get(machine.machineId) ?? new Map(), from, writer);
    const transport: Transport = { status: 'CONNECTING', counters: noCounters(), stop: async () => {} };
    link.transport = transport;
    links.set(source.sourceId, link);

    const setupEvents = [...(setups.get(machine.machineId) ?? [])].sort((a, b) => a.at - b.at);
    let nextSetup = 0;
    // Every job run from the history's start is known here and handed over in time order, as the live worker's
    // setup sync does: the pipeline must not read them all at once (they reach into this history's future).
    link.pipeline.setSetup([], from);
    const script = demoMachineScript(machine.seed, machine.profile);
    const first = script.next().value;
    const values: DemoValues = { ...(first.set as DemoValues) };
    let condition = first.condition ?? CONDITION_NORMAL;

    /** One line as the adapter sends it, received by the link at its own time. */
    const send = (at: number, line: string) => {
      while (nextSetup < setupEvents.length && setupEvents[nextSetup]!.at <= at) {
        link.pipeline.setSetup([setupEvents[nextSetup]!]);
        nextSetup++;
      }
      const parsed = parseShdrLine(line, at, link.kinds);
      transport.counters.lines++;
      transport.counters.lastLineAt = at;
      if (parsed.type !== 'data') return;
      transport.counters.observations += parsed.observations.length;
      link.received(parsed.observations, at, true);
    };
    /** The client connects: the adapter sends every current value first. */
    const connect = (at: number) => {
      transport.status = 'CONNECTED';
      link.connection('CONNECTED', at);
      const ts = new Date(at).toISOString();
      send(at, `${ts}|${DEMO_VALUE_KEYS.map((key) => `${key}|${values[key]}`).join('|')}`);
      send(at, conditionLine(ts, condition));
    };
    const disconnect = (at: number) => {
      transport.status = 'DISCONNECTED';
      link.connection('DISCONNECTED', at);
    };

    connect(from);
    let at = from;
    let next: DemoResume['next'];
    for (;;) {
      const step = script.next().value;
      if (at + step.afterMs >= to) {
        next = { step, at: at + step.afterMs };
        break;
      }
      at += step.afterMs;
      clock = at;
      if (step.outage) {
        const back = at + step.outage.durationMs;
        if (step.outage.kind === 'refuse') disconnect(at);
        else if (step.outage.durationMs > SILENCE_DROP_MS) disconnect(at + SILENCE_DROP_MS);
        // The script's next step waits out the outage (its wait counts from the outage's start). One that
        // lasts past the history ends with it: the live adapter starts connected.
        if (back < to && transport.status !== 'CONNECTED') connect(back);
        else if (back >= to) {
          const after = script.next().value;
          next = { step: after, at: at + after.afterMs };
          break;
        }
        continue;
      }
      const ts = new Date(at).toISOString();
      const changed = Object.entries(step.set ?? {}).filter(
        ([key, value]) => values[key as keyof DemoValues] !== value,
      );
      for (const [key, value] of changed) values[key as keyof DemoValues] = value;
      if (changed.length > 0) send(at, `${ts}|${changed.map(([k, v]) => `${k}|${v}`).join('|')}`);
      const c = step.condition;
      if (
        c &&
        (c.level !== condition.level ||
          c.nativeCode !== condition.nativeCode ||
          c.message !== condition.message)
      ) {
        condition = c;
        send(at, conditionLine(ts, c));
      }
      if (writer.buffered().length >= BATCH_OBSERVATIONS) await writer.flush();
    }
    // The rest of the setup events (a setup still going at the end) and the last write, at the history's end.
    while (nextSetup < setupEvents.length && setupEvents[nextSetup]!.at < to)
      link.pipeline.setSetup([setupEvents[nextSetup++]!]);
    clock = to;
    failed = null;
    await writer.flush();
    writer.close();
    if (failed !== null || writer.buffered().length > 0)
      throw new Error(`the demo history of machine ${machine.machineId} was not stored: ${failed ?? ''}`);
    const marked = marks.get(machine.machineId);
    if (marked !== undefined) await clearSetupMark(db, marked);
    out.set(machine.machineId, { script, values, condition, next });
    progress(i + 1, machines.length);
  }
  return out;
}

/**
 * The rollup worker's runs until no machine is left to recompute (decision 0700), so the reports of the new
 * history read from rollups at once. `progress` is told the marks left after each run.
 */
export async function computeDemoRollups(
  db: Kysely<Database>,
  now: () => number,
  progress: (left: number) => void = () => {},
): Promise<void> {
  const worker = new RollupWorker(db, now, () => {});
  for (let runs = 0; runs < 1_000; runs++) {
    const left = await db
      .selectFrom('rollup_dirty')
      .select((eb) => eb.fn.countAll<number>().as('n'))
      .executeTakeFirstOrThrow();
    const n = Number(left.n);
    progress(n);
    if (n === 0) return;
    await worker.run();
  }
}
