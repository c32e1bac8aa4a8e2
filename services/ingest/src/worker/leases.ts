import { hostname } from 'node:os';
import { performance } from 'node:perf_hooks';
import type { CompiledQuery, Kysely } from 'kysely';
import type { Database, HeldLease } from '@takt/db';
import {
  beatNode,
  claimHandedLeases,
  claimLeases,
  failingFenceStatement,
  forgetNode,
  handOverLease,
  leasesLostIn,
  liveNodeCount,
  markSuccessorReady,
  offerLeases,
  releaseLeases,
  renewLeases,
  reserveLeases,
  standingReservations,
} from '@takt/db';

/** How long a lease (and a node's heartbeat) lasts without renewal (decision 0970). */
export const LEASE_TTL_MS = 10_000;
/** How often a node renews its leases and heartbeat, and balances its share of the sources. */
export const LEASE_RENEW_MS = 3_000;

/** A node's id when none is configured (TAKT_NODE_ID): unique per process on a host. */
export const defaultNodeId = (): string => `${hostname()}-${process.pid}`;

export interface LeaseOptions {
  nodeId: string;
  /** LEASE_TTL_MS unless a test shortens it. */
  ttlMs?: number;
  /** LEASE_RENEW_MS unless a test shortens it. */
  renewMs?: number;
}

/** What one balancing round asks of the node (decision 0970; the graceful hand-over: decision 0971). */
export interface BalancePlan {
  /** Sources held beyond the share: to be handed over. */
  extras: string[];
  /** Sources a holder freed for this node after it heard their adapters: their stored runs continue here. */
  handed: string[];
  /** Sources offered by their holders and reserved now by this node: dial their adapters alongside. */
  reserved: string[];
  /** Of the sources this node listens to ahead of a hand-over, those whose reservation still stands. */
  standing: Set<string>;
}

/** A batch's lease fence (LeaseKeeper.fenceOf). */
export interface BatchFence {
  /** Fails the batch's transaction when a lease is lost; null when the batch writes under none. */
  statement: CompiledQuery | null;
  /** The error a batch failed with, a LeaseLostError when its fence failed it. */
  lost: (err: unknown) => unknown;
}

/** Thrown inside a batch's transaction when a lease it writes under is no longer this node's. */
export class LeaseLostError extends Error {
  constructor(readonly sourceIds: readonly string[]) {
    super(`lease lost for source(s) ${sourceIds.join(', ')}`);
  }
}

/**
 * One ingest node's leases on the machine sources (PostgreSQL, decision 0970): PostgreSQL is the arbiter, this
 * keeps only what the node was granted. Each lease is trusted until its last claim or renewal was *sent* plus the
 * TTL (by this process's monotonic clock), so a node cut off from the database gives its sources up before any
 * other node can have claimed them. Mutable: `held` changes on claim, renewal, loss and release.
 */
export class LeaseKeeper {
  readonly nodeId: string;
  readonly ttlMs: number;
  readonly renewMs: number;
  /** sourceId → the claim's epoch and the local time until which it surely holds. */
  private readonly held = new Map<string, { epoch: number; until: number }>();
  private renewing: Promise<void> | null = null;

  constructor(
    private readonly db: Kysely<Database>,
    options: LeaseOptions,
    private readonly log: (message: string) => void,
    /** Called with sources whose lease is gone: the node stops them at once and stores nothing more of them. */
    private readonly onLost: (sourceIds: string[]) => void,
    /** Called whenever the number of leases held changes (the `takt_ingest_leases` gauge). */
    private readonly onCount: (count: number) => void = () => {},
  ) {
    this.nodeId = options.nodeId;
    this.ttlMs = options.ttlMs ?? LEASE_TTL_MS;
    this.renewMs = options.renewMs ?? LEASE_RENEW_MS;
  }

  get count(): number {
    return this.held.size;
  }

  holds(sourceId: string): boolean {
    return this.held.has(sourceId);
  }

  /** The leases held, for a fence or a release. */
  leases(sourceIds: Iterable<string> = this.held.keys()): HeldLease[] {
    const out: HeldLease[] = [];
    for (const sourceId of sourceIds) {
      const h = this.held.get(sourceId);
      if (h) out.push({ sourceId, epoch: h.epoch });
    }
    return out;
  }

  /** Mutates: forgets leases and tells the node to stop those sources. */
  private lose(sourceIds: string[], why: string): void {
    if (sourceIds.length === 0) return;
    for (const id of sourceIds) this.held.delete(id);
    this.log(
      `[ingest] node ${this.nodeId} lost ${sourceIds.length} lease(s) (${why}): stopping those sources`,
    );
    this.onCount(this.held.size);
    this.onLost(sourceIds);
  }

  /** Mutates: gives up at once every lease whose time ran out here (the database may be out of reach). */
  expire(): void {
    const t = performance.now();
    this.lose(
      [...this.held].filter(([, h]) => h.until <= t).map(([id]) => id),
      'not renewed in time',
    );
  }

  /**
   * Heartbeat and renew every held lease (one at a time: a renewal still waiting on the database is not
   * doubled). A lease the database did not extend was taken over or expired: lost.
   */
  renew(): Promise<void> {
    this.expire();
    this.renewing ??= this.renewOnce().finally(() => (this.renewing = null));
    return this.renewing;
  }

  private async renewOnce(): Promise<void> {
    const sent = performance.now();
    const asked = this.leases();
    try {
      await beatNode(this.db, this.nodeId);
      const renewed = new Set(
        (await renewLeases(this.db, this.nodeId, asked, this.ttlMs)).map((l) => l.sourceId),
      );
      const lost: string[] = [];
      for (const l of asked) {
        const h = this.held.get(l.sourceId);
        if (!h || h.epoch !== l.epoch) continue;
        if (renewed.has(l.sourceId)) h.until = sent + this.ttlMs;
        else lost.push(l.sourceId);
      }
      this.lose(lost, 'taken over or expired');
    } catch (err) {
      this.log(`[ingest] node ${this.nodeId}: renewing leases failed: ${(err as Error).message}`);
      this.expire();
    }
  }

  /** Mutates: records leases just granted, trusted until `sent` plus the TTL. */
  private grant(leases: readonly HeldLease[], sent: number): void {
    for (const l of leases) this.held.set(l.sourceId, { epoch: l.epoch, until: sent + this.ttlMs });
    if (leases.length > 0) {
      this.log(`[ingest] node ${this.nodeId} claimed ${leases.length} source(s), holds ${this.held.size}`);
      this.onCount(this.held.size);
    }
  }

  /**
   * Balance (decision 0970): this node's share is ceil(sources / live nodes). Claims first the leases handed
   * to it (decision 0971), then free leases up to the share, then reserves offered leases up to the share,
   * counting the reservations it listens for (`listening`) already. Returns the plan for the node.
   */
  async balance(sourceCount: number, listening: readonly string[] = []): Promise<BalancePlan> {
    const live = Math.max(1, await liveNodeCount(this.db, this.ttlMs));
    const share = Math.ceil(sourceCount / live);
    let sent = performance.now();
    const handed = await claimHandedLeases(this.db, this.nodeId, this.ttlMs);
    this.grant(handed, sent);
    if (this.held.size < share) {
      sent = performance.now();
      this.grant(
        await claimLeases(this.db, this.nodeId, [...this.held.keys()], share - this.held.size, this.ttlMs),
        sent,
      );
    }
    const standing = await standingReservations(
      this.db,
      this.nodeId,
      listening.filter((id) => !this.held.has(id)),
    );
    const reserved = await reserveLeases(this.db, this.nodeId, share - this.held.size - standing.size);
    return {
      extras: [...this.held.keys()].slice(share),
      handed: handed.map((l) => l.sourceId),
      reserved,
      standing,
    };
  }

  /**
   * Offers `sourceIds` to nodes below their share and withdraws the offer of every other lease held; returns
   * the offered sources whose successor already hears their adapter (decision 0971).
   */
  async offer(sourceIds: readonly string[]): Promise<Set<string>> {
    const ready = await offerLeases(this.db, this.nodeId, this.leases(sourceIds), this.leases(), this.ttlMs);
    return new Set(ready.keys());
  }

  /** This node hears the adapters of the sources it reserved: their holders may let go. */
  async ready(sourceIds: readonly string[]): Promise<void> {
    await markSuccessorReady(this.db, this.nodeId, sourceIds);
  }

  /**
   * Mutates: lets go of a lease for its ready successor (everything its source received is stored); false when
   * the offer was withdrawn meanwhile (then `release` it).
   */
  async handTo(sourceId: string): Promise<boolean> {
    const [lease] = this.leases([sourceId]);
    if (!lease || !(await handOverLease(this.db, this.nodeId, lease, this.ttlMs))) return false;
    this.held.delete(sourceId);
    this.onCount(this.held.size);
    return true;
  }

  /** Mutates: hands leases back (their sources are stopped and everything they received is stored). */
  async release(sourceIds: readonly string[]): Promise<void> {
    const leases = this.leases(sourceIds);
    if (leases.length === 0) return;
    await releaseLeases(this.db, this.nodeId, leases);
    for (const l of leases) this.held.delete(l.sourceId);
    this.onCount(this.held.size);
  }

  /**
   * A batch's fence, built now, before the transaction (decision 1177): throws LeaseLostError at once for a source of
   * `sourceIds` whose lease this node no longer holds; else its statement, run in the batch's transaction (in one
   * message with the batch's statements, decision 1199), fails the transaction unless every lease (by the epoch held
   * now) is still this node's, and keeps them so until the transaction ends (FOR KEY SHARE: claims wait, renewals do
   * not). `lost` turns the error of a batch the fence failed into a LeaseLostError.
   */
  fenceOf(sourceIds: Iterable<string>): BatchFence {
    const wanted = [...new Set(sourceIds)];
    const unheld = wanted.filter((id) => !this.held.has(id));
    if (unheld.length > 0) throw new LeaseLostError(unheld);
    const leases = this.leases(wanted);
    return {
      statement: leases.length > 0 ? failingFenceStatement(this.db, this.nodeId, leases) : null,
      lost: (err) => {
        const ids = leasesLostIn(err);
        return ids ? new LeaseLostError(ids) : err;
      },
    };
  }

  /** Leaving on purpose: every lease back, and no longer a live node. */
  async leave(): Promise<void> {
    await this.renewing;
    await this.release([...this.held.keys()]);
    await forgetNode(this.db, this.nodeId);
  }
}
