import type { Kysely } from 'kysely';
import type { Database } from '@takt/db';
import { keyKindsFromFields } from '../sources/devices/devices';
import type { KeyKind, Observation as RawObservation } from '../sources/shdr/shdr';
import type { LinkInput, Transport, TransportStatus } from '../sources/transport';
import type { Link } from './link';
import { MachinePipeline } from './pipeline';
import type { FieldMeaning } from './pipeline';
import { REBUILD_MAX_MS, feedStored } from './rebuild';
import type { SourceRow } from './store';
import { lastConnectionChange, loadObservationsSince } from './store';

/** Lines kept while waiting for a hand-over; past this the wait is given up and the source starts a new run. */
const MAX_HEARD = 100_000;

/**
 * An SHDR adapter this node dials ahead of a graceful hand-over (decision 0971), while the lease's holder still
 * derives and stores it (an adapter serves several clients). What it hears waits here, neither derived nor
 * stored, until the holder has stored its last batch and freed the lease for this node; `continueRun` then
 * gives the socket to the node's link. Mutable: the lines heard, and the link once attached.
 */
export class ShadowLink implements LinkInput {
  readonly kinds: ReadonlyMap<string, KeyKind>;
  /** Set right after construction: the adapter's SHDR transport, fed into this shadow. */
  transport!: Transport;
  /** Each receipt as the transport gave it: the observations and when they arrived. */
  private heard: Array<{ observations: RawObservation[]; at: number }> = [];
  private target: Link | null = null;
  /** The adapter answered (any line): its holder may let go, nothing it sends from now on is missed here. */
  answered = false;
  /** The holder was told so. */
  announced = false;
  /**
   * The link dropped (or waited too long) before the hand-over: lines may be missing here, so the source is
   * not continued but starts a new run, as after a takeover.
   */
  broken = false;

  constructor(
    readonly source: SourceRow,
    readonly fields: Map<string, FieldMeaning>,
    /** Called at the adapter's first line (the node tells the holder it is ready). */
    private readonly onAnswer: () => void,
  ) {
    this.kinds = keyKindsFromFields(fields);
  }

  private answer(): void {
    if (this.answered || this.broken) return;
    this.answered = true;
    this.onAnswer();
  }

  received(raw: readonly RawObservation[], at: number, store: boolean): void {
    if (this.target) {
      this.target.received(raw, at, store);
      return;
    }
    this.answer();
    if (this.broken) return;
    this.heard.push({ observations: [...raw], at });
    if (this.heard.length > MAX_HEARD) this.break();
  }

  connection(status: TransportStatus, at: number): void {
    if (this.target) this.target.connection(status, at);
    else if (status === 'DISCONNECTED') this.break();
  }

  heartbeat(at: number, markLive?: boolean): void {
    if (this.target) this.target.heartbeat(at, markLive);
    else this.answer();
  }

  savePosition(position: { instanceId: string; nextSequence: number }): void {
    this.target?.savePosition(position);
  }

  /** Mutates: lines may be missing from here on; nothing heard is kept. */
  private break(): void {
    this.broken = true;
    this.heard = [];
  }

  /** Mutates: the transport feeds `link` from now on; returns what was heard before. */
  attach(link: Link): ReadonlyArray<{ observations: RawObservation[]; at: number }> {
    this.target = link;
    link.transport = this.transport;
    const heard = this.heard;
    this.heard = [];
    return heard;
  }
}

/**
 * The receiving side of a graceful hand-over (decision 0971): `link` continues the machine's stored run instead
 * of starting a new one. Its pipeline is derived from the run's stored observations (from its last connection
 * change, as a rebuild reads it), then the lines the shadow heard are fed after them: those stamped at or before
 * the last stored observation were stored by the previous holder and are dropped, later ones are derived and
 * stored. No connection row is stored: the adapter never lost its link. Returns how many lines heard were taken
 * on; null, changing nothing, when the run cannot be continued (lines may be missing from the shadow, or the
 * stored run is not connected): the caller then starts a new run. Mutates `link` (pipeline, transport,
 * counters) and `shadow`. `place` puts the link among the node's links once the run is continued, before any line
 * reaches it: a line fed here may start a batch at once (decision 1199), and a batch drops the buffered lines of a
 * machine the node holds no link of (decision 1212).
 */
export async function continueRun(
  db: Kysely<Database>,
  link: Link,
  shadow: ShadowLink,
  now: () => number,
  place: (link: Link) => void,
): Promise<number | null> {
  const { companyId, machineId } = link.source;
  const at = now();
  // A run whose connect lies beyond the rebuild window cannot be continued (its pipeline would start without
  // a link): known before reading up to a week of its observations.
  const runStart = await lastConnectionChange(
    db,
    companyId,
    machineId,
    Number.MAX_SAFE_INTEGER,
    at - REBUILD_MAX_MS,
  );
  if (runStart === null) return null;
  const stored = await loadObservationsSince(db, companyId, machineId, runStart);
  // From here on nothing awaits: every line the adapter sends is either heard already or arrives at the link.
  const last = stored.at(-1)?.ts;
  if (last == null || shadow.broken || shadow.transport.status !== 'CONNECTED') return null;
  const pipeline = new MachinePipeline(
    link.source.companyId,
    machineId,
    link.fields,
    link.source.cycleSource,
    link.source.kind,
    at,
  );
  feedStored(pipeline, stored);
  if (pipeline.linkStatus !== 'CONNECTED') return null;
  pipeline.continueStoredHistory();
  // Records ending at or before the last stored observation are the previous holder's and stay as stored: this
  // derivation of the run has no seed, so one ending there may be an older run's, closed by the takeover at the
  // run's first machine data (decision 1065), which it cannot derive again.
  pipeline.replaceFrom(last + 1);
  link.pipeline = pipeline;
  place(link);
  const heard = shadow.attach(link);
  // Lines received but dropped here were counted by the previous holder.
  const counted = { ...link.transport.counters };
  let taken = 0;
  for (const r of heard) {
    // Where the link clock places them (never ahead of their receipt): compared with what is stored as placed.
    const fresh = r.observations.filter((o) => Math.min(o.ts, r.at) > last);
    if (fresh.length === 0) continue;
    taken++;
    counted.lines--;
    counted.observations -= fresh.length;
    link.received(fresh, r.at, true);
  }
  link.flushed = counted;
  return taken;
}
