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
  FigurePeriod,
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
  return figuresOfPeriods(
    figurePeriodsOf(pieces.get(machineId) ?? [], facts.types, noData, now),
    calendar,
    buckets,
  );
}

/** The buckets' figures of the periods; a period begun before the first bucket in the shift of its start. */
const figuresOfPeriods = (periods: FigurePeriod[], calendar: CompanyCalendar, buckets: readonly Bucket[]) =>
  downtimeBucketFigures(
    periods,
    buckets,
    (t) => rollupBuckets(calendar, { start: epochMs(t), end: epochMs(t + 1) })[0]?.shiftId ?? null,
  );

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
 * Decision 1193: each machine's figures over its span (any instants, inside the report's range; one for all, or each
 * machine's own), built from the states as the recompute builds the stored rows' (the span's cut buckets), judged at
 * `now`. Decision 1198: a fixed number of reads whatever the number of machines and of their spans: the facts once
 * (each machine around its own span), and one No data source for all of them from the earliest start any needs (a
 * machine's first downtime piece may begin before its span); each machine's No data is taken from its own start
 * (noDataSpans reads a source from the `from` it is given on: loaded from any earlier start it gives the same spans,
 * downtime-edges.test.ts). `keep` (awaited after the reads): whether a machine's figures are wanted, given whether a
 * downtime judged on its duration reaches into its span from before it (`limitedFromBefore`: at a tail the caller
 * answers such a machine from the states; at the range's start it is the report's own); the others get no rows.
 * `life`: loadMonitoredFrom of the machines when the caller has read it (decision 1256: a report instant's).
 */
export async function downtimeEdgeFigures(
  of: CompanyDb,
  calendar: CompanyCalendar,
  machineIds: readonly string[],
  /** One span for all machines, or each machine's own (decision 1198: read in the same queries). */
  spans: { start: number; end: number } | ReadonlyMap<string, { start: number; end: number }>,
  now: number,
  keep?: Promise<(id: string, limitedFromBefore: boolean) => boolean>,
  life?: ReadonlyMap<string, number>,
): Promise<Map<string, EdgeFigures>> {
  const out = new Map<string, EdgeFigures>();
  const spanOf = (id: string) => ('start' in spans ? spans : spans.get(id)!);
  const ids = machineIds.filter((id) => spanOf(id).start < spanOf(id).end);
  if (ids.length === 0) return out;
  const facts = await loadDowntimeFacts(of, ids, spans);
  const intervals = groupByMachine(facts.intervals, (r) => r.machine_id);
  const annotations = groupByMachine(facts.annotations, (a) => a.machineId);
  const pieces = new Map(
    ids.map((id) => [
      id,
      piecesOf(
        segmentsOf(
          (intervals.get(id) ?? []).map((r) => ({ start: r.start_at, end: r.end_at, state: r.state })),
        ),
        annotations.get(id) ?? [],
      ),
    ]),
  );
  const fromOf = (id: string) => Math.min(pieces.get(id)?.[0]?.start ?? spanOf(id).start, spanOf(id).start);
  const wide = {
    start: ids.reduce((t, id) => Math.min(t, fromOf(id)), Number.POSITIVE_INFINITY),
    end: ids.reduce((t, id) => Math.max(t, spanOf(id).end), Number.NEGATIVE_INFINITY),
  };
  const [sources, wanted] = await Promise.all([
    loadRollupSources(of, ids, wide, { now, facts, pieces, downtimeOnly: true, ...(life ? { life } : {}) }),
    keep ?? ((_id: string, _limited: boolean) => true),
  ]);
  // The buckets of each distinct span (the tails of machines whose rows stop at the same bucket share them).
  const bucketsOf = new Map<string, { buckets: Bucket[]; shiftIds: Array<string | null> }>();
  for (const id of ids) {
    const span = spanOf(id);
    const key = `${span.start}:${span.end}`;
    let cut = bucketsOf.get(key);
    if (!cut) {
      const buckets = rollupBuckets(calendar, { start: epochMs(span.start), end: epochMs(span.end) });
      cut = { buckets, shiftIds: buckets.map((b) => b.shiftId) };
      bucketsOf.set(key, cut);
    }
    const { buckets, shiftIds } = cut;
    const mine = pieces.get(id) ?? [];
    const limitedFromBefore = mine.some((p) => {
      const type = p.annotation?.category_id ? facts.types.get(p.annotation.category_id) : undefined;
      return p.start < span.start && type?.plannedBehavior === 'plannedWithLimit';
    });
    const rows = !wanted(id, limitedFromBefore)
      ? []
      : figuresOfPeriods(
          figurePeriodsOf(mine, facts.types, noDataSpans(sources.get(id)!, fromOf(id), span.end), now),
          calendar,
          buckets,
        );
    out.set(id, { rows, shiftIds, limitedFromBefore });
  }
  return out;
}

/** Rows grouped by machine, in their read order. */
function groupByMachine<R>(rows: readonly R[], machineOf: (r: R) => string): Map<string, R[]> {
  const out = new Map<string, R[]>();
  for (const r of rows) {
    const mine = out.get(machineOf(r));
    if (mine) mine.push(r);
    else out.set(machineOf(r), [r]);
  }
  return out;
}
