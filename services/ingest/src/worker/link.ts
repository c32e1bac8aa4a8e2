import { CONNECTION_KEY, conditionText } from '@takt/db';
import type { MachineLiveTable } from '@takt/db';
import { keyKindsFromFields } from '../sources/devices/devices';
import type { KeyKind, Observation as RawObservation } from '../sources/shdr/shdr';
import type { ShdrCounters } from '../sources/shdr/shdr-client';
import type { LinkInput, Transport, TransportStatus } from '../sources/transport';
import { noCounters } from '../sources/transport';
import { MachinePipeline } from './pipeline';
import type { FieldMeaning } from './pipeline';
import type { ObservationRow, SourceRow } from './store';

/** Where a link's observations wait for the next batch (worker/batch-writer.ts). */
export interface ObservationSink {
  add(row: ObservationRow): void;
  /**
   * The link has something for the next batch to take (its pipeline changed, its live row or its agent position):
   * the batch visits only the links marked so, not every link the node holds (decision 1203).
   */
  touch?(link: Link): void;
}

/**
 * One configured source as the worker derives it: its transport, its machine's pipeline, and what the next
 * batch writes for it. Mutates the pipeline and the sink it is given; nothing else.
 */
export class Link implements LinkInput {
  readonly kinds: ReadonlyMap<string, KeyKind>;
  /** Set right after construction: a transport is made for its link (worker/ingest.ts). */
  transport!: Transport;
  /** Replaced whole when late data re-derives the machine's history (worker/rebuild.ts). */
  pipeline: MachinePipeline;
  /** Counters as of the last stored batch (a copy: some transports count into one object in place). */
  flushed: ShdrCounters = noCounters();
  /** The live row changed since the last write (set through `liveDirty`, which marks the link for the batch). */
  private live = true;
  /** The live row this link last wrote (a row that would not change what readers see is not written again). */
  liveStored?: MachineLiveTable;
  /** Agent: the position reached by buffered observations, saved with them. */
  agentPosition?: { instanceId: string; nextSequence: number };
  /**
   * The node no longer derives this source (its lease was handed over or lost, decision 0970): whatever the
   * transport still reports, its closing socket included, is neither derived nor stored. The next holder's
   * first write takes the machine's history over from its own connect.
   */
  detached = false;
  /** Its place among the links of the node (LinkMap): a batch takes the links it visits in this order. */
  order = 0;

  constructor(
    readonly source: SourceRow,
    readonly fields: Map<string, FieldMeaning>,
    now: number,
    private readonly out: ObservationSink,
  ) {
    this.kinds = keyKindsFromFields(fields);
    this.pipeline = new MachinePipeline(
      source.companyId,
      source.machineId,
      fields,
      source.cycleSource,
      source.kind,
      now,
    );
    // Its first batch writes its live row (the link is connecting).
    out.touch?.(this);
  }

  get liveDirty(): boolean {
    return this.live;
  }

  /** Marking the live row changed marks the link for the next batch (decision 1203). */
  set liveDirty(dirty: boolean) {
    this.live = dirty;
    if (dirty) this.out.touch?.(this);
  }

  /** Something else of the pipeline changed (a setup event, a re-derivation asked): the next batch visits the link. */
  touch(): void {
    this.out.touch?.(this);
  }

  received(raw: readonly RawObservation[], at: number, store: boolean): void {
    if (this.detached) return;
    const { source } = this;
    this.liveDirty = true;
    const values = raw.filter((o) => o.kind !== 'asset');
    // First placed among the link's events (pushRaw mutates their times), then stored as placed.
    if (values.length > 0) this.pipeline.pushRaw(values, at);
    else this.pipeline.heartbeat(at);
    if (store) {
      for (const o of values) {
        const value = o.kind === 'condition' && o.condition ? conditionText(o.condition) : o.value;
        this.out.add({
          company_id: source.companyId,
          machine_id: source.machineId,
          ts: o.ts,
          key: o.key,
          value,
        });
      }
    }
  }

  connection(status: TransportStatus, at: number): void {
    if (this.detached) return;
    const placed = this.pipeline.setConnection(status, at);
    this.liveDirty = true;
    if (status !== 'CONNECTING') {
      this.out.add({
        company_id: this.source.companyId,
        machine_id: this.source.machineId,
        ts: placed,
        key: CONNECTION_KEY,
        value: status,
      });
    }
  }

  heartbeat(at: number, markLive = true): void {
    if (this.detached) return;
    if (this.pipeline.heartbeat(at)) this.touch();
    if (markLive) this.liveDirty = true;
  }

  savePosition(position: { instanceId: string; nextSequence: number }): void {
    if (this.detached) return;
    this.agentPosition = position;
    this.touch();
  }
}

/**
 * The worker's links by source id, with an index by machine kept as they come and go: what a batch asks of a
 * machine (its link, whether this node still derives it) is a lookup, not a pass over every link (decision 1120).
 */
export class LinkMap extends Map<string, Link> {
  private readonly machines = new Map<string, Link[]>();
  private placed = 0;

  override set(sourceId: string, link: Link): this {
    const old = super.get(sourceId);
    if (old) this.unindex(old);
    // A link replacing another takes its place in the map's order (Map keeps a key where it was first set).
    link.order = old ? old.order : ++this.placed;
    super.set(sourceId, link);
    // Map's constructor calls set before the index field exists (never with entries here).
    const list = this.machines?.get(link.source.machineId);
    if (list) list.push(link);
    else this.machines?.set(link.source.machineId, [link]);
    return this;
  }

  override delete(sourceId: string): boolean {
    const old = super.get(sourceId);
    if (old) this.unindex(old);
    return super.delete(sourceId);
  }

  override clear(): void {
    this.machines.clear();
    super.clear();
  }

  /** The links of a machine (usually one), oldest first. */
  ofMachine(machineId: string): readonly Link[] {
    return this.machines.get(machineId) ?? [];
  }

  private unindex(link: Link): void {
    const list = this.machines.get(link.source.machineId);
    if (!list) return;
    const rest = list.filter((l) => l !== link);
    if (rest.length > 0) this.machines.set(link.source.machineId, rest);
    else this.machines.delete(link.source.machineId);
  }
}
