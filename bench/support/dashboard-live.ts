// The dashboard answer under live data (bench/dashboard-answer.ts BENCH_LIVE, decision 1200): the API's clock runs
// in real time from the plant's now, a writer stands for ingest and rewrites the company's live rows (heartbeat,
// part count, written at) a quarter of the machines every 250 ms, so every machine's row changes each second as at
// 1 Hz; `clients` pollers (TVs) each ask GET /api/dashboard 250 ms after each answer, as the soak's watcher does.
// Rounds with shared answers off (every call computed, the route before decision 1200) and on alternate (ABBA), on
// the same database, so the load of the moment falls on both alike.
import { performance } from 'node:perf_hooks';
import { sql } from 'kysely';
import type { CompanyScope } from '@takt/db';
import { DashboardAnswers } from '../../services/api/src/services/dashboard-shared';
import { apiHarnessOn } from '../../services/api/src/testing/app';
import type { ApiHarness } from '../../services/api/src/testing/app';
import { NOW } from './dashboard-plant';

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
const SLICES = 4;

export interface LiveFigures {
  clients: number;
  shared: boolean;
  answerMs: number[];
  calls: number;
  computed: number;
}

export async function liveRounds(
  h: ApiHarness,
  scope: CompanyScope,
  cookie: string,
  opts: { seconds: number; clients: readonly number[]; pairs: number },
): Promise<LiveFigures[]> {
  const answers = new DashboardAnswers();
  const on = apiHarnessOn(h.t, NOW, { dashboardAnswers: answers });
  const off = apiHarnessOn(h.t, NOW, { dashboardAnswers: null });
  const t0 = Date.now();
  const clock = () => NOW + (Date.now() - t0);
  const ids = (await scope.selectFrom('machine_live').select('machine_id').execute()).map(
    (r) => r.machine_id,
  );
  const slices = Array.from({ length: SLICES }, (_, k) => ids.filter((_, i) => i % SLICES === k));
  let writing = true;
  const writer = (async () => {
    for (let k = 0; writing; k++) {
      const now = clock();
      const slice = slices[k % SLICES]!;
      if (slice.length > 0)
        await sql`update machine_live set last_heartbeat = ${now}, updated_at = ${now},
            part_count = coalesce(part_count, 0) + 1
          where company_id = ${scope.companyId} and machine_id in (${sql.join(slice)})`.execute(h.t.db);
      await sleep(1000 / SLICES);
    }
  })();
  const out: LiveFigures[] = [];
  try {
    for (const clients of opts.clients)
      for (let round = 0; round < 2 * opts.pairs; round++) {
        // ABBA: off, on, then on, off, so a load rising or falling through the rounds falls on both alike.
        const shared = (round % 2 === 1) !== (Math.floor(round / 2) % 2 === 1);
        const app = shared ? on : off;
        const figures: LiveFigures = { clients, shared, answerMs: [], calls: 0, computed: 0 };
        const before = answers.computed;
        const until = performance.now() + opts.seconds * 1000;
        await Promise.all(
          Array.from({ length: clients }, async () => {
            while (performance.now() < until) {
              on.clock.now = off.clock.now = clock();
              const a = performance.now();
              const res = await app.get('/api/dashboard', cookie);
              await res.text();
              if (res.status !== 200) throw new Error(`GET /api/dashboard: ${res.status}`);
              figures.answerMs.push(performance.now() - a);
              await sleep(250);
            }
          }),
        );
        figures.calls = figures.answerMs.length;
        figures.computed = shared ? answers.computed - before : figures.calls;
        out.push(figures);
      }
  } finally {
    writing = false;
    await writer;
  }
  return out;
}
