import { formatDowntimeMinutes, formatInCycleHours, formatPercent, formatWallTime } from '@takt/domain';
import type { JobFigures } from '@takt/domain';
import { toCsv } from '../http/csv';
import type { JobByMachineReport, WarehouseJobsReport } from './jobs-report';

// The warehouse job calls' CSV (reports-admin §9 rounding: OEE percents 1 decimal, parts whole, in-cycle hours 1
// decimal, downtime minutes 2 decimals; times on the company's wall clock; '-' for null).

const FIGURE_HEADERS = [
  'Start',
  'End',
  'Parts Goal (%)',
  'Expected Parts',
  'Good Parts',
  'Rejected Parts',
  'OEE (%)',
  'Availability (%)',
  'Performance (%)',
  'Quality (%)',
  'Setup (h)',
  'In-Cycle (h)',
  'Downtime (min)',
];

function figureCells(
  f: JobFigures & { start_at: number | null; end_at: number | null },
  timezone: string,
): string[] {
  const pct = (v: number | null) => formatPercent(v, 'oeeTable');
  return [
    f.start_at === null ? '' : formatWallTime(timezone, f.start_at),
    f.end_at === null ? '' : formatWallTime(timezone, f.end_at),
    pct(f.percentage_of_parts_goal === null ? null : f.percentage_of_parts_goal / 100),
    f.expected_parts === null ? '-' : String(f.expected_parts),
    String(f.good_parts),
    String(f.rejected_parts),
    pct(f.oee),
    pct(f.availability),
    pct(f.performance),
    pct(f.quality),
    formatInCycleHours(f.setup_ms),
    formatInCycleHours(f.production_in_cycle_ms),
    formatDowntimeMinutes(f.production_downtime_ms),
  ];
}

/** One row per job (its runs summed), or per job and machine when aggregated by machine. */
export function warehouseJobsCsv(report: WarehouseJobsReport, timezone: string, byMachine = false) {
  return toCsv(
    byMachine ? ['Job', 'Machine', ...FIGURE_HEADERS] : ['Job', ...FIGURE_HEADERS],
    report.jobs.map((j) => [
      j.job_name,
      ...(byMachine ? [j.machine_name ?? ''] : []),
      ...figureCells(j, timezone),
    ]),
  );
}

/** One row per machine, then the job's Total row. */
export function jobByMachineCsv(report: JobByMachineReport, timezone: string) {
  return toCsv(
    ['Machine', ...FIGURE_HEADERS],
    [
      ...report.machines.map((m) => [m.machine_name, ...figureCells(m, timezone)]),
      ['Total', ...figureCells(report.job, timezone)],
    ],
  );
}
