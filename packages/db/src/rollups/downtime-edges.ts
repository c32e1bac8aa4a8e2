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
 * Decision 1193: each machine's figures over `span` (any instants, inside the report's range), built from the
 * states as the recompute builds the stored rows' (downtimeFigures over the span's cut buckets), judged at `now`.
 * Decision 1198: a fixed number of reads whatever the number of machines: the facts once, and one No data source
 * for all of them from the earliest start any needs (the first downtime piece of a machine may begin before the
 * span); each machine's No data is taken from its own start (noDataSpans reads a source only from the `from` it is
 * given: where the source was clipped before that changes nothing, the test of decision 1198 shows it). `keep`
 * (awaited after the reads): the machines whose figures are wanted; the others, and a machine with a downtime judged
 * on its duration reaching in from before the span (`limitedFromBefore`, answered from the states by the caller),
 * get no rows computed.
 */
export async function downtimeEdgeFigures(
  of: CompanyDb,
  calendar: CompanyCalendar,
  machineIds: readonly string[],
  /** One span for all machines, or each machine's own (decision 1198: read in the same queries). */
  spans: { start: number; end: number } | ReadonlyMap<string, { start: number; end: number }>,
  now: number,
  keep?: Promise<(id: string) => boolean>,
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
    loadRollupSources(of, ids, wide, { now, facts, pieces, downtimeOnly: true }),
    keep ?? ((_id: string) => true),
  ]);
  // The buckets of each distinct span (the tails of machines whose rows stop at the same bucket share them).
  const bucketsOf = new Map<string, Bucket[]>();
  for (const id of ids) {
    const span = spanOf(id);
    const key = `${span.start}:${span.end}`;
    let buckets = bucketsOf.get(key);
    if (!buckets) {
      buckets = rollupBuckets(calendar, { start: epochMs(span.start), end: epochMs(span.end) });
      bucketsOf.set(key, buckets);
    }
    const mine = pieces.get(id) ?? [];
    const limitedFromBefore = mine.some((p) => {
      const type = p.annotation?.category_id ? facts.types.get(p.annotation.category_id) : undefined;
      return p.start < span.start && type?.plannedBehavior === 'plannedWithLimit';
    });
    const rows =
      limitedFromBefore || !wanted(id)
        ? []
        : figuresOfPeriods(
            figurePeriodsOf(mine, facts.types, noDataSpans(sources.get(id)!, fromOf(id), span.end), now),
            calendar,
            buckets,
          );
    out.set(id, { rows, shiftIds: buckets.map((b) => b.shiftId), limitedFromBefore });
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
