import type { Expression, Kysely, RawBuilder } from 'kysely';
import { PostgresAdapter, sql } from 'kysely';
import { manualUnderivedState } from '@takt/domain';
import type { Database } from '../schema';

// Reads of machine states from the tables the state_intervals view is made of (decision 1180): state_rows (closed,
// keyed (m, start_at)) and state_open (one row a machine), m a machine's observation_machines id. The reads that
// need a bound or an ordered limit read them by m: through the view, a max(), min() or `order by … limit 1` is an
// aggregate over a union of joins, which PostgreSQL answers by reading the machine's whole history.

/** A stored state row of one machine. */
export interface StateRowOf {
  machine_id: string;
  start_at: number;
  end_at: number | null;
  state: string;
  reason: string | null;
}

/** One machine's states wanted: those reaching into [from, to). */
export interface StateBounds {
  machineId: string;
  from: number;
  to: number;
}

const isPostgres = (db: Kysely<Database>) => db.getExecutor().adapter instanceof PostgresAdapter;

/**
 * Where a machine's closed states reaching into a range from `from` on start (decision 1076): at the last one that
 * starts at or before `from` (a machine's states never overlap), one backward key step; `from` when none does.
 */
const sinceLast = (m: Expression<number>, from: Expression<number>) =>
  sql<number>`coalesce((select max(l.start_at) from state_rows as l where l.m = ${m} and l.start_at <= ${from}), ${from})`;

/**
 * The machines' states reaching into their [from, to) (`end_at` null or after `from`, `start_at` before `to`) of
 * `companyId`'s machines (decision 1130: one dictionary id a machine): each machine's states in time order, machine
 * after machine in the order of `bounds`. Each machine's closed states are one range of the (m, start_at) key from the
 * last one starting at or before `from`, read as one flat JSON array a machine (decision 1186: a month of 100 machines is
 * ~210,000 rows, which the drivers built as objects 1.5-2.7 times slower than JSON.parse takes the arrays apart);
 * its open state, which starts after all its closed ones, comes last.
 */
export async function stateRowsIn(
  db: Kysely<Database>,
  bounds: readonly StateBounds[],
  companyId: string,
): Promise<StateRowOf[]> {
  if (bounds.length === 0) return [];
  const out: StateRowOf[] = [];
  for (const r of (await stateRowsQuery(db, bounds, companyId).execute(db)).rows) {
    const machine_id = r.machine_id;
    if (r.closed != null) {
      // Flat: start, end, state, reason, start, … (no array a state).
      const a = JSON.parse(r.closed) as Array<number | string | null>;
      for (let i = 0; i + 3 < a.length; i += 4)
        out.push({
          machine_id,
          start_at: Number(a[i]),
          end_at: Number(a[i + 1]),
          state: a[i + 2] as string,
          reason: a[i + 3] as string | null,
        });
    }
    if (r.open_state != null)
      out.push({
        machine_id,
        start_at: Number(r.open_start),
        end_at: null,
        state: r.open_state,
        reason: r.open_reason,
      });
  }
  // Decision 1207: a machine with a state starting at or before its bounds' start has all its time in them derived
  // (a manual work center's first state is at or before its first count then); only the others are looked up.
  const first = new Map<string, number>();
  for (const r of out) if (!first.has(r.machine_id)) first.set(r.machine_id, r.start_at);
  const unsure = bounds.filter((b) => !((first.get(b.machineId) ?? Infinity) <= b.from));
  if (unsure.length === 0) return out;
  const pending = await manualUnderived(db, unsure, companyId);
  return pending.size === 0 ? out : withUnderived(bounds, out, pending);
}

/**
 * Decision 1207: the manual work centers among `bounds` whose first Add Part is not derived into states yet (domain
 * manualUnderivedState), each with that time as an INACTIVE row when it reaches into the machine's bounds; one
 * statement (the machines' key, manual work centers only), `companyId`'s machines and counts only. Read only for
 * machines without a state from their bounds' start (stateRowsIn), so a read inside every machine's states costs none.
 */
async function manualUnderived(
  db: Kysely<Database>,
  bounds: readonly StateBounds[],
  companyId: string,
): Promise<Map<string, StateRowOf>> {
  const rows = await db
    .selectFrom('machines as m')
    .where('m.company_id', '=', companyId)
    .where('m.id', 'in', [...new Set(bounds.map((b) => b.machineId))])
    .where('m.workcenter_type', '=', 'manual')
    .select([
      'm.id',
      firstManualCount(sql.ref('m.id'), sql.ref('m.company_id')).as('counted'),
      firstStateStart(sql.ref('m.id'), sql.ref('m.company_id')).as('derived'),
    ])
    .execute();
  const out = new Map<string, StateRowOf>();
  const boundsOf = new Map(bounds.map((b) => [b.machineId, b]));
  for (const r of rows) {
    const row = manualUnderivedState(
      r.counted == null ? null : Number(r.counted),
      r.derived == null ? null : Number(r.derived),
    );
    const b = boundsOf.get(r.id);
    if (!row || !b || row.start >= b.to || (row.end !== null && row.end <= b.from)) continue;
    out.set(r.id, { machine_id: r.id, start_at: row.start, end_at: row.end, state: row.state, reason: null });
  }
  return out;
}

/** `rows` (machine after machine in the order of `bounds`) with each pending row first among its machine's. */
function withUnderived(
  bounds: readonly StateBounds[],
  rows: readonly StateRowOf[],
  pending: ReadonlyMap<string, StateRowOf>,
): StateRowOf[] {
  const byMachine = new Map<string, StateRowOf[]>();
  for (const r of rows) {
    const list = byMachine.get(r.machine_id);
    if (list) list.push(r);
    else byMachine.set(r.machine_id, [r]);
  }
  const out: StateRowOf[] = [];
  for (const id of new Set(bounds.map((b) => b.machineId))) {
    const first = pending.get(id);
    if (first) out.push(first);
    out.push(...(byMachine.get(id) ?? []));
  }
  return out;
}

/**
 * stateRowsQuery's row: a machine's closed states, a flat JSON array of start, end, state and reason of each in time
 * order (null when none reaches in), and its open state if it reaches in.
 */
interface PackedStates {
  machine_id: string;
  closed: string | null;
  open_start: number | string | null;
  open_state: string | null;
  open_reason: string | null;
}

/**
 * stateRowsIn's query, `bounds` not empty: a row a machine (a dictionary id of it, `companyId` unset), in the order of
 * `bounds` (bench/explain-state-rows.ts shows its plans).
 */
export const stateRowsQuery = (db: Kysely<Database>, bounds: readonly StateBounds[], companyId?: string) => {
  const company = companyId === undefined ? sql`` : sql` and om.company_id = ${companyId}`;
  const m = sql.ref<number>('om.id');
  const closedOf = (pack: RawBuilder<unknown>) =>
    sql`(select ${pack} from state_rows s
      where s.m = om.id and s.start_at >= ${sinceLast(m, sql.ref('w.f'))} and s.start_at < w.t and s.end_at > w.f)`;
  if (isPostgres(db))
    // Each machine's bounds a row of three array parameters (decision 1164: one index range each, and no plan of a
    // hundred OR terms), its closed states aggregated by a sub-select.
    return sql<PackedStates>`select om.machine_id,
        ${closedOf(
          sql`'[' || string_agg(s.start_at || ',' || s.end_at || ',' || to_json(s.state)::text || ','
            || coalesce(to_json(s.reason)::text, 'null'), ',' order by s.start_at) || ']'`,
        )} as closed,
        o.start_at as open_start, o.state as open_state, o.reason as open_reason
      from unnest(${bounds.map((b) => b.machineId)}::text[], ${bounds.map((b) => b.from)}::bigint[],
        ${bounds.map((b) => b.to)}::bigint[]) with ordinality as w(mid, f, t, n)
      join observation_machines om on om.machine_id = w.mid${company}
      left join state_open o on o.m = om.id and o.start_at < w.t
      order by w.n`;
  // SQLite: the bounds a table of values, each machine's closed states a key range and its open state a key search.
  const w = sql.join(bounds.map((b, n) => sql`(${b.machineId}, ${b.from}, ${b.to}, ${n})`));
  return sql<PackedStates>`with w(mid, f, t, n) as (values ${w})
    select om.machine_id,
      ${closedOf(
        sql`'[' || group_concat(s.start_at || ',' || s.end_at || ',' || json_quote(s.state) || ','
          || json_quote(s.reason), ',' order by s.start_at) || ']'`,
      )} as closed,
      o.start_at as open_start, o.state as open_state, o.reason as open_reason
    from w join observation_machines om on om.machine_id = w.mid${company}
    left join state_open o on o.m = om.id and o.start_at < w.t
    order by w.n`;
};

/**
 * The first start after `t` (`>`, or `>=` when `from` is set) of a state in `states` of the machine whose text id
 * `machineId` names under `companyId` (decision 1130: the same id under another company is another machine), as two
 * expressions: among its closed states (one forward step of the (m, start_at) key from `t`) and its open one. Null
 * where there is none; the earlier of the two is the answer.
 */
export const firstStateFrom = (
  machine: { machineId: Expression<string>; companyId: Expression<string> },
  t: Expression<number>,
  states: readonly string[],
  op: '>' | '>=',
) => {
  const of = sql.join(states.map((s) => sql`${s}`));
  const after = sql.raw(op);
  const sm = sql`observation_machines sm where sm.machine_id = ${machine.machineId}
    and sm.company_id = ${machine.companyId}`;
  return {
    closed: sql<number | null>`(select (select s.start_at from state_rows s where s.m = sm.id
      and s.start_at ${after} ${t} and s.state in (${of}) order by s.start_at limit 1) from ${sm})`,
    open: sql<
      number | null
    >`(select (select o.start_at from state_open o where o.m = sm.id and o.start_at ${after} ${t}
      and o.state in (${of})) from ${sm})`,
  };
};

/** The earlier of two times either of which may be absent (null). */
export const earliest = (a: unknown, b: unknown): number | null => {
  const times = [a, b].filter((x) => x != null).map(Number);
  return times.length === 0 ? null : Math.min(...times);
};

/**
 * Where downtime runs crossing `before` began and crossing `after` end, per machine: the end of its last ACTIVE state
 * ending at or before `before` (one backward key step from it: states never overlap, so the last to end is the last to
 * start), and the start of its first ACTIVE state at or after `after`. Null where there is none; of every company's
 * machine with the id, or of `companyId`'s only.
 */
export async function activeEdges(
  db: Kysely<Database>,
  machineIds: readonly string[],
  before: number,
  after: number,
  companyId?: string,
): Promise<Map<string, { runStart: number | null; runEnd: number | null }>> {
  if (machineIds.length === 0) return new Map();
  return edgesOfRows(await activeEdgesQuery(db, machineIds, before, after, companyId).execute());
}

/** Each machine's edges from its rows (one a dictionary id of it): the latest run start, the earliest run end. */
function edgesOfRows(
  rows: ReadonlyArray<{ machine_id: string; run_start: unknown; closed_end: unknown; open_end: unknown }>,
) {
  const out = new Map<string, { runStart: number | null; runEnd: number | null }>();
  for (const r of rows) {
    const was = out.get(r.machine_id);
    const runStart = r.run_start == null ? null : Number(r.run_start);
    out.set(r.machine_id, {
      runStart:
        was?.runStart == null ? runStart : runStart == null ? was.runStart : Math.max(was.runStart, runStart),
      runEnd: earliest(earliest(r.closed_end, r.open_end), was?.runEnd),
    });
  }
  return out;
}

/** activeEdges' three sub-selects of a dictionary id `om.id`, at `before` and `after` (values or references). */
const edgeColumns = (before: unknown, after: unknown) => ({
  runStart: sql<number | null>`(select s.end_at from state_rows s where s.m = om.id and s.state = 'ACTIVE'
        and s.start_at <= ${before} and s.end_at <= ${before} order by s.start_at desc limit 1)`,
  closedEnd: sql<number | null>`(select s.start_at from state_rows s where s.m = om.id and s.state = 'ACTIVE'
        and s.start_at >= ${after} order by s.start_at limit 1)`,
  openEnd: sql<number | null>`(select o.start_at from state_open o where o.m = om.id and o.state = 'ACTIVE'
        and o.start_at >= ${after})`,
});

/** activeEdges' query: a row a dictionary id of each machine (bench/explain-state-rows.ts shows its plans). */
export const activeEdgesQuery = (
  db: Kysely<Database>,
  machineIds: readonly string[],
  before: number,
  after: number,
  companyId?: string,
) => {
  const c = edgeColumns(before, after);
  return db
    .selectFrom('observation_machines as om')
    .where('om.machine_id', 'in', [...machineIds])
    .$if(companyId !== undefined, (q) => q.where('om.company_id', '=', companyId!))
    .select([
      'om.machine_id',
      c.runStart.as('run_start'),
      c.closedEnd.as('closed_end'),
      c.openEnd.as('open_end'),
    ]);
};

/**
 * activeEdges with each machine's own `before` and `after` (decision 1198: the downtime report's tails begin where
 * each machine's stored rows stop), of `companyId`'s machines: one query whatever the number of machines, the
 * instants a list of rows (array parameters on PostgreSQL, a table of values on SQLite), the same sub-selects.
 */
export async function activeEdgesAround(
  db: Kysely<Database>,
  around: ReadonlyArray<{ machineId: string; before: number; after: number }>,
  companyId: string,
): Promise<Map<string, { runStart: number | null; runEnd: number | null }>> {
  if (around.length === 0) return new Map();
  const c = edgeColumns(sql.ref('w.b'), sql.ref('w.a'));
  const columns = sql`om.machine_id, ${c.runStart} as run_start, ${c.closedEnd} as closed_end,
    ${c.openEnd} as open_end`;
  const join = sql`join observation_machines om on om.machine_id = w.mid and om.company_id = ${companyId}`;
  type Row = { machine_id: string; run_start: unknown; closed_end: unknown; open_end: unknown };
  const query = isPostgres(db)
    ? sql<Row>`select ${columns} from unnest(${around.map((x) => x.machineId)}::text[],
        ${around.map((x) => x.before)}::bigint[], ${around.map((x) => x.after)}::bigint[]) as w(mid, b, a) ${join}`
    : sql<Row>`with w(mid, b, a) as (values ${sql.join(
        around.map((x) => sql`(${x.machineId}, ${x.before}, ${x.after})`),
      )}) select ${columns} from w ${join}`;
  return edgesOfRows((await query.execute(db)).rows);
}

/**
 * Where each machine's stored states begin (its first state's start), over the machine whose text id `machineId`
 * names: per dictionary id one forward key step of state_rows, or its open state when it has no closed one (a
 * machine's closed states all start before its open one). Of the machine under `companyId` only, when given.
 */
export const firstStateStart = (machineId: Expression<string>, companyId?: Expression<string>) =>
  sql<number | null>`(select min(coalesce((select s.start_at from state_rows s where s.m = sm.id
    order by s.start_at limit 1), (select o.start_at from state_open o where o.m = sm.id)))
    from observation_machines sm where sm.machine_id = ${machineId}${
      companyId === undefined ? sql`` : sql` and sm.company_id = ${companyId}`
    })`;

/** A manual work center's first Add Part (its monitored life's start, METRICS.md §1) under its company, or null. */
export const firstManualCount = (machineId: Expression<string>, companyId: Expression<string>) =>
  sql<number | null>`(select min(p.adjustment_time) from part_adjustments p
    where p.machine_id = ${machineId} and p.company_id = ${companyId} and p.kind = 'manual')`;
