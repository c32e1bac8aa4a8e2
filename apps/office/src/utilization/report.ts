import { formatPercent } from '@takt/domain';
import type { AppliedRange, Horizon } from '@takt/ui';
import { arrayOf, nullable, number, object, oneOf, optional, parseWith, string, toCsv, tr } from '@takt/ui';
import {
  adoptedRange as adoptedReportRange,
  drillInterval,
  intervalLabel,
  nextSort,
  REPORT_HORIZONS,
  sortRows,
} from '../reports/shared';
import type { Sort } from '../reports/shared';

// reports-admin §2 "Utilization report" over GET /api/reports/utilization (reports-admin §7). Pure: the page
// renders what these functions return, and they are tested without a browser.

/** reports-admin §2: OEE and utilization horizons Hour, Day, Week, Month, Quarter. */
export const UTILIZATION_HORIZONS: readonly Horizon[] = REPORT_HORIZONS;
/** reports-admin §9: the utilization report's company-wide default horizon. */
export const DEFAULT_UTILIZATION_HORIZON: Horizon = 'day';

const cell = {
  start: number,
  end: number,
  shopDate: string,
  inCycleMs: number,
  durationMs: number,
  inCycle: nullable(number),
};
const cellCheck = object(cell);

const answerCheck = object({
  range: object({ start: number, end: number }),
  interval: oneOf(['hour', 'shift', 'day', 'week', 'month', 'quarter'] as const),
  machines: arrayOf(
    object({
      machineId: string,
      machineName: string,
      inCycleMs: number,
      durationMs: number,
      inCycle: nullable(number),
      spindleRotating: optional(nullable(number)),
      inCut: optional(nullable(number)),
      intervals: arrayOf(cellCheck),
    }),
  ),
  machineAggregate: object({
    inCycleMs: number,
    durationMs: number,
    inCycle: nullable(number),
    intervals: arrayOf(cellCheck),
  }),
  machineContextErrors: arrayOf(object({ machineId: string, machineName: string, message: string })),
});

export type UtilizationAnswer = ReturnType<typeof answerCheck>;
export type UtilizationCell = UtilizationAnswer['machineAggregate']['intervals'][number];
export type UtilizationMachine = UtilizationAnswer['machines'][number];
export const parseUtilization = parseWith(answerCheck);

/** What the page asks, from its URL: the applied range plus the drill-down (group or machine). */
export interface UtilizationSelection {
  range: AppliedRange;
  group: string | null;
  machine: string | null;
  /** The shifts filtered to (decision 0801); empty or absent = no filter. */
  shifts?: readonly string[];
}

/** The query of GET /api/reports/utilization (unit percent: the report shows shares). */
export function utilizationQuery(s: UtilizationSelection): Record<string, string | number> {
  const q: Record<string, string | number> = {
    start: s.range.start,
    end: s.range.end,
    interval: s.range.interval,
    unit: 'percent',
  };
  if (s.machine) q.machineId = s.machine;
  else if (s.group) q.group = s.group;
  if (s.shifts?.length) q.shifts = s.shifts.join(',');
  return q;
}

/** The server may answer another interval or range than asked (shared with the OEE report). */
export const adoptedRange = (asked: AppliedRange, answer: UtilizationAnswer): AppliedRange | null =>
  adoptedReportRange(asked, answer);

/** reports-admin §2 Title: 'Utilization Report for {group name, or All Machines, or the machine name}'. */
export function reportTitle(
  s: Pick<UtilizationSelection, 'group' | 'machine'>,
  names: { group?: string | undefined; machine?: string | undefined },
): string {
  const subject = s.machine
    ? (names.machine ?? '…')
    : s.group
      ? (names.group ?? '…')
      : tr('utilization.allMachines');
  return tr('utilization.title', { name: subject });
}

/** 'No utilization data in this range.' when no machine has any known time in the range. */
export function isEmpty(answer: UtilizationAnswer): boolean {
  const reported = new Set(answer.machineContextErrors.map((e) => e.machineId));
  return answer.machines.every((m) => reported.has(m.machineId));
}

/** reports-admin §9: utilization percentages with zero decimals; null shows '-'. */
export const pct = (fraction: number | null | undefined): string => {
  const v = formatPercent(fraction ?? null, 'utilization');
  return v === '-' ? v : `${v}%`;
};

/** Percent as a chart value (zero decimals), null where there is no time. */
export const chartValue = (fraction: number | null): number | null =>
  fraction == null ? null : Math.round(fraction * 100);

export { drillInterval, intervalLabel };

// ---- Machines list: sortable columns (reports-admin §2 "List table: sortable")

export const MACHINE_COLUMNS = ['name', 'inCycle', 'spindleRotating', 'inCut'] as const;
export type MachineColumn = (typeof MACHINE_COLUMNS)[number];
export type MachineSort = Sort<MachineColumn>;
export const COLUMN_TITLE: Record<MachineColumn, string> = {
  name: tr('utilization.name'),
  inCycle: tr('utilization.inCycle'),
  spindleRotating: tr('utilization.spindleRotating'),
  inCut: tr('utilization.inCut'),
};

/** Sorted rows; machines without a value sort last in both directions; ties by name. */
export const sortMachines = (rows: readonly UtilizationMachine[], sort: MachineSort): UtilizationMachine[] =>
  sortRows(
    rows,
    sort,
    (m) => m.machineName,
    (m, key: Exclude<MachineColumn, 'name'>) => m[key],
  );

export const nextMachineSort = (current: MachineSort, key: MachineColumn): MachineSort =>
  nextSort(current, key);

/** The machines list as shown, plus one column per interval, as CSV (UI.md "every table downloads as CSV"). */
export function machinesCsv(
  rows: readonly UtilizationMachine[],
  answer: UtilizationAnswer,
  opts: { timeZone: string; locale?: string },
): string {
  const interval = answer.interval as Horizon;
  const header = [
    ...MACHINE_COLUMNS.map((c) => COLUMN_TITLE[c]),
    ...answer.machineAggregate.intervals.map((i) => intervalLabel(i, interval, opts)),
  ];
  const num = (f: number | null | undefined) => (f == null ? '' : formatPercent(f, 'utilization'));
  return toCsv(header, [
    ...rows.map((m) => [
      m.machineName,
      num(m.inCycle),
      num(m.spindleRotating),
      num(m.inCut),
      ...m.intervals.map((i) => num(i.inCycle)),
    ]),
    [
      tr('utilization.allMachines'),
      num(answer.machineAggregate.inCycle),
      '',
      '',
      ...answer.machineAggregate.intervals.map((i) => num(i.inCycle)),
    ],
  ]);
}
