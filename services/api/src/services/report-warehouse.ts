import { DEFAULT_REASON_COLOR } from './annotation-types';
import { faultsOverlapping, reportCalendar, reportMachines } from '../repositories/reports';
import type { ServiceCtx } from './context';
import { rejectsByCategory } from './part-adjustments';
import { downtimeReport } from './report-downtime';
import { checkReportRange, loadRecomputing } from './reports';
import type { Range } from './reports';

// The remaining report calls of reports-admin §7 (decision 1096). Each reads the figures of an existing
// report's service, so no figure is computed twice: the faults are the timeline's fault lane, the timeline
// list and the warehouse downtime are the Downtime report's periods, the warehouse quality is the rejects
// by reason.

/** GET /api/reports/faults: one machine's faults overlapping the range (the timeline's fault lane). */
export async function faultsReport(ctx: ServiceCtx, q: Range & { machineId: string }) {
  const calendar = await reportCalendar(ctx.scope);
  const range = { start: q.start, end: q.end };
  checkReportRange(calendar, range);
  const [machine] = await reportMachines(ctx.scope, { machineId: q.machineId });
  const faults = await faultsOverlapping(ctx.scope, machine!.id, range);
  return {
    range,
    recomputing: await loadRecomputing(ctx, [machine!], range),
    faults: faults.map((f) => ({
      start: f.start_at,
      end: f.end_at,
      duration: (f.end_at ?? ctx.now) - f.start_at,
      value: f.value,
      nativecode: f.nativecode,
      type: f.type,
    })),
  };
}

/**
 * GET /api/reports/timelinelist: the timeline's downtime grid (Start, Duration, Reason, Message, Planned) of
 * one machine for at most one day ("timeline list 1 day"): the Downtime report's rows of that machine,
 * hidden reasons included.
 */
export async function timelineListReport(ctx: ServiceCtx, q: Range & { machineId: string }) {
  const { range, periods, recomputing } = await downtimeReport(
    ctx,
    { ...q, showPlanned: true, showUnplanned: true, showUncategorized: true, includeHidden: true },
    'timelineList',
  );
  return { range, recomputing, items: periods };
}

export interface WarehouseFilter {
  machine?: string | undefined;
  machineGroup?: string | undefined;
  shift?: string[] | undefined;
}

export interface WarehouseQuery extends Range {
  groupBy: 'machine' | 'reason';
  filter: WarehouseFilter;
}

interface ReasonEntity {
  id: string;
  name: string;
  color: string;
}

/**
 * POST /api/reports/warehouse/downtime: downtime by reason (and machine with groupBy machine) as
 * `{ downtimeMs, recordCount, reason: { name, color } }` items, with the machines and reasons named once in
 * `entities`. The rows are the Downtime report's for the same range and filter, so the totals agree.
 */
export async function warehouseDowntime(ctx: ServiceCtx, q: WarehouseQuery) {
  const report = await downtimeReport(
    ctx,
    {
      start: q.start,
      end: q.end,
      machineId: q.filter.machine,
      group: q.filter.machineGroup,
      shifts: q.filter.shift,
      showPlanned: true,
      showUnplanned: true,
      showUncategorized: true,
    },
    null,
  );
  const reasons = new Map<string, ReasonEntity>();
  const machines = new Map<string, { id: string; name: string }>();
  const items = new Map<
    string,
    { machineId?: string; reasonId: string; downtimeMs: number; recordCount: number; reason: ReasonEntity }
  >();
  for (const p of report.periods) {
    const reason = {
      id: p.reasonId,
      name: p.reason,
      color: p.annotationType?.color ?? DEFAULT_REASON_COLOR,
    };
    reasons.set(reason.id, reason);
    machines.set(p.machineId, { id: p.machineId, name: p.machine });
    const key = q.groupBy === 'machine' ? `${p.machineId}/${p.reasonId}` : p.reasonId;
    const item = items.get(key) ?? {
      ...(q.groupBy === 'machine' ? { machineId: p.machineId } : {}),
      reasonId: p.reasonId,
      downtimeMs: 0,
      recordCount: 0,
      reason: { name: reason.name, color: reason.color, id: reason.id },
    };
    item.downtimeMs += p.duration;
    item.recordCount += 1;
    items.set(key, item);
  }
  return {
    range: report.range,
    recomputing: report.recomputing,
    items: [...items.values()].sort((a, b) => b.downtimeMs - a.downtimeMs),
    entities: { machines: Object.fromEntries(machines), reasons: Object.fromEntries(reasons) },
  };
}

/**
 * POST /api/reports/warehouse/quality: rejects by reason (and machine with groupBy machine) as
 * `{ rejectCount, reason: { name, color } }` items: the reject totals of GET /api/partadjustment/allRejectsByCategory.
 */
export async function warehouseQuality(ctx: ServiceCtx, q: WarehouseQuery) {
  const { rejects } = await rejectsByCategory(ctx, {
    start: q.start,
    end: q.end,
    machine_id: q.filter.machine,
    group: q.filter.machineGroup,
    shifts: q.filter.shift,
    groupByMachine: q.groupBy === 'machine',
  });
  const reasons = new Map<string, ReasonEntity>();
  const machines = new Map<string, { id: string; name: string }>();
  const items = rejects.map((r) => {
    const reason = { ...r.partadjustmentType, id: r.partadjustmentType.id ?? 'uncategorized' };
    reasons.set(reason.id, reason);
    if (r.machine) machines.set(r.machine.id, r.machine);
    return {
      ...(r.machine ? { machineId: r.machine.id } : {}),
      reasonId: reason.id,
      rejectCount: r.scrapCount,
      reason,
    };
  });
  return {
    range: { start: q.start, end: q.end },
    items,
    entities: { machines: Object.fromEntries(machines), reasons: Object.fromEntries(reasons) },
  };
}
