import { sql } from 'kysely';
import type { Executor } from '@takt/db';

// The System page's data (reports-admin §2 "System page", §7 System calls). The version revisions are global
// (no company), and refresh-all and purge act on every company's tablets, so the bare database: only the
// root-guarded internal routes and the version header (app.ts) call these.

const ROW = 'current';

export interface VersionRow {
  apiRevision: number;
  jsRevision: number;
  updatedAt: number | null;
}

export async function readVersions(db: Executor): Promise<VersionRow> {
  const r = await db.selectFrom('system_versions').selectAll().where('id', '=', ROW).executeTakeFirst();
  return {
    apiRevision: Number(r?.api_revision ?? 0),
    jsRevision: Number(r?.js_revision ?? 0),
    updatedAt: r?.updated_at == null ? null : Number(r.updated_at),
  };
}

/**
 * Adds one to the API or the JS revision in one statement (two root users clicking at once both count), and
 * answers the row as stored. Mutates system_versions.
 */
export async function incrementRevision(db: Executor, which: 'api' | 'js', now: number): Promise<VersionRow> {
  return db.transaction().execute(async (trx) => {
    const set =
      which === 'js'
        ? { js_revision: sql<number>`js_revision + 1`, updated_at: now }
        : { api_revision: sql<number>`api_revision + 1`, updated_at: now };
    const r = await trx.updateTable('system_versions').set(set).where('id', '=', ROW).executeTakeFirst();
    if (Number(r.numUpdatedRows) === 0) {
      await trx
        .insertInto('system_versions')
        .values({
          id: ROW,
          api_revision: which === 'api' ? 1 : 0,
          js_revision: which === 'js' ? 1 : 0,
          updated_at: now,
        })
        .execute();
    }
    return readVersions(trx);
  });
}

export interface ActiveTablet {
  id: string;
  companyId: string;
  company: string;
  /** The admin's name for it, else its serial number (as the Tablets screen names it). */
  label: string;
}

/** Every company's tablets that hold a live registration (state active). */
export async function activeTablets(db: Executor): Promise<ActiveTablet[]> {
  const rows = await db
    .selectFrom('tablets as t')
    .innerJoin('companies as c', 'c.id', 't.company_id')
    .select(['t.id', 't.company_id', 'c.name as company', 't.remote_identifier', 't.serial_number'])
    .where('t.state', '=', 'active')
    .orderBy('c.name')
    .orderBy('t.created_at')
    .orderBy('t.id')
    .execute();
  return rows.map((r) => ({
    id: r.id,
    companyId: r.company_id!,
    company: r.company,
    label: r.remote_identifier || r.serial_number,
  }));
}

/** Deletes every company's revoked tablets (decision 0890's purge, for all companies); answers how many. */
export async function deleteAllRevokedTablets(db: Executor): Promise<number> {
  const r = await db.deleteFrom('tablets').where('state', '=', 'revoked').executeTakeFirst();
  return Number(r.numDeletedRows);
}
