import {
  checkRange,
  cutAtNoData,
  downtimeListItems,
  epochMs,
  HOUR_MS,
  NO_DATA_REASON,
  NO_DATA_REASON_NAME,
  noDataSpans,
  piecePlannedValue,
  piecesOf,
  segmentsOf,
  SETUP_REASON_NAME,
  UNCATEGORIZED_REASON,
} from '@takt/domain';
import type {
  Annotation,
  AnnotationType,
  DowntimePeriod,
  DowntimePiece as DomainDowntimePiece,
  TimeSpan,
} from '@takt/domain';
import { loadDowntimeFacts, loadRollupSources } from '@takt/db/rollups';
import type { DowntimeFacts } from '@takt/db/rollups';
import { downtimeListFilterMs, listAnnotations } from '../repositories/annotations';
import { getAnnotationTypes } from '../repositories/annotation-types';
import type { Machine } from '../repositories/machines';
import { companyClock } from '../repositories/shifts';
import { activeEdgesAround, listStateIntervals, toStateInterval } from '../repositories/state-intervals';
import type { ServiceCtx } from './context';
import { invalid, machineOr404 } from './issues';
import { groupBy } from './report-facts';

// Downtime periods (live-operations §2 downtime underlay and list, §4 downtime, §7 GET /api/downtime): the
// machine's downtime split by the annotations that categorize it. Service functions never read the clock:
// ctx.at is when the fact happened, ctx.now the server time.

/** live-operations §7/§9: the workcenter downtime query looks 24 hours back. */
export const DOWNTIME_WINDOW_MS = 24 * HOUR_MS;

// ---------------------------------------------------------------------------------------------------------
// The period engine (pure, packages/domain derive/downtime-pieces.ts): METRICS.md §1 downtime periods split
// by annotations. The rollups use the same engine, so the list and OEE agree on every period.

export type DowntimePiece = DomainDowntimePiece<Annotation>;

// ---------------------------------------------------------------------------------------------------------
// Reading periods

/** The machine's downtime pieces overlapping [from, to), with the real starts and ends of the runs. */
export async function downtimePieces(
  ctx: ServiceCtx,
  machineId: string,
  from: number,
  to: number,
): Promise<DowntimePiece[]> {
  // A run crossing `from` began where the last ACTIVE interval before it ended; one crossing `to` ends
  // where the next ACTIVE interval begins.
  const { runStart, runEnd } = await activeEdgesAround(ctx.scope, machineId, from, to);
  const loadFrom = runStart ?? Number.MIN_SAFE_INTEGER;
  const loadTo = (runEnd ?? Number.MAX_SAFE_INTEGER - 1) + 1;
  const [intervals, annotations] = await Promise.all([
    listStateIntervals(ctx.scope, machineId, loadFrom, loadTo),
    listAnnotations(ctx.scope, machineId, loadFrom, loadTo),
  ]);
  return piecesOf(segmentsOf(intervals), annotations).filter(
    (p) => p.start < to && (p.end === null || p.end > from),
  );
}

export type DowntimeItem = Omit<DowntimePeriod, 'annotationType'> & {
  annotationType: Pick<AnnotationType, 'id' | 'name' | 'color' | 'plannedBehavior' | 'plannedLimitMs'> | null;
  /** The covering annotation (null when no annotation covers the period). */
  annotation: Annotation | null;
  /** Categorized periods cannot be selected for "Categorize Multiple" (live-operations §4). */
  selectable: boolean;
  /** At or below the company's downtime_list_filter_duration. */
  short: boolean;
};

/**
 * The downtime report's reason filter (reports-admin §7 categoryId): an annotation type id, or
 * 'uncategorized' for the periods without an annotation type (decision 0812); undefined: every period.
 */
export function matchesDowntimeCategory(
  type: Pick<AnnotationType, 'id'> | null,
  categoryId: string | undefined,
): boolean {
  if (categoryId === undefined) return true;
  if (categoryId === UNCATEGORIZED_REASON) return type === null;
  return type?.id === categoryId;
}

/** A period's annotation type as the downtime list and report give it (null: uncategorized or No data). */
export function typeOfItem(type: AnnotationType | null): DowntimeItem['annotationType'] {
  return type
    ? {
        id: type.id,
        name: type.name,
        color: type.color,
        plannedBehavior: type.plannedBehavior,
        plannedLimitMs: type.plannedLimitMs,
      }
    : null;
}

export interface DowntimeQuery {
  machineId: string;
  /** Default: 24 hours before ctx.now. */
  start?: number;
  /** Default: ctx.now. */
  end?: number;
  /** false: one item per reason with count and total duration. */
  instances?: boolean;
  /** true: clip periods to [start, end]. */
  pinToBounds?: boolean;
  showShort?: boolean;
  showCategorized?: boolean;
  onlyUncategorized?: boolean;
  onlyLong?: boolean;
}

/**
 * GET /api/downtime: the machine's downtime periods, split and categorized by annotations, without setup
 * (live-operations §5), oldest first. The live period has end null and lasts until ctx.now.
 */
export async function listDowntime(
  ctx: ServiceCtx,
  q: DowntimeQuery,
): Promise<{ items: DowntimeItem[]; start: number; end: number }> {
  const machine = await machineOr404(ctx, q.machineId);
  const end = q.end ?? ctx.now;
  const start = q.start ?? end - DOWNTIME_WINDOW_MS;
  if (!(start < end)) {
    throw invalid('Start Date must be before End Date', [
      { field: 'end', code: 'range', message: 'Start Date must be before End Date' },
    ]);
  }
  // live-operations §5/§9 "downtime 31 days", on the company's wall clock like every other range, so a
  // month with a clock change is still 31 days (domain checkRange, the same text everywhere).
  const check = checkRange(
    await companyClock(ctx.scope),
    { start: epochMs(start), end: epochMs(end) },
    'downtime',
  );
  if (!check.ok)
    throw invalid(check.message, [{ field: 'start', code: check.error, message: check.message }]);
  return { items: await downtimeItems(ctx, machine, { ...q, start, end }), start, end };
}

/**
 * The machine's No data spans (domain noDataSpans, what the rollups and the downtime report count) over the
 * pieces' whole extent, up to now.
 */
async function noDataOf(
  ctx: ServiceCtx,
  machineId: string,
  pieces: readonly DowntimePiece[],
): Promise<TimeSpan[]> {
  const open = pieces.filter((p) => !p.setup && !(p.annotation?.category_id ?? null));
  if (open.length === 0) return [];
  const from = Math.min(...open.map((p) => p.start));
  const to = Math.min(ctx.now, Math.max(...open.map((p) => p.end ?? ctx.now)));
  if (!(from < to)) return [];
  const sources = await loadRollupSources(
    ctx.scope,
    [machineId],
    { start: from, end: to },
    { now: ctx.now, downtimeOnly: true },
  );
  const source = sources.get(machineId);
  return source ? noDataSpans(source, from, to) : [];
}

/** What downtimeItems and downtimeItemsOfMachines take besides the machine(s). */
type ItemsQuery = Omit<DowntimeQuery, 'machineId' | 'start' | 'end'> & { start: number; end: number };

/**
 * A machine's downtime items over [start, end) as GET /api/downtime lists them (the range already checked by
 * the caller; the company downtime report checks its own on the wall clock).
 */
export async function downtimeItems(
  ctx: ServiceCtx,
  machine: Machine,
  q: ItemsQuery & {
    /** The machine's No data spans over at least [start, min(end, now)), when the caller has them. */
    noData?: readonly TimeSpan[];
  },
): Promise<DowntimeItem[]> {
  const filterDurationMs = await downtimeListFilterMs(ctx.scope);
  const pieces = await downtimePieces(ctx, machine.id, q.start, q.end);
  const noData = q.noData ?? (await noDataOf(ctx, machine.id, pieces));
  const types = await getAnnotationTypes(
    ctx.scope,
    pieces.flatMap((p) => (p.annotation?.category_id ? [p.annotation.category_id] : [])),
  );
  return itemsOfPieces(ctx, machine, pieces, { noData, types, filterDurationMs }, q);
}

/**
 * downtimeItems of many machines at once (the company downtime report, decision 1147): the state rows,
 * annotations and reasons of every machine in a fixed number of queries (loadDowntimeFacts, the reads the
 * rollups split downtime with, GET /api/downtime's bounds: the last ACTIVE before the range, the first after
 * it), then each machine's items exactly as downtimeItems builds them. `noData`: each machine's No data spans
 * over at least [start, min(end, now)).
 */
export async function downtimeItemsOfMachines(
  ctx: ServiceCtx,
  machines: readonly Machine[],
  q: ItemsQuery & {
    noData: ReadonlyMap<string, readonly TimeSpan[]>;
    facts?: DowntimeFacts;
    /** piecesOfFacts of `facts`, when the caller has split them already. */
    pieces?: ReadonlyMap<string, DowntimePiece[]>;
  },
): Promise<Map<string, DowntimeItem[]>> {
  const ids = machines.map((m) => m.id);
  const [filterDurationMs, facts] = await Promise.all([
    downtimeListFilterMs(ctx.scope),
    q.facts ?? loadDowntimeFacts(ctx.scope, ids, { start: q.start, end: q.end }),
  ]);
  const split = q.facts && q.pieces ? q.pieces : piecesOfFacts(ids, facts);
  const out = new Map<string, DowntimeItem[]>();
  for (const m of machines) {
    const pieces = (split.get(m.id) ?? []).filter(
      (p) => p.start < q.end && (p.end === null || p.end > q.start),
    );
    const noData = q.noData.get(m.id) ?? [];
    out.set(m.id, itemsOfPieces(ctx, m, pieces, { noData, types: facts.types, filterDurationMs }, q));
  }
  return out;
}

/**
 * Each machine's downtime pieces of the facts (whole periods over its bounds, not clipped to a range): what
 * downtimeItemsOfMachines lists and what the rollup mapping's covered downtime is cut from (loadRollupSources
 * `pieces`), split once for both (decision 1172).
 */
export function piecesOfFacts(ids: readonly string[], facts: DowntimeFacts): Map<string, DowntimePiece[]> {
  const intervals = groupBy(facts.intervals, (r) => r.machine_id);
  const annotations = groupBy(facts.annotations, (a) => a.machineId);
  return new Map(
    ids.map((id) => [
      id,
      piecesOf(segmentsOf((intervals.get(id) ?? []).map(toStateInterval)), annotations.get(id) ?? []),
    ]),
  );
}

/** The items of a machine's pieces (pure: what downtimeItems lists once the facts are read). */
function itemsOfPieces(
  ctx: ServiceCtx,
  machine: Machine,
  pieces: readonly DowntimePiece[],
  read: {
    noData: readonly TimeSpan[];
    types: ReadonlyMap<string, AnnotationType>;
    filterDurationMs: number;
  },
  q: ItemsQuery,
): DowntimeItem[] {
  const { start, end } = q;
  const { noData, types, filterDurationMs } = read;
  const periods = pieces.flatMap((p) => {
    const type = p.annotation?.category_id ? (types.get(p.annotation.category_id) ?? null) : null;
    // METRICS.md §5 on the period's actual duration (the rollups judge it the same way).
    const planned = p.annotation && type ? piecePlannedValue(type, p.annotation, p, ctx.now).planned : null;
    const isEndSet = p.annotation?.end != null && p.annotation.end === p.end;
    // Decision 1060: an uncategorized period is cut at its No data spans, each piece listed on its own.
    const cuts =
      p.setup || type
        ? [{ start: p.start, end: p.end ?? ctx.now, noData: false }]
        : cutAtNoData(p.start, p.end ?? ctx.now, noData);
    return cuts.flatMap((c, i): DowntimeItem[] => {
      const last = i === cuts.length - 1;
      const cutEnd = last ? p.end : c.end;
      const pinnedStart = q.pinToBounds ? Math.max(c.start, start) : c.start;
      const pinnedEnd = q.pinToBounds && cutEnd !== null ? Math.min(cutEnd, end) : cutEnd;
      // A piece of a period wholly outside the asked range is not listed.
      if (!(c.start < end && (cutEnd === null || cutEnd > start))) return [];
      return [
        {
          start: pinnedStart,
          end: pinnedEnd,
          duration: (pinnedEnd ?? ctx.now) - pinnedStart,
          isEndSet: last && isEndSet,
          machine: machine.name,
          machineId: machine.id,
          reason: p.setup ? SETUP_REASON_NAME : c.noData ? NO_DATA_REASON_NAME : (type?.name ?? null),
          color: p.setup ? null : (type?.color ?? null),
          message: p.annotation?.message ?? null,
          planned,
          annotationType: typeOfItem(type),
          count: 1,
          setup: p.setup,
          selected: false,
          annotation: p.annotation,
          selectable: false,
          short: false,
          noData: c.noData,
        },
      ];
    });
  });
  const listed = downtimeListItems(periods, ctx.now, {
    filterDurationMs,
    showShort: q.showShort ?? true,
    showCategorized: q.showCategorized ?? true,
    onlyUncategorized: q.onlyUncategorized,
    onlyLong: q.onlyLong,
  }).map((li) => {
    // The items are this call's own objects: set in place rather than copied (decision 1178).
    li.period.selectable = li.selectable;
    li.period.short = li.durationMs <= filterDurationMs;
    return li.period;
  });
  if (q.instances !== false) return listed;

  // instances=false: one row per reason (uncategorized together, No data together), with the count and
  // total duration.
  const byReason = new Map<string, DowntimeItem>();
  for (const it of listed) {
    const key = it.annotationType?.id ?? (it.noData ? NO_DATA_REASON : '');
    const acc = byReason.get(key);
    if (!acc) {
      byReason.set(key, { ...it, annotation: null, message: null, count: 1 });
      continue;
    }
    acc.count += 1;
    acc.duration += it.duration;
    acc.start = Math.min(acc.start, it.start);
    acc.end = acc.end === null || it.end === null ? null : Math.max(acc.end, it.end);
  }
  return [...byReason.values()];
}
