import type { Kysely } from 'kysely';
import type { Database, MachineLiveTable } from '@takt/api/db';
import { HEARTBEAT_TIMEOUT_MS } from '@takt/domain';
import { LiveTracker } from './live-tracker';
import type { StateChangeEvent } from './live-tracker';
import { ShdrClient } from './shdr-client';
import type { ShdrCounters } from './shdr-client';
import type { IngestBatch, ObservationRow, SourceRow, StateChange } from './store';
import { loadFieldMaps, loadLiveRows, loadShdrSources, writeBatch } from './store';

export interface IngestOptions {
  db: Kysely<Database>;
  now?: () => number;
  /** How often buffered observations and live rows are written (default 250 ms). */
  flushIntervalMs?: number;
  /** How often silent machines are re-evaluated for the 5-minute heartbeat rule (default 5 s). */
  tickIntervalMs?: number;
  log?: (message: string) => void;
  /** Called after each stored batch with the machines it touched (the API fans this out to live sockets). */
  onWritten?: (machines: Array<{ companyId: string; machineId: string }>) => void;
  /** Redial backoff for adapter links. */
  backoff?: { initialMs: number; maxMs: number };
}

export interface IngestService {
  /** Re-read the configured sources: connect new ones, drop removed ones. */
  refresh(): Promise<void>;
  /** Write everything buffered now (tests and shutdown). */
  flush(): Promise<void>;
  stop(): Promise<void>;
  /** Live counters per source id. */
  counters(): Map<string, ShdrCounters>;
}

interface Link {
  source: SourceRow;
  client: ShdrClient;
  tracker: LiveTracker;
  flushed: ShdrCounters;
}

/**
 * The ingest worker: one SHDR link per configured source, observations and derived state changes written
 * in batched transactions. What a worker keeps in memory is only what it needs to derive states for the
 * machines it serves; everything others need is in the database.
 */
export async function startIngest(options: IngestOptions): Promise<IngestService> {
  const { db } = options;
  const now = options.now ?? Date.now;
  const log = options.log ?? (() => {});
  const links = new Map<string, Link>();
  let observations: ObservationRow[] = [];
  let stateChanges: StateChange[] = [];
  let flushing: Promise<void> = Promise.resolve();
  let stopped = false;

  const recordChange = (link: Link, change: StateChangeEvent | null) => {
    if (change)
      stateChanges.push({ companyId: link.source.companyId, machineId: link.source.machineId, ...change });
  };

  function open(
    source: SourceRow,
    fieldTypes: Map<string, string>,
    previous: MachineLiveTable | undefined,
  ): Link {
    const tracker = new LiveTracker(source.companyId, source.machineId, fieldTypes, previous, now());
    const link: Link = {
      source,
      tracker,
      flushed: { lines: 0, observations: 0, rejected: 0, rejectedLines: 0, lastLineAt: null },
      client: new ShdrClient({
        host: source.host,
        port: source.port,
        now,
        ...(options.backoff ? { backoff: options.backoff } : {}),
        onStatus: (status, at) => {
          recordChange(link, link.tracker.setConnection(status, at));
          if (status === 'CONNECTED') link.tracker.heartbeat(at);
        },
        onLine: (line) => {
          const at = now();
          link.tracker.heartbeat(at);
          if (line.type !== 'data') return;
          for (const o of line.observations) {
            if (o.kind === 'asset') continue;
            const value = o.kind === 'condition' && o.condition ? conditionText(o.condition) : o.value;
            observations.push({
              company_id: source.companyId,
              machine_id: source.machineId,
              ts: o.ts,
              key: o.key,
              value,
            });
          }
          recordChange(link, link.tracker.apply(line.observations, at));
        },
        onError: (err) =>
          log(`[ingest] ${source.machineName} (${source.host}:${source.port}): ${err.message}`),
      }),
    };
    return link;
  }

  async function refresh(): Promise<void> {
    const sources = await loadShdrSources(db);
    const wanted = new Map(sources.map((s) => [s.sourceId, s]));
    for (const [id, link] of links) {
      const s = wanted.get(id);
      if (!s || s.host !== link.source.host || s.port !== link.source.port) {
        await link.client.stop();
        links.delete(id);
      }
    }
    const fresh = sources.filter((s) => !links.has(s.sourceId));
    const machineIds = fresh.map((s) => s.machineId);
    const [fieldMaps, liveRows] = await Promise.all([
      loadFieldMaps(db, machineIds),
      loadLiveRows(db, machineIds),
    ]);
    for (const s of fresh) {
      const link = open(s, fieldMaps.get(s.machineId) ?? new Map(), liveRows.get(s.machineId));
      links.set(s.sourceId, link);
      link.client.start();
    }
  }

  async function writeOut(): Promise<void> {
    const live = [...links.values()].filter((l) => l.tracker.dirty);
    const stats = [...links.values()]
      .map((l) => {
        const c = l.client.counters;
        const delta = {
          sourceId: l.source.sourceId,
          lines: c.lines - l.flushed.lines,
          observations: c.observations - l.flushed.observations,
          rejected: c.rejected - l.flushed.rejected,
          lastLineAt: c.lastLineAt,
        };
        return { link: l, c, delta };
      })
      .filter((s) => s.delta.lines > 0);
    if (observations.length === 0 && stateChanges.length === 0 && live.length === 0 && stats.length === 0)
      return;
    const batch: IngestBatch = {
      observations,
      stateChanges,
      live: live.map((l) => l.tracker.live),
      stats: stats.map((s) => s.delta),
    };
    // Swap buffers before the write, so lines arriving meanwhile go to the next batch.
    observations = [];
    stateChanges = [];
    for (const l of live) l.tracker.dirty = false;
    try {
      await writeBatch(db, batch);
      for (const s of stats) s.link.flushed = s.c;
      if (options.onWritten) {
        const touched = new Map<string, { companyId: string; machineId: string }>();
        for (const o of batch.observations)
          touched.set(o.machine_id, { companyId: o.company_id, machineId: o.machine_id });
        for (const l of batch.live)
          touched.set(l.machine_id, { companyId: l.company_id, machineId: l.machine_id });
        options.onWritten([...touched.values()]);
      }
    } catch (err) {
      // Keep the batch for the next attempt: nothing acknowledged by the adapter link is dropped on a
      // transient database error.
      observations = batch.observations.concat(observations);
      stateChanges = batch.stateChanges.concat(stateChanges);
      for (const l of live) l.tracker.dirty = true;
      log(`[ingest] write failed, will retry: ${(err as Error).message}`);
    }
  }

  const flush = () => (flushing = flushing.then(writeOut));

  const tick = () => {
    const t = now();
    for (const link of links.values()) {
      const hb = link.tracker.live.last_heartbeat;
      if (hb != null && t - hb > HEARTBEAT_TIMEOUT_MS)
        recordChange(link, link.tracker.evaluate(hb + HEARTBEAT_TIMEOUT_MS, t));
    }
  };

  await refresh();
  const flushTimer = setInterval(() => void flush(), options.flushIntervalMs ?? 250);
  const tickTimer = setInterval(tick, options.tickIntervalMs ?? 5000);
  log(`[ingest] listening to ${links.size} SHDR adapter(s)`);

  return {
    refresh,
    flush,
    counters: () => new Map([...links].map(([id, l]) => [id, l.client.counters])),
    async stop() {
      if (stopped) return;
      stopped = true;
      clearInterval(flushTimer);
      clearInterval(tickTimer);
      await Promise.all([...links.values()].map((l) => l.client.stop()));
      await flush();
    },
  };
}

function conditionText(c: { level: string; nativeCode: string; message: string }): string {
  return [c.level, c.nativeCode, c.message].filter((p) => p !== '').join('|');
}
