// Test PostgreSQL databases handed out again once a test is done with them (decision 1135). Dropping a
// database makes PostgreSQL 15 checkpoint (it flushes every dirty page of the server and waits for it), which
// costs about a second on a busy test machine, once per test; emptying the same database costs a few
// milliseconds. A released database is emptied back to the migrated template's rows and kept for the next test
// of the same process, unless its schema is no longer the template's (then it is dropped, as before).
import pg from 'pg';

/** What a database copied from the template holds: its schema's fingerprint, its tables and their rows. */
export interface TemplateFacts {
  schema: string;
  /** Every table of the non-system schemas, qualified and quoted. */
  tables: string[];
  /** The statements that put the template's rows (migrations list, seeded lookups) back into emptied tables. */
  refill: string[];
}

const USER_NAMESPACE = `n.nspname NOT LIKE 'pg\\_%' AND n.nspname <> 'information_schema'`;

/** One md5 over every schema object a test could change: tables, columns, constraints, indexes, triggers... */
const FINGERPRINT = `
SELECT md5(coalesce(string_agg(x, '|' ORDER BY x), '')) AS fingerprint FROM (
  SELECT 'n:' || n.nspname AS x FROM pg_namespace n WHERE ${USER_NAMESPACE}
  UNION ALL
  SELECT 'c:' || n.nspname || '.' || c.relname || ':' || c.relkind::text || ':' || c.relrowsecurity::text
         || ':' || CASE WHEN c.relkind IN ('i', 'I') THEN pg_get_indexdef(c.oid) ELSE '' END
         || ':' || CASE WHEN c.relkind IN ('v', 'm') THEN pg_get_viewdef(c.oid) ELSE '' END
  FROM pg_class c JOIN pg_namespace n ON n.oid = c.relnamespace WHERE ${USER_NAMESPACE}
  UNION ALL
  SELECT 'a:' || n.nspname || '.' || c.relname || '.' || a.attname || ':' || format_type(a.atttypid, a.atttypmod)
         || ':' || a.attnotnull::text || ':' || a.attgenerated::text || ':' || coalesce(pg_get_expr(d.adbin, d.adrelid), '')
  FROM pg_attribute a JOIN pg_class c ON c.oid = a.attrelid JOIN pg_namespace n ON n.oid = c.relnamespace
  LEFT JOIN pg_attrdef d ON d.adrelid = a.attrelid AND d.adnum = a.attnum
  WHERE a.attnum > 0 AND NOT a.attisdropped AND ${USER_NAMESPACE}
  UNION ALL
  SELECT 'k:' || n.nspname || '.' || co.conname || ':' || pg_get_constraintdef(co.oid)
  FROM pg_constraint co JOIN pg_namespace n ON n.oid = co.connamespace WHERE ${USER_NAMESPACE}
  UNION ALL
  SELECT 't:' || tg.tgrelid::regclass::text || '.' || tg.tgname || ':' || tg.tgenabled::text
  FROM pg_trigger tg WHERE NOT tg.tgisinternal
  UNION ALL
  SELECT 'p:' || p.oid::regprocedure::text || ':' || md5(p.prosrc)
  FROM pg_proc p JOIN pg_namespace n ON n.oid = p.pronamespace WHERE ${USER_NAMESPACE}
  UNION ALL
  SELECT 'y:' || n.nspname || '.' || t.typname || ':' || t.typtype::text || ':'
         || coalesce((SELECT string_agg(e.enumlabel, ',' ORDER BY e.enumsortorder) FROM pg_enum e
                      WHERE e.enumtypid = t.oid), '')
  FROM pg_type t JOIN pg_namespace n ON n.oid = t.typnamespace WHERE ${USER_NAMESPACE}
  UNION ALL
  SELECT 'x:' || extname || ':' || extversion FROM pg_extension
  UNION ALL
  SELECT 'd:' || array_to_string(s.setconfig, ',') FROM pg_db_role_setting s
  WHERE s.setdatabase = (SELECT oid FROM pg_database WHERE datname = current_database())
) objects`;

async function fingerprint(c: pg.Client): Promise<string> {
  const r = await c.query<{ fingerprint: string }>(FINGERPRINT);
  return r.rows[0]!.fingerprint;
}

/** Reads the facts from a database just copied from the template (never the template: a connection to it would
 * make another process's CREATE DATABASE … TEMPLATE fail). */
export async function readTemplateFacts(url: string): Promise<TemplateFacts> {
  const c = new pg.Client({ connectionString: url });
  await c.connect();
  try {
    const schema = await fingerprint(c);
    const tables = await c.query<{ name: string; columns: string }>(`
      SELECT quote_ident(n.nspname) || '.' || quote_ident(c.relname) AS name,
             (SELECT string_agg(quote_ident(a.attname), ', ' ORDER BY a.attnum) FROM pg_attribute a
              WHERE a.attrelid = c.oid AND a.attnum > 0 AND NOT a.attisdropped AND a.attgenerated = '') AS columns
      FROM pg_class c JOIN pg_namespace n ON n.oid = c.relnamespace
      WHERE c.relkind IN ('r', 'p') AND ${USER_NAMESPACE} ORDER BY 1`);
    const refill: string[] = [];
    for (const t of tables.rows) {
      const rows = await c.query<{ rows: unknown[] | null }>(`SELECT json_agg(t) AS rows FROM ${t.name} t`);
      const json = rows.rows[0]?.rows;
      if (!json || json.length === 0) continue;
      refill.push(
        `INSERT INTO ${t.name} (${t.columns}) OVERRIDING SYSTEM VALUE SELECT ${t.columns} ` +
          `FROM json_populate_recordset(NULL::${t.name}, ${c.escapeLiteral(JSON.stringify(json))})`,
      );
    }
    const sequences = await c.query<{ name: string; value: string; called: boolean }>(`
      SELECT quote_ident(schemaname) || '.' || quote_ident(sequencename) AS name,
             coalesce(last_value, start_value)::text AS value, last_value IS NOT NULL AS called
      FROM pg_sequences`);
    for (const s of sequences.rows)
      refill.push(`SELECT setval(${c.escapeLiteral(s.name)}, ${s.value}, ${s.called ? 'true' : 'false'})`);
    return { schema, tables: tables.rows.map((t) => t.name), refill };
  } finally {
    await c.end();
  }
}

/**
 * Empties a database a test is done with back to the template's rows. False when it cannot be reused: its
 * schema changed (a table added, a column dropped…), or emptying it failed.
 */
export async function resetDatabase(url: string, facts: TemplateFacts): Promise<boolean> {
  const c = new pg.Client({ connectionString: url });
  try {
    await c.connect();
    // Connections the test left open (a product it started, a pool it never closed) go first: they could hold
    // locks, advisory locks or a transaction.
    await c.query(
      'SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE datname = current_database() AND pid <> pg_backend_pid()',
    );
    if ((await fingerprint(c)) !== facts.schema) return false;
    // Foreign keys are triggers, off in replica mode: every table is emptied anyway.
    await c.query(
      [
        'BEGIN',
        'SET LOCAL session_replication_role = replica',
        ...facts.tables.map((t) => `DELETE FROM ${t}`),
        ...facts.refill,
        'COMMIT',
      ].join(';\n'),
    );
    return true;
  } catch {
    return false;
  } finally {
    await c.end().catch(() => {});
  }
}

/**
 * Names of the pooled databases: the process that made one is in its name, so a database whose process has
 * ended (a test worker's spares at the end of the run, a crashed run's) can be told from one in use.
 */
export const POOLED_PREFIX = 'takt_t_';
export const pooledName = (): string =>
  `${POOLED_PREFIX}${process.pid}_${crypto.randomUUID().replace(/-/g, '').slice(0, 12)}`;

function processAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (e) {
    return (e as NodeJS.ErrnoException).code === 'EPERM';
  }
}

/** Drops the pooled databases whose process no longer runs (on this machine); returns how many. */
export async function dropAbandonedDatabases(adminUrl: string): Promise<number> {
  const c = new pg.Client({ connectionString: adminUrl, connectionTimeoutMillis: 3000 });
  await c.connect();
  try {
    const found = await c.query<{ datname: string }>(
      `SELECT datname FROM pg_database WHERE datname ~ '^${POOLED_PREFIX}[0-9]+_[0-9a-f]{12}$'`,
    );
    let dropped = 0;
    for (const { datname } of found.rows) {
      const pid = Number(datname.slice(POOLED_PREFIX.length).split('_')[0]);
      if (processAlive(pid)) continue;
      await c.query(`DROP DATABASE IF EXISTS ${datname} WITH (FORCE)`);
      dropped++;
    }
    return dropped;
  } finally {
    await c.end();
  }
}
