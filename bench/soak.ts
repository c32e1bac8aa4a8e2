// Soak benchmark: N simulated SHDR machines at 1 Hz for M minutes on PostgreSQL, on the multi-host lab of
// tests/multihost (network namespaces; run as root): 2 ingest and 2 API nodes behind the proxy, then, in
// the same invocation and on the same adapter script, a single node (API and ingest in one process) on a
// database of its own as the baseline. Prints ingest lag p99, line → tile p99, RSS growth of every node and
// PostgreSQL size per machine-day, each against the single node. Not a test.
// Also prints each node's CPU per 1,000 observations a second stored (user + system time over the run, from /proc):
// the share of one core a node spends on 1,000 machines × 1 Hz. `solo` as the third argument runs only the single
// node (a shorter check). Prints the dashboard's answer time too; with TAKT_SOAK_SAMPLES=<path> it writes
// <path>.<set>.json: every tile sample, failed or slow (> 2 s) dashboard answers, statements running over a second
// (with the dead rows of the tables the tiles read) and the nodes' output. TAKT_LAB_PROFILE_HOSTS=solo (and
// TAKT_LAB_PROFILE_DIR) runs that node with --cpu-prof (tests/multihost/netns.ts).
//   npx tsx bench/soak.ts [machines=1000] [minutes=10] [both|solo]
import { readFileSync, writeFileSync } from 'node:fs';
import { sql } from 'kysely';
import type { Db } from '@takt/db';
import { logIn, startCluster } from '../tests/multihost/cluster';
import type { Cluster, HostName, SetName } from '../tests/multihost/cluster';
import { until } from '../tests/multihost/netns';

const MACHINES = Number(process.argv[2] ?? 1000);
const MINUTES = Number(process.argv[3] ?? 10);
const ONLY_SOLO = process.argv[4] === 'solo';
const STEP_MS = 1000;
/** Machines whose stored observations are watched for the ingest lag (a sample: one query per poll). */
const LAG_SAMPLE = 20;

const pct = (xs: number[], p: number) => {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.min(s.length - 1, Math.floor((p / 100) * s.length))] ?? NaN;
};

function rssMb(pid: number | undefined): number {
  if (pid === undefined) return NaN;
  try {
    const m = /VmRSS:\s+(\d+) kB/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'));
    return m ? Number(m[1]) / 1024 : NaN;
  } catch {
    return NaN;
  }
}

/** CPU seconds (user + system) a process has used, from /proc (clock ticks of 1/100 s). */
function cpuSeconds(pid: number | undefined): number {
  if (pid === undefined) return NaN;
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    return (Number(fields[11]) + Number(fields[12])) / 100;
  } catch {
    return NaN;
  }
}

async function observationCount(db: Db): Promise<number> {
  const { rows } = await sql<{ n: string }>`SELECT COUNT(*) AS n FROM observations`.execute(db.db);
  return Number(rows[0]?.n);
}

async function databaseBytes(db: Db): Promise<number> {
  const { rows } = await sql<{ n: string }>`SELECT pg_database_size(current_database()) AS n`.execute(db.db);
  return Number(rows[0]?.n);
}

interface Watch {
  tileMs: number[];
  lagMs: number[];
  /** How long each GET /api/dashboard took to answer (a part of line → tile). */
  answerMs: number[];
  /** Each tile sample: the machine, the script's step it showed, line → tile. */
  tileAt: Array<{ machine: string; step: number; ms: number }>;
  /** Failed or slow dashboard answers and long-running statements, ms after the script's start. */
  events: Array<{ at: number; what: string }>;
  stop(): Promise<void>;
}

/**
 * Watches one run: its dashboard (through `url`) for the program each machine shows (the script's step
 * number: line → tile), and the newest stored program observation of a sample of machines (ingest lag).
 */
function watch(url: string, cookie: string, db: Db, startAt: number, sample: string[]): Watch {
  const tileMs: number[] = [];
  const lagMs: number[] = [];
  const answerMs: number[] = [];
  const tileAt: Array<{ machine: string; step: number; ms: number }> = [];
  const events: Array<{ at: number; what: string }> = [];
  const seenTile = new Map<string, number>();
  const seenStored = new Map<string, number>();
  let running = true;
  const stepAt = (program: string | null) =>
    program && /^P\d+$/.test(program) ? startAt + Number(program.slice(1)) * STEP_MS : null;
  const tiles = (async () => {
    while (running) {
      const asked = Date.now();
      try {
        const res = await fetch(`${url}/api/dashboard`, { headers: { cookie } });
        const body = (await res.json()) as { machines: Array<{ id: string; program: string | null }> };
        const now = Date.now();
        answerMs.push(now - asked);
        if (!res.ok || now - asked > 2000)
          events.push({ at: asked - startAt, what: `dashboard ${res.status} in ${now - asked} ms` });
        for (const m of body.machines) {
          const at = stepAt(m.program);
          if (at === null || at < startAt || (seenTile.get(m.id) ?? -1) >= at) continue;
          seenTile.set(m.id, at);
          tileMs.push(now - at);
          tileAt.push({ machine: m.id, step: (at - startAt) / STEP_MS, ms: now - at });
        }
      } catch (err) {
        // a failed poll is a gap in the samples, not a figure
        events.push({
          at: asked - startAt,
          what: `dashboard failed after ${Date.now() - asked} ms: ${String(err)}`,
        });
      }
      await new Promise((r) => setTimeout(r, 250));
    }
  })();
  const stored = (async () => {
    while (running) {
      const { rows } = await sql<{ machine_id: string; ts: string }>`SELECT machine_id, MAX(ts) AS ts
        FROM observations WHERE key = 'program' AND machine_id IN (${sql.join(sample)})
        GROUP BY machine_id`.execute(db.db);
      const now = Date.now();
      for (const r of rows) {
        const ts = Number(r.ts);
        if (ts < startAt || (seenStored.get(r.machine_id) ?? -1) >= ts) continue;
        seenStored.set(r.machine_id, ts);
        lagMs.push(now - ts);
      }
      await new Promise((r) => setTimeout(r, 100));
    }
  })();
  // What the database is busy with whenever a statement has run for over a second (sampled each second).
  const busy = (async () => {
    while (running) {
      try {
        const { rows } = await sql<{ ms: string; wait: string | null; state: string; query: string }>`
          SELECT (EXTRACT(EPOCH FROM now() - query_start) * 1000)::bigint AS ms,
            wait_event_type || ':' || wait_event AS wait, state, left(query, 160) AS query
          FROM pg_stat_activity WHERE datname = current_database() AND pid <> pg_backend_pid()
            AND state <> 'idle' AND now() - query_start > interval '1 second'`.execute(db.db);
        for (const r of rows)
          events.push({
            at: Date.now() - startAt,
            what: `pg ${r.ms} ms ${r.state} ${r.wait ?? ''} ${r.query}`,
          });
        if (rows.length > 0) {
          const { rows: tables } = await sql<{
            t: string;
          }>`SELECT relname || ' live ' || n_live_tup || ' dead ' ||
              n_dead_tup || ' ' || pg_size_pretty(pg_total_relation_size(relid)) || ' vacuumed ' ||
              coalesce(last_autovacuum::text, '-') || ' analyzed ' || coalesce(last_autoanalyze::text, '-') AS t
            FROM pg_stat_user_tables WHERE relname IN ('machine_sources', 'machine_live', 'machines',
              'adapter_fields', 'observation_machines', 'observation_seeds')`.execute(db.db);
          events.push({ at: Date.now() - startAt, what: `tables: ${tables.map((t) => t.t).join('; ')}` });
        }
      } catch {
        // a sample lost
      }
      await new Promise((r) => setTimeout(r, 1000));
    }
  })();
  return {
    tileMs,
    lagMs,
    events,
    answerMs,
    tileAt,
    async stop() {
      running = false;
      await Promise.all([tiles, stored, busy]);
    },
  };
}

interface Figures {
  lagP99: number;
  tileP99: number;
  answerP50: number;
  answerP99: number;
  samples: string;
  rss: string[];
  /** Per node: CPU share of one core per 1,000 observations a second stored. */
  cpu: string[];
  mbPerMachineDay: number;
}

const NODES: Record<SetName, HostName[]> = {
  multi: ['api1', 'api2', 'ingest1', 'ingest2'],
  solo: ['solo'],
};

/** One arrangement on a lab of its own: linked, balanced, then MINUTES of the script, watched. */
async function measure(set: SetName): Promise<Figures> {
  const cluster: Cluster = await startCluster({
    machines: MACHINES,
    phases: [{ steps: Math.round((MINUTES * 60_000) / STEP_MS), quiet: false }],
    stepMs: STEP_MS,
    sets: [set],
  });
  try {
    // Measured from when every machine is linked once and the ingest nodes share them (not while they balance).
    await until(
      async () => {
        const s = await cluster.adapters();
        const holders = s.sets[set]!.peers.flat();
        const share = (h: string) =>
          holders.filter((a) => a === cluster.lab.ip(h)).length >= Math.floor(MACHINES / 2);
        return (
          s.sets[set]!.peers.every((p) => p.length === 1) &&
          (set === 'solo' || (share('ingest1') && share('ingest2')))
        );
      },
      300_000,
      'every adapter to have one client, and both ingest nodes their share',
    );
    const url = set === 'multi' ? cluster.proxyUrl : cluster.soloUrl;
    const db = cluster.dbs[set];
    const cookie = await logIn(url);
    const bytesBefore = await databaseBytes(db);
    const rssBefore = new Map([...cluster.procs].map(([h, p]) => [h, rssMb(p.child.pid)]));
    const cpuBefore = new Map([...cluster.procs].map(([h, p]) => [h, cpuSeconds(p.child.pid)]));
    const observationsBefore = await observationCount(db);
    const wallBefore = Date.now();
    const startAt = Date.now() + 3000;
    await cluster.play(startAt);
    const { rows } = await sql<{ id: string }>`SELECT machine_id AS id FROM machine_sources
      ORDER BY port LIMIT ${LAG_SAMPLE}`.execute(db.db);
    const w = watch(
      url,
      cookie,
      db,
      startAt,
      rows.map((r) => r.id),
    );
    const endAt = startAt + MINUTES * 60_000;
    while (Date.now() < endAt + 5000) {
      await new Promise((r) => setTimeout(r, Math.min(60_000, endAt + 5000 - Date.now())));
      const left = Math.max(0, Math.round((endAt - Date.now()) / 1000));
      if (left > 0) console.log(`  … ${set}: ${left} s to go`);
    }
    const rssAfter = new Map([...cluster.procs].map(([h, p]) => [h, rssMb(p.child.pid)]));
    const cpuAfter = new Map([...cluster.procs].map(([h, p]) => [h, cpuSeconds(p.child.pid)]));
    const wallSeconds = (Date.now() - wallBefore) / 1000;
    const perSecond = ((await observationCount(db)) - observationsBefore) / wallSeconds;
    await w.stop();
    if (process.env.TAKT_SOAK_SAMPLES)
      writeFileSync(
        `${process.env.TAKT_SOAK_SAMPLES}.${set}.json`,
        JSON.stringify({
          tiles: w.tileAt,
          events: w.events,
          output: Object.fromEntries(NODES[set].map((h) => [h, cluster.procs.get(h)?.output() ?? ''])),
        }),
      );
    const bytesAfter = await databaseBytes(db);
    const machineDays = (MACHINES * MINUTES) / (24 * 60);
    return {
      lagP99: pct(w.lagMs, 99),
      tileP99: pct(w.tileMs, 99),
      answerP50: pct(w.answerMs, 50),
      answerP99: pct(w.answerMs, 99),
      samples: `${w.lagMs.length} stored / ${w.tileMs.length} tile samples / ${w.answerMs.length} dashboard answers`,
      rss: NODES[set].map((h) => {
        const mb = (rssAfter.get(h) ?? NaN) - (rssBefore.get(h) ?? NaN);
        return `${h} ${mb >= 0 ? '+' : ''}${mb.toFixed(0)} MB`;
      }),
      cpu: NODES[set].map((h) => {
        const core = ((cpuAfter.get(h) ?? NaN) - (cpuBefore.get(h) ?? NaN)) / wallSeconds;
        return `${h} ${((core / (perSecond / 1000)) * 100).toFixed(1)} % of a core (${(core * 100).toFixed(0)} % at ${perSecond.toFixed(0)} obs/s)`;
      }),
      mbPerMachineDay: (bytesAfter - bytesBefore) / 1024 / 1024 / machineDays,
    };
  } finally {
    await cluster.destroy();
  }
}

async function main() {
  console.log(
    `soak: ${MACHINES} machines × 1 line/s for ${MINUTES} min on PostgreSQL, the cluster then the single node`,
  );
  // One after the other, each on a lab of its own: side by side, the two arrangements and their 2 × MACHINES
  // adapters share the machine's cores and measure each other's load.
  const multi = ONLY_SOLO ? null : await measure('multi');
  const solo = await measure('solo');
  const machineDays = (MACHINES * MINUTES) / (24 * 60);
  console.log(`soak: ${MACHINES} machines × 1 Hz × ${MINUTES} min (${machineDays.toFixed(2)} machine-days)`);
  for (const [name, f] of [
    ['2 ingest + 2 API nodes (proxy)', multi],
    ['single node (baseline)', solo],
  ] as const) {
    if (!f) continue;
    console.log(`  ${name}: ${f.samples}`);
    console.log(`    ingest lag p99 ${f.lagP99} ms, line → tile p99 ${f.tileP99} ms`);
    console.log(`    GET /api/dashboard answer p50 ${f.answerP50} ms, p99 ${f.answerP99} ms`);
    console.log(`    RSS growth: ${f.rss.join(', ')}`);
    console.log(`    CPU per 1,000 observations a second: ${f.cpu.join(', ')}`);
    console.log(`    PostgreSQL size: ${f.mbPerMachineDay.toFixed(1)} MB per machine-day`);
  }
  if (multi)
    console.log(
      `  ratio multi / single: ingest lag p99 ${(multi.lagP99 / solo.lagP99).toFixed(2)}, ` +
        `line → tile p99 ${(multi.tileP99 / solo.tileP99).toFixed(2)}, ` +
        `size per machine-day ${(multi.mbPerMachineDay / solo.mbPerMachineDay).toFixed(2)}`,
    );
  process.exit(0);
}

await main();
