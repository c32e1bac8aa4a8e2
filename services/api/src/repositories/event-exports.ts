import type { Selectable } from 'kysely';
import type { EventExportsTable, CompanyScope, Executor } from '@takt/db';
import { companyObservations } from '@takt/db';

// Event exports (live-operations §7 Event export; decision 0702). SQL only; one mapping function.

export interface EventExport {
  id: string;
  companyId: string;
  userId: string;
  machineId: string;
  start: number;
  end: number;
  filterKeys: string[];
  linkBase: string;
  status: EventExportsTable['status'];
  rowCount: number | null;
  error: string | null;
  createdAt: number;
  finishedAt: number | null;
}

export const toEventExport = (r: Selectable<EventExportsTable>): EventExport => ({
  id: r.id,
  companyId: r.company_id,
  userId: r.user_id,
  machineId: r.machine_id,
  start: r.start_at,
  end: r.end_at,
  filterKeys: JSON.parse(r.filter_keys) as string[],
  linkBase: r.link_base,
  status: r.status,
  rowCount: r.row_count,
  error: r.error,
  createdAt: r.created_at,
  finishedAt: r.finished_at,
});

const withoutCsv = [
  'id',
  'company_id',
  'user_id',
  'machine_id',
  'start_at',
  'end_at',
  'filter_keys',
  'link_base',
  'status',
  'claimed_at',
  'row_count',
  'error',
  'created_at',
  'finished_at',
] as const;

export async function insertEventExport(
  scope: CompanyScope,
  input: Pick<
    EventExport,
    'userId' | 'machineId' | 'start' | 'end' | 'filterKeys' | 'linkBase' | 'createdAt'
  >,
): Promise<string> {
  const id = crypto.randomUUID();
  await scope
    .insertInto('event_exports', {
      id,
      user_id: input.userId,
      machine_id: input.machineId,
      start_at: input.start,
      end_at: input.end,
      filter_keys: JSON.stringify(input.filterKeys),
      link_base: input.linkBase,
      status: 'queued',
      created_at: input.createdAt,
    })
    .execute();
  return id;
}

export async function getEventExport(scope: CompanyScope, id: string): Promise<EventExport | undefined> {
  const row = await scope
    .selectFrom('event_exports')
    .select(withoutCsv)
    .where('id', '=', id)
    .executeTakeFirst();
  return row && toEventExport({ ...row, csv: null });
}

export async function eventExportCsv(scope: CompanyScope, id: string): Promise<string | null> {
  const row = await scope
    .selectFrom('event_exports')
    .select('csv')
    .where('id', '=', id)
    .where('status', '=', 'done')
    .executeTakeFirst();
  return row?.csv ?? null;
}

/**
 * The export worker serves every company, so it reads the queue on the bare database: the next export that
 * is queued, or was claimed before `staleBefore` by a process that died. The claim is a conditional update,
 * so two API processes never build the same export.
 */
export async function claimNextEventExport(
  db: Executor,
  now: number,
  staleBefore: number,
): Promise<EventExport | undefined> {
  for (;;) {
    const next = await db
      .selectFrom('event_exports')
      .select(withoutCsv)
      .where((eb) =>
        eb.or([
          eb('status', '=', 'queued'),
          eb.and([eb('status', '=', 'running'), eb('claimed_at', '<', staleBefore)]),
        ]),
      )
      .orderBy('created_at')
      .orderBy('id')
      .limit(1)
      .executeTakeFirst();
    if (!next) return undefined;
    const claimed = await db
      .updateTable('event_exports')
      .set({ status: 'running', claimed_at: now })
      .where('id', '=', next.id)
      .where('status', '=', next.status)
      .where((eb) =>
        next.claimed_at == null ? eb('claimed_at', 'is', null) : eb('claimed_at', '=', next.claimed_at),
      )
      .executeTakeFirst();
    if (Number(claimed.numUpdatedRows) === 1)
      return toEventExport({ ...next, status: 'running', claimed_at: now, csv: null });
    // Another process took it first: look again.
  }
}

export async function finishEventExport(
  scope: CompanyScope,
  id: string,
  result: { csv: string; rowCount: number; finishedAt: number },
): Promise<void> {
  await scope
    .updateTable('event_exports')
    .set({ status: 'done', csv: result.csv, row_count: result.rowCount, finished_at: result.finishedAt })
    .where('id', '=', id)
    .execute();
}

export async function failEventExport(
  scope: CompanyScope,
  id: string,
  error: string,
  finishedAt: number,
): Promise<void> {
  await scope
    .updateTable('event_exports')
    .set({ status: 'failed', error, finished_at: finishedAt })
    .where('id', '=', id)
    .execute();
}

/** One page of a machine's stored observations in [start, end), oldest first, optionally of some keys. */
export async function observationPage(
  scope: CompanyScope,
  q: {
    machineId: string;
    start: number;
    end: number;
    keys: readonly string[];
    offset: number;
    limit: number;
  },
): Promise<Array<{ ts: number; key: string; value: string | null }>> {
  // By the packs' time bounds (decision 1184).
  let query = companyObservations(scope, [q.machineId], q.start, q.end).select(['ts', 'key', 'value']);
  if (q.keys.length > 0) query = query.where('key', 'in', [...q.keys]);
  return query.orderBy('ts').orderBy('key').orderBy('value').offset(q.offset).limit(q.limit).execute();
}
