import { START_IN_SETUP_MODES } from '@takt/domain';
import type { ProductionRunSave, StartInSetupMode } from '@takt/domain';
import { arrayOf, nullable, number, object, oneOf, parseWith, string, tr } from '@takt/ui';
import { missingField } from '../admin/form';
import { parseWallInput, wallInput } from '../quality/scrap-form';
import { PATHS } from '../routes';

// Production runs (reports-admin §2 /reports/production-runs?start&end&jsg and
// /app/production/production-runs/{id}/edit; §3 Job schedule group; §4 start-in-setup; decision 0850) over
// GET /api/productionruns and GET/PUT /api/productionruns/{id}. Pure: the pages render what these return.

export type StartInSetup = StartInSetupMode;

/** A run's fields as GET /api/productionruns answers them (the schedule adds its own to these). */
export const RUN_FIELDS = {
  id: string,
  job_id: string,
  job_name: string,
  machine_id: string,
  machine_name: string,
  startdate: number,
  enddate: nullable(number),
  startInSetup: oneOf(START_IN_SETUP_MODES),
  setuptime: nullable(number),
  setupend: nullable(number),
  cycletime: number,
  idealcycletime: number,
  partcount_multiplier: number,
  actualParts: number,
};
/** The parts a listed run made in the range, as its job report counts them (decision 1020). */
const runParts = object({ total: number, rejected: number, good: number });
const runCheck = object({ ...RUN_FIELDS, parts: runParts });
export type ProductionRun = ReturnType<typeof runCheck>;
/** A run's own fields, without the parts it made (the schedule's runs and the editor's draft). */
export type RunFields = Omit<ProductionRun, 'parts'>;
export const parseRun = parseWith(runCheck);
export const parseRuns = parseWith(arrayOf(runCheck));

export interface Range {
  start: number;
  end: number;
}

/** reports-admin §2: /reports/production-runs?start&end&jsg — jsg is the run to point at. */
export function productionRunsHref(range: Range, jsg?: string | null, machineId?: string | null): string {
  const q = new URLSearchParams({ start: String(range.start), end: String(range.end) });
  if (jsg) q.set('jsg', jsg);
  if (machineId) q.set('machine_id', machineId);
  return `${PATHS.productionRuns}?${q.toString()}`;
}

/** reports-admin §2: /app/production/production-runs/{jobschedulegroup_id}/edit ("Go to Production Run"). */
export const productionRunEditHref = (id: string): string =>
  PATHS.productionRunEdit.replace(':id', encodeURIComponent(id));

/** The list's rows: filtered to one machine when chosen, by start (the API answers them so; kept stable). */
export function runsOfMachine(runs: readonly ProductionRun[], machineId: string | null): ProductionRun[] {
  return runs
    .filter((r) => !machineId || r.machine_id === machineId)
    .sort((a, b) => a.startdate - b.startdate || a.machine_name.localeCompare(b.machine_name));
}

/** Milliseconds as seconds for the list and the form: up to 3 decimals, no trailing zeros. */
export const seconds = (ms: number): string => String(Math.round(ms) / 1000);

// ---- The editor

/** The editor's fields as typed: times are company wall times (datetime-local), cycle times seconds. */
export interface RunDraft {
  jobId: string;
  machineId: string;
  start: string;
  /** reports-admin §4 "Ends: never or date". */
  ends: 'never' | 'date';
  end: string;
  startInSetup: StartInSetup;
  /** reports-admin §4 "Setup ends: still in setup or a date". */
  setupEnds: 'still' | 'date';
  setupEnd: string;
  cycleSeconds: string;
  idealSeconds: string;
  multiplier: string;
  actualParts: string;
}

export function draftOf(run: RunFields, timezone: string): RunDraft {
  const inSetup = run.startInSetup !== 'none';
  return {
    jobId: run.job_id,
    machineId: run.machine_id,
    start: wallInput(timezone, run.startdate),
    ends: run.enddate === null ? 'never' : 'date',
    end: run.enddate === null ? '' : wallInput(timezone, run.enddate),
    startInSetup: run.startInSetup,
    // A run that gets a setup starts still in setup until the user gives its end.
    setupEnds: !inSetup || run.setupend === null ? 'still' : 'date',
    setupEnd: inSetup && run.setupend !== null ? wallInput(timezone, run.setupend) : '',
    cycleSeconds: seconds(run.cycletime),
    idealSeconds: seconds(run.idealcycletime),
    multiplier: String(run.partcount_multiplier),
    actualParts: String(run.actualParts),
  };
}

export type RunField = 'start' | 'end' | 'setupEnd' | 'cycle' | 'ideal' | 'multiplier' | 'actualParts';

const decimal = (text: string): number | null => {
  const t = text.trim();
  if (!/^\d+(\.\d+)?$|^\.\d+$/.test(t)) return null;
  return Number(t);
};

/**
 * The draft checked as the user types (UI.md: "forms validate as you type and say what is wrong"), with the
 * body to send when nothing is wrong. The server checks the same and also that runs of a machine do not
 * overlap (services/api services/production-runs.ts).
 */
export function checkDraft(
  d: RunDraft,
  timezone: string,
): { errors: Partial<Record<RunField, string>>; body: ProductionRunSave | null } {
  const errors: Partial<Record<RunField, string>> = {};
  const start = parseWallInput(timezone, d.start);
  if (start === null) errors.start = missingField(tr('production.field.start'));
  const end = d.ends === 'never' ? null : parseWallInput(timezone, d.end);
  if (d.ends === 'date' && end === null) errors.end = missingField(tr('production.field.end'));
  else if (start !== null && end !== null && end <= start) errors.end = tr('production.rule.endBeforeStart');
  const inSetup = d.startInSetup !== 'none';
  const setupEnd = inSetup && d.setupEnds === 'date' ? parseWallInput(timezone, d.setupEnd) : null;
  if (inSetup && d.setupEnds === 'date' && setupEnd === null)
    errors.setupEnd = missingField(tr('production.field.setupEnd'));
  else if (setupEnd !== null && start !== null && (setupEnd < start || (end !== null && setupEnd > end)))
    errors.setupEnd = tr('production.rule.setupOutside');
  const cycle = decimal(d.cycleSeconds);
  if (cycle === null || Math.round(cycle * 1000) < 1) errors.cycle = tr('production.rule.cyclePositive');
  const ideal = decimal(d.idealSeconds);
  if (ideal === null) errors.ideal = tr('production.rule.idealNotNegative');
  const multiplier = decimal(d.multiplier);
  if (multiplier === null || multiplier <= 0) errors.multiplier = tr('production.rule.multiplierPositive');
  const parts = /^\d+$/.test(d.actualParts.trim()) ? Number(d.actualParts) : 0;
  if (parts < 1) errors.actualParts = tr('production.rule.actualPartsAtLeastOne');
  if (
    Object.keys(errors).length > 0 ||
    start === null ||
    cycle === null ||
    ideal === null ||
    multiplier === null
  )
    return { errors, body: null };
  return {
    errors,
    body: {
      job_id: d.jobId,
      machine_id: d.machineId,
      startdate: start,
      enddate: end,
      startInSetup: d.startInSetup,
      // reports-admin §4: without setup the run is in production from its start.
      setupend: inSetup ? setupEnd : null,
      cycletime: Math.round(cycle * 1000),
      idealcycletime: Math.round(ideal * 1000),
      partcount_multiplier: multiplier,
      actualParts: parts,
    },
  };
}
