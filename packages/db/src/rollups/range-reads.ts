import type { Kysely } from 'kysely';
import { PostgresAdapter, sql } from 'kysely';
import type { Annotation, AnnotationType } from '@takt/domain';
import type { Database, FlagSpansTable } from '../schema';
import { toAnnotation, toAnnotationType } from '../rows';
import { firstStoredAt } from '../observation-packs';
import { annotationsIn } from './annotation-reads';
import {
  activeEdges,
  activeEdgesAround,
  firstManualCount,
  firstStateStart,
  stateRowsIn,
} from './state-reads';
import type { StateRowOf } from './state-reads';

export type { StateRowOf } from './state-reads';

// Range reads of a machine's stored facts: where its monitored life starts, its flag spans' and state rows'
// bounds, and the downtime facts around a range (what sources.ts assembles into a RollupSource).

/**
 * Where each machine's monitored life starts (METRICS.md §1, decision 1010): its first stored observation,
 * its first state interval (the deriver starts there) or, for a manual work center, its first manual count;
 * absent: not monitored yet. One index lookup per machine and fact (min over (machine_id, time) indexes). Raw
 * retention (decision 1132) removes the first observations, never the state intervals derived from them.
 */
export async function loadMonitoredFrom(
  db: Kysely<Database>,
  machineIds: readonly string[],
): Promise<Map<string, number>> {
  const out = new Map<string, number>();
  if (machineIds.length === 0) return out;
  const rows = await db
    .selectFrom('machines as m')
    .where('m.id', 'in', [...machineIds])
    .select([
      'm.id',
      // The first stored row of each dictionary id of the machine under its company (decision 1130: the same id under
      // another company is another machine): one key lookup each, where min() through the observations view would
      // read every row of the machine. On PostgreSQL its first pack too (decision 1184).
      sql<number | null>`(select min(${firstStoredAt(db, sql.ref('om.id'))})
        from observation_machines om
        where om.machine_id = ${sql.ref('m.id')} and om.company_id = ${sql.ref('m.company_id')})`.as(
        'observed',
      ),
      // The first state row, one key step (decision 1180), where min() through the state_intervals view would read them all.
      firstStateStart(sql.ref('m.id'), sql.ref('m.company_id')).as('derived'),
      firstManualCount(sql.ref('m.id'), sql.ref('m.company_id')).as('counted'),
    ])
    .execute();
  for (const r of rows) {
    const times = [r.observed, r.derived, r.counted].filter((t) => t != null).map(Number);
    if (times.length > 0) out.set(r.id, Math.min(...times));
  }
  return out;
}

export const chunksOf = (ids: readonly string[], size: number): string[][] => {
  const chunks: string[][] = [];
  for (let i = 0; i < ids.length; i += size) chunks.push(ids.slice(i, i + size));
  return chunks;
};

/** The kinds of flag span, each its own series of rows that never overlap. */
export const FLAG_KINDS: ReadonlyArray<FlagSpansTable['kind']> = ['spindle', 'incut'];

/**
 * The machines' spindle and in-cut spans reaching into [range.start, range.end), ordered by start. Read from the
 * tables the flag_spans view is made of (decision 1171): each machine's closed spans of a kind from the last one
 * starting at or before the range (decision 1076: a bound on the (m, kind, start_at) key, the max() one key step),
 * and its open ones. Through the view, the max() over a union of joins read every span of the machine before the range.
 */
export const loadFlagSpans = (
  db: Kysely<Database>,
  machineIds: readonly string[],
  range: { start: number; end: number },
  companyId?: string,
) => flagSpansQuery(db, machineIds, range, companyId).execute();

/** loadFlagSpans' query (bench/explain-flag-spans.ts shows its plans): of `companyId`'s machines only, when set. */
export const flagSpansQuery = (
  db: Kysely<Database>,
  machineIds: readonly string[],
  range: { start: number; end: number },
  companyId?: string,
) => {
  const ids = [...machineIds];
  // Where a machine's closed spans of a kind reaching into the range start (decision 1076), `om` its dictionary row.
  const since = (kind: FlagSpansTable['kind']) =>
    sql<number>`coalesce((select max(l.start_at) from flag_rows as l where l.m = ${sql.ref('om.id')} and l.kind = ${kind} and l.start_at <= ${range.start}), ${range.start})`;
  if (isPostgres(db))
    // Each machine's spans a lateral sub-select kept apart (`offset 0`): joined plainly, the planner guessed the
    // range's spans few and scanned every machine's spans for them.
    return db
      .selectFrom('observation_machines as om')
      .where('om.machine_id', 'in', ids)
      .$if(companyId !== undefined, (q) => q.where('om.company_id', '=', companyId!))
      .innerJoinLateral(
        (eb) =>
          FLAG_KINDS.map((kind) =>
            eb
              .selectFrom('flag_rows as f')
              .whereRef('f.m', '=', 'om.id')
              .where('f.kind', '=', kind)
              .where('f.start_at', '>=', since(kind))
              .where('f.start_at', '<', range.end)
              .where('f.end_at', '>', range.start)
              .select(['f.kind', 'f.start_at', 'f.end_at']),
          )
            .reduce(
              (q, c) => q.unionAll(c),
              eb
                .selectFrom('flag_open as o')
                .whereRef('o.m', '=', 'om.id')
                .where('o.start_at', '<', range.end)
                .select(['o.kind', 'o.start_at', sql<number | null>`null`.as('end_at')]),
            )
            .offset(0)
            .as('r'),
        (j) => j.onTrue(),
      )
      .select(['om.machine_id', 'r.kind', 'r.start_at', 'r.end_at'])
      .orderBy('r.start_at');
  // SQLite (no lateral join): each part joined to the machines, the bound a key step per machine and kind.
  return FLAG_KINDS.map((kind) =>
    db
      .selectFrom('observation_machines as om')
      .innerJoin('flag_rows as f', 'f.m', 'om.id')
      .where('om.machine_id', 'in', ids)
      .$if(companyId !== undefined, (q) => q.where('om.company_id', '=', companyId!))
      .where('f.kind', '=', kind)
      .where('f.start_at', '>=', since(kind))
      .where('f.start_at', '<', range.end)
      .where('f.end_at', '>', range.start)
      .select(['om.machine_id', 'f.kind', 'f.start_at', 'f.end_at']),
  )
    .reduce(
      (q, c) => q.unionAll(c),
      db
        .selectFrom('observation_machines as om')
        .innerJoin('flag_open as o', 'o.m', 'om.id')
        .where('om.machine_id', 'in', ids)
        .$if(companyId !== undefined, (q) => q.where('om.company_id', '=', companyId!))
        .where('o.start_at', '<', range.end)
        .select(['om.machine_id', 'o.kind', 'o.start_at', sql<number | null>`null`.as('end_at')]),
    )
    .orderBy('start_at');
};

/** Machines per query where each machine has its own bounds (keeps the OR list well under SQL limits). */
export const BOUNDS_CHUNK = 100;

/**
 * Whose facts are read: the database and the company whose machines they are. A machine is its company and id
 * (decision 1130): rows stored under the same machine id by another company are another machine's and never read.
 * A CompanyScope is one.
 */
export interface CompanyDb {
  readonly db: Kysely<Database>;
  readonly companyId: string;
}

/** What decides which annotation covers which downtime of the machines around a range. */
export interface DowntimeFacts {
  /** State rows over each machine's wider bounds (whole downtime periods at both ends of the range). */
  intervals: StateRowOf[];
  /** Annotations over the same bounds (an open one from before them belongs to an earlier period). */
  annotations: Annotation[];
  /** The annotation types (downtime reasons) those annotations name. */
  types: Map<string, AnnotationType>;
}

/**
 * The facts that split the machines' downtime around [range.start, range.end) into periods and pieces, read
 * as GET /api/downtime reads them (services/downtime.ts downtimePieces): a period crossing range.start began
 * where the last ACTIVE before it ended, one crossing range.end ends where the next ACTIVE begins. A fixed
 * number of queries whatever the number of machines. Only `of.companyId`'s rows: its machines' states and annotations.
 */
export async function loadDowntimeFacts(
  of: CompanyDb,
  machineIds: readonly string[],
  range: { start: number; end: number } | ReadonlyMap<string, { start: number; end: number }>,
): Promise<DowntimeFacts> {
  const { db, companyId } = of;
  const ids = [...machineIds];
  if (ids.length === 0) return { intervals: [], annotations: [], types: new Map() };
  // Decision 1198: each machine around its own range (a map), in the same number of queries.
  const rangeOf = (id: string) => ('start' in range ? range : range.get(id)!);
  // The last ACTIVE before the range and the first after it, one (m, start_at) key step per machine (decisions 1076,
  // 1180): a machine's state rows never overlap, so the last to end is the last to start. A max() over the machine's
  // rows read its whole history at every tile push.
  const edges =
    'start' in range
      ? await activeEdges(db, ids, range.start, range.end, companyId)
      : await activeEdgesAround(
          db,
          ids.map((machineId) => ({
            machineId,
            before: rangeOf(machineId).start,
            after: rangeOf(machineId).end,
          })),
          companyId,
        );
  const bounds = new Map(
    ids.map((id) => [
      id,
      {
        from: Math.min(edges.get(id)?.runStart ?? Number.MIN_SAFE_INTEGER, rangeOf(id).start),
        to: Math.max((edges.get(id)?.runEnd ?? Number.MAX_SAFE_INTEGER - 1) + 1, rangeOf(id).end),
      },
    ]),
  );
  const chunks = chunksOf(ids, BOUNDS_CHUNK).map((chunk) =>
    chunk.map((machineId) => ({ machineId, ...bounds.get(machineId)! })),
  );
  // One query a chunk of machines for each, each machine read over its own bounds.
  const [intervals, annotationRows] = await Promise.all([
    Promise.all(chunks.map((chunk) => stateRowsIn(db, chunk, companyId))).then((parts) => parts.flat()),
    Promise.all(chunks.map((chunk) => annotationsIn(db, chunk, companyId))).then((parts) => parts.flat()),
  ]);
  const typeIds = [
    ...new Set(annotationRows.flatMap((r) => (r.annotation_type_id ? [r.annotation_type_id] : []))),
  ];
  const typeRows =
    typeIds.length === 0
      ? []
      : await db.selectFrom('annotation_types').selectAll().where('id', 'in', typeIds).execute();
  return {
    intervals,
    annotations: annotationRows.map(toAnnotation),
    types: new Map(typeRows.map((r) => [r.id, toAnnotationType(r)])),
  };
}

/** Whether `db` is a PostgreSQL handle. */
export const isPostgres = (db: Kysely<Database>) => db.getExecutor().adapter instanceof PostgresAdapter;
