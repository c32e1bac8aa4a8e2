import { formatInCycleHours, formatPercent, formatWallTime } from '@takt/domain';
import type {
  ProductionFigures,
  ProductionGroupBy,
  ProductionItem,
  ProductionMetric,
  ProductionResponse,
} from '@takt/domain';
import { csvCell, csvLine } from '../http/csv';
import { OEE_SET } from './production-report';
import type { ProductionQuery } from './production-report';

// GET /api/reports/warehouse/production/csv: the production report's answer as CSV (decision 0801).

const METRIC_HEADERS: Record<ProductionMetric, string> = {
  availability: 'Availability (%)',
  oee: 'OEE (%)',
  ooe: 'OOE (%)',
  performance: 'Performance (%)',
  quality: 'Quality (%)',
  teep: 'TEEP (%)',
  timeInCut: 'In-Cut (h)',
  timeInCycle: 'In-Cycle (h)',
  timeSpindleRotating: 'Spindle-Rotating (h)',
  allTime: 'Total Duration (h)',
  utilizationRate: 'Utilization (%)',
};

/**
 * The production report as CSV (decision 0801): one row per item, then a Total row with the aggregate.
 * Dimension columns by name (intervals as their start on the company's wall clock); OEE percents with one
 * decimal, utilization with none, times in hours with one decimal (reports-admin §9); '-' for null.
 * Decision 1216: each dimension value's cell is written (and quoted) once per call, not once per row (a year by
 * machine × week: 153 values for ~5,300 rows), and the lines are built as one string; the figures' cells are
 * digits, '.', '-' and never need quoting.
 */
export function productionCsv(report: ProductionResponse, q: ProductionQuery, timezone: string): string {
  const dims = [...new Set(q.groupBy)];
  const names = {
    machine: new Map(report.entities.machines.map((m) => [m.id, m.name])),
    machineGroup: new Map(report.entities.machineGroups.map((g) => [g.id, g.name])),
    shift: new Map(report.entities.shifts.map((s) => [s.id, s.name])),
  };
  const dimHeader: Record<ProductionGroupBy, string> = {
    machine: 'Machine',
    machineGroup: 'Machine Group',
    shift: 'Shift',
    interval: 'Interval',
  };
  // One formatter a metric, chosen once (decision 1170).
  const formats = q.data.map((m): ((v: number | null) => string) =>
    m === 'utilizationRate'
      ? (v) => formatPercent(v, 'utilization')
      : OEE_SET.has(m)
        ? (v) => formatPercent(v, 'oeeTable')
        : (v) => (v === null ? '-' : formatInCycleHours(v)),
  );
  const figureCells = (f: ProductionFigures) => {
    let line = '';
    for (let i = 0; i < formats.length; i++)
      line += (i === 0 ? '' : ',') + formats[i]!(f[q.data[i]!] ?? null);
    return line;
  };
  const dimCell = (item: ProductionItem, d: ProductionGroupBy) =>
    d === 'interval'
      ? item.interval === undefined
        ? ''
        : formatWallTime(timezone, item.interval)
      : (names[d].get(item[d] ?? '') ?? '');
  // Each dimension's cells by value, written once.
  const cells = dims.map(() => new Map<string | number | undefined, string>());
  const figuresAfter = dims.length > 0 && formats.length > 0 ? ',' : '';
  let out = csvLine([...dims.map((d) => dimHeader[d]), ...q.data.map((m) => METRIC_HEADERS[m])]);
  for (const item of report.items) {
    let line = '';
    for (let i = 0; i < dims.length; i++) {
      const d = dims[i]!;
      const value = item[d];
      let cell = cells[i]!.get(value);
      if (cell === undefined) cells[i]!.set(value, (cell = csvCell(dimCell(item, d))));
      line += (i === 0 ? '' : ',') + cell;
    }
    out += `${line}${figuresAfter}${figureCells(item)}\r\n`;
  }
  const total = dims.map((_, i) => (i === 0 ? 'Total' : '')).join(',');
  return `${out}${total}${figuresAfter}${figureCells(report.aggregate)}\r\n`;
}
