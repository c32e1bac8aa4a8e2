import { adoptServerInterval, epochMs, formatPercent } from '@takt/domain';
import type { EpochMs } from '@takt/domain';
import type { AppliedRange, Horizon } from '@takt/ui';
import { arrayOf, nullable, number, object, oneOf, optional, parseWith, string, toCsv, tr } from '@takt/ui';

// reports-admin §2 "Utilization report" over GET /api/reports/utilization (reports-admin §7). Pure: the page
// renders what these functions return, and they are tested without a browser.

/** reports-admin §2: OEE and utilization horizons Hour, Day, Week, Month, Quarter. */
export const UTILIZATION_HORIZONS: readonly Horizon[] = ['hour', 'day', 'week', 'month', 'quarter'];
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
  return q;
}

/**
 * reports-admin §2 / domain adoptServerInterval: when the server answers with another interval or range
 * than asked, the page takes the server's (and writes it to the URL), or null when nothing differs.
 */
export function adoptedRange(asked: AppliedRange, answer: UtilizationAnswer): AppliedRange | null {
  const adopted = adoptServerInterval(asked, {
    interval: answer.interval,
    start: epochMs(answer.range.start),
    end: epochMs(answer.range.end),
  });
  if (adopted.interval === asked.interval && adopted.start === asked.start && adopted.end === asked.end)
    return null;
  return {
    ...adopted,
    quicklink: adopted.start === asked.start && adopted.end === asked.end ? asked.quicklink : null,
  };
}

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

/** An interval's label on the company clock: hours by time, days by date, weeks by their Monday, months by name. */
export function intervalLabel(
  c: Pick<UtilizationCell, 'start' | 'shopDate'>,
  interval: Horizon,
  opts: { timeZone: string; locale?: string },
): string {
  const [y, m, d] = c.shopDate.split('-').map(Number) as [number, number, number];
  const day = new Date(Date.UTC(y, m - 1, d));
  const utc = (o: Intl.DateTimeFormatOptions) =>
    new Intl.DateTimeFormat(opts.locale, { ...o, timeZone: 'UTC' }).format(day);
  switch (interval) {
    case 'hour':
    case 'shift':
      return new Intl.DateTimeFormat(opts.locale, {
        month: 'short',
        day: 'numeric',
        hour: '2-digit',
        minute: '2-digit',
        hourCycle: 'h23',
        timeZone: opts.timeZone,
      }).format(c.start);
    case 'day':
      return utc({ month: 'short', day: 'numeric', weekday: 'short' });
    case 'week':
      return tr('utilization.weekOf', { date: utc({ month: 'short', day: 'numeric' }) });
    case 'month':
      return utc({ month: 'short', year: 'numeric' });
    case 'quarter':
      return `Q${Math.floor((m - 1) / 3) + 1} ${y}`;
  }
}

/** Drilling into an interval: its own range, one horizon finer (a day bar opens its hours). */
export function drillInterval(c: Pick<UtilizationCell, 'start' | 'end'>, interval: Horizon): AppliedRange {
  const finer: Record<Horizon, Horizon> = {
    quarter: 'month',
    month: 'week',
    week: 'day',
    day: 'hour',
    shift: 'hour',
    hour: 'hour',
  };
  return { interval: finer[interval], start: c.start as EpochMs, end: c.end as EpochMs, quicklink: null };
}

// ---- Machines list: sortable columns (reports-admin §2 "List table: sortable")

export const MACHINE_COLUMNS = ['name', 'inCycle', 'spindleRotating', 'inCut'] as const;
export type MachineColumn = (typeof MACHINE_COLUMNS)[number];
export interface MachineSort {
  key: MachineColumn;
  direction: 'ascending' | 'descending';
}
export const COLUMN_TITLE: Record<MachineColumn, string> = {
  name: tr('utilization.name'),
  inCycle: tr('utilization.inCycle'),
  spindleRotating: tr('utilization.spindleRotating'),
  inCut: tr('utilization.inCut'),
};

const collator = new Intl.Collator(undefined, { numeric: true, sensitivity: 'base' });

/** Sorted rows; machines without a value sort last in both directions; ties by name. */
export function sortMachines(rows: readonly UtilizationMachine[], sort: MachineSort): UtilizationMachine[] {
  const dir = sort.direction === 'ascending' ? 1 : -1;
  const value = (m: UtilizationMachine): number | null =>
    sort.key === 'name' ? null : (m[sort.key] ?? null);
  return [...rows].sort((a, b) => {
    if (sort.key !== 'name') {
      const x = value(a);
      const y = value(b);
      if (x == null || y == null) {
        if (x != null) return -1;
        if (y != null) return 1;
      } else if (x !== y) return (x - y) * dir;
      return collator.compare(a.machineName, b.machineName);
    }
    return collator.compare(a.machineName, b.machineName) * dir;
  });
}

export function nextMachineSort(current: MachineSort, key: MachineColumn): MachineSort {
  if (current.key !== key) return { key, direction: key === 'name' ? 'ascending' : 'descending' };
  return { key, direction: current.direction === 'ascending' ? 'descending' : 'ascending' };
}

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
