import { formatPercent } from '@takt/domain';
import type { ProductionGroupBy, ProductionRequest } from '@takt/domain';
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
import { recomputingCheck } from '../reports/shared';
import type { Sort } from '../reports/shared';
import { productionFilter } from '../oee/report';
import type { ListKind, OeeSelection } from '../oee/report';

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
  recomputing: recomputingCheck,
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

// ---- Lists: Shifts, Machine Groups, Machines over POST /api/reports/warehouse/production (reports-admin §2
// "Same layout", §7 utilization metrics). In-Cycle for every list; Spindle-Rotating and In-Cut only for machines.

const time = optional(nullable(number));
const utilFigures = {
  utilizationRate: optional(nullable(number)),
  timeInCycle: time,
  timeSpindleRotating: time,
  timeInCut: time,
  allTime: time,
};
const utilProductionCheck = object({
  range: object({ start: number, end: number }),
  items: arrayOf(
    object({
      ...utilFigures,
      machine: optional(string),
      shift: optional(string),
      machineGroup: optional(string),
      interval: optional(number),
    }),
  ),
  entities: object({
    machines: arrayOf(object({ id: string, name: string })),
    shifts: arrayOf(object({ id: string, name: string })),
    machineGroups: arrayOf(object({ id: string, name: string })),
    intervals: arrayOf(object({ start: number, end: number, shopDate: string })),
  }),
  aggregate: object(utilFigures),
  csv: optional(object({ url: string })),
});
export type UtilizationProduction = ReturnType<typeof utilProductionCheck>;
export const parseUtilizationProduction = parseWith(utilProductionCheck);

/** One list's figures (with its server CSV link) or, with `overTime`, its In-Cycle per interval. */
export function utilizationListRequest(
  s: OeeSelection,
  kind: ListKind,
  overTime: boolean,
): ProductionRequest {
  const groupBy: ProductionGroupBy[] = overTime ? [kind, 'interval'] : [kind];
  const data: ProductionRequest['data'] = overTime
    ? ['utilizationRate']
    : kind === 'machine'
      ? ['utilizationRate', 'timeInCycle', 'timeSpindleRotating', 'timeInCut', 'allTime']
      : ['utilizationRate', 'timeInCycle', 'allTime'];
  return {
    start: s.range.start,
    end: s.range.end,
    interval: s.range.interval,
    data,
    filter: productionFilter(s),
    groupBy,
    ...(overTime ? {} : { csv: true }),
  };
}

export const UTIL_LIST_COLUMNS = ['inCycle', 'spindleRotating', 'inCut'] as const;
export type UtilListMetric = (typeof UTIL_LIST_COLUMNS)[number];
export interface UtilListRow {
  id: string;
  name: string;
  figures: Record<UtilListMetric, number | null>;
  /** In-Cycle per interval, percent (zero decimals), null where there is no time. */
  overTime: (number | null)[];
}

const share = (part: number | null | undefined, all: number | null | undefined): number | null =>
  part == null || all == null || all <= 0 ? null : part / all;

const entitiesOf = (p: UtilizationProduction, kind: ListKind): { id: string; name: string }[] =>
  kind === 'machine' ? p.entities.machines : kind === 'shift' ? p.entities.shifts : p.entities.machineGroups;

/** The rows of one list; Spindle-Rotating and In-Cut stay null ('-') outside the Machines list. */
export function utilizationListRows(
  kind: ListKind,
  figures: UtilizationProduction,
  overTime: UtilizationProduction | null,
): UtilListRow[] {
  const names = new Map(entitiesOf(figures, kind).map((e) => [e.id, e.name]));
  const intervals = overTime?.entities.intervals ?? [];
  return figures.items.flatMap((item) => {
    const id = item[kind];
    if (id == null) return [];
    const points = new Map(
      (overTime?.items ?? []).filter((p) => p[kind] === id).map((p) => [p.interval, p.utilizationRate]),
    );
    const machine = kind === 'machine';
    return [
      {
        id,
        name: names.get(id) ?? id,
        figures: {
          inCycle: item.utilizationRate ?? share(item.timeInCycle, item.allTime),
          spindleRotating: machine ? share(item.timeSpindleRotating, item.allTime) : null,
          inCut: machine ? share(item.timeInCut, item.allTime) : null,
        },
        overTime: intervals.map((c) => chartValue(points.get(c.start) ?? null)),
      },
    ];
  });
}

export type UtilListSort = Sort<'name' | UtilListMetric>;
export const sortUtilizationList = (rows: readonly UtilListRow[], sort: UtilListSort): UtilListRow[] =>
  sortRows(
    rows,
    sort,
    (r) => r.name,
    (r, key: UtilListMetric) => r.figures[key],
  );
