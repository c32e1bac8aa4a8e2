// What the soak's cluster adds to a dashboard answer by its proxy alone (decision 1219): the 2 + 2 cluster's
// GET /api/dashboard goes client → proxy (tests/multihost/proxy.ts, its own process) → an API node, the single node's
// client → node. A server answering a fixed body of the size of a dashboard answer of `machines` tiles (as an API node
// does once it has computed it), fetched as bench/soak.ts's watcher fetches (fetch, then res.json()), directly and
// through the proxy, interleaved (ABAB) so the load of the moment falls on both alike. Not a test: figures only.
//   npx tsx bench/proxy-hop.ts [machines=1000] [calls=200]
import { spawn } from 'node:child_process';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { loadavg } from 'node:os';
import { performance } from 'node:perf_hooks';
import { fileURLToPath } from 'node:url';
import { gzipSync } from 'node:zlib';

const MACHINES = Number(process.argv[2] ?? 1000);
const CALLS = Number(process.argv[3] ?? 200);

const pct = (xs: number[], p: number) => {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.min(s.length - 1, Math.floor((p / 100) * s.length))]!;
};

/** A tile of GET /api/dashboard's shape (its fields and their kinds), so the body has the answer's size. */
const tile = (i: number) => ({
  id: crypto.randomUUID(),
  name: `M${String(i).padStart(4, '0')}`,
  status: 'ACTIVE',
  statusSince: 1_763_800_000_000 - i * 1000,
  jobScheduleGroupId: i % 3 === 0 ? crypto.randomUUID() : null,
  jobId: i % 3 === 0 ? crypto.randomUUID() : null,
  pausedJobName: i % 3 === 1 ? `Job ${i}` : null,
  autostartBehavior: 'none',
  downtimefailuredelay: 300_000,
  progress: i % 3 === 0 ? 42 : null,
  expectedParts: i % 3 === 0 ? 120 : null,
  actualParts: i % 3 === 0 ? 50 : null,
  setupSince: null,
  jobRunSetupTime: null,
  stale: false,
  lastHeartbeat: 1_763_800_000_000 - 1000,
  faultSince: null,
  faultMessage: null,
  extendedStatus: 'ACTIVE',
  extendedStatusSince: 1_763_800_000_000 - i * 1000,
  setupEnd: null,
  downtime_reason: i % 5 === 0 ? 'Waiting for material' : null,
  scheduled: i % 3 === 0,
  groupIds: [crypto.randomUUID()],
  program: `P${i}`,
  partCount: 100 + i,
  connection: 'CONNECTED',
  workcenterType: 'machine',
});

const body = JSON.stringify({
  machines: Array.from({ length: MACHINES }, (_, i) => tile(i)),
  groups: [{ id: crypto.randomUUID(), name: 'Milling' }],
  now: 1_763_800_000_000,
});
// BENCH_GZIP=1: the body gzipped at each call when the client accepts it (the server's CPU for it is in the figures).
const GZIP = process.env.BENCH_GZIP === '1';
const server = http.createServer((req, res) => {
  if (req.url === '/readyz') return res.writeHead(200).end('ok');
  if (GZIP && /\bgzip\b/.test(String(req.headers['accept-encoding'] ?? '')))
    return res
      .writeHead(200, { 'content-type': 'application/json', 'content-encoding': 'gzip' })
      .end(gzipSync(body, { level: 1 }));
  res.writeHead(200, { 'content-type': 'application/json' }).end(body);
});
await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
const direct = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;

const proxyPort = 20_000 + Math.floor(Math.random() * 20_000);
const proxyFile = fileURLToPath(new URL('../tests/multihost/proxy.ts', import.meta.url));
const proxy = spawn(
  process.execPath,
  [...process.execArgv, proxyFile, '127.0.0.1', String(proxyPort), direct],
  {
    stdio: ['ignore', 'pipe', 'inherit'],
  },
);
await new Promise<void>((resolve, reject) => {
  proxy.stdout.on('data', (d: Buffer) => d.toString().includes('[proxy] listening') && resolve());
  proxy.once('exit', (code) => reject(new Error(`the proxy exited (${code})`)));
});
const proxied = `http://127.0.0.1:${proxyPort}`;

const ask = async (url: string) => {
  const a = performance.now();
  const res = await fetch(`${url}/api/dashboard`);
  await res.json();
  if (res.status !== 200) throw new Error(`${url}: ${res.status}`);
  return performance.now() - a;
};

try {
  const load0 = loadavg()[0]!;
  for (let i = 0; i < 10; i++) await Promise.all([ask(direct), ask(proxied)]);
  const times = { direct: [] as number[], proxied: [] as number[] };
  for (let i = 0; i < CALLS; i++) {
    // ABBA in pairs: which goes first alternates.
    const order = i % 2 === 0 ? (['direct', 'proxied'] as const) : (['proxied', 'direct'] as const);
    for (const k of order) times[k].push(await ask(k === 'direct' ? direct : proxied));
  }
  const f = (x: number) => `${x.toFixed(1)} ms`;
  console.log(
    `a ${(body.length / 1024).toFixed(0)} KiB answer (${MACHINES} tiles), ${CALLS} calls each, load average ${load0.toFixed(1)} → ${loadavg()[0]!.toFixed(1)}`,
  );
  for (const k of ['direct', 'proxied'] as const)
    console.log(
      `  ${k.padEnd(8)} p50 ${f(pct(times[k], 50))}  p90 ${f(pct(times[k], 90))}  p99 ${f(pct(times[k], 99))}`,
    );
  console.log(
    `  proxied / direct: p50 ${(pct(times.proxied, 50) / pct(times.direct, 50)).toFixed(2)}x (+${f(pct(times.proxied, 50) - pct(times.direct, 50))}), p99 ${(pct(times.proxied, 99) / pct(times.direct, 99)).toFixed(2)}x`,
  );
} finally {
  proxy.kill();
  server.close();
}
