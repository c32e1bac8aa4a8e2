import { performance } from 'node:perf_hooks';
import { PostgresAdapter } from 'kysely';
import { DEFAULT_SOURCE_POLICY } from '@takt/domain';
import { contestedSources } from '../sources/address-policy';
import { agentTransport } from '../sources/agent/transport';
import { drainInbox, INBOX_TAKE } from '../sources/gateway/inbox';
import { MqttSource } from '../sources/mqtt/transport';
import { shdrTransport } from '../sources/shdr/transport';
import type { Transport, TransportEnv } from '../sources/transport';
import { passiveTransport } from '../sources/transport';
import type { DispatchSetting } from './auto-dispatch';
import { loadDispatchSettings } from './auto-dispatch';
import { BatchWriter } from './batch-writer';
import { Link, LinkMap } from './link';
import { checkLinks, syncSetup } from './link-checks';
import { LeaseKeeper, LeaseLostError, defaultNodeId } from './leases';
import { limitedLog } from './log';
import type { FieldMeaning } from './pipeline';
import { rebuild } from './rebuild';
import { RollupWorker } from './rollup';
import { ShadowLink, continueRun } from './shadow';
import type { SourceRow } from './store';
import { loadFieldMaps, loadSources } from './store';

export type { IngestOptions, IngestService } from './ingest-contract';
import type { IngestOptions, IngestService } from './ingest-contract';

/** A link keeps its transport while its source still points at the same place. */
const sameTarget = (a: SourceRow, b: SourceRow) =>
  a.kind === b.kind &&
  a.host === b.host &&
  a.port === b.port &&
  a.baseUrl === b.baseUrl &&
  a.machineRef === b.machineRef;

/**
 * The ingest worker: one link per configured source, fed by its transport (sources/); observations are
 * stored as received and run through the domain engine (packages/domain StateDeriver), whose state
 * intervals, cycles, programs, faults and live signals the batch writer stores in batched transactions.
 * A worker holds in memory only what it needs to derive its own machines; everything other processes need
 * is in the database.
 */
export async function startIngest(options: IngestOptions): Promise<IngestService> {
  const { db } = options;
  const now = options.now ?? Date.now;
  const log = options.log ?? (() => {});
  const env: TransportEnv = {
    now,
    log,
    logLimited: limitedLog(log, now),
    ...(options.backoff ? { backoff: options.backoff } : {}),
    ...(options.onTimeRefused ? { onTimeRefused: options.onTimeRefused } : {}),
    sourcePolicy: options.sourcePolicy ?? DEFAULT_SOURCE_POLICY,
  };
  const links = new LinkMap();
  /** Machines that auto-dispatch (decision 1094), read with the sources (decision 1120). */
  let dispatching = new Map<string, DispatchSetting>();
  let stopped = false;
  const postgres = db.getExecutor().adapter instanceof PostgresAdapter;

  /** Mutates `links`: a source whose lease is gone stops at once, and nothing more of it is stored here. */
  const dropLinks = (sourceIds: readonly string[]) => {
    for (const id of sourceIds) {
      const link = links.get(id);
      if (!link) continue;
      link.detached = true;
      links.delete(id);
      link.transport.stop().catch((err: Error) => log(`[ingest] stopping a source failed: ${err.message}`));
    }
    writer.discard(owned);
  };
  const owned = (machineId: string) => links.ofMachine(machineId).length > 0;
  const keeper = postgres
    ? new LeaseKeeper(
        db,
        { ...options.leases, nodeId: options.leases?.nodeId ?? defaultNodeId() },
        log,
        dropLinks,
        options.onLeases,
      )
    : null;

  const flushEvery = options.flushIntervalMs ?? 250;
  const writer: BatchWriter = new BatchWriter({
    db,
    now,
    log,
    links,
    countersEveryMs: options.countersIntervalMs ?? 40 * flushEvery,
    ...(options.arrivalGapMs != null ? { arrivalGapMs: options.arrivalGapMs } : {}),
    rebuild: (link) =>
      rebuild({
        db,
        link,
        buffered: () => writer.buffered(),
        inbox: writer,
        now,
        log,
        ...(options.onLateRefused ? { refused: options.onLateRefused } : {}),
      }),
    ...(options.onWritten ? { onWritten: options.onWritten } : {}),
    ...(options.onStored ? { onStored: options.onStored } : {}),
    ...(options.onDispatch
      ? { onDispatch: options.onDispatch, dispatchOf: (machineId: string) => dispatching.get(machineId) }
      : {}),
    ...(options.onSetAside ? { onSetAside: options.onSetAside } : {}),
    ...(keeper
      ? {
          owns: owned,
          fence: (machineIds: ReadonlySet<string>) => {
            // Learn now which leases are gone, rather than at the next renewal.
            const lost = (err: unknown) => {
              if (err instanceof LeaseLostError) void keeper.renew();
              return err;
            };
            // A machine whose link is gone (its lease lost while the batch was built) has nothing to fence by.
            const unheld = [...machineIds].filter((m) => !owned(m));
            if (unheld.length > 0) throw lost(new LeaseLostError(unheld));
            try {
              const fence = keeper.fenceOf(
                [...machineIds].flatMap((m) => links.ofMachine(m).map((l) => l.source.sourceId)),
              );
              return { statement: fence.statement, lost: (err: unknown) => lost(fence.lost(err)) };
            } catch (err) {
              throw lost(err);
            }
          },
        }
      : {}),
  });
  const active = () => [...links.values()].filter((l) => !l.detached);

  const mqtt = options.mqttUrl
    ? new MqttSource({
        url: options.mqttUrl,
        ...(options.mqttPrefix ? { prefix: options.mqttPrefix } : {}),
        ...(options.mqttClientId ? { clientId: options.mqttClientId } : {}),
        env,
        links: active,
        committed: (machineId) => writer.committed(machineId),
      })
    : null;

  function transportFor(link: Link): Transport {
    switch (link.source.kind) {
      case 'shdr':
        return shdrTransport(link, env);
      case 'agent':
        return agentTransport(link, env);
      default:
        // MQTT messages and gateway pushes arrive through the worker's MqttSource and inbox drain.
        return passiveTransport();
    }
  }

  /**
   * Adapters this node dials ahead of a graceful hand-over (decision 0971), by source id: their holder still
   * derives them. Mutated by `refresh` only.
   */
  const shadows = new Map<string, ShadowLink>();
  /** When this node first offered each of its extra SHDR sources (local monotonic ms). */
  const offeredSince = new Map<string, number>();

  /** Mutates `shadows`: dials an offered source's adapter; the holder learns it may let go at its first line. */
  function listen(keeper: LeaseKeeper, s: SourceRow, fields: Map<string, FieldMeaning>): void {
    const shadow = new ShadowLink(s, fields, () => {
      keeper
        .ready([s.sourceId])
        .then(() => (shadow.announced = true))
        .catch((err: Error) =>
          log(`[ingest] ${s.machineName}: announcing the hand-over failed: ${err.message}`),
        );
    });
    shadow.transport = shdrTransport(shadow, env);
    shadows.set(s.sourceId, shadow);
  }

  /** Mutates `shadows`: stops listening ahead for a source. */
  async function unlisten(sourceId: string): Promise<void> {
    const shadow = shadows.get(sourceId);
    if (!shadow) return;
    shadows.delete(sourceId);
    await shadow.transport.stop();
  }

  /**
   * Hands a source over to another node (decision 0970): its transport stops without a drop being recorded
   * (the machine's link is not lost, only moved), what it received is stored, then the lease is given back:
   * to the successor that already hears its adapter when there is one (decision 0971), else to any node. If
   * the store fails the lease is kept, and the next round tries again.
   */
  async function handOver(keeper: LeaseKeeper, sourceId: string, toSuccessor: boolean): Promise<void> {
    const link = links.get(sourceId);
    if (link) {
      link.detached = true;
      await link.transport.stop();
      await writer.flush(true);
      if (writer.holds(link.source.machineId) || link.pipeline.pendingFrom != null) {
        log(`[ingest] ${link.source.machineName}: not handed over yet, its last data is not stored`);
        return;
      }
      links.delete(sourceId);
    }
    offeredSince.delete(sourceId);
    if (!toSuccessor || !(await keeper.handTo(sourceId))) await keeper.release([sourceId]);
  }

  /**
   * The sources over this node's share go to other nodes. An SHDR source is offered first and handed over once
   * its successor hears the adapter (make-before-break, decision 0971); other kinds, and an SHDR source nobody
   * took up within two lease periods (a node of an older version), are handed over at once.
   */
  async function handOverExtras(keeper: LeaseKeeper, extras: readonly string[]): Promise<void> {
    const t = performance.now();
    const offered = extras.filter((id) => links.get(id)?.source.kind === 'shdr');
    for (const id of offeredSince.keys()) if (!offered.includes(id)) offeredSince.delete(id);
    for (const id of offered) if (!offeredSince.has(id)) offeredSince.set(id, t);
    const ready = await keeper.offer(offered);
    for (const id of extras) {
      const since = offeredSince.get(id);
      if (ready.has(id)) await handOver(keeper, id, true);
      else if (since == null || t - since > 2 * keeper.ttlMs) await handOver(keeper, id, false);
    }
  }

  async function refresh(): Promise<void> {
    const sources = await loadSources(db);
    if (options.onDispatch) dispatching = await loadDispatchSettings(db);
    // A source on an address another company's older source uses is not dialled (decision 0986); its lease is
    // held like any other, so the nodes' shares stay the same whatever is contested.
    const contested = contestedSources(sources);
    let wanted = new Map(sources.map((s) => [s.sourceId, s]));
    let gone: string[] = [];
    let handed = new Set<string>();
    if (keeper) {
      const plan = await keeper.balance(sources.length, [...shadows.keys()]);
      handed = new Set(plan.handed);
      await handOverExtras(keeper, plan.extras);
      // A reservation withdrawn, or a source claimed after its holder died (a new run, decision 0970).
      for (const id of [...shadows.keys()]) if (!plan.standing.has(id) && !handed.has(id)) await unlisten(id);
      const listenTo = plan.reserved
        .filter((id) => !contested.has(id))
        .map((id) => wanted.get(id))
        .filter((s) => s != null);
      const listenFields = await loadFieldMaps(
        db,
        listenTo.map((s) => s.machineId),
      );
      for (const s of listenTo) listen(keeper, s, listenFields.get(s.machineId) ?? new Map());
      // An announcement that failed is repeated.
      const unannounced = [...shadows.values()].filter((sh) => sh.answered && !sh.announced);
      if (unannounced.length > 0) {
        await keeper.ready(unannounced.map((sh) => sh.source.sourceId));
        for (const sh of unannounced) sh.announced = true;
      }
      gone = keeper
        .leases()
        .map((l) => l.sourceId)
        .filter((id) => !wanted.has(id));
      wanted = new Map([...wanted].filter(([id]) => keeper.holds(id)));
    }
    for (const s of sources.filter((x) => contested.has(x.sourceId) && wanted.has(x.sourceId))) {
      wanted.delete(s.sourceId);
      env.logLimited(
        `${s.sourceId} contested`,
        `[ingest] ${s.machineName}: not connected: its address is the source of another company's machine`,
      );
    }
    for (const [id, link] of links) {
      const s = wanted.get(id);
      // A link detached for a hand-over that could not finish starts afresh if this node keeps the source.
      if (!s || !sameTarget(s, link.source) || link.detached) {
        await link.transport.stop();
        // Several nodes: what it received is stored now, while its lease still covers it (decision 0970).
        if (keeper && !link.detached) await writer.flush(true);
        writer.keepCounts(link);
        links.delete(id);
      }
    }
    // Leases of sources no longer in service go back once what their links received is stored.
    if (keeper && gone.length > 0) await keeper.release(gone);
    const fresh = [...wanted.values()].filter((s) => !links.has(s.sourceId));
    const fieldMaps = await loadFieldMaps(
      db,
      fresh.map((s) => s.machineId),
    );
    for (const s of fresh) {
      const fields: Map<string, FieldMeaning> = fieldMaps.get(s.machineId) ?? new Map();
      const link = new Link(s, fields, now(), writer);
      const shadow = shadows.get(s.sourceId);
      if (shadow) {
        shadows.delete(s.sourceId);
        // Handed over by a holder that stored everything up to here: the stored run goes on (decision 0971).
        const taken =
          handed.has(s.sourceId) && sameTarget(s, shadow.source)
            ? await continueRun(db, link, shadow, now, (l) => links.set(s.sourceId, l))
            : null;
        if (taken != null) {
          log(`[ingest] ${s.machineName}: continues the run handed over (${taken} line(s) heard meanwhile)`);
          continue;
        }
        await shadow.transport.stop();
      }
      link.transport = transportFor(link);
      links.set(s.sourceId, link);
    }
    writer.setupApplied(await syncSetup(db, links.values(), now));
  }

  // One refresh at a time: two overlapping reads would both see a new source as missing and link it twice.
  let refreshing: Promise<void> = Promise.resolve();
  const refreshInTurn = (): Promise<void> => {
    const next = refreshing.then(() => (stopped ? undefined : refresh()));
    refreshing = next.catch(() => {});
    return next;
  };

  // PostgreSQL: every node runs a rollup worker, and each dirty mark is claimed by one of them.
  const rollups = new RollupWorker(
    db,
    now,
    log,
    postgres,
    options.onTimeRefused,
    options.rollupAfterBatches === false ? undefined : () => writer.afterBatches(),
    options.rollupYield,
  );
  // Tests and shutdown: everything, the sources' counters included (decision 1145).
  const flush = () => writer.flush(true);
  // Decision 1025: the job runs' setup is read between batches (never while a rebuild reads the pipelines), and
  // the marks it applied are cleared by the batch that stores what they re-derive.
  const setupInTurn = () =>
    writer.enqueue(
      async () => writer.setupApplied(await syncSetup(db, links.values(), now)),
      (err) => log(`[ingest] reading job runs failed: ${err.message}`),
    );

  let ticked = false;
  const tick = () => {
    // The links the tick changes (a heartbeat, a gateway's link lost) mark themselves for the batch (decision 1203).
    checkLinks(db, links.values(), now, mqtt?.status).catch((err: Error) =>
      log(`[ingest] checking gateway links failed: ${err.message}`),
    );
    setupInTurn();
    if (ticked) return;
    ticked = true;
    // Said once (decision 1223): the batch after the first tick's setup read has stored what that read re-derived.
    void writer.flush().then(
      () => log(`[ingest] first tick stored: ${links.size} machine source(s), job runs' setup read`),
      () => {},
    );
  };

  if (keeper) await keeper.renew();
  await refreshInTurn();
  mqtt?.start();
  // Renewal runs on its own timer, never queued behind a refresh; the balance (claims, hand-overs) follows it.
  const leaseTimer = keeper
    ? setInterval(() => {
        void keeper
          .renew()
          .then(() => refreshInTurn())
          .catch((err: Error) => log(`[ingest] balancing the sources failed: ${err.message}`));
      }, keeper.renewMs)
    : null;
  const sourcesEvery = options.sourcesIntervalMs ?? 5000;
  const sourcesTimer =
    sourcesEvery > 0
      ? setInterval(() => {
          refreshInTurn().catch((err: Error) => log(`[ingest] reading the sources failed: ${err.message}`));
        }, sourcesEvery)
      : null;
  const inboxTimer = setInterval(() => {
    writer.enqueue(
      () => drainInbox(db, active(), writer, options.inboxTake ?? INBOX_TAKE),
      (err) => log(`[ingest] reading the gateway inbox failed: ${err.message}`),
    );
  }, options.inboxIntervalMs ?? 500);
  const flushTimer = setInterval(() => void writer.flush(), flushEvery);
  const tickTimer = setInterval(tick, options.tickIntervalMs ?? 5000);
  const rollupEvery = options.rollupIntervalMs ?? 10_000;
  const rollupTimer = rollupEvery > 0 ? setInterval(() => void rollups.run(), rollupEvery) : null;
  log(`[ingest] deriving ${links.size} machine source(s)`);

  return {
    refresh: refreshInTurn,
    flush,
    rollUp: () => rollups.run(),
    counters: () => new Map([...links].map(([id, l]) => [id, l.transport.counters])),
    leases: () => keeper?.count ?? 0,
    async syncSetup() {
      setupInTurn();
      await flush();
    },
    async stop() {
      if (stopped) return;
      stopped = true;
      writer.close();
      clearInterval(flushTimer);
      clearInterval(tickTimer);
      if (rollupTimer) clearInterval(rollupTimer);
      if (sourcesTimer) clearInterval(sourcesTimer);
      clearInterval(inboxTimer);
      if (leaseTimer) clearInterval(leaseTimer);
      await refreshing;
      await mqtt?.stop();
      await Promise.all([...shadows.keys()].map((id) => unlisten(id)));
      await Promise.all([...links.values()].map((l) => l.transport.stop()));
      // The rollup run going ends before the caller closes the handle (its marks wait for the batches, decision 1238).
      await rollups.stop();
      await flush();
      // Another node takes the sources over at its next round instead of after the leases expire.
      await keeper
        ?.leave()
        .catch((err: Error) => log(`[ingest] giving the leases back failed: ${err.message}`));
    },
  };
}
