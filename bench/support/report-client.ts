// bench/report-load.ts's client process: `clients` concurrent clients over loopback HTTP, as managers' browsers
// ask (gzip accepted), printing every call's latency as JSON on stdout. A call ends at its answer's last byte; the
// gzipped answers are unpacked (and so checked whole) after the part (decision 1263): a manager's browser unpacks on
// the manager's own computer, and unpacking here cost the two cores the API is measured on 0.4-0.7 s a part. Its own
// module with no import of the API (decision 1249): it runs on the same two cores as the API it measures, and loading report-load.ts's
// graph (the API, the database layer) cost the client a core for the 20-client part's first seconds.
// Run (by report-load.ts): npx tsx bench/support/report-client.ts <url> <cookie> <clients> <requests file> <per client>
import http from 'node:http';
import { readFileSync } from 'node:fs';
import { gunzipSync } from 'node:zlib';
import { mulberry32 } from '../../services/ingest/src/demo/demo-script';
import type { Req } from './report-mix';

/** A call's report and range, when it started after the part's start (ms) and how long it took. */
export type Call = {
  report: string;
  label: string;
  at: number;
  ms: number;
  status: number;
  /** After `at` (ms): when its socket connected (a new one; absent on a reused one) and its answer's headers came. */
  connected?: number;
  headers: number;
  /** The call's name, sent as `x-bench-call`: the API's side places its own times of it by this. */
  id: string;
};

/**
 * The client side: `clients` loops over the first `perClient` requests of the mix in each one's own order,
 * printing every latency as JSON.
 */
async function client(url: string, cookie: string, clients: number, file: string, perClient: number) {
  const reqs = JSON.parse(readFileSync(file, 'utf8')) as Req[];
  const out: Call[] = [];
  const packed: Buffer[] = [];
  const start = performance.now();
  const cpu = process.cpuUsage();
  // node:http, not fetch: fetch gives up on an answer whose headers take over 300 s (undici's headersTimeout), and
  // the tail under ingest was that long (decision 1192).
  const agent = new http.Agent({ keepAlive: true });
  const one = async (r: Req, id: string) => {
    const t0 = performance.now();
    const body = r.body === undefined ? undefined : JSON.stringify(r.body);
    let connected: number | undefined;
    let headers = 0;
    let gzipped = false;
    const chunks: Buffer[] = [];
    const status = await new Promise<number>((resolve, reject) => {
      const req = http.request(
        url + r.path,
        {
          method: r.method,
          agent,
          // As a browser asks (decision 1248: shared answers go gzipped), and unpacked as a browser does.
          headers: {
            cookie,
            origin: url,
            'content-type': 'application/json',
            'accept-encoding': 'gzip',
            'x-bench-call': id,
          },
        },
        (res) => {
          headers = performance.now() - t0;
          gzipped = res.headers['content-encoding'] === 'gzip';
          res.on('data', (d: Buffer) => chunks.push(d));
          res.on('end', () => resolve(res.statusCode ?? 0));
          res.on('error', reject);
        },
      );
      req.on('error', reject);
      req.on('socket', (socket) => {
        if (socket.connecting) socket.once('connect', () => (connected = performance.now() - t0));
      });
      req.end(body);
    });
    if (gzipped) packed.push(Buffer.concat(chunks));
    out.push({
      report: r.report,
      label: r.label,
      at: t0 - start,
      ms: performance.now() - t0,
      status,
      ...(connected === undefined ? {} : { connected }),
      headers,
      id,
    });
  };
  await Promise.all(
    Array.from({ length: clients }, async (_, c) => {
      const rnd = mulberry32(c + 7);
      const order = reqs.map((r) => ({ r, k: rnd() })).sort((a, b) => a.k - b.k);
      for (const [n, { r }] of order.slice(0, perClient).entries()) await one(r, `${c}-${n}`);
    }),
  );
  // With when the part started on the wall clock (ms since the epoch, sub-ms), so the API's side can place its own.
  // And the CPU time it took over the part (ms: user + system), for report-load's line of who had the cores.
  const used = process.cpuUsage(cpu);
  // Unpacked after the part: a cut or broken answer still fails the bench.
  for (const p of packed) gunzipSync(p);
  process.stdout.write(
    JSON.stringify({
      origin: performance.timeOrigin + start,
      calls: out,
      cpuMs: (used.user + used.system) / 1000,
    }),
  );
}

const [url, cookie, clients, file, perClient] = process.argv.slice(2);
await client(url!, cookie!, Number(clients), file!, Number(perClient));
process.exit(0);
