import type {
  DeleteQueryBuilder,
  DeleteResult,
  Insertable,
  Kysely,
  SelectQueryBuilder,
  UpdateQueryBuilder,
  UpdateResult,
} from 'kysely';
import { sql } from 'kysely';
import type { CompanyTable, Database } from './schema';

// A Transaction<Database> is a Kysely<Database>, so one type covers both.
export type Executor = Kysely<Database>;

/** A new row of a company table, without its company: the scope sets company_id. */
export type CompanyRow<T extends CompanyTable> = Omit<Insertable<Database[T]>, 'company_id'>;

/**
 * Tenancy in one place: every query a company's caller can cause goes through a CompanyScope, which adds
 * `company_id = caller's company` to selects, updates and deletes, and sets it on inserts. Repositories take
 * a scope, never a bare database, so a route cannot forget the company. Only authentication (finding a
 * session or a login e-mail) and the ingest workers (which serve every company) use the bare database.
 */
export interface CompanyScope {
  readonly companyId: string;
  readonly db: Executor;
  selectFrom<T extends CompanyTable>(table: T): ReturnType<typeof scopedSelect<T>>;
  updateTable<T extends CompanyTable>(table: T): ReturnType<typeof scopedUpdate<T>>;
  deleteFrom<T extends CompanyTable>(table: T): ReturnType<typeof scopedDelete<T>>;
  insertInto<T extends CompanyTable>(
    table: T,
    rows: CompanyRow<T> | CompanyRow<T>[],
  ): ReturnType<typeof scopedInsert<T>>;
  /** Run work in one transaction with the same company. */
  transaction<R>(work: (scope: CompanyScope) => Promise<R>): Promise<R>;
}

const companyIs = (table: string, companyId: string) =>
  sql<boolean>`${sql.ref(`${table}.company_id`)} = ${companyId}`;

// The casts pin Kysely's builder to the one table T; without them a generic T distributes into a union of
// builders that TypeScript cannot call.
// Kysely's "nothing selected yet" is the empty object type.
// eslint-disable-next-line @typescript-eslint/no-empty-object-type
type NoSelection = {};

function scopedSelect<T extends CompanyTable>(db: Executor, companyId: string, table: T) {
  const qb = db.selectFrom(table) as unknown as SelectQueryBuilder<Database, T, NoSelection>;
  return qb.where(companyIs(table, companyId));
}
function scopedUpdate<T extends CompanyTable>(db: Executor, companyId: string, table: T) {
  const qb = db.updateTable(table) as unknown as UpdateQueryBuilder<Database, T, T, UpdateResult>;
  return qb.where(companyIs(table, companyId));
}
function scopedDelete<T extends CompanyTable>(db: Executor, companyId: string, table: T) {
  const qb = db.deleteFrom(table) as unknown as DeleteQueryBuilder<Database, T, DeleteResult>;
  return qb.where(companyIs(table, companyId));
}
function scopedInsert<T extends CompanyTable>(
  db: Executor,
  companyId: string,
  table: T,
  rows: CompanyRow<T> | CompanyRow<T>[],
) {
  const list = Array.isArray(rows) ? rows : [rows];
  const values = list.map((r) => ({ ...r, company_id: companyId })) as unknown as Insertable<Database[T]>[];
  return db.insertInto(table).values(values);
}

export function companyScope(db: Executor, companyId: string): CompanyScope {
  if (!companyId) throw new Error('companyScope needs a company id');
  return {
    companyId,
    db,
    selectFrom: (table) => scopedSelect(db, companyId, table),
    updateTable: (table) => scopedUpdate(db, companyId, table),
    deleteFrom: (table) => scopedDelete(db, companyId, table),
    insertInto: (table, rows) => scopedInsert(db, companyId, table, rows),
    transaction: (work) =>
      db.isTransaction
        ? work(companyScope(db, companyId))
        : db.transaction().execute((trx) => work(companyScope(trx, companyId))),
  };
}
