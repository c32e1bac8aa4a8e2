import type { Kysely } from 'kysely';
import type { Database } from '@takt/api/db';
import { MachinePipeline } from './pipeline';
import type { FieldMeaning } from './pipeline';
import { parseShdrLine } from './shdr';
import type { KeyKind, Observation as RawObservation } from './shdr';
import { keyKindsFromFields } from './devices';
import type { Device } from './devices';
import { DEFAULT_MQTT_PREFIX, parseMqttTopic } from './mqtt-payload';
import { ShdrClient } from './shdr-client';
import type { ShdrCounters } from './shdr-client';
import type { DerivedWrite, IngestBatch, ObservationRow, SourceRow } from './store';
import {
  conditionText,
  CONNECTION_KEY,
  loadFieldMaps,
  loadObservationsSince,
  loadSetupEvents,
  loadSources,
  rebuildStart,
  inboxIdsOf,
  takeInbox,
  writeBatch,
} from './store';
import { AgentClient } from './agent-client';
import { MqttSubscriber } from './mqtt';
import { clearDirty, loadCalendar, recomputeRollups, takeDirty } from '@takt/api/rollups';

export interface IngestOptions {
  db: Kysely<Database>;
  now?: () => number;
  /** How often buffered observations, derived records and live rows are written (default 250 ms). */
  flushIntervalMs?: number;
  /** How often job runs are read for setup, and silent machines re-evaluated (default 5 s). */
  tickIntervalMs?: number;
  log?: (message: string) => void;
  /** Called after each stored batch with the machines it touched (the API fans this out to live sockets). */
  onWritten?: (machines: Array<{ companyId: string; machineId: string }>) => void;
  /** Redial backoff for adapter links. */
  backoff?: { initialMs: number; maxMs: number };
  /** How often stale rollups are recomputed (default 10 s); 0 turns the rollup worker off. */
  rollupIntervalMs?: number;
  /** MQTT broker for machines with MQTT sources (topic scheme: docs/decisions/0200-mqtt-topics.md). */
  mqttUrl?: string;
  mqttPrefix?: string;
  /**
   * A fixed MQTT client id gives the worker a persistent session: QoS 1 messages it had not acknowledged
   * (not yet stored) when it died are delivered again when it comes back (decision 0200).
   */
  mqttClientId?: string;
  /** How often pushed gateway lines are taken from the inbox (default 500 ms). */
  inboxIntervalMs?: number;
  /** How many pushed lines one take derives (default 5000). */
  inboxTake?: number;
}

export interface IngestService {
  /** Re-read the configured sources: connect new ones, drop removed ones. */
  refresh(): Promise<void>;
  /** Recompute stale rollups now (tests). */
  rollUp(): Promise<void>;
  /** Write everything buffered now (tests and shutdown). */
  flush(): Promise<void>;
  stop(): Promise<void>;
  /** Live counters per source id. */
  counters(): Map<string, ShdrCounters>;
}

/** A source's transport: an SHDR socket, an agent poller, or nothing of its own (MQTT, gateway inbox). */
interface Transport {
  status: 'CONNECTING' | 'CONNECTED' | 'DISCONNECTED';
  counters: ShdrCounters;
  stop(): Promise<void>;
}

interface Link {
  source: SourceRow;
  transport: Transport;
  pipeline: MachinePipeline;
  fields: Map<string, FieldMeaning>;
  /** What each key is, from the adapter's field mapping: how the SHDR parser reads its tokens. */
  kinds: ReadonlyMap<string, KeyKind>;
  /** Counters as of the last stored batch (a copy: some transports count into one object in place). */
  flushed: ShdrCounters;
  /** The live row changed since the last write. */
  liveDirty: boolean;
  /** Agent: the position reached by buffered observations, saved with them. */
  agentPosition?: { instanceId: string; nextSequence: number };
}

/** Inbox lines derived per drain. */
const INBOX_TAKE = 5000;

/** Refusals and unknown machines are logged at most once per key this often (a flood must not flood the log). */
const LOG_EVERY_MS = 60_000;

/** A rebuild for late data reads at most this far back from it to find the state it starts from. */
const REBUILD_MAX_MS = 7 * 24 * 3_600_000;

const noCounters = (): ShdrCounters => ({
  lines: 0,
  observations: 0,
  rejected: 0,
  rejectedLines: 0,
  lastLineAt: null,
});

export { CONNECTION_KEY } from './store';

export { conditionText } from './store';

/** Read stored observations back into the raw form (for re-deriving history after very late data). */
export function storedToRaw(row: {
  ts: number;
  key: string;
  value: string | null;
}): RawObservation | 'connected' | 'disconnected' | null {
  if (row.key === CONNECTION_KEY) return row.value === 'CONNECTED' ? 'connected' : 'disconnected';
  const cond = row.value && /^(NORMAL|WARNING|FAULT|UNAVAILABLE)\|/i.exec(row.value);
  if (cond && row.value) {
    const parsed = parseShdrLine(`|${row.key}|${row.value}`, row.ts, () => 'condition');
    if (parsed.type === 'data' && parsed.observations[0]) return { ...parsed.observations[0], ts: row.ts };
  }
  return { ts: row.ts, key: row.key, value: row.value, kind: 'value' };
}

/** Mutates the pipeline: feeds it stored observations (in time order), connection changes included. */
export function feedStored(
  pipeline: MachinePipeline,
  rows: ReadonlyArray<{ ts: number; key: string; value: string | null }>,
): void {
  for (const r of rows) {
    const raw = storedToRaw(r);
    if (raw === 'connected' || raw === 'disconnected')
      pipeline.setConnection(raw === 'connected' ? 'CONNECTED' : 'DISCONNECTED', r.ts);
    else if (raw) pipeline.pushRaw([raw], r.ts);
  }
}

/**
 * The ingest worker: one SHDR link per configured source; observations are stored as received and run
 * through the domain engine (packages/domain StateDeriver), whose state intervals, cycles, programs,
 * faults and live signals are written in batched transactions. A worker holds in memory only what it needs
 * to derive its own machines; everything other processes need is in the database.
 */
export async function startIngest(options: IngestOptions): Promise<IngestService> {
  const { db } = options;
  const now = options.now ?? Date.now;
  const log = options.log ?? (() => {});
  /** Mutates `logged`: logs the first message per key, then at most once per LOG_EVERY_MS with the count held back. */
  const logged = new Map<string, { at: number; held: number }>();
  const logLimited = (key: string, message: string) => {
    const t = now();
    const last = logged.get(key);
    if (last && t - last.at < LOG_EVERY_MS) {
      last.held++;
      return;
    }
    logged.set(key, { at: t, held: 0 });
    log(last && last.held > 0 ? `${message} (and ${last.held} more like it)` : message);
  };
  const links = new Map<string, Link>();
  let observations: ObservationRow[] = [];
  let flushing: Promise<void> = Promise.resolve();
  /** Batches taken from the buffers, and the last of them that committed (batches commit in order). */
  let takenBatches = 0;
  let committedBatches = 0;
  let stopped = false;

  /** Observations as received: stored unless the push already stored them, and derived. */
  function received(link: Link, raw: readonly RawObservation[], at: number, store: boolean): void {
    const { source } = link;
    link.liveDirty = true;
    const values = raw.filter((o) => o.kind !== 'asset');
    if (store) {
      for (const o of values) {
        const value = o.kind === 'condition' && o.condition ? conditionText(o.condition) : o.value;
        observations.push({
          company_id: source.companyId,
          machine_id: source.machineId,
          ts: o.ts,
          key: o.key,
          value,
        });
      }
    }
    if (values.length > 0) link.pipeline.pushRaw(values, at);
    else link.pipeline.heartbeat(at);
  }

  function connection(link: Link, status: Transport['status'], at: number): void {
    link.pipeline.setConnection(status, at);
    link.liveDirty = true;
    if (status !== 'CONNECTING') {
      observations.push({
        company_id: link.source.companyId,
        machine_id: link.source.machineId,
        ts: at,
        key: CONNECTION_KEY,
        value: status,
      });
    }
  }

  /** A transport for sources fed from outside the worker (MQTT messages, gateway pushes). */
  function passive(): Transport {
    return { status: 'CONNECTING', counters: noCounters(), stop: async () => {} };
  }

  function shdrTransport(link: Link): Transport {
    const { source } = link;
    const client = new ShdrClient({
      host: source.host,
      port: source.port,
      keyKinds: link.kinds,
      now,
      ...(options.backoff ? { backoff: options.backoff } : {}),
      onStatus: (status, at) => connection(link, status, at),
      onLine: (line) => {
        const at = now();
        if (line.type !== 'data') {
          link.liveDirty = true;
          link.pipeline.heartbeat(at);
        } else received(link, line.observations, at, true);
      },
      onError: (err) => log(`[ingest] ${source.machineName} (${source.host}:${source.port}): ${err.message}`),
    });
    client.start();
    return {
      get status() {
        return client.status;
      },
      get counters() {
        return client.counters;
      },
      stop: () => client.stop(),
    };
  }

  function agentTransport(link: Link): Transport {
    const { source } = link;
    let status: Transport['status'] = 'CONNECTING';
    const counters = noCounters();
    const name = `agent ${source.baseUrl} (${source.machineName})`;
    // The client's own counts of what it could not read, as far as they are in `counters` already.
    let seen = { rejected: 0, rejectedDocuments: 0 };
    /** Mutates `counters`: a document with unreadable observations is one rejected line; an unusable one too. */
    const countRejects = () => {
      const c = client.counters;
      const bad = c.rejected - seen.rejected;
      const badDocuments = c.rejectedDocuments - seen.rejectedDocuments;
      seen = { rejected: c.rejected, rejectedDocuments: c.rejectedDocuments };
      counters.rejected += bad + badDocuments;
      counters.rejectedLines += badDocuments + (bad > 0 ? 1 : 0);
      if (badDocuments > 0) {
        counters.lines += badDocuments;
        counters.lastLineAt = now();
      }
      if (bad > 0)
        logLimited(`${source.sourceId} rejected`, `[ingest] ${name}: ${bad} unreadable observation(s)`);
    };
    /** Fields of the agent's /probe stand in for an adapter mapping the machine does not have. */
    let fieldsFromProbe = link.fields.size === 0;
    const onProbe = (devices: Device[]) => {
      if (!fieldsFromProbe) return;
      // Mutates link.fields in place: the pipeline (and a rebuild's) reads the same map.
      link.fields.clear();
      for (const item of devices.flatMap((d) => d.dataItems)) {
        const meaning = { type: item.type.toUpperCase(), subType: item.subType };
        if (!link.fields.has(item.id)) link.fields.set(item.id, meaning);
        if (item.name !== null) link.fields.set(item.name, meaning);
      }
      fieldsFromProbe = true;
    };
    const client = new AgentClient({
      baseUrl: source.baseUrl ?? '',
      intervalMs: source.pollIntervalMs ?? 1000,
      now,
      ...(options.backoff ? { backoff: options.backoff } : {}),
      loadSequence: () =>
        source.agentInstanceId != null && source.agentNextSequence != null
          ? { instanceId: source.agentInstanceId, nextSequence: source.agentNextSequence }
          : null,
      // Saved with the batch's observations in one transaction (writeOut), so a crash repeats, never skips.
      saveSequence: (position) => {
        link.agentPosition = position;
      },
      onObservations: (obs) => {
        const at = now();
        counters.lines += 1;
        counters.observations += obs.length;
        counters.lastLineAt = at;
        countRejects();
        received(link, obs, at, true);
      },
      onProbe,
      // Data the agent's buffer dropped before we read it is lost for good: say so (the agent's /current
      // gives the present state, so derivation goes on).
      onGap: (gap) =>
        log(
          gap.reason === 'overrun'
            ? `[ingest] ${name}: the agent's buffer moved past sequence ${gap.wanted}` +
                (gap.firstSequence != null
                  ? `; ${gap.firstSequence - gap.wanted} observation(s) lost`
                  : '; observations lost') +
                ', continuing from /current'
            : `[ingest] ${name}: the agent restarted (instance ${gap.previousInstanceId} → ${gap.instanceId ?? '?'}), continuing from /current`,
        ),
      onStatus: (s, at) => {
        const next = s === 'CONNECTED' || s === 'DISCONNECTED' ? s : 'CONNECTING';
        if (next !== status) connection(link, next, at);
        status = next;
      },
      onError: (err) => {
        countRejects();
        log(`[ingest] ${name}: ${err.message}`);
      },
    });
    client.start();
    return {
      get status() {
        return status;
      },
      counters,
      stop: () => client.stop(),
    };
  }

  function open(source: SourceRow, fields: Map<string, FieldMeaning>): Link {
    const link = {
      source,
      fields,
      kinds: keyKindsFromFields(fields),
      pipeline: new MachinePipeline(source.companyId, source.machineId, fields, source.cycleSource, now()),
      flushed: noCounters(),
      liveDirty: true,
    } as Link;
    link.transport =
      source.kind === 'shdr'
        ? shdrTransport(link)
        : source.kind === 'agent'
          ? agentTransport(link)
          : passive();
    return link;
  }

  const sameTarget = (a: SourceRow, b: SourceRow) =>
    a.kind === b.kind &&
    a.host === b.host &&
    a.port === b.port &&
    a.baseUrl === b.baseUrl &&
    a.machineRef === b.machineRef;

  async function refresh(): Promise<void> {
    const sources = await loadSources(db);
    const wanted = new Map(sources.map((s) => [s.sourceId, s]));
    for (const [id, link] of links) {
      const s = wanted.get(id);
      if (!s || !sameTarget(s, link.source)) {
        await link.transport.stop();
        links.delete(id);
      }
    }
    const fresh = sources.filter((s) => !links.has(s.sourceId));
    const fieldMaps = await loadFieldMaps(
      db,
      fresh.map((s) => s.machineId),
    );
    for (const s of fresh) links.set(s.sourceId, open(s, fieldMaps.get(s.machineId) ?? new Map()));
    await syncSetup();
  }

  /** MQTT: one subscriber for the worker; messages go to the machine their topic names. */
  let mqtt: MqttSubscriber | null = null;
  const mqttLink = (companyRef: string, machineRef: string) =>
    [...links.values()].find(
      (l) =>
        l.source.kind === 'mqtt' && l.source.machineRef === machineRef && l.source.companyRef === companyRef,
    );
  const mqttPrefix = options.mqttPrefix ?? DEFAULT_MQTT_PREFIX;
  if (options.mqttUrl) {
    mqtt = new MqttSubscriber({
      url: options.mqttUrl,
      ...(options.mqttPrefix ? { prefix: options.mqttPrefix } : {}),
      ...(options.mqttClientId ? { clientId: options.mqttClientId } : {}),
      now,
      keyKinds: (companyRef, machineRef) => mqttLink(companyRef, machineRef)?.kinds,
      // QoS 1: the broker's message is acknowledged when this resolves, so resolve only once what it
      // carried is committed (a worker killed before that gets the message again).
      onObservations: async (machineRef, obs, rejected, meta) => {
        const link = mqttLink(meta.companyRef, machineRef);
        if (!link) return unknownMqttMachine(meta.companyRef, machineRef);
        // A message is the MQTT source's line: one with anything rejected is one rejected line.
        const c = link.transport.counters;
        c.lines += 1;
        c.observations += obs.length;
        c.rejected += rejected;
        if (rejected > 0) c.rejectedLines += 1;
        c.lastLineAt = meta.receivedAt;
        if (link.transport.status !== 'CONNECTED') {
          link.transport.status = 'CONNECTED';
          connection(link, 'CONNECTED', meta.receivedAt);
        }
        received(link, obs, meta.receivedAt, true);
        await committed(takenBatches);
      },
      // A message refused whole (bad topic, oversized payload, bad status word): counted against its machine
      // when the topic names one we derive, and logged either way.
      onRejected: (topic, reason) => {
        const refs = parseMqttTopic(topic, mqttPrefix);
        const link = refs && mqttLink(refs.companyRef, refs.machineRef);
        if (link) {
          const c = link.transport.counters;
          c.lines += 1;
          c.rejected += 1;
          c.rejectedLines += 1;
          c.lastLineAt = now();
        }
        logLimited(
          link ? `${link.source.sourceId} refused` : 'mqtt refused',
          `[ingest] mqtt: refused a message on ${JSON.stringify(topic.slice(0, 200))}${link ? ` (${link.source.machineName})` : ''}: ${reason}`,
        );
      },
      onMachineStatus: (machineRef, online, meta) => {
        const link = mqttLink(meta.companyRef, machineRef);
        if (!link) return unknownMqttMachine(meta.companyRef, machineRef);
        link.transport.status = online ? 'CONNECTED' : 'DISCONNECTED';
        connection(link, link.transport.status, meta.receivedAt);
      },
      onError: (err) => log(`[ingest] mqtt: ${err.message}`),
    });
  }

  function unknownMqttMachine(companyRef: string, machineRef: string): void {
    logLimited(
      `mqtt unknown ${companyRef}/${machineRef}`,
      `[ingest] mqtt: no machine has MQTT source ${companyRef}/${machineRef}; its messages are dropped`,
    );
  }

  /** Gateway pushes wait in the inbox (already stored by the API); derive them in arrival order. */
  let inboxDone: string[] = [];
  async function drainInbox(): Promise<void> {
    const byMachine = new Map(
      [...links.values()].filter((l) => l.source.kind === 'gateway').map((l) => [l.source.machineId, l]),
    );
    if (byMachine.size === 0) return;
    const rows = await takeInbox(db, [...byMachine.keys()], options.inboxTake ?? INBOX_TAKE);
    // Lines taken but not yet deleted (their batch is not written yet) come back in the next take.
    const pending = new Set(inboxDone);
    for (const r of rows) {
      if (pending.has(r.id)) continue;
      const link = byMachine.get(r.machine_id);
      if (!link) continue;
      if (link.transport.status !== 'CONNECTED') {
        link.transport.status = 'CONNECTED';
        connection(link, 'CONNECTED', r.received_at);
      }
      const parsed = parseShdrLine(r.line, r.received_at, link.kinds);
      const c = link.transport.counters;
      c.lines += 1;
      c.lastLineAt = r.received_at;
      if (parsed.type === 'data') {
        c.observations += parsed.observations.length;
        c.rejected += parsed.rejected;
        if (parsed.rejected > 0) c.rejectedLines += 1;
      }
      if (parsed.type === 'data') received(link, parsed.observations, r.received_at, false);
      else link.pipeline.heartbeat(r.received_at);
      inboxDone.push(r.id);
    }
  }

  /** The setup flow lives in job runs (written by the API); feed its START/END events to each machine. */
  async function syncSetup(): Promise<void> {
    const byMachine = new Map([...links.values()].map((l) => [l.source.machineId, l]));
    const events = await loadSetupEvents(db, [...byMachine.keys()], now() - 24 * 3_600_000);
    for (const [machineId, list] of events) {
      const link = byMachine.get(machineId);
      if (link) link.pipeline.setSetup(list); // the pipeline passes on only the events it has not seen
      if (link && link.pipeline.dirty) link.liveDirty = true;
    }
  }

  /**
   * Late data older than the engine's memory: re-derive the machine from the start of the run holding it
   * (its latest connection change before the late data, at most REBUILD_MAX_MS back), from what is stored
   * plus what this batch is about to store (an adapter's late lines are still in the buffer; a gateway's
   * were stored by the push), then replace what was stored from the late data's time on.
   */
  async function rebuild(link: Link): Promise<void> {
    const old = link.pipeline;
    const { machineId } = link.source;
    const lateFrom = () => Math.min(old.rebuildFrom!, old.pendingFrom ?? Infinity);
    const gateway = link.source.kind === 'gateway';
    let from = lateFrom();
    // A push stores a line's observations and its inbox row in one transaction: the inbox rows seen before
    // the observations are read are all in what is read.
    let covered = gateway ? await inboxIdsOf(db, machineId) : undefined;
    let runStart = await rebuildStart(db, machineId, from, from - REBUILD_MAX_MS);
    let stored = await loadObservationsSince(db, machineId, runStart);
    // Lines keep arriving (into the old pipeline) while we read: more late data may have come meanwhile.
    while (lateFrom() < from) {
      from = lateFrom();
      covered = gateway ? await inboxIdsOf(db, machineId) : undefined;
      runStart = await rebuildStart(db, machineId, from, from - REBUILD_MAX_MS);
      stored = await loadObservationsSince(db, machineId, runStart);
    }
    // From here on nothing awaits, so every observation is in `stored`, in the buffer, or arrives later
    // into the new pipeline.
    const pending = observations.filter((o) => o.machine_id === machineId);
    let start = runStart;
    for (const o of pending) if (o.key === CONNECTION_KEY && o.ts <= from && o.ts > start) start = o.ts;
    const rows = [...stored, ...pending].filter((o) => o.ts >= start);
    // Stable: equal times keep their stored, then arrival, order.
    rows.sort((a, b) => a.ts - b.ts);
    const fresh = new MachinePipeline(
      link.source.companyId,
      machineId,
      link.fields,
      link.source.cycleSource,
      now(),
    );
    feedStored(fresh, rows);
    fresh.setSetup(old.knownSetupEvents());
    fresh.setConnection(link.transport.status, now());
    fresh.continueStoredHistory();
    fresh.replaceFrom(from);
    link.pipeline = fresh;
    if (covered) {
      // The inbox lines the rebuild read are in its history already (fed again, they would be late data once
      // more, and a backlog larger than one take would rebuild once per take): the batch that writes the
      // rebuilt records removes them, and until then a take skips them.
      const done = new Set(inboxDone);
      for (const id of covered) if (!done.has(id)) inboxDone.push(id);
    }
    log(
      `[ingest] ${link.source.machineName}: re-derived history from ${new Date(start).toISOString()} after late data at ${new Date(from).toISOString()}`,
    );
  }

  async function writeOut(): Promise<void> {
    const t = now();
    for (const l of links.values()) {
      if (l.pipeline.rebuildFrom == null) continue;
      try {
        await rebuild(l);
      } catch (err) {
        // The database is unreachable: write nothing now (the batch would fail as well) and rebuild at the
        // next flush. A timer's flush must never reject: that would be an unhandled rejection.
        log(`[ingest] re-deriving ${l.source.machineName} failed, will retry: ${(err as Error).message}`);
        return;
      }
    }
    const derived: Array<{ link: Link; write: DerivedWrite }> = [];
    for (const l of links.values()) {
      const taken = l.pipeline.take(t);
      if (taken)
        derived.push({
          link: l,
          write: { companyId: l.source.companyId, machineId: l.source.machineId, ...taken },
        });
    }
    const live = [...links.values()].filter((l) => l.liveDirty);
    // A gateway push counts its own lines when it stores them.
    const stats = [...links.values()]
      .filter((l) => l.source.kind !== 'gateway')
      .map((l) => {
        // A copy: passive and agent transports count into one object in place, and what arrives while the
        // batch is written belongs to the next delta.
        const c = { ...l.transport.counters };
        return {
          link: l,
          c,
          delta: {
            sourceId: l.source.sourceId,
            lines: c.lines - l.flushed.lines,
            observations: c.observations - l.flushed.observations,
            // Stored as the issue's "rejected lines": a line with any rejected token counts once.
            rejected: c.rejectedLines - l.flushed.rejectedLines,
            lastLineAt: c.lastLineAt,
          },
        };
      })
      .filter((s) => s.delta.lines > 0);
    const positions = [...links.values()].filter((l) => l.agentPosition);
    const done = inboxDone;
    if (
      observations.length === 0 &&
      derived.length === 0 &&
      live.length === 0 &&
      stats.length === 0 &&
      done.length === 0 &&
      positions.length === 0
    )
      return;
    const batch: IngestBatch = {
      now: t,
      inboxDone: done,
      agentPositions: positions.map((l) => ({ sourceId: l.source.sourceId, ...l.agentPosition! })),
      observations,
      derived: derived.map((d) => d.write),
      live: live.map((l) => l.pipeline.liveRow(t, derived.find((d) => d.link === l)?.write.result)),
      stats: stats.map((s) => s.delta),
    };
    // Swap buffers before the write, so lines arriving meanwhile go to the next batch.
    const batchNo = ++takenBatches;
    observations = [];
    inboxDone = [];
    for (const l of positions) delete l.agentPosition;
    for (const l of live) l.liveDirty = false;
    try {
      await writeBatch(db, batch);
      committedBatches = batchNo;
      for (const s of stats) s.link.flushed = s.c;
      for (const d of derived) d.link.pipeline.stored(t);
      if (options.onWritten) {
        const touched = new Map<string, { companyId: string; machineId: string }>();
        for (const o of batch.observations)
          touched.set(o.machine_id, { companyId: o.company_id, machineId: o.machine_id });
        for (const l of batch.live)
          touched.set(l.machine_id, { companyId: l.company_id, machineId: l.machine_id });
        options.onWritten([...touched.values()]);
      }
    } catch (err) {
      // Keep everything for the next attempt: nothing received from an adapter is dropped on a transient
      // database error.
      observations = batch.observations.concat(observations);
      inboxDone = done.concat(inboxDone);
      for (const p of batch.agentPositions ?? []) {
        const l = links.get(p.sourceId);
        if (l && !l.agentPosition)
          l.agentPosition = { instanceId: p.instanceId, nextSequence: p.nextSequence };
      }
      for (const d of derived) d.link.pipeline.retake(d.write.from);
      for (const l of live) l.liveDirty = true;
      log(`[ingest] write failed, will retry: ${(err as Error).message}`);
    }
  }

  const flush = () => (flushing = flushing.then(writeOut));

  /**
   * Resolves once a batch taken after batch `after` committed: whatever was received before this call is
   * stored. A failed write keeps its data for the next one, so wait and flush again; rejects when the
   * worker stops first (the MQTT message then stays unacknowledged, and the broker delivers it again).
   */
  async function committed(after: number): Promise<void> {
    for (let delay = 50; ; delay = Math.min(delay * 2, 2000)) {
      await flush();
      if (committedBatches > after) return;
      if (stopped) throw new Error('ingest stopped before the data was stored');
      await new Promise((resolve) => setTimeout(resolve, delay));
      // A stopped worker writes nothing more (its last flush was stop's).
      if (stopped) throw new Error('ingest stopped before the data was stored');
    }
  }

  /**
   * The rollup worker: recompute the report buckets of machines marked dirty (by ingest or by the API
   * after annotations, rejects and job changes). Any worker may take any mark; a recompute is idempotent.
   */
  let rolling = false;
  async function rollUp(): Promise<void> {
    if (rolling) return;
    rolling = true;
    try {
      const marks = await takeDirty(db, 50);
      const calendars = new Map<string, Awaited<ReturnType<typeof loadCalendar>>>();
      for (const mark of marks) {
        let calendar = calendars.get(mark.company_id);
        if (!calendar) calendars.set(mark.company_id, (calendar = await loadCalendar(db, mark.company_id)));
        const t = now();
        await recomputeRollups(db, {
          companyId: mark.company_id,
          machineId: mark.machine_id,
          from: mark.from_at,
          to: t,
          now: t,
          calendar,
        });
        await clearDirty(db, mark.machine_id, mark.marked_at);
      }
    } catch (err) {
      log(`[ingest] rollup recompute failed, will retry: ${(err as Error).message}`);
    } finally {
      rolling = false;
    }
  }

  const tick = () => {
    // Silent machines: the engine applies the 5-minute heartbeat rule when the live row is rebuilt.
    for (const l of links.values()) l.liveDirty = true;
    syncSetup().catch((err: Error) => log(`[ingest] reading job runs failed: ${err.message}`));
  };

  await refresh();
  if (mqtt) await mqtt.start();
  const inboxTimer = setInterval(() => {
    flushing = flushing
      .then(drainInbox)
      .catch((err: Error) => log(`[ingest] reading the gateway inbox failed: ${err.message}`));
  }, options.inboxIntervalMs ?? 500);
  const flushTimer = setInterval(() => void flush(), options.flushIntervalMs ?? 250);
  const tickTimer = setInterval(tick, options.tickIntervalMs ?? 5000);
  const rollupEvery = options.rollupIntervalMs ?? 10_000;
  const rollupTimer = rollupEvery > 0 ? setInterval(() => void rollUp(), rollupEvery) : null;
  log(`[ingest] deriving ${links.size} machine source(s)`);

  return {
    refresh,
    flush,
    rollUp,
    counters: () => new Map([...links].map(([id, l]) => [id, l.transport.counters])),
    async stop() {
      if (stopped) return;
      stopped = true;
      clearInterval(flushTimer);
      clearInterval(tickTimer);
      if (rollupTimer) clearInterval(rollupTimer);
      clearInterval(inboxTimer);
      await mqtt?.stop();
      await Promise.all([...links.values()].map((l) => l.transport.stop()));
      await flush();
    },
  };
}
