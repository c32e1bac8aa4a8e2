import type { Selectable } from 'kysely';
import { applyStandards, epochMs, manualCycles, piecePlannedValue, piecesOf, segmentsOf } from '@takt/domain';
import type {
  Annotation,
  AnnotationTypeLike,
  DowntimeAnnotation,
  DowntimePiece,
  MachineCycle,
  PartAdjustmentFact,
  RollupSource,
  RunStandards,
  Span,
  StateInterval,
} from '@takt/domain';
import type { Database } from '../schema';
import { toManualRun } from './manual-states';

// The one mapping of a machine's stored fact rows, clipped to a range, to the domain's RollupSource.

export type FactRows = {
  /** Over the machine's wider bounds (whole downtime periods at both ends of the range). */
  intervals: Array<{ start_at: number; end_at: number | null; state: string; reason: string | null }>;
  spans: Array<{ kind: string; start_at: number; end_at: number | null }>;
  cycles: Array<Selectable<Database['cycles']>>;
  adjustments: Array<{
    adjustment_time: number;
    count: number;
    scrapcount: number;
    reject_behavior: Selectable<Database['part_adjustments']>['reject_behavior'];
    type_id: string | null;
    kind: Selectable<Database['part_adjustments']>['kind'];
  }>;
  /** Over the machine's wider bounds. */
  annotations: Annotation[];
  runs: Array<Selectable<Database['job_runs']>>;
  /**
   * piecesOf(segmentsOf(intervals), annotations) of exactly these intervals and annotations, when the caller has
   * split them already (the downtime report lists the same pieces, decision 1172): not split a second time.
   */
  pieces?: ReadonlyArray<DowntimePiece<Annotation>> | undefined;
};

/**
 * The downtime covered by annotations, as the downtime list splits it (one engine: packages/domain
 * derive/downtime-pieces.ts), with the METRICS.md §5 planned value judged on each period's actual duration
 * at `now`. An open annotation covers only its own downtime period, never later ones; a live
 * plannedWithLimit period stops counting as planned once it passes the limit, whatever was stored at save.
 */
function coveredDowntime(
  range: { start: number; end: number },
  now: number,
  types: ReadonlyMap<string, AnnotationTypeLike>,
  intervals: FactRows['intervals'],
  annotations: readonly Annotation[],
  split?: FactRows['pieces'],
): DowntimeAnnotation[] {
  const pieces =
    split ??
    piecesOf(
      segmentsOf(intervals.map((r) => ({ start: r.start_at, end: r.end_at, state: r.state }))),
      annotations,
    );
  const out: DowntimeAnnotation[] = [];
  for (const p of pieces) {
    const a = p.annotation;
    // Setup annotations are not downtime reasons (live-operations §5): their time stays uncategorized here.
    if (!a || a.setup) continue;
    const start = Math.max(p.start, range.start);
    const end = Math.min(p.end ?? Number.POSITIVE_INFINITY, range.end);
    if (end <= start) continue;
    const type = a.category_id ? types.get(a.category_id) : undefined;
    out.push({
      start: epochMs(start),
      end: epochMs(end),
      reasonId: a.category_id,
      countsAsPlanned: type ? piecePlannedValue(type, a, p, now).countsAsPlanned : false,
    });
  }
  return out;
}

/** One machine's stored facts, clipped to the range, as the domain's RollupSource (the one mapping). */
export function toRollupSource(
  machineId: string,
  range: { start: number; end: number },
  now: number,
  types: ReadonlyMap<string, AnnotationTypeLike>,
  monitoredFrom: number | null,
  { intervals, spans, cycles, adjustments, annotations, runs, pieces }: FactRows,
  cyclesBefore: ReadonlyMap<string, number> = new Map(),
): RollupSource {
  const clipEnd = (end: number | null) => (end == null ? range.end : Math.min(end, range.end));
  const stateIntervals: StateInterval[] = intervals
    .map((r) => ({
      start: epochMs(Math.max(r.start_at, range.start)),
      end: epochMs(clipEnd(r.end_at)),
      state: r.state as StateInterval['state'],
      reason: r.reason,
    }))
    .filter((i) => i.end > i.start);
  const toSpan = (r: { start_at: number; end_at: number | null }): Span => ({
    start: epochMs(Math.max(r.start_at, range.start)),
    end: epochMs(clipEnd(r.end_at)),
  });
  const runStandards: RunStandards[] = runs.map((r) => ({
    id: r.id,
    jobId: r.job_id,
    start: epochMs(r.start_at),
    end: r.end_at == null ? null : epochMs(r.end_at),
    productionStart: r.setup_end == null ? null : epochMs(r.setup_end),
    expectedCycleTime: r.expected_cycle_time,
    idealCycleTime: r.ideal_cycle_time,
    startInSetup: r.setup_mode,
    partBehavior: r.part_behavior,
    actualParts: r.actual_parts,
    reportedParts: r.reported_parts,
    requiredCycles: r.required_cycles,
  }));
  const machineCycles: MachineCycle[] = cycles.map((c) => ({
    start: epochMs(c.start_at),
    end: epochMs(c.end_at),
    duration: c.duration as MachineCycle['duration'],
    count: c.count,
    source: c.source as MachineCycle['source'],
    setup: c.setup === 1,
  }));
  const facts: PartAdjustmentFact[] = adjustments.map((a) => ({
    adjustmenttime: epochMs(a.adjustment_time),
    count: a.count,
    scrapcount: a.reject_behavior ? a.scrapcount : 0,
    rejectBehavior: a.reject_behavior,
    categoryId: a.type_id,
  }));
  const downtime = coveredDowntime(range, now, types, intervals, annotations, pieces);
  // Decision 1073: a manual work center's Add Parts are its cycles for Performance (their parts count once,
  // as the adjustments they are).
  const added = adjustments
    .filter((a) => a.kind === 'manual')
    .map((a) => ({ at: Number(a.adjustment_time), count: a.count }));
  const standardCycles = applyStandards(machineCycles, runStandards, cyclesBefore);
  const allCycles =
    added.length === 0
      ? standardCycles
      : [...standardCycles, ...manualCycles(runs.map(toManualRun), added)].sort((a, b) => a.end - b.end);

  return {
    machineId,
    monitoredFrom: monitoredFrom === null ? null : epochMs(monitoredFrom),
    intervals: stateIntervals,
    spindle: spans.filter((s) => s.kind === 'spindle').map(toSpan),
    inCut: spans.filter((s) => s.kind === 'incut').map(toSpan),
    cycles: allCycles,
    adjustments: facts,
    annotations: downtime,
    runs: runStandards,
  };
}
