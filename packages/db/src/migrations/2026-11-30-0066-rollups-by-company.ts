import { PostgresAdapter, sql } from 'kysely';
import type { Kysely } from 'kysely';

// Decision 1190 (the left of decision 1187): observation_machines may hold one machine id under two companies
// (decision 1130), and each is another machine; the tables a machine's derived figures and marks live in were keyed
// by the machine id alone, so the second company's rows collided with the first's (an hourly rollup or a live row
// overwritten, a dirty mark merged into the other's). Keyed by (machine_id, company_id) from here:
// - rollups: primary key (machine_id, company_id, start_at) (was (machine_id, start_at));
// - rollup_dirty, setup_dirty and machine_live: primary key (machine_id, company_id) (was machine_id).
// rollup_days and rollup_weeks have no unique key (an index on (machine_id, start_at)); their writers and readers
// name the company. Keys only: the columns stay as they are, whatever a later migration added (decision 1190 and
// migration 0067 apply in either order), so SQLite's copies take every column the table has.

// eslint-disable-next-line @typescript-eslint/no-explicit-any
type Db = Kysely<any>;

const isPostgres = (db: Db) => db.getExecutor().adapter instanceof PostgresAdapter;

interface Rekey {
  table: string;
  /** PostgreSQL's name of the primary key constraint. */
  constraint: string;
  before: readonly string[];
  after: readonly string[];
  /** machine_live's machine is one of `machines` (kept on SQLite's copy; PostgreSQL keeps its constraint). */
  references?: string;
}

const TABLES: readonly Rekey[] = [
  {
    table: 'rollups',
    constraint: 'rollups_pk',
    before: ['machine_id', 'start_at'],
    after: ['machine_id', 'company_id', 'start_at'],
  },
  {
    table: 'rollup_dirty',
    constraint: 'rollup_dirty_pkey',
    before: ['machine_id'],
    after: ['machine_id', 'company_id'],
  },
  {
    table: 'setup_dirty',
    constraint: 'setup_dirty_pkey',
    before: ['machine_id'],
    after: ['machine_id', 'company_id'],
  },
  {
    table: 'machine_live',
    constraint: 'machine_live_pkey',
    before: ['machine_id'],
    after: ['machine_id', 'company_id'],
    references: 'foreign key ("machine_id") references "machines" ("id")',
  },
];

export async function up(db: Db): Promise<void> {
  for (const t of TABLES) await rekey(db, t, t.after);
}

export async function down(db: Db): Promise<void> {
  // The old key holds one row a machine id: a second company's rows of an id go (derived or marks: a recompute or the
  // next live line writes them again).
  for (const t of TABLES) {
    const tbl = sql.table(t.table);
    await sql`delete from ${tbl} where company_id <> (select min(o.company_id) from ${tbl} o
      where ${sql.join(
        t.before.map((c) => sql`o.${sql.ref(c)} = ${tbl}.${sql.ref(c)}`),
        sql` and `,
      )})`.execute(db);
    await rekey(db, t, t.before);
  }
}

async function rekey(db: Db, t: Rekey, key: readonly string[]): Promise<void> {
  const cols = sql.join(key.map((c) => sql.ref(c)));
  if (isPostgres(db)) {
    // One statement: the new key's index is built from the table as it is, no row is copied.
    await sql`alter table ${sql.table(t.table)} drop constraint ${sql.ref(t.constraint)},
      add constraint ${sql.ref(t.constraint)} primary key (${cols})`.execute(db);
    return;
  }
  // SQLite changes a primary key only by copying the table: the new one has every column of the old (with its type,
  // not null and default), its rows in one statement, and the old one's indexes made again.
  const { rows: columns } = await sql<{
    name: string;
    type: string;
    notnull: number;
    dflt_value: string | null;
  }>`
    select name, type, "notnull", dflt_value from pragma_table_info(${t.table}) order by cid`.execute(db);
  const { rows: indexes } = await sql<{ sql: string }>`
    select sql from sqlite_master where type = 'index' and tbl_name = ${t.table} and sql is not null`.execute(
    db,
  );
  const copy = `${t.table}_rekeyed`;
  const defs = columns.map((c) =>
    [
      `"${c.name}"`,
      c.type,
      // The key's columns are not null, as PostgreSQL makes them.
      c.notnull || key.includes(c.name) ? 'not null' : '',
      c.dflt_value === null ? '' : `default ${c.dflt_value}`,
    ]
      .filter((s) => s !== '')
      .join(' '),
  );
  defs.push(`constraint "${t.constraint}" primary key (${key.map((c) => `"${c}"`).join(', ')})`);
  if (t.references) defs.push(t.references);
  await sql.raw(`create table "${copy}" (${defs.join(', ')})`).execute(db);
  const names = columns.map((c) => `"${c.name}"`).join(', ');
  await sql.raw(`insert into "${copy}" (${names}) select ${names} from "${t.table}"`).execute(db);
  await sql`drop table ${sql.table(t.table)}`.execute(db);
  await sql`alter table ${sql.table(copy)} rename to ${sql.table(t.table)}`.execute(db);
  for (const i of indexes) await sql.raw(i.sql).execute(db);
}
