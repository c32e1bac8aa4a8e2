import type { Kysely } from 'kysely';
import { Counter, Gauge, Histogram, Registry, collectDefaultMetrics } from 'prom-client';
import type { Database } from '@takt/db';

// Prometheus metrics (decision 0961). One registry per process, made in main.ts (or per test app) and passed
// in through Deps: no module-level registry, so two apps in one test process never share counters.

/**
 * What the ingest worker reports (services/ingest IngestOptions.metrics has this shape; main.ts hands it the
 * one below). Every call is cheap: it runs once per stored batch or lease change, never per observation.
 */
export interface IngestMetricsHooks {
  /**
   * A batch of `count` observations committed at `at`; `oldestTs` is the earliest observation time in it, so
   * `at - oldestTs` is the batch's largest ingest lag.
   */
  observationsStored(count: number, oldestTs: number, at: number): void;
  /** The machine sources this node holds a lease on right now (set after every claim, renewal and release). */
  leasesHeld(count: number): void;
  /** A machine whose own write failed while the others' went on, set aside and retried alone (decision 1121). */
  machineSetAside(): void;
  /** Late observations refused for being older than the raw retention floor (decision 1132). */
  lateRefused(count: number): void;
  /** The node's ingest thread ended without being stopped and is started again (decision 1226). */
  threadRestarted(): void;
}

export interface Metrics {
  registry: Registry;
  /** HTTP answers by method, route pattern (never the raw path) and status. */
  httpDuration: Histogram<'method' | 'route' | 'status'>;
  /** Open live channel and tablet registration sockets. */
  liveSockets: Gauge<'channel'>;
  ingest: IngestMetricsHooks;
  /**
   * Times refused for being outside the window of decision 0980, by source: api (a request), sync (a command),
   * gateway (a pushed record), shdr, mqtt, agent (machine lines), rollup (a dirty mark dropped or clamped).
   */
  timesRefused(source: string, count?: number): void;
  /** One argon2 password check of a login, known e-mail or not (decision 0988). */
  passwordChecked(): void;
  /** What auto job dispatch did with a batch's values (decision 1107): started, unknown job names, refused. */
  autoDispatched(counts: { started: number; unknown: number; refused: number }): void;
}

/** Seconds: HTTP answers take milliseconds; reports and exports may take seconds. */
const HTTP_BUCKETS = [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10];
/** Seconds: a live source's batch is a flush (250 ms) old; an edge back from a day offline is a day late. */
const LAG_BUCKETS = [0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30, 60, 300, 3600, 86_400];

/**
 * The registry with every Takt metric; `db` is where the inbox depth is counted at each scrape, `defaultMetrics`
 * (on unless false) adds prom-client's process metrics (CPU, memory, event loop lag, handles).
 */
export function createMetrics(options: { db: Kysely<Database>; defaultMetrics?: boolean }): Metrics {
  const registry = new Registry();
  if (options.defaultMetrics !== false) collectDefaultMetrics({ register: registry, prefix: 'takt_' });
  const registers = [registry];
  const httpDuration = new Histogram({
    name: 'takt_http_request_duration_seconds',
    help: 'HTTP request latency by method, route pattern and status.',
    labelNames: ['method', 'route', 'status'] as const,
    buckets: HTTP_BUCKETS,
    registers,
  });
  const liveSockets = new Gauge({
    name: 'takt_live_sockets',
    help: 'Open WebSocket connections of this process, by channel (live, tablet-auth).',
    labelNames: ['channel'] as const,
    registers,
  });
  const observations = new Counter({
    name: 'takt_ingest_observations_total',
    help: 'Observations stored (ingest batches and gateway pushes); rate() gives observations per second.',
    registers,
  });
  const lag = new Histogram({
    name: 'takt_ingest_lag_seconds',
    help: 'Largest ingest lag (store time minus observation time) of each stored batch.',
    buckets: LAG_BUCKETS,
    registers,
  });
  const lastLag = new Gauge({
    name: 'takt_ingest_last_lag_seconds',
    help: 'Largest ingest lag of the last stored batch.',
    registers,
  });
  const leases = new Gauge({
    name: 'takt_ingest_leases',
    help: 'Machine sources whose ingest lease this node holds.',
    registers,
  });
  new Gauge({
    name: 'takt_ingest_inbox_depth',
    help: 'Gateway push lines stored and waiting in the inbox to be derived (all nodes).',
    registers,
    async collect() {
      // A database that does not answer keeps the last count: the scrape itself must still succeed (readyz
      // reports the database).
      const row = await options.db
        .selectFrom('ingest_inbox')
        .select((eb) => eb.fn.countAll<number | string>().as('n'))
        .executeTakeFirst()
        .catch(() => undefined);
      if (row) this.set(Number(row.n));
    },
  });
  const setAside = new Counter({
    name: 'takt_ingest_machines_set_aside_total',
    help: "Machines set aside by the ingest batch writer: their own write failed while the other machines' went on.",
    registers,
  });
  const refused = new Counter({
    name: 'takt_times_refused_total',
    help: 'Times outside the accepted window (decision 0980) refused, by source.',
    labelNames: ['source'] as const,
    registers,
  });
  const lateRefused = new Counter({
    name: 'takt_ingest_late_refused_total',
    help: 'Late observations refused: older than the raw retention floor (TAKT_RAW_RETENTION_DAYS, decision 1132).',
    registers,
  });
  const threadRestarts = new Counter({
    name: 'takt_ingest_thread_restarts_total',
    help: 'Times the ingest thread of this node ended without being stopped (an uncaught error) and was started again (decision 1226).',
    registers,
  });
  const autoDispatch = new Counter({
    name: 'takt_auto_dispatch_total',
    help: 'Values of machine data that name a job (auto job dispatch, decision 1107), by outcome: started, unknown (no active job of that name), refused (by the dispatch service).',
    labelNames: ['outcome'] as const,
    registers,
  });
  // Every outcome from the start, so a rate() has a series before the first unknown name.
  for (const outcome of ['started', 'unknown', 'refused']) autoDispatch.inc({ outcome }, 0);
  const passwordChecks = new Counter({
    name: 'takt_login_password_checks_total',
    help: 'Password checks of logins (argon2), unknown e-mails included; a steep rise is someone guessing.',
    registers,
  });
  return {
    registry,
    httpDuration,
    liveSockets,
    passwordChecked() {
      passwordChecks.inc();
    },
    autoDispatched(counts) {
      for (const outcome of ['started', 'unknown', 'refused'] as const)
        if (counts[outcome] > 0) autoDispatch.inc({ outcome }, counts[outcome]);
    },
    timesRefused(source, count = 1) {
      if (count > 0) refused.inc({ source }, count);
    },
    ingest: {
      observationsStored(count, oldestTs, at) {
        if (count <= 0) return;
        observations.inc(count);
        const seconds = Math.max(0, at - oldestTs) / 1000;
        lag.observe(seconds);
        lastLag.set(seconds);
      },
      leasesHeld(count) {
        leases.set(count);
      },
      machineSetAside() {
        setAside.inc();
      },
      lateRefused(count) {
        if (count > 0) lateRefused.inc(count);
      },
      threadRestarted() {
        threadRestarts.inc();
      },
    },
  };
}
