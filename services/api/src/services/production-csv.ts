import { formatInCycleHours, formatPercent, formatWallTime } from '@takt/domain';
import type {
  ProductionFigures,
  ProductionGroupBy,
  ProductionItem,
  ProductionMetric,
  ProductionResponse,
} from '@takt/domain';
import { toCsv } from '../http/csv';
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
  const figureCells = (row: string[], f: ProductionFigures) => {
    for (let i = 0; i < formats.length; i++) row.push(formats[i]!(f[q.data[i]!] ?? null));
    return row;
  };
  const dimCell = (item: ProductionItem, d: ProductionGroupBy) =>
    d === 'interval'
      ? item.interval === undefined
        ? ''
        : formatWallTime(timezone, item.interval)
      : (names[d].get(item[d] ?? '') ?? '');
  const rows = report.items.map((item) =>
    figureCells(
      dims.map((d) => dimCell(item, d)),
      item,
    ),
  );
  rows.push(
    figureCells(
      dims.map((_, i) => (i === 0 ? 'Total' : '')),
      report.aggregate,
    ),
  );
  return toCsv([...dims.map((d) => dimHeader[d]), ...q.data.map((m) => METRIC_HEADERS[m])], rows);
}
