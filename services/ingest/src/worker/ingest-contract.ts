// The ingest worker's contract (split from ingest.ts): what `startIngest` is given and
// what it answers with.
import type { Kysely } from 'kysely';
import type { Database } from '@takt/db';
import type { SourcePolicy } from '@takt/domain';
import type { ShdrCounters } from '../sources/shdr/shdr-client';
import type { DispatchHook } from './auto-dispatch';
import type { BatchTimes } from './batch-writer';
import type { LeaseOptions } from './leases';

export interface IngestOptions {
  db: Kysely<Database>;
  now?: () => number;
  /** How often buffered observations, derived records and live rows are written (default 250 ms). */
  flushIntervalMs?: number;
  /**
   * A line arriving starts a batch once the running one ended and at least this long after the last one began, instead
   * of waiting for the flush timer (decision 1163). Default off (null) here; the node (services/api main.ts) sets it
   * (decision 1199).
   */
  arrivalGapMs?: number | null;
  /**
   * How often each source's counters (lines, observations, rejected lines, last line) are written at most: default 40
   * flush periods, 10 s at the default flush, a slice of the sources a batch (decision 1243); `flush()` and `stop()`
   * write them all at once (decision 1145).
   */
  countersIntervalMs?: number;
  /** How often job runs are read for setup, and silent machines re-evaluated (default 5 s). */
  tickIntervalMs?: number;
  log?: (message: string) => void;
  /** Called after each stored batch with the machines it touched (the API fans this out to live sockets). */
  onWritten?: (machines: Array<{ companyId: string; machineId: string }>) => void;
  /** Redial backoff for adapter links. */
  backoff?: { initialMs: number; maxMs: number };
  /** How often stale rollups are recomputed (default 10 s); 0 turns the rollup worker off. */
  rollupIntervalMs?: number;
  /**
   * Each rollup mark waits for the ingest's batches running or asked for (decision 1238; default on). Off: marks run
   * beside the batches, as before (benches compare the two).
   */
  rollupAfterBatches?: boolean;
  /**
   * True while work the node puts first is under way (its report computations, decision 1261): each rollup mark waits
   * for it to end, up to ROLLUP_YIELD_MAX_MS, before it starts. Absent: marks never wait for it.
   */
  rollupYield?: () => boolean;
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
  /**
   * How often the configured sources are re-read (default 5 s), so a source added or changed while the worker
   * runs (the machines admin) is connected without a restart; 0 reads them at start only (decision 0860).
   */
  sourcesIntervalMs?: number;
  /**
   * Several ingest nodes on PostgreSQL share the sources through leases (decision 0970): always on PostgreSQL,
   * as node `nodeId` (TAKT_NODE_ID; default host-pid); tests may shorten the TTL and renewal period. SQLite runs
   * one node and holds no leases.
   */
  leases?: Partial<LeaseOptions>;
  /** Called whenever the number of source leases this node holds changes (the `takt_ingest_leases` gauge). */
  onLeases?: (count: number) => void;
  /**
   * Called after each committed batch that stored observations: how many, the earliest observation time among
   * them and the store time (the `takt_ingest_observations_total` counter and lag histogram; decision 0961), and where
   * the batch's time went (decision 1163).
   */
  onStored?: (count: number, oldestTs: number, at: number, times: BatchTimes) => void;
  /** Late observations refused for being older than the raw retention floor (decision 1132; a /metrics counter). */
  onLateRefused?: (count: number) => void;
  /**
   * Auto job dispatch (decision 1094): called after each committed batch with the stored values that name a job on
   * a machine whose autostartBehavior is mes or key (company setting enable_auto_job_dispatch on); the API starts
   * the named job through its dispatch service.
   */
  onDispatch?: DispatchHook;
  /**
   * A machine whose own write failed while the others' went on, set aside and retried alone (decision 1121; the
   * `takt_ingest_machines_set_aside_total` counter).
   */
  onSetAside?: (machineId: string) => void;
  /** Lines or observations refused for a time outside the window of decision 0980 (`takt_times_refused_total`). */
  onTimeRefused?: (source: string, count: number) => void;
  /**
   * Where SHDR and agent sources may point (decision 0985), checked before every connect; absent: the default,
   * which closes loopback, link-local and the rest. A plant whose adapters run on this host allows them.
   */
  sourcePolicy?: SourcePolicy;
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
  /** Source leases this node holds (PostgreSQL; 0 on SQLite, where one node derives every source). */
  leases(): number;
  /** Read the job runs' setup now, and store what their changes re-derive (tests; the tick does it). */
  syncSetup(): Promise<void>;
}
