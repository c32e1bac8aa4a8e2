import type { Observation } from './observations';

/**
 * Link evidence (METRICS.md §1). A value holds until it changes: an idle or faulted machine that says
 * nothing for an hour is idle or faulted for that hour. A machine becomes UNAVAILABLE only because the link
 * to it is known to be gone, and each kind of source has its own evidence for that:
 *
 * - `shdr`: the socket closed, or the adapter answered `* PING` with `* PONG <ms>` and then went silent for
 *   more than 2 × <ms> (the reference agent's rule). An adapter that never answers PING has no heartbeat:
 *   only the socket (TCP keep-alive) tells that it is gone.
 * - `agent`: the agent answers no more (a request fails or times out), or it says a data item is UNAVAILABLE
 *   (what an agent reports for every item of a device whose adapter it lost).
 * - `mqtt`: the edge's status topic says OFFLINE (its last will, published by the broker when the
 *   publisher's session is gone).
 * - `gateway`: the gateway's edge health turns NotReporting (no push or ping for GATEWAY_RESPONSE_TIMEOUT_MS).
 * - `replay`: a recorded log has no link at all; its gaps keep the last state.
 * - `simulator`: the office test screen's simulated execution (decision 1100): its lines are stamped and stored
 *   by the API as a gateway's; it is stopped by an UNAVAILABLE it sends.
 */
export type SourceKind = 'shdr' | 'agent' | 'mqtt' | 'gateway' | 'replay' | 'simulator';

/**
 * reports-admin §9: a gateway whose last response is older than this is not reporting (edge health
 * NotReporting); its machines' link is gone from then on.
 */
export const GATEWAY_RESPONSE_TIMEOUT_MS = 300_000;

/**
 * SHDR: how long the link may be silent before it is dropped: 2 × the adapter's PONG interval; null for an
 * adapter that never answered PING (no heartbeat: silence proves nothing, only the socket does).
 */
export function shdrSilenceLimitMs(pongIntervalMs: number | null): number | null {
  return pongIntervalMs === null ? null : 2 * pongIntervalMs;
}

/**
 * Gateway: when the edge health turned NotReporting, the time its machines' link is gone (null while it
 * reports, or when it never did: a gateway that never pushed has no link that could drop).
 */
export function gatewayLinkLostAt(lastResponse: number | null, now: number): number | null {
  if (lastResponse === null || !Number.isFinite(lastResponse)) return null;
  const lostAt = lastResponse + GATEWAY_RESPONSE_TIMEOUT_MS;
  return now > lostAt ? lostAt : null;
}

/** How each kind of source orders link events among its data (see LinkClock). */
const ORDER_BY_ARRIVAL: Readonly<Record<SourceKind, { drops: boolean; dataAfterDrop: boolean }>> = {
  shdr: { drops: true, dataAfterDrop: true },
  agent: { drops: true, dataAfterDrop: true },
  mqtt: { drops: true, dataAfterDrop: true },
  // An edge buffers what it reads while the server cannot hear it: its backlog keeps the times the edge
  // recorded, so the lines it pushes after a drop fill the gap with what really happened.
  gateway: { drops: true, dataAfterDrop: false },
  // Stored with the API's stamps before it is derived, as a gateway's lines are.
  simulator: { drops: true, dataAfterDrop: false },
  // A recorded log is read in recorded time.
  replay: { drops: false, dataAfterDrop: false },
};

/** The source said it has no value for availability or execution (the agent's UNAVAILABLE). */
export function saysUnavailable(o: Observation): boolean {
  return (
    (o.key === 'availability' || o.key === 'execution') && (o.value === null || o.value === 'UNAVAILABLE')
  );
}

/**
 * Places link events among the data of one source in the order they were received (METRICS.md §1). Adapter
 * and agent clocks differ, so a drop can be stamped earlier than data that was received before it: the drop
 * takes effect no earlier than the last observation received before it (1 ms after it, so that observation
 * stays before the drop in the engine's order), and only what is received after the drop ends it (data
 * received after a drop is placed no earlier than the drop). Data stamped ahead of its receipt (a source clock
 * ahead of ours) is placed at its receipt, and ahead of it only by the milliseconds that keep receipts apart
 * (see `data`).
 *
 * A connection starts a run (decision 0201): data received on it is placed no earlier than the connect. An
 * agent's /current re-announces every value with the time it last changed (often long before), and samples
 * buffered while no worker listened carry their own times; the previous run's stored history already covers
 * that time, and a new run that reached back into it would overlap records it cannot re-derive.
 *
 * Mutable, one per machine source. The times it returns are the ones to store, so that re-deriving from
 * storage places everything exactly where the live derivation did.
 */
export class LinkClock {
  private readonly rules: { drops: boolean; dataAfterDrop: boolean };
  /** The latest time given to data received so far. */
  private lastData = -Infinity;
  /** The time of the latest drop or connect received (for sources whose later data must not precede it). */
  private lastLinkChange = -Infinity;
  /** The last data was placed later than it was stamped (see `data`). */
  private moved = false;
  /** The time given to the moved data of the current receipt, once there is some. */
  private receiptTime: number | null = null;

  constructor(readonly kind: SourceKind) {
    this.rules = ORDER_BY_ARRIVAL[kind];
  }

  /** Mutates: the time of observation `o`, received at `receivedAt` (a link event: when it was detected). */
  place(o: Observation, receivedAt: number): number {
    if (o.key === 'connection') return o.value === 'DISCONNECTED' ? this.drop(o.ts) : this.connect(o.ts);
    if (saysUnavailable(o)) return this.drop(o.ts > receivedAt ? receivedAt : o.ts);
    return this.data(o.ts, receivedAt);
  }

  /**
   * Mutates: what is placed next arrived together, until the next call: one SHDR line, one agent document,
   * one MQTT message. A receipt is one instant of the source (an agent's /current is a snapshot), so data
   * of one receipt that has to be moved (see `data`) is moved to one time.
   */
  receipt(): void {
    this.receiptTime = null;
  }

  /**
   * Mutates: the time of data stamped `ts` and received at `receivedAt`. Data stamped before the last link
   * change loses its stamp but not its order: each receipt of it is placed just after everything placed so
   * far (the first at the link change), and so are the receipts after it until their stamps pass what was
   * placed. Two receipts never share a millisecond, so neither their order nor a (ts, key) row is lost when
   * a connect is noted after the source already stamped its first lines. Data stamped ahead of its receipt is
   * placed at its receipt, unless an earlier receipt holds that millisecond: then just after everything placed,
   * as a moved receipt is. Two lines of an adapter a millisecond ahead of us, read within the millisecond the
   * first was stamped, were stored at one time (decision 1154).
   */
  data(ts: number, receivedAt: number): number {
    const ahead = ts > receivedAt;
    const stamp = ahead ? receivedAt : ts;
    let t = stamp;
    if (this.rules.dataAfterDrop) {
      if (stamp < this.lastLinkChange || (stamp <= this.lastData && (this.moved || ahead))) {
        this.receiptTime ??= Math.max(this.lastLinkChange, this.lastData + 1);
        t = this.receiptTime;
      }
      // The rest of a receipt stamped ahead goes where its first data went (its items stay together).
      if (ahead) this.receiptTime ??= t;
      this.moved = t > stamp;
    }
    if (t > this.lastData) this.lastData = t;
    return t;
  }

  /** Mutates: the time of a drop detected, or stamped by the source, at `at`. */
  drop(at: number): number {
    const t = this.rules.drops && at <= this.lastData ? this.lastData + 1 : at;
    if (t > this.lastLinkChange) this.lastLinkChange = t;
    this.linkChanged();
    return t;
  }

  /** Mutates: the time of a connect detected at `at` (a new run begins there). */
  connect(at: number): number {
    if (at > this.lastLinkChange) this.lastLinkChange = at;
    this.linkChanged();
    return at;
  }

  private linkChanged(): void {
    this.moved = false;
    this.receiptTime = null;
  }

  /**
   * Mutates: records an observation already placed (read back from storage) without moving it; `o` is
   * undefined for data the engine has no meaning for.
   */
  seen(ts: number, o?: Observation): void {
    this.linkChanged();
    if (o?.key === 'connection' || (o && saysUnavailable(o))) {
      if (ts > this.lastLinkChange) this.lastLinkChange = ts;
    } else if (ts > this.lastData) this.lastData = ts;
  }
}
