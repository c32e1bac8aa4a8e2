import type { CompiledQuery } from 'kysely';
import { sql } from 'kysely';
import { pgArray } from './batch-insert';
import type { Executor } from './scope';

// Ingest leases on PostgreSQL (decision 0970): the database is the one arbiter of which node derives which
// machine source. Every time here is the database's clock, so nodes on different hosts never compare their own
// clocks. PostgreSQL only (FOR UPDATE SKIP LOCKED, FOR KEY SHARE); SQLite runs one node and never calls these.
// A batch's fence locks its leases FOR KEY SHARE (decision 0977): the holder's own updates (renewals, offers,
// hand-overs) never wait for a batch, and every claim by another node locks the row FOR UPDATE, so it skips a
// row a batch is writing under.

/** The database's clock in epoch ms (clock_timestamp: the time of the statement, not of the transaction). */
export const dbNowMs = sql<number>`(extract(epoch from clock_timestamp()) * 1000)::bigint`;

/** A source lease as one node holds it: the claim's epoch fences what the node stores under it. */
export interface HeldLease {
  sourceId: string;
  epoch: number;
}

/** The node is alive: its heartbeat row (live nodes share the sources between them). */
export async function beatNode(db: Executor, nodeId: string): Promise<void> {
  await sql`insert into ingest_nodes (node_id, heartbeat_at) values (${nodeId}, ${dbNowMs})
    on conflict (node_id) do update set heartbeat_at = excluded.heartbeat_at`.execute(db);
}

/** Nodes whose heartbeat is younger than `ttlMs` (the caller's own included once it beat). */
export async function liveNodeCount(db: Executor, ttlMs: number): Promise<number> {
  const { rows } = await sql<{ n: number }>`select count(*)::int as n from ingest_nodes
    where heartbeat_at > ${dbNowMs} - ${ttlMs}`.execute(db);
  return rows[0]?.n ?? 0;
}

/** A node leaving on purpose: it no longer counts as live. */
export async function forgetNode(db: Executor, nodeId: string): Promise<void> {
  await sql`delete from ingest_nodes where node_id = ${nodeId}`.execute(db);
}

const rowsToLeases = (rows: ReadonlyArray<{ source_id: string; epoch: number }>): HeldLease[] =>
  rows.map((r) => ({ sourceId: r.source_id, epoch: Number(r.epoch) }));

/**
 * Extend the node's unexpired leases by `ttlMs`; returns the ones extended. A lease that expired meanwhile is not
 * extended (another node may have claimed it): the caller stops that source.
 */
export async function renewLeases(
  db: Executor,
  nodeId: string,
  held: readonly HeldLease[],
  ttlMs: number,
): Promise<HeldLease[]> {
  if (held.length === 0) return [];
  const { rows } = await sql<{ source_id: string; epoch: number }>`update source_leases
    set expires_at = ${dbNowMs} + ${ttlMs}
    where node_id = ${nodeId} and source_id = any(${held.map((h) => h.sourceId)}::text[]) and expires_at > ${dbNowMs}
    returning source_id, epoch`.execute(db);
  const epochs = new Map(held.map((h) => [h.sourceId, h.epoch]));
  return rowsToLeases(rows).filter((r) => epochs.get(r.sourceId) === r.epoch);
}

/**
 * Claim up to `limit` free leases of sources in service: never held, expired, or left by an earlier process of
 * the same node id (a restarted node takes its own back at once). A lease freed for a successor (handOverLease)
 * stays unexpired until its reservation ends, so only that successor claims it (claimHandedLeases). Rows another node is claiming right now are
 * skipped, not waited for (SKIP LOCKED); each claim raises the lease's epoch, fencing the previous holder.
 */
export async function claimLeases(
  db: Executor,
  nodeId: string,
  exclude: readonly string[],
  limit: number,
  ttlMs: number,
): Promise<HeldLease[]> {
  if (limit <= 0) return [];
  await sql`insert into source_leases (source_id, node_id, expires_at, epoch)
    select s.id, null, 0, 0 from machine_sources s
    where not exists (select 1 from source_leases l where l.source_id = s.id)
    on conflict (source_id) do nothing`.execute(db);
  const { rows } = await sql<{ source_id: string; epoch: number }>`update source_leases
    set node_id = ${nodeId}, expires_at = ${dbNowMs} + ${ttlMs}, epoch = source_leases.epoch + 1,
      releasing = 0, successor = null, successor_ready = 0
    where source_id in (
      select l.source_id from source_leases l
      join machine_sources s on s.id = l.source_id
      join machines m on m.id = s.machine_id
      where s.enabled = 1 and m.decommissioned_at is null
        and (l.expires_at <= ${dbNowMs} or l.node_id = ${nodeId})
        and not (l.source_id = any(${[...exclude]}::text[]))
      order by l.source_id
      limit ${limit}
      for update of l skip locked)
    returning source_id, epoch`.execute(db);
  return rowsToLeases(rows);
}

/** Give leases back (graceful hand-over): free for any node at once. */
export async function releaseLeases(db: Executor, nodeId: string, held: readonly HeldLease[]): Promise<void> {
  for (const h of held)
    await sql`update source_leases set node_id = null, expires_at = 0, releasing = 0, successor = null,
      successor_ready = 0
      where source_id = ${h.sourceId} and node_id = ${nodeId} and epoch = ${h.epoch}`.execute(db);
}

// A graceful hand-over of an SHDR source is make-before-break (decision 0971): the holder offers the lease, a node
// below its share reserves it and dials the adapter alongside the holder, says when it hears it, and only then
// does the holder flush and free the lease, for that node alone. The successor continues the stored run.

/**
 * The holder's side, each round: offers `extras` (sets `releasing`), withdraws the offer of its other leases, and
 * forgets a successor that is no longer a live node. Returns each offered lease's successor once it is ready.
 */
export async function offerLeases(
  db: Executor,
  nodeId: string,
  extras: readonly HeldLease[],
  held: readonly HeldLease[],
  ttlMs: number,
): Promise<Map<string, string>> {
  const offered = extras.map((h) => h.sourceId);
  const kept = held.map((h) => h.sourceId).filter((id) => !offered.includes(id));
  if (kept.length > 0)
    await sql`update source_leases set releasing = 0, successor = null, successor_ready = 0
      where node_id = ${nodeId} and releasing = 1 and source_id = any(${kept}::text[])`.execute(db);
  if (offered.length === 0) return new Map();
  await sql`update source_leases set releasing = 1, successor = null, successor_ready = 0
    where node_id = ${nodeId} and source_id = any(${offered}::text[]) and successor is not null
      and not exists (select 1 from ingest_nodes n where n.node_id = source_leases.successor
        and n.heartbeat_at > ${dbNowMs} - ${ttlMs})`.execute(db);
  await sql`update source_leases set releasing = 1
    where node_id = ${nodeId} and releasing = 0 and source_id = any(${offered}::text[])`.execute(db);
  const { rows } = await sql<{ source_id: string; epoch: number; successor: string | null; ready: number }>`
    select source_id, epoch, successor, successor_ready as ready from source_leases
    where node_id = ${nodeId} and releasing = 1 and source_id = any(${offered}::text[])`.execute(db);
  const epochs = new Map(extras.map((h) => [h.sourceId, h.epoch]));
  const ready = new Map<string, string>();
  for (const r of rows)
    if (epochs.get(r.source_id) === Number(r.epoch) && r.successor && Number(r.ready) === 1)
      ready.set(r.source_id, r.successor);
  return ready;
}

/**
 * A node below its share reserves up to `limit` SHDR leases other live holders offer (none reserved yet);
 * returns their source ids. It then dials those adapters alongside their holders. The holder's batches lock
 * the rows FOR KEY SHARE, which a reservation (an UPDATE of non-key columns) does not wait for; each update
 * re-checks that nobody reserved the row meanwhile.
 */
export async function reserveLeases(db: Executor, nodeId: string, limit: number): Promise<string[]> {
  if (limit <= 0) return [];
  const { rows: offered } = await sql<{ source_id: string }>`select l.source_id from source_leases l
    join machine_sources s on s.id = l.source_id
    where l.releasing = 1 and l.successor is null and s.kind = 'shdr'
      and l.node_id is not null and l.node_id <> ${nodeId} and l.expires_at > ${dbNowMs}
    order by l.source_id`.execute(db);
  const reserved: string[] = [];
  // One row per statement: each re-checks its row, and two reserving nodes never lock rows in crossed order.
  for (const { source_id } of offered) {
    if (reserved.length >= limit) break;
    const { rows } = await sql`update source_leases set successor = ${nodeId}, successor_ready = 0
      where source_id = ${source_id} and releasing = 1 and successor is null and node_id <> ${nodeId}
        and expires_at > ${dbNowMs}
      returning source_id`.execute(db);
    if (rows.length > 0) reserved.push(source_id);
  }
  return reserved;
}

/** The successor hears the adapters of `sourceIds` itself: their holders may let go. */
export async function markSuccessorReady(
  db: Executor,
  nodeId: string,
  sourceIds: readonly string[],
): Promise<void> {
  if (sourceIds.length === 0) return;
  await sql`update source_leases set successor_ready = 1
    where source_id = any(${[...sourceIds]}::text[]) and successor = ${nodeId} and releasing = 1`.execute(db);
}

/** Of `sourceIds`, the reservations of `nodeId` that still stand (offered to it, or freed for it). */
export async function standingReservations(
  db: Executor,
  nodeId: string,
  sourceIds: readonly string[],
): Promise<Set<string>> {
  if (sourceIds.length === 0) return new Set();
  const { rows } = await sql<{ source_id: string }>`select source_id from source_leases
    where successor = ${nodeId} and source_id = any(${[...sourceIds]}::text[]) and expires_at > ${dbNowMs}
      and (releasing = 1 or node_id is null)`.execute(db);
  return new Set(rows.map((r) => r.source_id));
}

/**
 * The holder lets go of a lease whose successor is ready (after storing all it received): free for that
 * successor alone until `ttlMs` from now, then for anyone. False when the offer was withdrawn meanwhile.
 */
export async function handOverLease(
  db: Executor,
  nodeId: string,
  lease: HeldLease,
  ttlMs: number,
): Promise<boolean> {
  const { rows } = await sql`update source_leases set node_id = null, expires_at = ${dbNowMs} + ${ttlMs},
      releasing = 0, successor_ready = 0
    where source_id = ${lease.sourceId} and node_id = ${nodeId} and epoch = ${lease.epoch}
      and successor is not null and successor_ready = 1
    returning source_id`.execute(db);
  return rows.length > 0;
}

/**
 * The successor claims the leases freed for it (each claim raises the epoch, fencing the previous holder). A row
 * the previous holder's last batch still fences is skipped until the next round (FOR UPDATE SKIP LOCKED).
 */
export async function claimHandedLeases(db: Executor, nodeId: string, ttlMs: number): Promise<HeldLease[]> {
  const { rows } = await sql<{ source_id: string; epoch: number }>`update source_leases
    set node_id = ${nodeId}, expires_at = ${dbNowMs} + ${ttlMs}, epoch = epoch + 1, successor = null
    where source_id in (select l.source_id from source_leases l
      where l.node_id is null and l.successor = ${nodeId} and l.expires_at > ${dbNowMs}
      for update of l skip locked)
    returning source_id, epoch`.execute(db);
  return rowsToLeases(rows);
}

/**
 * Inside the transaction that stores a batch: which of `held` are still this node's and unexpired. The rows are
 * locked FOR KEY SHARE, so no node can claim them before this transaction ends (claims lock FOR UPDATE): nothing
 * is stored under a lease after it was taken over. The holder's renewals (UPDATEs of non-key columns) do not
 * wait for the batch: a batch longer than the lease must not cost the node its leases (decision 0977).
 */
export async function fenceLeases(
  trx: Executor,
  nodeId: string,
  held: readonly HeldLease[],
): Promise<Set<string>> {
  if (held.length === 0) return new Set();
  const { rows } = await trx.executeQuery(fenceStatement(trx, nodeId, held));
  return fencedLeases(held, rows);
}

/**
 * fenceLeases' statement, built before the batch's transaction (decision 1177: the source ids already an array
 * literal); `fencedLeases` reads its answer. `held` is not empty.
 */
export function fenceStatement(
  db: Executor,
  nodeId: string,
  held: readonly HeldLease[],
): CompiledQuery<{ source_id: string; epoch: number }> {
  return sql<{ source_id: string; epoch: number }>`select source_id, epoch from source_leases
    where node_id = ${nodeId} and source_id = any(${pgArray(held.map((h) => h.sourceId))}::text[])
    and expires_at > ${dbNowMs} for key share`.compile(db);
}

/** The text a failed fence (`failingFenceStatement`) puts in its error, before the lost source ids. */
const FENCE_FAILED = 'takt lease lost: ';

/**
 * A batch's fence as a statement that fails the transaction itself (decision 1199), so it can go in one message with
 * the batch's other statements and its commit: it locks the leases of `held` still this node's and unexpired by the
 * same epoch FOR KEY SHARE (as fenceStatement), and when any is not, it raises an error naming them (a text that is
 * no integer, cast to one). `leasesLostIn` reads them from the error. `held` is not empty.
 */
export function failingFenceStatement(
  db: Executor,
  nodeId: string,
  held: readonly HeldLease[],
): CompiledQuery {
  const ids = pgArray(held.map((h) => h.sourceId));
  const epochs = pgArray(held.map((h) => h.epoch));
  // The leases' subquery is read whole whatever the join's plan (its rows are locked as they are read): the wanted
  // ones are the outer side.
  return sql`select (${FENCE_FAILED} || string_agg(w.source_id, ','))::int as lost
    from unnest(${ids}::text[], ${epochs}::bigint[]) as w(source_id, epoch)
    left join (select source_id, epoch from source_leases where node_id = ${nodeId}
      and source_id = any(${ids}::text[]) and expires_at > ${dbNowMs} for key share) as h
    on h.source_id = w.source_id and h.epoch = w.epoch
    where h.source_id is null`.compile(db);
}

/** The source ids a failed `failingFenceStatement` named in its error; null for any other error. */
export function leasesLostIn(err: unknown): string[] | null {
  const message = err instanceof Error ? err.message : '';
  const at = message.indexOf(FENCE_FAILED);
  if (at < 0) return null;
  const end = message.indexOf('"', at);
  return message.slice(at + FENCE_FAILED.length, end < 0 ? undefined : end).split(',');
}

/** Of `held`, the leases fenceStatement's answer found still this node's, by the same epoch. */
export function fencedLeases(
  held: readonly HeldLease[],
  rows: ReadonlyArray<{ source_id: string; epoch: number }>,
): Set<string> {
  const epochs = new Map(held.map((h) => [h.sourceId, h.epoch]));
  return new Set(
    rowsToLeases(rows)
      .filter((r) => epochs.get(r.sourceId) === r.epoch)
      .map((r) => r.sourceId),
  );
}

/** Who holds what (tests, metrics): the unexpired leases by node id. */
export async function leaseHolders(db: Executor): Promise<Map<string, string>> {
  const { rows } = await sql<{
    source_id: string;
    node_id: string;
  }>`select source_id, node_id from source_leases
    where node_id is not null and expires_at > ${dbNowMs}`.execute(db);
  return new Map(rows.map((r) => [r.source_id, r.node_id]));
}
