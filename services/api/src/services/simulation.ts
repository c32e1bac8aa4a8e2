import type { CompanyScope, IngestInboxTable, ObservationRow } from '@takt/db';
import { conditionText, insertInbox, insertObservations } from '@takt/db';
import type { KeyKinds, SimulationAction, SimulationKeys, SimulationState } from '@takt/domain';
import { ApiError, notFound } from '../http/errors';
import type { IngestRules } from '../ingest-rules';
import { addSourceStats } from '../repositories/gateways';
import type { SimulationChange, SimulationRow } from '../repositories/simulation';
import {
  adapterFieldsOf,
  deleteSimulation,
  deleteSimulatorSources,
  inboxLinesOf,
  insertSimulation,
  insertSimulatorSource,
  simulatedMachine,
  simulationOf,
  sourcesOfMachine,
  updateSimulation,
} from '../repositories/simulation';
import type { ServiceCtx } from './context';

// The test screen for simulated execution (live-operations §2; decision 1100). A machine without a real data source
// gets the simulator as its source; each action is an SHDR line stamped by the server, stored and put in the
// ingest inbox exactly as a gateway's pushed line is (services/gateway-push.ts), so the ingest worker derives it
// with the machine's adapter mapping, and tiles, workcenter, timeline and reports read it as they read real data.

type Machine = NonNullable<Awaited<ReturnType<typeof simulatedMachine>>>;
type Sources = Awaited<ReturnType<typeof sourcesOfMachine>>;

/** What the simulation needs besides the company's scope: the ingest rules that parse a line as the worker does. */
export interface SimulationDeps {
  ingest: IngestRules;
}

const conflict = (message: string) => new ApiError(409, 'SIMULATION_REFUSED', message);

const kindOf = (kinds: KeyKinds | undefined, key: string) =>
  kinds === undefined ? undefined : typeof kinds === 'function' ? kinds(key) : kinds.get(key);

/** The keys the simulation writes: the machine's adapter fields of each meaning (the first by name). */
async function keysOf(scope: CompanyScope, deps: SimulationDeps, machine: Machine): Promise<SimulationKeys> {
  const fields = await adapterFieldsOf(scope, machine.adapter_id);
  const of = (type: string, prefer?: (subType: string | null) => boolean) => {
    const all = fields.filter((f) => f.type.trim().toUpperCase() === type);
    return ((prefer && all.find((f) => prefer(f.subType))) ?? all[0])?.name ?? null;
  };
  const kinds = (
    await deps.ingest.pushKeyKinds(scope.db, new Map([[machine.id, { machineId: machine.id }]]))
  )(machine.id);
  return {
    execution: of('EXECUTION'),
    availability: of('AVAILABILITY'),
    // The main program, not the sub-program running (PROGRAM subType ACTIVE, read as a sub-program).
    program: of('PROGRAM', (s) => s === null || s.toUpperCase() === 'MAIN'),
    partCount: of('PART_COUNT', (s) => s === null || s.toUpperCase() === 'ALL'),
    condition: fields.find((f) => kindOf(kinds, f.name) === 'condition')?.name ?? null,
  };
}

function describeSource(s: Sources[number]): string {
  switch (s.kind) {
    case 'shdr':
      return `an SHDR adapter at ${s.host}:${s.port}`;
    case 'agent':
      return `an MTConnect agent at ${s.baseUrl ?? ''}`;
    case 'mqtt':
      return `MQTT as ${s.machineRef ?? ''}`;
    default:
      return 'a gateway';
  }
}

/** Why the machine cannot be simulated, in the 409's words; null when it can. */
function refusalOf(machine: Machine, sources: Sources, keys: SimulationKeys): string | null {
  if (machine.workcenter_type === 'manual')
    return 'A manual work center has no machine data to simulate: its parts are counted on the floor app.';
  const real = sources.find((s) => s.kind !== 'simulator');
  if (real)
    return `This machine has a data source (${describeSource(real)}): simulation is only for a machine without one, so simulated and real data never mix. Remove its source under Machines first, or simulate another machine.`;
  if (!keys.execution)
    return 'This machine’s adapter maps no Execution item, so nothing simulated could be read. Choose an adapter for it under Machines (Hardware panel) first.';
  return null;
}

interface Facts {
  machine: Machine;
  sources: Sources;
  keys: SimulationKeys;
  refusal: string | null;
  sim: SimulationRow | undefined;
}

async function factsOf(scope: CompanyScope, deps: SimulationDeps, machineId: string): Promise<Facts> {
  const machine = await simulatedMachine(scope, machineId);
  if (!machine || machine.decommissioned_at !== null) throw notFound('Machine');
  const [sources, keys, sim] = await Promise.all([
    sourcesOfMachine(scope, machineId),
    keysOf(scope, deps, machine),
    simulationOf(scope, machineId),
  ]);
  return { machine, sources, keys, refusal: refusalOf(machine, sources, keys), sim };
}

const activeSource = (sources: Sources) =>
  sources.find((s) => s.kind === 'simulator' && Number(s.enabled) === 1);

function stateOf(f: Facts): SimulationState {
  const sim = f.sim;
  const num = (v: number | string | null | undefined) => (v == null ? null : Number(v));
  return {
    machineId: f.machine.id,
    machineName: f.machine.name,
    refusal: f.refusal,
    active: activeSource(f.sources) !== undefined,
    keys: f.keys,
    execution: sim?.execution ?? null,
    program: sim?.program ?? null,
    partCount: num(sim?.part_count),
    fault: sim?.fault_message ? { message: sim.fault_message, nativeCode: sim.fault_code ?? '' } : null,
    lastLineAt: num(sim?.last_line_at),
    cycles:
      sim?.cycle_every_ms != null && sim.cycle_until != null && sim.cycle_next_at != null
        ? {
            everySeconds: Number(sim.cycle_every_ms) / 1000,
            until: Number(sim.cycle_until),
            nextAt: Number(sim.cycle_next_at),
          }
        : null,
  };
}

export async function simulationState(
  ctx: ServiceCtx,
  deps: SimulationDeps,
  machineId: string,
): Promise<SimulationState> {
  return stateOf(await factsOf(ctx.scope, deps, machineId));
}

const iso = (at: number) => new Date(at).toISOString();

/** One line's fields after its timestamp: `key|value` pairs, or a condition's six fields. */
type LineFields = string[];

/**
 * Mutates: stores `lines` as the simulator's, stamped `at` or later (never before its last line: a line's time is
 * its order), and puts them in the ingest inbox, as a gateway push does. Returns the time used.
 */
async function feed(
  scope: CompanyScope,
  deps: SimulationDeps,
  machineId: string,
  sourceId: string,
  sim: SimulationRow,
  lines: LineFields[],
  at: number,
  change: SimulationChange,
): Promise<number> {
  const stamp = Math.max(at, Number(sim.last_line_at ?? 0) + 1);
  const text = lines.filter((l) => l.length > 0).map((fields) => [iso(stamp), ...fields].join('|'));
  const kinds = await deps.ingest.pushKeyKinds(scope.db, new Map([[machineId, { machineId }]]));
  // Parsed by the ingest contract's own rules, as a pushed gateway line (decidePush numbers and parses each).
  const decision = deps.ingest.decidePush(
    {
      gatewayId: 'simulator',
      records: text.map((line, i) => ({ seq: i + 1, machineRef: machineId, line })),
    },
    null,
    stamp,
    kinds,
  );
  const observations: ObservationRow[] = [];
  const inbox: IngestInboxTable[] = [];
  let rejected = 0;
  for (const r of decision.accepted) {
    inbox.push({
      id: crypto.randomUUID(),
      company_id: scope.companyId,
      machine_id: machineId,
      received_at: stamp,
      seq: r.seq,
      line: r.line,
    });
    if (r.parsed.type !== 'data') continue;
    if (r.parsed.rejected > 0) rejected++;
    for (const o of r.parsed.observations) {
      if (o.kind === 'asset') continue;
      observations.push({
        company_id: scope.companyId,
        machine_id: machineId,
        ts: o.ts,
        key: o.key,
        value: o.kind === 'condition' && o.condition ? conditionText(o.condition) : o.value,
      });
    }
  }
  await insertObservations(scope.db, observations);
  await insertInbox(scope.db, inbox);
  await addSourceStats(scope.db, sourceId, {
    lines: inbox.length,
    observations: observations.length,
    rejected,
    lastLineAt: stamp,
  });
  await updateSimulation(scope, machineId, { ...change, last_line_at: stamp });
  return stamp;
}

/** The memory change that ends the automatic cycles. */
const NO_CYCLES: SimulationChange = {
  cycle_every_ms: null,
  cycle_until: null,
  cycle_next_at: null,
  cycle_phase: null,
};

/** The parts count after `add` more, from what the simulation last sent. */
const partsAfter = (sim: SimulationRow, add: number) => Number(sim.part_count ?? 0) + add;

/**
 * The lines and memory change of one action. The simulated adapter's first line (and its first after UNAVAILABLE)
 * carries what an adapter sends on connect: AVAILABLE, and READY unless the action sets the execution.
 */
function linesOf(
  action: SimulationAction,
  keys: SimulationKeys,
  sim: SimulationRow,
  at: number,
): { lines: LineFields[]; change: SimulationChange } {
  const execution = keys.execution!;
  const waking = sim.execution === null || sim.execution === 'UNAVAILABLE';
  const pairs: string[] = [];
  const change: SimulationChange = {};
  const setExecution = (value: string) => {
    pairs.push(execution, value);
    change.execution = value;
  };
  if (waking && !(action.type === 'execution' && action.value === 'UNAVAILABLE')) {
    if (keys.availability) pairs.push(keys.availability, 'AVAILABLE');
    if (action.type !== 'execution' && action.type !== 'cycles') setExecution('READY');
  }
  const lines: LineFields[] = [];
  switch (action.type) {
    case 'execution':
      setExecution(action.value);
      if (action.value === 'UNAVAILABLE') {
        if (keys.availability) pairs.push(keys.availability, 'UNAVAILABLE');
        // The simulated adapter stops: its cycles with it.
        Object.assign(change, NO_CYCLES);
      }
      break;
    case 'program':
      if (!keys.program) throw conflict('This machine’s adapter maps no Program item.');
      pairs.push(keys.program, action.name);
      change.program = action.name;
      break;
    case 'parts': {
      if (!keys.partCount) throw conflict('This machine’s adapter maps no Part Count item.');
      const count = partsAfter(sim, action.count);
      pairs.push(keys.partCount, String(count));
      change.part_count = count;
      break;
    }
    case 'fault':
    case 'clearFault': {
      if (!keys.condition)
        throw conflict('This machine’s adapter maps no condition item to raise a fault on.');
      const fault = action.type === 'fault';
      // SHDR condition: key|level|native code|native severity|qualifier|message, on a line of its own.
      lines.push(
        fault
          ? [keys.condition, 'FAULT', action.nativeCode ?? '', '', '', action.message]
          : [keys.condition, 'NORMAL', '', '', '', ''],
      );
      change.fault_message = fault ? action.message : null;
      change.fault_code = fault ? (action.nativeCode ?? '') : null;
      break;
    }
    case 'cycles': {
      const every = action.everySeconds * 1000;
      // The first cycle starts now; the cycle worker sends the rest (workers/simulation-cycles.ts).
      setExecution('ACTIVE');
      Object.assign(change, {
        cycle_every_ms: every,
        cycle_until: at + action.minutes * 60_000,
        cycle_next_at: at + activeMs(every),
        cycle_phase: 'end',
      });
      break;
    }
    case 'stopCycles':
      Object.assign(change, NO_CYCLES);
      break;
  }
  return { lines: pairs.length > 0 ? [pairs, ...lines] : lines, change };
}

/** Of each automatic cycle, the time in cycle (ACTIVE); the rest of it the machine waits READY for the next. */
export const activeMs = (everyMs: number) => Math.round(everyMs * 0.8);

/**
 * POST /api/machines/:id/simulation: one action. The first makes the simulator the machine's data source (409, in
 * the refusal's words, when the machine cannot be simulated). Mutates the machine's sources, its simulation, the
 * observations and the ingest inbox.
 */
export async function simulate(
  ctx: ServiceCtx,
  deps: SimulationDeps,
  machineId: string,
  action: SimulationAction,
): Promise<SimulationState> {
  const { scope } = ctx;
  let f = await factsOf(scope, deps, machineId);
  if (f.refusal) throw conflict(f.refusal);
  let source = activeSource(f.sources);
  if (!source) {
    if (action.type === 'stopCycles') return stateOf(f);
    await deleteSimulatorSources(scope, machineId);
    await insertSimulatorSource(scope, machineId, ctx.now);
    // A new simulated adapter starts with an empty memory: what an earlier simulation sent is not its state.
    await deleteSimulation(scope, machineId);
    f = await factsOf(scope, deps, machineId);
    source = activeSource(f.sources)!;
  }
  const sim = f.sim ?? (await insertSimulation(scope, machineId, ctx.caller.user.id, ctx.now));
  const { lines, change } = linesOf(action, f.keys, sim, ctx.now);
  if (lines.length > 0) await feed(scope, deps, machineId, source.id, sim, lines, ctx.now, change);
  else await updateSimulation(scope, machineId, change);
  return stateOf(await factsOf(scope, deps, machineId));
}

/**
 * One step of a machine's automatic cycles, claimed by the worker (workers/simulation-cycles.ts): an 'end' step
 * counts a part and waits READY, a 'start' step starts the next cycle ACTIVE; past `cycle_until` the cycles end
 * READY. A machine whose source is no longer the simulator (an admin gave it a real one) loses its simulation.
 * Mutates as `simulate` does.
 */
export async function cycleStep(
  scope: CompanyScope,
  deps: SimulationDeps,
  sim: SimulationRow,
  now: number,
  claim: (next: SimulationChange) => Promise<boolean>,
): Promise<void> {
  const machine = await simulatedMachine(scope, sim.machine_id);
  const sources = machine ? await sourcesOfMachine(scope, sim.machine_id) : [];
  const source = activeSource(sources);
  if (
    !machine ||
    machine.decommissioned_at !== null ||
    !source ||
    sources.some((s) => s.kind !== 'simulator')
  ) {
    if (await claim(NO_CYCLES)) await deleteSimulation(scope, sim.machine_id);
    return;
  }
  const keys = await keysOf(scope, deps, machine);
  const every = Number(sim.cycle_every_ms);
  const until = Number(sim.cycle_until);
  const ending = sim.cycle_phase === 'end';
  const nextAt = now + (ending ? every - activeMs(every) : activeMs(every));
  // The last cycle ends with its part; one that would start past the end does not start.
  const over = ending ? nextAt >= until : now >= until;
  const next: SimulationChange = over
    ? NO_CYCLES
    : { cycle_next_at: nextAt, cycle_phase: ending ? 'start' : 'end' };
  if (!(await claim(next))) return;
  if (!keys.execution) return;
  const pairs: string[] = [];
  const change: SimulationChange = {};
  if (ending) {
    if (keys.partCount) {
      const count = partsAfter(sim, 1);
      pairs.push(keys.partCount, String(count));
      change.part_count = count;
    }
    pairs.push(keys.execution, 'READY');
    change.execution = 'READY';
  } else if (!over) {
    pairs.push(keys.execution, 'ACTIVE');
    change.execution = 'ACTIVE';
  }
  if (pairs.length > 0) await feed(scope, deps, sim.machine_id, source.id, sim, [pairs], now, change);
}

/** How long DELETE waits for the ingest worker to derive the simulation's last line. */
export const END_WAIT_MS = 10_000;

/**
 * DELETE /api/machines/:id/simulation, first half: the simulated adapter sends UNAVAILABLE (the machine reads No
 * data from then on) and its cycles stop. The caller then waits for the inbox to drain and calls `removeSimulator`.
 */
export async function stopSimulation(
  ctx: ServiceCtx,
  deps: SimulationDeps,
  machineId: string,
): Promise<boolean> {
  const f = await factsOf(ctx.scope, deps, machineId);
  const source = activeSource(f.sources);
  if (!source) return false;
  if (f.sim && f.sim.execution !== 'UNAVAILABLE' && f.keys.execution) {
    const { lines, change } = linesOf({ type: 'execution', value: 'UNAVAILABLE' }, f.keys, f.sim, ctx.now);
    await feed(ctx.scope, deps, machineId, source.id, f.sim, lines, ctx.now, change);
  }
  return true;
}

/** Whether the ingest worker derived every line of the machine. */
export const inboxDrained = async (ctx: ServiceCtx, machineId: string) =>
  (await inboxLinesOf(ctx.scope, machineId)) === 0;

/**
 * DELETE, second half: the simulator stops being the machine's source once its last line is derived (else that
 * line would wait in the inbox for a link that is gone). Mutates the machine's sources and simulation.
 */
export async function removeSimulator(
  ctx: ServiceCtx,
  deps: SimulationDeps,
  machineId: string,
): Promise<SimulationState> {
  if (!(await inboxDrained(ctx, machineId)))
    throw conflict(
      'The simulated machine has stopped, but the ingest worker has not read its last line yet. Try again in a moment.',
    );
  await deleteSimulatorSources(ctx.scope, machineId);
  await deleteSimulation(ctx.scope, machineId);
  return stateOf(await factsOf(ctx.scope, deps, machineId));
}
