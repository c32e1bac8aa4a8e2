import type { Kysely } from 'kysely';
import { PostgresAdapter, sql } from 'kysely';
import type { Database } from '../schema';
import type { AnnotationRow } from '../rows';
import type { StateBounds } from './state-reads';

// Reads of a company's annotations by machine (what loadDowntimeFacts splits downtime with).

/**
 * The annotations of `companyId`'s machines reaching into their [from, to) (starting before `to`, and ending after
 * `from`, or open and starting at or after it: an open one from before belongs to an earlier period), each machine's
 * ordered by start then creation, machine after machine in the order of `bounds`. Each machine's are one range of its
 * (machine_id, start_at) index read as one flat JSON array (decision 1186: a categorized month of 100 machines is
 * ~74,000 annotations, which the drivers built as row objects of every column).
 */
export async function annotationsIn(
  db: Kysely<Database>,
  bounds: readonly StateBounds[],
  companyId: string,
): Promise<AnnotationRow[]> {
  if (bounds.length === 0) return [];
  const out: AnnotationRow[] = [];
  for (const r of (await annotationsQuery(db, bounds, companyId).execute(db)).rows) {
    if (r.packed == null) continue;
    // Flat: id, type, start, end, message, planned, setup, active setup, id, … (no array an annotation).
    const a = JSON.parse(r.packed) as Array<string | number | null>;
    for (let i = 0; i + 7 < a.length; i += 8)
      out.push({
        id: a[i] as string,
        machine_id: r.machine_id,
        annotation_type_id: a[i + 1] as string | null,
        start_at: Number(a[i + 2]),
        end_at: a[i + 3] == null ? null : Number(a[i + 3]),
        message: a[i + 4] as string | null,
        planned: a[i + 5] == null ? null : Number(a[i + 5]),
        setup: Number(a[i + 6]),
        active_setup: Number(a[i + 7]),
      });
  }
  return out;
}

/** annotationsIn's query, `bounds` not empty: a row a machine, its annotations packed (null when none). */
export const annotationsQuery = (db: Kysely<Database>, bounds: readonly StateBounds[], companyId: string) => {
  const pg = db.getExecutor().adapter instanceof PostgresAdapter;
  // Each value as JSON text: PostgreSQL's to_json of a null is null, SQLite's json_quote of one 'null'.
  const j = (column: string) =>
    pg ? sql`coalesce(to_json(${sql.ref(column)})::text, 'null')` : sql`json_quote(${sql.ref(column)})`;
  const fields = [
    'a.id',
    'a.annotation_type_id',
    'a.start_at',
    'a.end_at',
    'a.message',
    'a.planned',
    'a.setup',
    'a.active_setup',
  ];
  const item = sql.join(
    fields.map((c) => j(c)),
    sql` || ',' || `,
  );
  const agg = pg ? sql`string_agg` : sql`group_concat`;
  const packed = sql`(select '[' || ${agg}(${item}, ',' order by a.start_at, a.created_at) || ']'
    from annotations a where a.company_id = ${companyId} and a.machine_id = w.mid and a.start_at < w.t
      and ((a.end_at is null and a.start_at >= w.f) or a.end_at > w.f))`;
  if (pg)
    return sql<{ machine_id: string; packed: string | null }>`select w.mid as machine_id, ${packed} as packed
      from unnest(${bounds.map((b) => b.machineId)}::text[], ${bounds.map((b) => b.from)}::bigint[],
        ${bounds.map((b) => b.to)}::bigint[]) with ordinality as w(mid, f, t, n)
      order by w.n`;
  const w = sql.join(bounds.map((b, n) => sql`(${b.machineId}, ${b.from}, ${b.to}, ${n})`));
  return sql<{ machine_id: string; packed: string | null }>`with w(mid, f, t, n) as (values ${w})
    select w.mid as machine_id, ${packed} as packed from w order by w.n`;
};
