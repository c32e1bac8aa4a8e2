// The multi-host plant on the netns lab (decision 0975), shared by tests/multihost and bench/soak.ts:
// PostgreSQL on "db"; API nodes "api1", "api2" (TAKT_INGEST=0) behind the proxy on "proxy"; ingest nodes
// "ingest1", "ingest2" (TAKT_INGEST=1; on PostgreSQL they share the machines through leases); the simulated
// adapters on "adapters"; and "solo", the single-node baseline (API and ingest in one process) on a database
// of its own, fed by a second set of adapter ports playing the same script at the same times.
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pg from 'pg';
import { sql } from 'kysely';
import { ensureDemoCompany } from '@takt/api';
import { CONNECTION_KEY, migrateToLatest, openDb } from '@takt/db';
import type { Db } from '@takt/db';
import { demoAdapterFields } from '@takt/ingest';
import type { AdapterHostConfig, AdapterStatus, Phase } from './adapters';
import { NetLab, ROOT, until } from './netns';
import type { Proc } from './netns';

export const HOSTS = ['db', 'proxy', 'api1', 'api2', 'ingest1', 'ingest2', 'adapters', 'solo'] as const;
export type HostName = (typeof HOSTS)[number];
const HTTP_PORT = 8080;
const CONTROL_PORT = 9000;
export const SET_PORTS = { multi: 20_000, solo: 30_000 } as const;
export type SetName = keyof typeof SET_PORTS;
export const ADMIN = { email: 'admin@takt.example', password: 'TaktAdmin1' };

export interface ClusterOptions {
  machines: number;
  phases: Phase[];
  stepMs?: number;
  /** Copy every process's output to stderr. */
  echo?: boolean;
  /**
   * The arrangements to run (default both, side by side): a benchmark may run them one after the other so
   * that each has the machine to itself.
   */
  sets?: readonly SetName[];
}

export interface Cluster {
  lab: NetLab;
  sets: readonly SetName[];
  /** The proxy in front of api1 and api2. */
  proxyUrl: string;
  /** The single-node baseline. */
  soloUrl: string;
  dbs: Record<SetName, Db>;
  procs: Map<HostName, Proc>;
  stepMs: number;
  totalSteps: number;
  /** Start (or start again, after kill9) the product process of a node host. */
  startNode(host: 'api1' | 'api2' | 'ingest1' | 'ingest2' | 'solo'): Promise<Proc>;
  adapters(): Promise<AdapterStatus>;
  /** Start the adapters' script at `at` (epoch ms). */
  play(at: number): Promise<void>;
  /** Write every process's output under a temp folder that outlives the lab; its path. */
  keepLogs(): string;
  destroy(): Promise<void>;
}

/** Observation pairs stored for one database, per machine name and key (the connection log excluded). */
export async function storedObservations(db: Db): Promise<Map<string, Record<string, number>>> {
  const { rows } = await sql<{ name: string; key: string; n: number | string }>`
    SELECT m.name, o.key, COUNT(*) AS n FROM observations o JOIN machines m ON m.id = o.machine_id
    WHERE o.key <> ${CONNECTION_KEY} GROUP BY m.name, o.key`.execute(db.db);
  const out = new Map<string, Record<string, number>>();
  for (const r of rows) out.set(r.name, { ...out.get(r.name), [r.key]: Number(r.n) });
  return out;
}

/** Machine names with a source, in the adapters' port order. */
export async function sourceMachines(db: Db): Promise<Array<{ name: string; port: number }>> {
  const { rows } = await sql<{ name: string; port: number }>`
    SELECT m.name, s.port FROM machine_sources s JOIN machines m ON m.id = s.machine_id ORDER BY s.port`.execute(
    db.db,
  );
  return rows.map((r) => ({ name: r.name, port: Number(r.port) }));
}

async function seed(url: string, machines: number, portBase: number, adaptersHost: string): Promise<Db> {
  const db = openDb(url);
  await migrateToLatest(db.db);
  await ensureDemoCompany(db.db, {
    portBase,
    seed: 20261122,
    machines,
    adapterFields: demoAdapterFields(),
    now: Date.now(),
  });
  await db.db.updateTable('machine_sources').set({ host: adaptersHost }).execute();
  return db;
}

export async function startCluster(options: ClusterOptions): Promise<Cluster> {
  const stepMs = options.stepMs ?? 1000;
  const sets = options.sets ?? (Object.keys(SET_PORTS) as SetName[]);
  const lab = NetLab.create(HOSTS);
  const procs = new Map<HostName, Proc>();
  const dbs: Partial<Record<SetName, Db>> = {};
  const destroy = async () => {
    for (const d of Object.values(dbs)) await d.close().catch(() => {});
    await lab.destroy();
  };
  try {
    const server = await lab.postgres('db');
    procs.set('db', server.proc);
    const admin = new pg.Client({ connectionString: `${server.url}/postgres` });
    await admin.connect();
    for (const name of sets) await admin.query(`CREATE DATABASE takt_${name}`);
    await admin.end();
    const urls = {
      multi: `${server.url}/takt_multi`,
      solo: `${server.url}/takt_solo`,
    } satisfies Record<SetName, string>;
    // The two databases migrate and seed side by side, each on its own connection (decision 1173).
    await Promise.all(
      sets.map(async (name) => {
        dbs[name] = await seed(urls[name], options.machines, SET_PORTS[name], lab.ip('adapters'));
      }),
    );

    const config: AdapterHostConfig = {
      host: lab.ip('adapters'),
      controlPort: CONTROL_PORT,
      machines: options.machines,
      sets: Object.fromEntries(sets.map((name) => [name, SET_PORTS[name]])),
      phases: options.phases,
      stepMs,
    };
    const adapters = await lab.node('adapters', 'tests/multihost/adapters.ts', [JSON.stringify(config)], {
      echo: options.echo ?? false,
    });
    procs.set('adapters', adapters);
    const controlUrl = `http://${lab.ip('adapters')}:${CONTROL_PORT}`;

    const nodeEnv = (host: string): Record<string, string> => ({
      PORT: String(HTTP_PORT),
      HOST: '0.0.0.0',
      TAKT_DEMO: '0',
      TAKT_NODE_ID: host,
      TAKT_MQTT_CLIENT_ID: `takt-${host}`,
      DATABASE_URL: host === 'solo' ? urls.solo : urls.multi,
      TAKT_INGEST: host.startsWith('api') ? '0' : '1',
      // The bundled product finds the apps by its own file's place unless told (bundle.ts).
      TAKT_STATIC_ROOT: ROOT,
    });
    const startNode: Cluster['startNode'] = async (host) => {
      const proc = await lab.node(host, 'services/api/src/main.ts', [], {
        env: nodeEnv(host),
        echo: options.echo ?? false,
      });
      procs.set(host, proc);
      await until(
        () => {
          if (proc.child.exitCode != null) throw new Error(`${host} exited:\n${proc.output()}`);
          return proc.output().includes('[takt] listening on');
        },
        90_000,
        `${host} to listen`,
      );
      return proc;
    };
    const nodes = [
      ...(sets.includes('multi') ? (['api1', 'api2', 'ingest1', 'ingest2'] as const) : []),
      ...(sets.includes('solo') ? (['solo'] as const) : []),
    ];
    await Promise.all(nodes.map(startNode));
    if (sets.includes('multi')) {
      const proxy = await lab.node(
        'proxy',
        'tests/multihost/proxy.ts',
        ['0.0.0.0', String(HTTP_PORT), ...['api1', 'api2'].map((h) => `http://${lab.ip(h)}:${HTTP_PORT}`)],
        { echo: options.echo ?? false },
      );
      procs.set('proxy', proxy);
      await until(() => proxy.output().includes('[proxy] listening'), 30_000, 'the proxy to listen');
    }
    await until(() => adapters.output().includes('[adapters] ready'), 30_000, 'the adapters to listen');

    return {
      lab,
      sets,
      proxyUrl: `http://${lab.ip('proxy')}:${HTTP_PORT}`,
      soloUrl: `http://${lab.ip('solo')}:${HTTP_PORT}`,
      dbs: dbs as Record<SetName, Db>,
      procs,
      stepMs,
      totalSteps: options.phases.reduce((n, p) => n + p.steps, 0),
      startNode,
      adapters: async () => (await (await fetch(`${controlUrl}/status`)).json()) as AdapterStatus,
      play: async (at) => {
        await fetch(`${controlUrl}/start?at=${at}`, { method: 'POST' });
      },
      keepLogs: () => {
        const dir = mkdtempSync(join(tmpdir(), 'takt-multihost-logs-'));
        for (const [i, p] of lab.processes().entries())
          writeFileSync(join(dir, `${i}-${p.host}.log`), p.output());
        return dir;
      },
      destroy,
    };
  } catch (err) {
    await destroy();
    throw err;
  }
}

/** Log in as the demo admin at `url`; the session cookie. */
export async function logIn(url: string): Promise<string> {
  const res = await fetch(`${url}/login`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify(ADMIN),
  });
  if (res.status !== 200) throw new Error(`login at ${url} answered ${res.status}`);
  return res.headers.get('set-cookie')!.split(';')[0]!;
}
