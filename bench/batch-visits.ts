// `npx tsx bench/batch-visits.ts [held=100,1000,3000] [sending=100] [batches=300]`: the Node CPU of an ingest batch
// against the machines a node holds (decision 1203). `sending` machines send a line each between batches (the soak's
// script, bench/support/soak-script.ts); the other machines are held, connected and silent. Drives the BatchWriter
// with loopback links (no transport; the worker's tick every 5 s of machine time, TAKT_BENCH_TICK_MS=0: none) over a
// SQLite file; the senders' database work is the same at every count, so the growth with the held count is the
// batch's visits of silent links and the silent machines' heartbeats (stored every 10 s). Prints CPU per batch (the
// database included) and the ratio of each count to the first. TAKT_BENCH_ROOT=<worktree> reads the writer and the
// links from another worktree (old vs new in one run). Not a test.
import { freshDb } from '@takt/db/testing';
import { aCompany, aMachine } from '../services/api/src/testing/builders';
import type { SourceRow } from '../services/ingest/src/sources/source';
import type * as WriterModule from '../services/ingest/src/worker/batch-writer';
import type * as LinkModule from '../services/ingest/src/worker/link';
import type * as ChecksModule from '../services/ingest/src/worker/link-checks';
import { connectedTransport, handWriterOptions } from '../services/ingest/src/testing/loopback-links';
import { FIELDS, T0, line } from './support/soak-script';

const HELD = (process.argv[2] ?? '100,1000,3000').split(',').map(Number);
const SENDING = Number(process.argv[3] ?? 100);
const BATCHES = Number(process.argv[4] ?? 300);
const ROOT = process.env.TAKT_BENCH_ROOT ?? '..';
/** Batches 250 ms apart in machine time (a line per sender each); the tick every 5 s (the worker's default). */
const STEP_MS = 250;
const TICK_MS = Number(process.env.TAKT_BENCH_TICK_MS ?? 5000);

async function run(held: number): Promise<number> {
  const { BatchWriter } = (await import(
    `${ROOT}/services/ingest/src/worker/batch-writer.ts`
  )) as typeof WriterModule;
  const { Link, LinkMap } = (await import(`${ROOT}/services/ingest/src/worker/link.ts`)) as typeof LinkModule;
  const { checkLinks } = (await import(
    `${ROOT}/services/ingest/src/worker/link-checks.ts`
  )) as typeof ChecksModule;
  const t = await freshDb('sqlite');
  try {
    const company = await aCompany(t.db);
    let clock = T0;
    const links = new LinkMap();
    const writer = new BatchWriter(
      // The worker writes the sources' counters every 40 flush periods (worker/ingest.ts).
      handWriterOptions(t.db, () => clock, links, { countersEveryMs: 40 * STEP_MS }),
    );
    const senders = [];
    for (let i = 0; i < held; i++) {
      const machineId = await aMachine(t.db, company, { name: `M${i}` });
      const source: SourceRow = {
        sourceId: `s${i}`,
        kind: 'shdr',
        companyId: company.id,
        machineId,
        machineName: `M${i}`,
        host: '127.0.0.1',
        port: 1,
        cycleSource: 'part_count',
        machineRef: null,
        companyRef: null,
        gatewayId: null,
        baseUrl: null,
        pollIntervalMs: null,
        agentInstanceId: null,
      } as SourceRow;
      const link = new Link(source, new Map(FIELDS), clock, writer);
      link.transport = connectedTransport();
      links.set(source.sourceId, link);
      link.connection('CONNECTED', clock);
      if (i < SENDING) senders.push(link);
    }
    await writer.flush(true);
    let cpu = 0;
    for (let s = 1; s <= BATCHES; s++) {
      clock = T0 + s * STEP_MS;
      if (TICK_MS > 0 && s % (TICK_MS / STEP_MS) === 0) {
        // The worker's tick (worker/ingest.ts): before decision 1203 it marked every link's live row.
        if (!('touch' in Link.prototype)) for (const l of links.values()) l.liveDirty = true;
        await checkLinks(t.db, links.values(), () => clock, undefined);
      }
      for (const [i, l] of senders.entries()) l.received(line(i, s), clock, true);
      const c0 = process.cpuUsage();
      await writer.flush();
      const c = process.cpuUsage(c0);
      // The first tenth warms up.
      if (s > BATCHES / 10) cpu += (c.user + c.system) / 1000;
    }
    writer.close();
    return cpu / (BATCHES - Math.floor(BATCHES / 10));
  } finally {
    await t.cleanup();
  }
}

async function main() {
  const figures: number[] = [];
  for (const held of HELD) {
    const ms = await run(held);
    figures.push(ms);
    const ratio = (ms / figures[0]!).toFixed(2);
    console.log(
      `held ${held} (${SENDING} sending): ${ms.toFixed(2)} ms CPU per batch, ${ratio}x ${HELD[0]} held`,
    );
  }
}

void main();
