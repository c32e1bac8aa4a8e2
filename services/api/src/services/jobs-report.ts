import {
  addDowntimeByReasonInto,
  addJobTallies,
  addTotals,
  averageCycleMs,
  buildRollups,
  efficiency,
  efficiencyTotals,
  emptyJobTally,
  emptyTotals,
  epochMs,
  jobFigures,
  jobRunTally,
  jobSpan,
  rollupBuckets,
  SETUP_REASON,
  sumRollups,
  UNCATEGORIZED_REASON,
  UNCATEGORIZED_REJECT,
} from '@takt/domain';
import type { DowntimeMs, EfficiencyTotals, JobFigures, JobTally, Rollup, TimeRange } from '@takt/domain';
import { loadRollupSources } from '@takt/db/rollups';
import { companyLimits } from '../repositories/dashboard';
import { notFound } from '../http/errors';
import { getJob } from '../repositories/jobs';
import { getAnnotationTypes } from '../repositories/annotation-types';
import type { JobReportRun } from '../repositories/jobs-report';
import { jobRunsOverlapping, jobsWithoutRuns, rejectReasons } from '../repositories/jobs-report';
import { getMachine } from '../repositories/machines';
import { reportCalendar, reportMachines } from '../repositories/reports';
import type { ServiceCtx } from './context';
import { loadRecomputing } from './reports';
import { shiftColors } from './shifts';

// The warehouse job calls (reports-admin §2 Jobs report, §3 Job report, §7; decision 0813). A
// run's figures are its time inside the range (up to now), from rollups built over exactly that time from
// the stored facts with the domain's code (as reportRollups builds a machine it cannot read stored), so a
// run that starts or ends inside an hour counts only its own minutes; a job's or a machine's figures are
// the sums of its runs' (packages/domain reports/job-report.ts).

interface Range {
  start: number;
  end: number;
}

export interface WarehouseJobsQuery extends Range {
  job_id?: string | undefined;
  machine_id?: string | undefined;
  group?: string | undefined;
  /** The Jobs report's Aggregate By (reports-admin §2): one entry per job, or per job on each machine. */
  aggregate_by?: 'job' | 'machine' | undefined;
  /** One page of the entries (infinite scroll); without a limit, all of them. */
  limit?: number | undefined;
  offset?: number | undefined;
}

export interface JobByMachineQuery extends Range {
  job_id: string;
  /** The machine-job report (reports-admin §2): only the job's runs on this machine. */
  machine_id?: string | undefined;
}

export interface JobsWithoutRunsQuery extends Range {
  group?: string | undefined;
  machine_id?: string | undefined;
}

/** reports-admin §3 Job report run. */
export interface JobRunReport extends JobFigures {
  jobschedulegroup_id: string;
  job_id: string;
  job_name: string;
  machine_id: string;
  machine_name: string;
  start_at: number;
  end_at: number | null;
  expected_cycle_time_ms: number;
  ideal_cycle_time_ms: number;
  average_cycle_ms: number | null;
}

/**
 * reports-admin §3 Job report: the job's figures over its runs in the range, and the runs; aggregated by
 * machine, the job on one machine (machine_id and machine_name set).
 */
export interface JobReport extends JobFigures {
  job_id: string;
  job_name: string;
  machine_id?: string;
  machine_name?: string;
  start_at: number | null;
  end_at: number | null;
  runs: JobRunReport[];
}

/** One job's figures on one machine (its runs there summed). */
export interface JobMachineReport extends JobFigures {
  machine_id: string;
  machine_name: string;
  start_at: number | null;
  end_at: number | null;
  average_cycle_ms: number | null;
}

/**
 * Each run's tally over its time inside the range up to now (an empty tally when none is left); Production Runs
 * shows the same good and total parts (decision 1020).
 */
export async function runTallies(
  ctx: ServiceCtx,
  runs: readonly JobReportRun[],
  range: Range,
  detail?: JobDetailSums,
): Promise<Map<string, JobTally>> {
  const out = new Map<string, JobTally>();
  const calendar = await reportCalendar(ctx.scope);
  const spanOf = (r: JobReportRun) => ({
    start: epochMs(Math.max(r.startAt, range.start)),
    end: epochMs(Math.min(r.endAt ?? ctx.now, range.end, ctx.now)),
  });
  const byMachine = new Map<string, JobReportRun[]>();
  for (const r of runs) {
    if (spanOf(r).end <= spanOf(r).start) {
      out.set(r.id, emptyJobTally());
      continue;
    }
    byMachine.set(r.machineId, [...(byMachine.get(r.machineId) ?? []), r]);
  }
  await Promise.all(
    [...byMachine].map(async ([machineId, mine]) => {
      const spans = mine.map(spanOf);
      const union = {
        start: Math.min(...spans.map((s) => s.start)),
        end: Math.max(...spans.map((s) => s.end)),
      };
      // The company's facts only (decision 1186: the same machine id under another company is another machine).
      const source = (await loadRollupSources(ctx.scope, [machineId], union, { now: ctx.now })).get(
        machineId,
      )!;
      mine.forEach((r, i) => {
        const span = spans[i]!;
        // Buckets split at the production start too, so the parts goal's planned downtime (summed over whole
        // buckets from there) is exact when production starts inside an hour.
        const cut = r.setupEnd;
        const buckets =
          cut !== null && cut > span.start && cut < span.end
            ? [
                ...rollupBuckets(calendar, { start: span.start, end: epochMs(cut) }),
                ...rollupBuckets(calendar, { start: epochMs(cut), end: span.end }),
              ]
            : rollupBuckets(calendar, span);
        const rows = buildRollups(source, buckets);
        const cycles = (source.cycles ?? []).filter(
          (c) => c.runId === r.id && !c.setup && c.end >= span.start && c.end < span.end,
        );
        const goalRun = {
          productionStart: r.setupEnd,
          end: r.endAt,
          expectedCycleTime: r.expectedCycleTime,
          partBehavior: r.partBehavior,
          actualParts: r.actualParts,
          reportedParts: r.reportedParts,
          requiredCycles: r.requiredCycles,
        };
        out.set(r.id, jobRunTally(rows, goalRun, span, ctx.now, cycles));
        if (detail) addRunDetail(detail, rows, span);
      });
    }),
  );
  return out;
}

/**
 * The job detail's sums over the runs' rollups (reports-admin §2 Jobs report "detail with quality, downtime and
 * OEE by machine and by shift"; decision 0820): METRICS.md §2–§3 totals per shift (shift time only, as a
 * shift-filtered report), and downtime and rejects by reason over all of the runs' time, as the job's
 * setup + production downtime and rejected parts count them. Mutated while the runs are tallied.
 */
interface JobDetailSums {
  byShift: Map<string, EfficiencyTotals>;
  downtime: Record<string, DowntimeMs>;
  rejects: Map<string, number>;
}

const emptyDetail = (): JobDetailSums => ({ byShift: new Map(), downtime: {}, rejects: new Map() });

/** Mutates `into`: adds one run's rows (built over exactly its span). */
function addRunDetail(into: JobDetailSums, rows: readonly Rollup[], span: TimeRange): void {
  const all = sumRollups(rows, span).all;
  addDowntimeByReasonInto(into.downtime, all.downtimeByReason);
  for (const [k, n] of Object.entries(all.rejectsByType)) into.rejects.set(k, (into.rejects.get(k) ?? 0) + n);
  const shifts = new Set(rows.flatMap((r) => (r.shiftId === null ? [] : [r.shiftId])));
  for (const id of shifts) {
    const t = efficiencyTotals(sumRollups(rows, { ...span, shiftIds: new Set([id]) }));
    into.byShift.set(id, addTotals(into.byShift.get(id) ?? emptyTotals(), t));
  }
}

/** reports-admin §2 job detail: OEE by shift, a row per shift the runs had time in (the company's order). */
export interface JobShiftReport {
  shift_id: string;
  shift_name: string;
  oee: number | null;
  availability: number | null;
  performance: number | null;
  quality: number | null;
  /** Some of the shift's run time has no standard: the warning (METRICS.md §3, decision 1002). */
  missing_standards: boolean;
}

/**
 * Downtime of one reason: an annotation type, or 'setup' / 'uncategorized' (reason_name null: the apps name
 * them), planned and unplanned (METRICS.md §5), longest first.
 */
export interface JobDowntimeReason {
  reason_id: string;
  reason_name: string | null;
  color: string | null;
  planned_ms: number;
  unplanned_ms: number;
  downtime_ms: number;
}

/** Rejected parts of one reject reason ('uncategorized': none, reason_name null), most first. */
export interface JobRejectReason {
  reason_id: string;
  reason_name: string | null;
  color: string | null;
  rejected_parts: number;
}

async function detailReport(ctx: ServiceCtx, d: JobDetailSums) {
  const reasonIds = Object.keys(d.downtime).filter((k) => k !== SETUP_REASON && k !== UNCATEGORIZED_REASON);
  const rejectIds = [...d.rejects.keys()].filter((k) => k !== UNCATEGORIZED_REJECT);
  const [shifts, types, rejectTypes] = await Promise.all([
    shiftColors(ctx),
    getAnnotationTypes(ctx.scope, reasonIds),
    rejectReasons(ctx.scope, rejectIds),
  ]);
  const byShift: JobShiftReport[] = shifts.flatMap((s) => {
    const t = d.byShift.get(s.id);
    if (!t) return [];
    // Shift time only: a shift-filtered figure (OOE and TEEP null, METRICS.md §3), so not shown.
    const e = efficiency(t, { shiftFiltered: true });
    return [
      {
        shift_id: s.id,
        shift_name: s.name,
        oee: e.oee,
        availability: e.availability,
        performance: e.performance,
        quality: e.quality,
        missing_standards: e.missingStandards,
      },
    ];
  });
  const downtime: JobDowntimeReason[] = Object.entries(d.downtime)
    .map(([id, ms]) => ({
      reason_id: id,
      reason_name: types.get(id)?.name ?? null,
      color: types.get(id)?.color ?? null,
      planned_ms: ms.plannedMs,
      unplanned_ms: ms.unplannedMs,
      downtime_ms: ms.plannedMs + ms.unplannedMs,
    }))
    .filter((r) => r.downtime_ms > 0)
    .sort((a, b) => b.downtime_ms - a.downtime_ms || a.reason_id.localeCompare(b.reason_id));
  const rejects: JobRejectReason[] = [...d.rejects]
    .map(([id, n]) => ({
      reason_id: id,
      reason_name: rejectTypes.get(id)?.name ?? null,
      color: rejectTypes.get(id)?.color ?? null,
      rejected_parts: n,
    }))
    .filter((r) => r.rejected_parts !== 0)
    .sort((a, b) => b.rejected_parts - a.rejected_parts || a.reason_id.localeCompare(b.reason_id));
  return { shifts: byShift, downtime, rejects };
}

const sumTallies = (tallies: Iterable<JobTally>) => {
  let t = emptyJobTally();
  for (const x of tallies) t = addJobTallies(t, x);
  return t;
};

const spanOfRuns = (runs: readonly JobReportRun[]) =>
  jobSpan(runs.map((r) => ({ start: r.startAt, end: r.endAt }))) ?? { start_at: null, end_at: null };

/** The job's runs in the range as reports-admin §3 Job report runs. */
function runReport(r: JobReportRun, t: JobTally): JobRunReport {
  return {
    jobschedulegroup_id: r.id,
    job_id: r.jobId,
    job_name: r.jobName,
    machine_id: r.machineId,
    machine_name: r.machineName,
    start_at: r.startAt,
    end_at: r.endAt,
    expected_cycle_time_ms: r.expectedCycleTime,
    ideal_cycle_time_ms: r.idealCycleTime,
    average_cycle_ms: averageCycleMs(t),
    ...jobFigures(t),
  };
}

/**
 * The machines of the runs whose figures in the range are still being recomputed (decision 1004), by name:
 * one company-scoped query.
 */
function runsRecomputing(ctx: ServiceCtx, runs: readonly JobReportRun[], range: Range) {
  const machines = new Map(runs.map((r) => [r.machineId, { id: r.machineId, name: r.machineName }]));
  const byName = [...machines.values()].sort(
    (a, b) => a.name.localeCompare(b.name) || a.id.localeCompare(b.id),
  );
  return loadRecomputing(ctx, byName, range);
}

/** Groups runs (sorted by job) by a key, keeping the first-seen order. */
function groupBy<K>(runs: readonly JobReportRun[], key: (r: JobReportRun) => K): Map<K, JobReportRun[]> {
  const out = new Map<K, JobReportRun[]>();
  for (const r of runs) out.set(key(r), [...(out.get(key(r)) ?? []), r]);
  return out;
}

// ---------------------------------------------------------------------------------------------------------
// GET /api/reports/warehouse/jobs

export async function warehouseJobs(ctx: ServiceCtx, q: WarehouseJobsQuery) {
  const range = { start: q.start, end: q.end };
  if (q.job_id && !(await getJob(ctx.scope, q.job_id))) throw notFound('Job');
  if (q.machine_id && !(await getMachine(ctx.scope, q.machine_id))) throw notFound('Machine');
  // A group narrows to its machines (an unknown group, or a machine outside it, is 404).
  const machineIds = q.group
    ? (await reportMachines(ctx.scope, { group: q.group, machineId: q.machine_id })).map((m) => m.id)
    : q.machine_id
      ? [q.machine_id]
      : undefined;
  const runs = await jobRunsOverlapping(ctx.scope, { jobId: q.job_id, machineIds }, range);
  const byMachine = q.aggregate_by === 'machine';
  // Entries by job name (runs come sorted so), then, aggregated by machine, by machine name: a stable order,
  // so pages (offset, limit) neither repeat nor skip an entry.
  const entries = [...groupBy(runs, (r) => (byMachine ? `${r.jobId} ${r.machineId}` : r.jobId)).values()];
  if (byMachine)
    entries.sort(
      (a, b) =>
        a[0]!.jobName.localeCompare(b[0]!.jobName) ||
        a[0]!.jobId.localeCompare(b[0]!.jobId) ||
        a[0]!.machineName.localeCompare(b[0]!.machineName) ||
        a[0]!.machineId.localeCompare(b[0]!.machineId),
    );
  const offset = q.offset ?? 0;
  const page = entries.slice(offset, q.limit === undefined ? undefined : offset + q.limit);
  // Only the page's runs are tallied: the cost follows what is shown.
  const [tallies, limits, recomputing] = await Promise.all([
    runTallies(ctx, page.flat(), range),
    companyLimits(ctx.scope),
    // Every entry's machines, not only the page's: the notice does not change while the list scrolls.
    runsRecomputing(ctx, runs, range),
  ]);
  const jobs: JobReport[] = page.map((mine) => ({
    job_id: mine[0]!.jobId,
    job_name: mine[0]!.jobName,
    ...(byMachine ? { machine_id: mine[0]!.machineId, machine_name: mine[0]!.machineName } : {}),
    ...spanOfRuns(mine),
    ...jobFigures(sumTallies(mine.map((r) => tallies.get(r.id)!))),
    runs: mine.map((r) => runReport(r, tallies.get(r.id)!)),
  }));
  // reports-admin §4 "Parts goal and OEE" status cut-offs: the company's, for the job cards' colours.
  return {
    range,
    /** All the entries of the range, the page or not. */
    total: entries.length,
    /** The runs' machines whose figures are still being recomputed (decision 1004). */
    recomputing,
    jobs,
    limits: { warningPercent: limits.warningPercent, failurePercent: limits.failurePercent },
  };
}

// ---------------------------------------------------------------------------------------------------------
// GET /api/reports/warehouse/jobs/aggregatedbymachine

export async function jobByMachine(ctx: ServiceCtx, q: JobByMachineQuery) {
  const range = { start: q.start, end: q.end };
  const job = await getJob(ctx.scope, q.job_id);
  if (!job) throw notFound('Job');
  if (q.machine_id && !(await getMachine(ctx.scope, q.machine_id))) throw notFound('Machine');
  const machineIds = q.machine_id ? [q.machine_id] : undefined;
  const runs = await jobRunsOverlapping(ctx.scope, { jobId: job.id, machineIds }, range);
  const detail = emptyDetail();
  const [tallies, recomputing] = await Promise.all([
    runTallies(ctx, runs, range, detail),
    runsRecomputing(ctx, runs, range),
  ]);
  const machines: JobMachineReport[] = [...groupBy(runs, (r) => r.machineId)]
    .map(([machineId, mine]) => {
      const t = sumTallies(mine.map((r) => tallies.get(r.id)!));
      return {
        machine_id: machineId,
        machine_name: mine[0]!.machineName,
        ...spanOfRuns(mine),
        average_cycle_ms: averageCycleMs(t),
        ...jobFigures(t),
      };
    })
    .sort((a, b) => a.machine_name.localeCompare(b.machine_name) || a.machine_id.localeCompare(b.machine_id));
  return {
    range,
    /** The runs' machines whose figures are still being recomputed (decision 1004). */
    recomputing,
    job: {
      job_id: job.id,
      job_name: job.name,
      ...spanOfRuns(runs),
      ...jobFigures(sumTallies(tallies.values())),
    },
    machines,
    ...(await detailReport(ctx, detail)),
  };
}

// ---------------------------------------------------------------------------------------------------------
// GET /api/reports/warehouse/jobs/withoutruns

export async function jobsWithoutRunsReport(ctx: ServiceCtx, q: JobsWithoutRunsQuery) {
  const range = { start: q.start, end: q.end };
  // The machines whose runs count: one, or a group's (another company's id is 404), else any machine. A
  // machine outside the group (or a group without machines): nothing ran there, every job is listed.
  const ids =
    q.machine_id || q.group
      ? (await reportMachines(ctx.scope, { machineId: q.machine_id, group: q.group })).map((m) => m.id)
      : null;
  const jobs = await jobsWithoutRuns(ctx.scope, ids, range);
  return { range, jobs: jobs.map((j) => ({ job_id: j.id, job_name: j.name })) };
}

export type WarehouseJobsReport = Awaited<ReturnType<typeof warehouseJobs>>;
export type JobByMachineReport = Awaited<ReturnType<typeof jobByMachine>>;
export type JobsWithoutRunsReport = Awaited<ReturnType<typeof jobsWithoutRunsReport>>;
