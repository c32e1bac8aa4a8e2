import type { Horizon } from '@takt/ui';
import { tr } from '@takt/ui';
import { intervalLabel } from '../reports/shared';
import type { LZ } from '../reports/shared';
import { pct } from './report';
import type { UtilizationAnswer, UtilizationCell } from './report';

// /dashboard/utilizationdeprecated?{query} (reports-admin §2: the older utilization dashboard; decision 1098):
// one grid of machines by intervals over the same GET /api/reports/utilization answer as the newer dashboard,
// each cell the machine's In-Cycle in that interval as a share (unit=percent, the default) or as hours in cycle
// (unit=hour; reports-admin §2 common query parameter `unit`), with a Total column and an All Machines row.
// Pure: the page renders what these functions return.

export type UtilizationUnit = 'percent' | 'hour';

/** reports-admin §2 common parameter `unit` (hour or percent); anything else is the default, percent. */
export const unitOf = (q: URLSearchParams): UtilizationUnit =>
  q.get('unit') === 'hour' ? 'hour' : 'percent';

/** The query with its unit written (percent, the default, is left out of the URL). */
export function writeUnit(q: URLSearchParams, unit: UtilizationUnit): URLSearchParams {
  const next = new URLSearchParams(q);
  if (unit === 'hour') next.set('unit', 'hour');
  else next.delete('unit');
  return next;
}

const HOUR_MS = 3_600_000;

/** Hours in cycle, one decimal ('2.5 h'); '-' where the machine has no known time. */
export function hoursText(inCycleMs: number, durationMs: number, locale: string): string {
  if (durationMs <= 0) return '-';
  const hours = new Intl.NumberFormat(locale, { minimumFractionDigits: 1, maximumFractionDigits: 1 }).format(
    inCycleMs / HOUR_MS,
  );
  return tr('utilizationOld.hours', { hours });
}

/** One cell's text in the unit. */
export function cellText(
  c: Pick<UtilizationCell, 'inCycleMs' | 'durationMs' | 'inCycle'>,
  unit: UtilizationUnit,
  locale: string,
): string {
  return unit === 'hour' ? hoursText(c.inCycleMs, c.durationMs, locale) : pct(c.inCycle);
}

export interface OldGridRow {
  /** The machine's id; null for the All Machines row. */
  machineId: string | null;
  name: string;
  cells: string[];
  total: string;
}

export interface OldGrid {
  columns: string[];
  rows: OldGridRow[];
  /** The All Machines row (the answer's aggregate), shown last. */
  aggregate: OldGridRow;
}

/**
 * The grid of the answer: the columns are the aggregate's intervals, each machine's cells are matched to them
 * by start (a machine without a cell there shows '-'); machines in name order. Machines the server reported an
 * error for (machineContextErrors) are left out, as the newer dashboard leaves them out of its figures.
 */
export function oldGrid(answer: UtilizationAnswer, unit: UtilizationUnit, lz: LZ): OldGrid {
  const interval: Horizon = answer.interval;
  const starts = answer.machineAggregate.intervals.map((c) => c.start);
  const columns = answer.machineAggregate.intervals.map((c) => intervalLabel(c, interval, lz));
  const failed = new Set(answer.machineContextErrors.map((e) => e.machineId));
  const rows = answer.machines
    .filter((m) => !failed.has(m.machineId))
    .sort((a, b) => a.machineName.localeCompare(b.machineName, lz.locale))
    .map((m) => {
      const byStart = new Map(m.intervals.map((c) => [c.start, c]));
      return {
        machineId: m.machineId,
        name: m.machineName,
        cells: starts.map((s) => {
          const c = byStart.get(s);
          return c ? cellText(c, unit, lz.locale) : '-';
        }),
        total: cellText(m, unit, lz.locale),
      };
    });
  const agg = answer.machineAggregate;
  return {
    columns,
    rows,
    aggregate: {
      machineId: null,
      name: tr('utilization.allMachines'),
      cells: agg.intervals.map((c) => cellText(c, unit, lz.locale)),
      total: cellText(agg, unit, lz.locale),
    },
  };
}
