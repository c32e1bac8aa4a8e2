import {
  cycleEntryOf,
  cycleInputIsTime,
  cycleTimeOfEntry,
  dayNumber,
  epochMs,
  formatDay,
  fromWall,
  parseDay,
  partCountMultiplier,
  standardPartsPerHour,
  toWall,
} from '@takt/domain';
import type { CycleInputOption, Job, JobMachine, Me, PartBehavior, StartInSetupMode } from '@takt/domain';
import { t } from '@takt/ui';
import { missingField, nameError, setErrors } from '../admin/form';

// Jobs and their standards (live-operations §3 Job and JobMachine, §4 start in setup, §5 part behavior and
// cycle time inputs; reports-admin §9 parts per hour; decision 1084): the forms of the office's job screens
// and what they send. Every conversion is the domain's (packages/domain/src/live/job-standards.ts).

export const JOBS_PATHS = { list: '/app/jobs', edit: '/app/jobs/:id' } as const;
export const jobPath = (id: string): string => `/app/jobs/${encodeURIComponent(id)}`;

/** A job as GET /api/jobs and /api/jobs/:id answer it. */
export type JobView = Job & { hidden: boolean };

/** Decision 1084: admins and managers plan jobs (root too); FullProduct gates jobs (live-operations §6). */
export const mayPlan = (me: Pick<Me, 'permissions' | 'isAdmin' | 'isRoot' | 'role'>): boolean =>
  me.permissions.includes('FullProduct') && (me.isAdmin || me.isRoot || me.role === 'manager');

// ---- The list

export type JobsShow = 'active' | 'retired' | 'all';
export const JOBS_PAGE = 25;

/** GET /api/jobs for the list: by name, active, retired or all, a page at a time. */
export const jobsQuery = (filter: string, show: JobsShow, limit: number) => ({
  filter: filter.trim(),
  // The API's page limit.
  limit: Math.min(limit, 100),
  offset: 0,
  ...(show === 'retired' ? { retired: true } : show === 'all' ? { includeHidden: true } : {}),
});

// ---- Cycle time fields

/** What the planner typed for one cycle time, as text (inputs keep what is typed). */
export interface CycleFields {
  hours: string;
  minutes: string;
  seconds: string;
  partsPerHour: string;
}

const num = (s: string): number => (s.trim() === '' ? 0 : Number(s));

/** The fields a stored cycle time opens with, per the company's cycleinputoption. */
export function cycleFieldsOf(option: CycleInputOption, ms: number, multiplier: number): CycleFields {
  if (ms <= 0) return { hours: '0', minutes: '0', seconds: '0', partsPerHour: '' };
  const e = cycleEntryOf(option, ms, multiplier);
  return {
    hours: String(e.hours),
    minutes: String(e.minutes),
    seconds: String(e.seconds),
    partsPerHour: cycleInputIsTime(option) ? '' : String(e.partsPerHour),
  };
}

const allZero = (option: CycleInputOption, f: CycleFields): boolean =>
  cycleInputIsTime(option)
    ? num(f.hours) === 0 && num(f.minutes) === 0 && num(f.seconds) === 0
    : num(f.partsPerHour) === 0;

/**
 * The ms per cycle the fields say, or the rule they break. `noStandard`: all zero is allowed and means no
 * standard (the ideal cycle time, METRICS.md §3), stored as 0.
 */
export function cycleMsOf(
  option: CycleInputOption,
  f: CycleFields,
  multiplier: number,
  noStandard = false,
): { ok: true; ms: number } | { ok: false; message: string } {
  if (noStandard && allZero(option, f)) return { ok: true, ms: 0 };
  return cycleTimeOfEntry(
    option,
    {
      hours: num(f.hours),
      minutes: num(f.minutes),
      seconds: num(f.seconds),
      partsPerHour: num(f.partsPerHour),
    },
    multiplier,
  );
}

/** Parts per hour of a cycle time as the forms and tables show it (reports-admin §9, one decimal). */
export const partsPerHourText = (ms: number, multiplier: number): string =>
  standardPartsPerHour(ms, multiplier);

// ---- Setup time (seconds, entered in minutes)

const setupError = (text: string): string | null =>
  text.trim() !== '' && !(Number(text) >= 0) ? t('planning.error.setup') : null;

/** Minutes as typed → seconds; empty → null (no setup). */
const setupSecondsOf = (text: string): number | null =>
  text.trim() === '' ? null : Math.round(Number(text) * 60);

const minutesText = (seconds: number | null): string =>
  seconds == null ? '' : String(Math.round((seconds / 60) * 1000) / 1000);

// ---- The job form

export interface JobForm {
  name: string;
  erpId: string;
  setup: string;
  expected: CycleFields;
  ideal: CycleFields;
}

export const newJobForm = (option: CycleInputOption): JobForm => ({
  name: '',
  erpId: '',
  setup: '',
  expected: cycleFieldsOf(option, 60_000, 1),
  ideal: cycleFieldsOf(option, 60_000, 1),
});

export const jobFormOf = (option: CycleInputOption, j: JobView): JobForm => ({
  name: j.job_name,
  erpId: j.job_id,
  setup: minutesText(j.setuptime),
  expected: cycleFieldsOf(option, j.expectedCycleTime, j.partCountMultiplier),
  ideal: cycleFieldsOf(option, j.idealCycleTime, j.partCountMultiplier),
});

export function jobErrors(option: CycleInputOption, f: JobForm, multiplier = 1) {
  const expected = cycleMsOf(option, f.expected, multiplier);
  const ideal = cycleMsOf(option, f.ideal, multiplier, true);
  return setErrors({
    name: nameError(f.name),
    erpId: f.erpId.trim().length > 250 ? t('admin.tooLong', { max: 250 }) : null,
    setup: setupError(f.setup),
    expected: expected.ok ? null : expected.message,
    ideal: ideal.ok ? null : ideal.message,
  });
}

/** POST /api/jobs and PUT /api/jobs/:id (call only when jobErrors is empty). */
export function jobBody(option: CycleInputOption, f: JobForm, multiplier = 1) {
  const expected = cycleMsOf(option, f.expected, multiplier);
  const ideal = cycleMsOf(option, f.ideal, multiplier, true);
  return {
    name: f.name.trim(),
    job_id: f.erpId.trim() === '' ? null : f.erpId.trim(),
    setuptime: setupSecondsOf(f.setup),
    ...(expected.ok ? { expectedCycleTime: expected.ms } : {}),
    ...(ideal.ok ? { idealCycleTime: ideal.ms } : {}),
  };
}

// ---- A job's standards on one machine (JobMachine)

export interface StandardsForm {
  machineId: string;
  partBehavior: PartBehavior;
  actualParts: string;
  reportedParts: string;
  requiredCycles: string;
  expected: CycleFields;
  ideal: CycleFields;
  setup: string;
  startInSetup: StartInSetupMode;
  /** '' = never; else YYYY-MM-DD, the last day of the schedule in the company's zone. */
  ends: string;
}

/** live-operations §5: "actualParts, reportedParts, requiredCycles are required, number, min 1". */
function countError(text: string, label: string): string | null {
  if (text.trim() === '') return missingField(label);
  const n = Number(text);
  return Number.isInteger(n) && n >= 1 ? null : t('planning.error.count', { label });
}

/** Parts per cycle of what the form says (the domain's rule), 1 while the counts are not valid yet. */
export function formMultiplier(
  f: Pick<StandardsForm, 'partBehavior' | 'actualParts' | 'reportedParts' | 'requiredCycles'>,
) {
  const n = (s: string) => (Number(s) >= 1 ? Number(s) : 1);
  return partCountMultiplier({
    partBehavior: f.partBehavior,
    actualParts: n(f.actualParts),
    reportedParts: n(f.reportedParts),
    requiredCycles: n(f.requiredCycles),
  });
}

/** A new assignment starts from the job's own standards (as the API does, decision 0300). */
export function newStandardsForm(option: CycleInputOption, job: JobView, machineId: string): StandardsForm {
  return {
    machineId,
    partBehavior: job.actualParts > 1 ? 'manyparts' : 'one',
    actualParts: String(job.actualParts),
    reportedParts: '1',
    requiredCycles: '1',
    expected: cycleFieldsOf(option, job.expectedCycleTime, job.partCountMultiplier),
    ideal: cycleFieldsOf(option, job.idealCycleTime, job.partCountMultiplier),
    setup: minutesText(job.setuptime),
    startInSetup: job.setuptime == null ? 'none' : 'unplanned',
    ends: '',
  };
}

const dayText = (tz: string, endsMs: number): string => formatDay(toWall(tz, epochMs(endsMs - 1)).day);

export function standardsFormOf(option: CycleInputOption, jm: JobMachine, tz: string): StandardsForm {
  return {
    machineId: jm.machine_id,
    partBehavior: jm.partBehavior,
    actualParts: String(jm.actualParts),
    reportedParts: String(jm.reportedParts ?? 1),
    requiredCycles: String(jm.requiredCycles ?? 1),
    expected: cycleFieldsOf(option, jm.expectedCycleTime, jm.partCountMultiplier),
    ideal: cycleFieldsOf(option, jm.idealCycleTime, jm.partCountMultiplier),
    setup: minutesText(jm.setuptime),
    startInSetup: jm.startInSetup,
    ends: jm.schedule.ends === 'never' ? '' : dayText(tz, jm.schedule.ends),
  };
}

export function standardsErrors(option: CycleInputOption, f: StandardsForm) {
  const m = formMultiplier(f);
  const expected = cycleMsOf(option, f.expected, m);
  const ideal = cycleMsOf(option, f.ideal, m, true);
  const many = f.partBehavior === 'manycycles';
  return setErrors({
    machineId: f.machineId === '' ? missingField(t('planning.field.machine')) : null,
    actualParts:
      f.partBehavior === 'manyparts' ? countError(f.actualParts, t('planning.field.actualParts')) : null,
    reportedParts: many ? countError(f.reportedParts, t('planning.field.reportedParts')) : null,
    requiredCycles: many ? countError(f.requiredCycles, t('planning.field.requiredCycles')) : null,
    expected: expected.ok ? null : expected.message,
    ideal: ideal.ok ? null : ideal.message,
    setup: setupError(f.setup),
    ends: f.ends !== '' && !/^\d{4}-\d{2}-\d{2}$/.test(f.ends) ? t('planning.error.date') : null,
  });
}

/** POST /api/jobmachines (call only when standardsErrors is empty). The schedule ends after its last day. */
export function standardsBody(option: CycleInputOption, jobId: string, f: StandardsForm, tz: string) {
  const m = formMultiplier(f);
  const expected = cycleMsOf(option, f.expected, m);
  const ideal = cycleMsOf(option, f.ideal, m, true);
  const many = f.partBehavior === 'manycycles';
  return {
    job_id: jobId,
    job_machine: {
      machine_id: f.machineId,
      partBehavior: f.partBehavior,
      actualParts: f.partBehavior === 'manyparts' ? Number(f.actualParts) : 1,
      reportedParts: many ? Number(f.reportedParts) : null,
      requiredCycles: many ? Number(f.requiredCycles) : null,
      ...(expected.ok ? { expectedCycleTime: expected.ms } : {}),
      ...(ideal.ok ? { idealCycleTime: ideal.ms } : {}),
      setuptime: f.startInSetup === 'none' ? null : (setupSecondsOf(f.setup) ?? 0),
      startInSetup: f.startInSetup,
      schedule: { ends: f.ends === '' ? 'never' : fromWall(tz, dayNumber(parseDay(f.ends) + 1), 0) },
    },
  };
}

/** "1:30.5" style text of a cycle time for the tables: h:mm:ss.sss or m:ss.sss. */
export function cycleText(ms: number): string {
  if (ms <= 0) return t('common.none');
  const e = cycleEntryOf('timepercycle', ms, 1);
  const s = e.seconds.toFixed(3).replace(/\.?0+$/, '');
  const ss = (e.seconds < 10 ? '0' : '') + s;
  return e.hours > 0 ? `${e.hours}:${String(e.minutes).padStart(2, '0')}:${ss}` : `${e.minutes}:${ss}`;
}

export const setupText = (jm: Pick<JobMachine, 'startInSetup' | 'setuptime'>): string =>
  jm.startInSetup === 'none'
    ? t('planning.setup.none')
    : t('planning.setupOf', {
        mode: t(jm.startInSetup === 'planned' ? 'planning.setup.planned' : 'planning.setup.unplanned'),
        minutes: minutesText(jm.setuptime ?? 0),
      });

export const endsText = (jm: Pick<JobMachine, 'schedule'>, tz: string): string =>
  jm.schedule.ends === 'never' ? t('planning.field.scheduleNever') : dayText(tz, jm.schedule.ends);
