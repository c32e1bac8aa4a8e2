import type { Expression, ExpressionBuilder, Kysely, SqlBool } from 'kysely';
import { PostgresAdapter, sql } from 'kysely';
import type { Annotation, AnnotationType } from '@takt/domain';
import type { Database, FlagSpansTable } from '../schema';
import { toAnnotation, toAnnotationType } from '../rows';

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
    .select((eb) => [
      'm.id',
      // The first stored row of each dictionary id of the machine (decision 1130): one key lookup each, where min()
      // through the observations view would read every row of the machine.
      sql<
        number | null
      >`(select min((select r.ts from observation_rows r where r.m = om.id order by r.ts limit 1))
        from observation_machines om where om.machine_id = ${sql.ref('m.id')})`.as('observed'),
      eb
        .selectFrom('state_intervals as s')
        .whereRef('s.machine_id', '=', 'm.id')
        .select((e) => e.fn.min<number>('s.start_at').as('t'))
        .as('derived'),
      eb
        .selectFrom('part_adjustments as p')
        .whereRef('p.machine_id', '=', 'm.id')
        .where('p.kind', '=', 'manual')
        .select((e) => e.fn.min<number>('p.adjustment_time').as('t'))
        .as('counted'),
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
 * Where a machine's rows reaching into a range from `from` on start (decision 1076): at the last row that
 * starts at or before `from` (of one `kind` of flag span), as rows of one machine (and kind) never overlap;
 * `from` when none does. A bound on the (machine_id[, kind], start_at) key, so a range near now reads the
 * rows near now instead of the machine's whole history before it.
 */
export const sinceLastStart = (
  table: 'state_intervals' | 'flag_spans',
  machineId: string,
  kind: FlagSpansTable['kind'] | null,
  from: number,
) =>
  sql<number>`coalesce((select max(l.start_at) from ${sql.table(table)} as l where l.machine_id = ${machineId}${
    kind === null ? sql`` : sql` and l.kind = ${kind}`
  } and l.start_at <= ${from}), ${from})`;

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
) => flagSpansQuery(db, machineIds, range).execute();

/** loadFlagSpans' query (bench/explain-flag-spans.ts shows its plans). */
export const flagSpansQuery = (
  db: Kysely<Database>,
  machineIds: readonly string[],
  range: { start: number; end: number },
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
        .where('o.start_at', '<', range.end)
        .select(['om.machine_id', 'o.kind', 'o.start_at', sql<number | null>`null`.as('end_at')]),
    )
    .orderBy('start_at');
};

/** Machines per query where each machine has its own bounds (keeps the OR list well under SQL limits). */
export const BOUNDS_CHUNK = 100;

/** A stored state row of one machine. */
export interface StateRowOf {
  machine_id: string;
  start_at: number;
  end_at: number | null;
  state: string;
  reason: string | null;
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
 * number of queries whatever the number of machines.
 */
export async function loadDowntimeFacts(
  db: Kysely<Database>,
  machineIds: readonly string[],
  range: { start: number; end: number },
): Promise<DowntimeFacts> {
  const ids = [...machineIds];
  if (ids.length === 0) return { intervals: [], annotations: [], types: new Map() };
  // The last ACTIVE before the range and the first after it, one (machine_id, start_at) index step per machine
  // (decision 1076): a machine's state rows never overlap, so the last to end is the last to start. A max()
  // over the machine's rows read its whole history at every tile push.
  const activeRow = (eb: ExpressionBuilder<Database, 'machines'>) =>
    eb
      .selectFrom('state_intervals as s')
      .whereRef('s.machine_id', '=', 'machines.id')
      .where('s.state', '=', 'ACTIVE');
  const runBounds = await db
    .selectFrom('machines')
    .where('machines.id', 'in', ids)
    .select((eb) => [
      'machines.id',
      activeRow(eb)
        .select('s.end_at')
        .where('s.start_at', '<=', range.start)
        .where('s.end_at', '<=', range.start)
        .orderBy('s.start_at', 'desc')
        .limit(1)
        .as('run_start'),
      activeRow(eb)
        .select('s.start_at')
        .where('s.start_at', '>=', range.end)
        .orderBy('s.start_at')
        .limit(1)
        .as('run_end'),
    ])
    .execute();
  const startOf = new Map(
    runBounds.flatMap((r) => (r.run_start == null ? [] : [[r.id, Number(r.run_start)]])),
  );
  const endOf = new Map(runBounds.flatMap((r) => (r.run_end == null ? [] : [[r.id, Number(r.run_end)]])));
  const bounds = new Map(
    ids.map((id) => [
      id,
      {
        from: Math.min(startOf.get(id) ?? Number.MIN_SAFE_INTEGER, range.start),
        to: Math.max((endOf.get(id) ?? Number.MAX_SAFE_INTEGER - 1) + 1, range.end),
      },
    ]),
  );
  const chunks = chunksOf(ids, BOUNDS_CHUNK);
  // One query a chunk of machines, each read over its own bounds: rows that start before the bounds end and
  // reach back into them (`reaches`).
  const inBounds = <T extends 'state_intervals' | 'annotations'>(
    eb: ExpressionBuilder<Database, T>,
    chunk: readonly string[],
    reaches: (b: { from: number; to: number }, id: string) => Expression<SqlBool>,
  ) =>
    eb.or(
      chunk.map((id) => {
        const b = bounds.get(id)!;
        return eb.and([
          eb(sql.ref('machine_id'), '=', id),
          eb(sql.ref('start_at'), '<', b.to),
          reaches(b, id),
        ]);
      }),
    );
  const [intervals, annotationRows] = await Promise.all([
    Promise.all(
      chunks.map((chunk) =>
        isPostgres(db)
          ? stateRowsByList(db, chunk, bounds)
          : db
              .selectFrom('state_intervals')
              .select(['machine_id', 'start_at', 'end_at', 'state', 'reason'])
              .where((eb) =>
                inBounds(eb, chunk, (b, id) =>
                  eb.and([
                    eb('start_at', '>=', sinceLastStart('state_intervals', id, null, b.from)),
                    eb.or([eb('end_at', 'is', null), eb('end_at', '>', b.from)]),
                  ]),
                ),
              )
              .orderBy('start_at')
              .execute(),
      ),
    ).then((parts) => parts.flat()),
    Promise.all(
      chunks.map((chunk) =>
        db
          .selectFrom('annotations')
          .selectAll()
          .where((eb) =>
            inBounds(eb, chunk, (b) =>
              eb.or([
                eb.and([eb('end_at', 'is', null), eb('start_at', '>=', b.from)]),
                eb('end_at', '>', b.from),
              ]),
            ),
          )
          .orderBy('start_at')
          .orderBy('created_at')
          .execute(),
      ),
    ).then((parts) => parts.flat()),
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

const isPostgres = (db: Kysely<Database>) => db.getExecutor().adapter instanceof PostgresAdapter;

/**
 * PostgreSQL (decision 1164): the state rows of loadDowntimeFacts' chunk, each machine's bounds a row of three array
 * parameters and its rows read by a lateral sub-select (kept apart with `offset 0`, one index range each); the OR of
 * a hundred terms with a sub-select each cost 10–80 ms to plan alone. Same rows, ordered by start_at.
 */
const stateRowsByList = (
  db: Kysely<Database>,
  chunk: readonly string[],
  bounds: ReadonlyMap<string, { from: number; to: number }>,
) =>
  db
    .selectFrom(
      sql<{ m: string; f: number; t: number }>`(select * from unnest(${[...chunk]}::text[], ${chunk.map(
        (id) => bounds.get(id)!.from,
      )}::bigint[], ${chunk.map((id) => bounds.get(id)!.to)}::bigint[]) as u(m, f, t))`.as('w'),
    )
    .innerJoinLateral(
      (eb) =>
        eb
          .selectFrom('state_intervals as s')
          .select(['s.machine_id', 's.start_at', 's.end_at', 's.state', 's.reason'])
          .whereRef('s.machine_id', '=', 'w.m')
          .whereRef('s.start_at', '<', 'w.t')
          .where(
            's.start_at',
            '>=',
            sql<number>`coalesce((select max(l.start_at) from state_intervals as l where l.machine_id = ${sql.ref(
              'w.m',
            )} and l.start_at <= ${sql.ref('w.f')}), ${sql.ref('w.f')})`,
          )
          .where((e) => e.or([e('s.end_at', 'is', null), e('s.end_at', '>', e.ref('w.f'))]))
          .offset(0)
          .as('r'),
      (j) => j.onTrue(),
    )
    .selectAll('r')
    .orderBy('r.start_at')
    .execute();
