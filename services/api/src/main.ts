// The embedded product in one process: HTTP API and both built apps on one port, ingest workers, and
// (with TAKT_DEMO=1) the simulated demo plant. Configuration comes from the environment (env.ts).
import { fileURLToPath } from 'node:url';
import { isMainThread } from 'node:worker_threads';
import type { SourceAllowance } from '@takt/domain';
import {
  apiRules,
  computeDemoRollups,
  demoAdapterFields,
  demoPlantProfile,
  planDemoHistory,
  playDemoHistory,
  startDemoPlant,
} from '@takt/ingest';
import type { DemoPlant, DemoResume } from '@takt/ingest';
import { buildApp } from './app';
import { migrateToLatest, sqliteFilePath } from '@takt/db';
import { openNodeDatabases } from './databases';
import { parseEnv } from './env';
import { DEMO_LOGINS, ensureAdmin, ensureDemoCompany } from './provision';
import { demoHistoryNeeded, demoMachinePrograms, makeDemoHistory } from './demo-history';
import { DEMO_STAFF_LOGIN, ensureRoot, RootError } from './provision-root';
import { inProcessBus, postgresBus } from './live/bus';
import { mailTransportFor } from './mail/transport';
import { startEventExportWorker } from './services/event-exports';
import { startNotificationWorker } from './notifications/checker';
import { startBenchmarkWorker } from './benchmarking/worker';
import { startRateLimitPruner } from './services/rate-limits';
import { startSimulationCycles } from './workers/simulation-cycles';
import { startRawRetentionWorker } from './workers/raw-retention';
import { jsonLines, textLog } from './http/log';
import { serveApi } from './http/serve';
import { createMetrics } from './http/metrics';
import { INGEST_ARRIVAL_GAP_MS, startNodeIngest } from './node-ingest';
import type { NodeIngest } from './node-ingest';
import { reportThreadsOn } from './node-reports';

async function main(): Promise<void> {
  let env;
  try {
    env = parseEnv(process.env);
  } catch (err) {
    console.error((err as Error).message);
    process.exit(2);
  }
  const now = () => Date.now();
  // Structured logs, one JSON object a line on stdout (decision 0960); workers' text messages become entries.
  const log = jsonLines((line) => process.stdout.write(`${line}\n`), env.LOG_LEVEL);
  const say = textLog(log, 'takt');
  // Decision 1192: on PostgreSQL the ingest has a pool of its own, so a report never waits behind its writes.
  // The ingest's own handle is opened where the ingest runs (node-ingest.ts, decision 1226).
  const databases = openNodeDatabases(env.DATABASE_URL, {
    ...(env.TAKT_DB_POOL_SIZE === undefined ? {} : { api: env.TAKT_DB_POOL_SIZE }),
    ...(env.TAKT_INGEST_DB_POOL_SIZE === undefined ? {} : { ingest: env.TAKT_INGEST_DB_POOL_SIZE }),
    withIngest: false,
    // Decision 1229: on a SQLite file the WAL is checkpointed by a thread of its own, never inside a commit here.
    checkpointer: true,
    log: textLog(log, 'wal'),
  });
  const database = databases.api;
  const applied = await migrateToLatest(database.db);
  say(`[takt] database: ${database.dialect} (${applied.length} migration(s) applied)`);
  const metrics = createMetrics({ db: database.db });

  // Where machine sources may point (decision 0985): TAKT_SOURCE_NETWORKS opens networks beyond the default, and
  // this server's own port is never a source. The demo plant's simulated adapters on this host are opened below,
  // their ports only.
  const sourcePolicy: { allow: SourceAllowance[]; ownPorts: number[] } = {
    allow: env.TAKT_SOURCE_NETWORKS.map((cidr) => ({ cidr })),
    ownPorts: env.PORT > 0 ? [env.PORT] : [],
  };

  let plant: DemoPlant | undefined;
  if (env.TAKT_DEMO) {
    const machines = await ensureDemoCompany(database.db, {
      portBase: env.TAKT_DEMO_PORT_BASE,
      seed: env.TAKT_DEMO_SEED,
      machines: env.TAKT_DEMO_MACHINES,
      adapterFields: demoAdapterFields(),
      now: now(),
    });
    const ports = machines.map((m) => m.port);
    if (ports.length > 0)
      sourcePolicy.allow.push({
        cidr: '127.0.0.1/32',
        ports: { from: Math.min(...ports), to: Math.max(...ports) },
      });
    // The machines run their jobs' programs (decision 1035); on the first start they get a past first.
    const programs = await demoMachinePrograms(
      database.db,
      machines.map((m) => m.machineId),
    );
    const profiled = machines.map((m) => {
      const list = programs.get(m.machineId) ?? [];
      return { ...m, ...(list.length > 0 ? { profile: demoPlantProfile(list) } : {}) };
    });
    let resume = new Map<string, DemoResume>();
    if (env.TAKT_DEMO_DAYS > 0 && (await demoHistoryNeeded(database.db))) {
      resume = await makeDemoHistory(database.db, {
        days: env.TAKT_DEMO_DAYS,
        now,
        // Nobody listens yet: the live bus is made below.
        bus: inProcessBus(),
        machines: profiled,
        programs,
        engine: { plan: planDemoHistory, play: playDemoHistory, rollups: computeDemoRollups },
        say,
      });
    }
    plant = await startDemoPlant({
      machines: profiled.map((m) => ({
        name: m.name,
        port: m.port,
        seed: m.seed,
        ...(m.profile ? { profile: m.profile } : {}),
        ...(resume.has(m.machineId) ? { resume: resume.get(m.machineId)! } : {}),
      })),
      speed: env.TAKT_DEMO_SPEED,
      host: '127.0.0.1',
    });
    say(
      `[takt] demo plant: ${machines.length} simulated machines on SHDR ports ${env.TAKT_DEMO_PORT_BASE}-${env.TAKT_DEMO_PORT_BASE + machines.length - 1}` +
        (env.TAKT_DEMO_SPEED !== 1 ? ` at ${env.TAKT_DEMO_SPEED}x speed` : ''),
    );
  }
  if (env.TAKT_ADMIN_EMAIL && env.TAKT_ADMIN_PASSWORD) {
    const result = await ensureAdmin(database.db, {
      email: env.TAKT_ADMIN_EMAIL,
      password: env.TAKT_ADMIN_PASSWORD,
      now: now(),
    });
    say(`[takt] admin ${env.TAKT_ADMIN_EMAIL}: ${result}`);
  }
  // A way in for staff (decision 1040): TAKT_ROOT_EMAIL, and the demo's staff login when the demo is on.
  const roots = [
    ...(env.TAKT_DEMO ? [{ ...DEMO_STAFF_LOGIN }] : []),
    ...(env.TAKT_ROOT_EMAIL ? [{ email: env.TAKT_ROOT_EMAIL, password: env.TAKT_ROOT_PASSWORD }] : []),
  ];
  for (const root of roots) {
    try {
      say(`[takt] root ${root.email}: ${await ensureRoot(database.db, { ...root, now: now() })}`);
    } catch (err) {
      if (!(err instanceof RootError)) throw err;
      console.error(`[takt] root ${root.email}: ${err.message}`);
      process.exit(2);
    }
  }

  // One process: an in-process bus. PostgreSQL: LISTEN/NOTIFY, so every API process hears every change.
  const bus =
    database.dialect === 'postgres'
      ? await postgresBus(env.DATABASE_URL, textLog(log, 'live'))
      : inProcessBus();

  // Decision 1226: the ingest in a worker thread of this process by default (TAKT_INGEST_THREAD=0: in this loop).
  let ingest: NodeIngest | undefined;
  if (env.TAKT_INGEST) {
    ingest = await startNodeIngest(
      {
        // Its own handle opened as the node's (the ingest's pool size, the checkpointer's options on SQLite).
        ...databases.ingestHandle,
        arrivalGapMs: INGEST_ARRIVAL_GAP_MS,
        sourcePolicy,
        ...(env.TAKT_MQTT_URL ? { mqttUrl: env.TAKT_MQTT_URL } : {}),
        ...(env.TAKT_MQTT_PREFIX ? { mqttPrefix: env.TAKT_MQTT_PREFIX } : {}),
        mqttClientId: env.TAKT_MQTT_CLIENT_ID,
        ...(env.TAKT_NODE_ID ? { nodeId: env.TAKT_NODE_ID } : {}),
      },
      {
        api: database,
        now,
        log: textLog(log, 'ingest'),
        metrics,
        publish: (machines) => {
          bus
            .publish(machines.map((m) => ({ ...m, topic: 'live' as const })))
            .catch((err: Error) => say(`[live] publish failed: ${err.message}`));
        },
      },
      { thread: env.TAKT_INGEST_THREAD },
    );
    say(
      `[takt] ingest: ${ingest.arrangement === 'thread' ? 'in its own thread' : "in the API's event loop"}`,
    );
  }

  // Decision 1253: the reports computed in worker threads of this process when TAKT_REPORT_THREADS asks (none by
  // default), each on its own handle; a file database only (an in-memory one is this handle's alone).
  const reportThreads = sqliteFilePath(env.DATABASE_URL) === ':memory:' ? 0 : (env.TAKT_REPORT_THREADS ?? 0);
  const reports = reportThreadsOn(
    database.db,
    { url: env.DATABASE_URL, externalCheckpoints: databases.ingestHandle.externalCheckpoints },
    reportThreads,
    textLog(log, 'reports'),
  );
  say(
    `[takt] reports: ${reports ? `computed in ${reportThreads} threads` : "computed in the API's event loop"}`,
  );

  // Outgoing mail by SMTP when configured, else kept in the mail_outbox table (decision 0701); queued event
  // exports are built by this process's worker, claimed one by one so several processes can share the queue.
  const mail = mailTransportFor(env);
  say(
    `[takt] mail: ${mail.kind === 'smtp' ? 'SMTP' : 'kept in the mail_outbox table (TAKT_SMTP_URL unset)'}`,
  );
  const exportWorker = startEventExportWorker({ db: database.db, now, mail, log: textLog(log, 'exports') });
  // Machine downtime and utilization notifications (decision 0902): checked here, beside the mail transport and
  // the dashboard figures; in scale-out every API process checks and the episode claim sends each e-mail once.
  const notificationWorker = startNotificationWorker({
    db: database.db,
    now,
    mail,
    log: textLog(log, 'notifications'),
  });
  // Weekly benchmarking e-mails (decision 1110): every API process runs the rounds; the per-user-and-week claim
  // sends each e-mail once.
  const benchmarkWorker = startBenchmarkWorker({
    db: database.db,
    now,
    mail,
    publicUrl: env.TAKT_PUBLIC_URL,
    log: textLog(log, 'benchmarking'),
  });
  // Rate-limit counters whose window is over are dropped now and then (decision 0987).
  const rateLimitPruner = startRateLimitPruner({ db: database.db, now, log: textLog(log, 'rate-limits') });
  // The test screen's automatic cycles (decision 1100): each step claimed, so every API process may run this.
  const simulationCycles = startSimulationCycles({
    db: database.db,
    ingest: apiRules,
    now,
    log: textLog(log, 'simulation'),
  });
  // Raw observations older than TAKT_RAW_RETENTION_DAYS go in slices; PostgreSQL's day partitions (decision 1132).
  const rawRetention = startRawRetentionWorker({
    db: database.db,
    days: env.TAKT_RAW_RETENTION_DAYS,
    now,
    log: textLog(log, 'retention'),
  });

  const staticRoot = env.TAKT_STATIC_ROOT ?? fileURLToPath(new URL('../../../', import.meta.url));
  const { app, injectWebSocket } = buildApp({
    db: database.db,
    dialect: database.dialect,
    now,
    demoMode: env.TAKT_DEMO,
    secureCookies: env.TAKT_SECURE_COOKIES,
    staticRoot,
    bus,
    cyclesDashboardCompany: env.TAKT_CYCLES_DASHBOARD_COMPANY ?? null,
    mail,
    ingest: apiRules,
    metrics,
    log,
    ...(env.TAKT_METRICS_TOKEN ? { metricsToken: env.TAKT_METRICS_TOKEN } : {}),
    frameAncestors: env.TAKT_FRAME_ANCESTORS,
    sourcePolicy,
    publicUrl: env.TAKT_PUBLIC_URL,
    trustedProxies: env.TAKT_TRUSTED_PROXIES,
  });
  const server = serveApi(
    { fetch: app.fetch, port: env.PORT, hostname: env.HOST },
    (info) => {
      const url = `http://localhost:${info.port}`;
      say(`[takt] listening on ${url}`);
      // The demo's start banner stays plain text: it is read by a person at `npm start`, not by a log pipeline.
      if (env.TAKT_DEMO) {
        console.log(`[takt] live plant:   ${url}/dashboards/live/utilization`);
        console.log(`[takt] office app:   ${url}/app`);
        console.log('[takt] demo logins:');
        for (const l of DEMO_LOGINS)
          console.log(`         ${l.role.padEnd(9)} ${l.email}  password: ${l.password}`);
        const staff = DEMO_STAFF_LOGIN;
        console.log(`         ${'staff'.padEnd(9)} ${staff.email}  password: ${staff.password}  (root)`);
      }
    },
    env.TAKT_KEEP_ALIVE_SECONDS * 1000,
  );
  injectWebSocket(server);

  let stopping = false;
  const shutdown = async (signal: string) => {
    if (stopping) return;
    stopping = true;
    say(`[takt] ${signal}: shutting down`);
    server.close();
    await exportWorker.stop();
    await notificationWorker.stop();
    await benchmarkWorker.stop();
    await rateLimitPruner.stop();
    await simulationCycles.stop();
    await rawRetention.stop();
    await ingest?.stop();
    await reports?.stop();
    await plant?.stop();
    await bus.close();
    await databases.close();
    process.exit(0);
  };
  process.on('SIGINT', () => void shutdown('SIGINT'));
  process.on('SIGTERM', () => void shutdown('SIGTERM'));
}

// A bundled product (one file, the end-to-end tests') is also its ingest thread's and report threads' file
// (node-ingest.ts, node-reports.ts): there only ingest-thread.ts or report-thread.ts runs.
if (isMainThread)
  main().catch((err) => {
    console.error('[takt] failed to start:', err);
    process.exit(1);
  });
