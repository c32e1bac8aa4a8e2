import { formatWallTime, qualityCounts } from '@takt/domain';
import { toCsv } from '../http/csv';
import { jobNames, reportMachines } from '../repositories/reports';
import { loadRollupSource } from '@takt/db/rollups';
import type { ServiceCtx } from './context';
import { loadRecomputing, machineRef } from './reports';
import type { Range } from './reports';

// ---------------------------------------------------------------------------------------------------------
// GET /api/reports/cycles

export interface CyclesQuery extends Range {
  machineId: string;
}

export async function cyclesReport(ctx: ServiceCtx, q: CyclesQuery) {
  const [machine] = await reportMachines(ctx.scope, { machineId: q.machineId });
  const range = { start: q.start, end: q.end };
  const [source, recomputing] = await Promise.all([
    loadRollupSource(ctx.scope, machine!.id, range),
    loadRecomputing(ctx, [machine!], range),
  ]);
  const cycles = (source.cycles ?? []).filter((c) => c.end >= q.start && c.end < q.end);
  const rejects = (source.adjustments ?? []).filter((a) => a.rejectBehavior !== null);
  // The range's parts (METRICS.md §3), as the Parts report and the tablet count them: the cycles' parts and
  // every part adjustment in the range, on a cycle or between cycles (decision 1020).
  const adjusted = (source.adjustments ?? []).filter(
    (a) => a.adjustmenttime >= q.start && a.adjustmenttime < q.end,
  );
  const { total, rejected, good } = qualityCounts(
    cycles.reduce((t, c) => t + c.parts, 0),
    adjusted,
  );
  const names = await jobNames(
    ctx.scope,
    cycles.flatMap((c) => (c.jobId ? [c.jobId] : [])),
  );
  return {
    range,
    ...machineRef(machine!),
    /** The machine, when its figures in the range are still being recomputed (decision 1004). */
    recomputing,
    /** The range's total, rejected and good parts: what the cycles and the adjustments add up to. */
    parts: { total, rejected, good },
    cycles: cycles.map((c) => {
      // A reject belongs to the cycle it was made on (its time within the cycle, end included).
      const mine = rejects.filter((a) => a.adjustmenttime >= c.start && a.adjustmenttime <= c.end);
      const count = (behavior: 'scrap' | 'nonconform') =>
        mine.filter((a) => a.rejectBehavior === behavior).reduce((t, a) => t + a.scrapcount, 0);
      return {
        timestamp: c.end,
        start: c.start,
        duration: c.duration,
        expectedCycleTime: c.expectedCycleTime,
        idealCycleTime: c.idealCycleTime,
        parts: c.parts,
        scraps: count('scrap'),
        nonconforms: count('nonconform'),
        setup: c.setup,
        job: c.jobId ? { id: c.jobId, name: names.get(c.jobId) ?? '' } : null,
      };
    }),
  };
}

/** The cycles grid (live-operations §2): times on the company's wall clock, durations in ms (§9). */
export function cyclesCsv(report: Awaited<ReturnType<typeof cyclesReport>>, timezone: string): string {
  return toCsv(
    ['Time', 'Duration', 'Expected', 'Ideal', 'Parts', 'Scrap', 'Non-Conform', 'Operation'],
    report.cycles.map((c) => [
      formatWallTime(timezone, c.timestamp),
      c.duration,
      c.expectedCycleTime,
      c.idealCycleTime,
      c.parts,
      c.scraps,
      c.nonconforms,
      c.job?.name ?? '',
    ]),
  );
}
