import {
  downtimeBucketFigures,
  epochMs,
  figurePeriodsOf,
  noDataSpans,
  piecesOf,
  rollupBuckets,
  segmentsOf,
} from '@takt/domain';
import type {
  Annotation,
  Bucket,
  CompanyCalendar,
  DowntimeFigures,
  DowntimePiece,
  RollupSource,
} from '@takt/domain';
import { loadDowntimeFacts, loadRollupSources } from './sources';
import type { CompanyDb, DowntimeFacts } from './sources';

/**
 * Decision 1188: the downtime report's figures of each bucket, from its periods (domain figurePeriodsOf) as the
 * report lists them: the pieces of the facts, whole, and the No data over their whole extent (a span crossing the
 * range's start keeps its own start: a period is counted by its start), judged at `now`. The recompute stores
 * them; the report computes its edges with them (decision 1193).
 */
export async function downtimeFigures(
  of: CompanyDb,
  at: {
    machineId: string;
    range: { start: number; end: number };
    now: number;
    calendar: CompanyCalendar;
    buckets: readonly Bucket[];
  },
  facts: DowntimeFacts,
  pieces: ReadonlyMap<string, ReadonlyArray<DowntimePiece<Annotation>>>,
  source: RollupSource,
): Promise<DowntimeFigures[]> {
  const { machineId, range, now, calendar, buckets } = at;
  const first = pieces.get(machineId)?.[0]?.start ?? range.start;
  const from = Math.min(first, range.start);
  const wide =
    from < range.start
      ? (
          await loadRollupSources(
            of,
            [machineId],
            { start: from, end: range.end },
            {
              now,
              facts,
              pieces,
              downtimeOnly: true,
              life: new Map(source.monitoredFrom == null ? [] : [[machineId, source.monitoredFrom]]),
            },
          )
        ).get(machineId)!
      : source;
  const noData = noDataSpans(wide, from, range.end);
  const periods = figurePeriodsOf(pieces.get(machineId) ?? [], facts.types, noData, now);
  const shiftAt = (t: number) =>
    rollupBuckets(calendar, { start: epochMs(t), end: epochMs(t + 1) })[0]?.shiftId ?? null;
  return downtimeBucketFigures(periods, buckets, shiftAt);
}

/** One machine's figures over a span the report computes from the states (decision 1193). */
export interface EdgeFigures {
  /** The span's buckets' figures (its cut buckets: the span need not start or end on a bucket edge). */
  rows: DowntimeFigures[];
  /** Each row's shift (null: outside shift time), as the stored rows' shift_id. */
  shiftIds: Array<string | null>;
  /**
   * A downtime judged on its duration (a `plannedWithLimit` reason) reaches into the span from before it: the
   * stored rows before the span may have judged it on a shorter duration (open when they were computed).
   */
  limitedFromBefore: boolean;
}

/**
 * Decision 1193: each machine's figures over `span` (any instants, inside the report's range), built from the
 * states as the recompute builds the stored rows' (downtimeFigures over the span's cut buckets), judged at `now`.
 */
export async function downtimeEdgeFigures(
  of: CompanyDb,
  calendar: CompanyCalendar,
  machineIds: readonly string[],
  span: { start: number; end: number },
  now: number,
): Promise<Map<string, EdgeFigures>> {
  const out = new Map<string, EdgeFigures>();
  if (machineIds.length === 0 || !(span.start < span.end)) return out;
  const facts = await loadDowntimeFacts(of, machineIds, span);
  const intervals = new Map<string, DowntimeFacts['intervals']>();
  for (const r of facts.intervals) {
    const mine = intervals.get(r.machine_id);
    if (mine) mine.push(r);
    else intervals.set(r.machine_id, [r]);
  }
  const annotations = new Map<string, Annotation[]>();
  for (const a of facts.annotations) {
    const mine = annotations.get(a.machineId);
    if (mine) mine.push(a);
    else annotations.set(a.machineId, [a]);
  }
  const pieces = new Map(
    machineIds.map((id) => [
      id,
      piecesOf(
        segmentsOf(
          (intervals.get(id) ?? []).map((r) => ({ start: r.start_at, end: r.end_at, state: r.state })),
        ),
        annotations.get(id) ?? [],
      ),
    ]),
  );
  const sources = await loadRollupSources(of, machineIds, span, {
    now,
    facts,
    pieces,
    downtimeOnly: true,
  });
  const buckets = rollupBuckets(calendar, { start: epochMs(span.start), end: epochMs(span.end) });
  for (const id of machineIds) {
    const limitedFromBefore = (pieces.get(id) ?? []).some((p) => {
      const type = p.annotation?.category_id ? facts.types.get(p.annotation.category_id) : undefined;
      return p.start < span.start && type?.plannedBehavior === 'plannedWithLimit';
    });
    const rows = await downtimeFigures(
      of,
      { machineId: id, range: span, now, calendar, buckets },
      facts,
      pieces,
      sources.get(id)!,
    );
    out.set(id, { rows, shiftIds: buckets.map((b) => b.shiftId), limitedFromBefore });
  }
  return out;
}
