// Decision 1211: on the plant of bench/report-load.ts (bench/support/report-mix.ts `aReportPlant`), each downtime
// call of the mix answered twice: figures only (the stored figures over whole buckets, decision 1193) and with
// detail=true (every figure from the states), compared (data, summary, byMachine, order included); and how many
// machines each figures-only call answers from their stored rows (`storedDowntimeFigures`). Throws if they differ.
// Shared answers off. Not a test: a check of the bench's seed, and each call's time beside it.
// Run: npx tsx bench/report-mix-downtime.ts [machines=100] [days=120] [sqlite|postgres]
import { loadavg } from 'node:os';
import { companyScope } from '@takt/db';
import type { DialectName } from '@takt/db';
import { loadCalendar } from '@takt/db/rollups';
import type { ServiceCtx } from '../services/api/src/services/context';
import { storedDowntimeFigures } from '../services/api/src/services/report-downtime-stored';
import { useSharedAnswers } from '../services/api/src/services/report-shared';
import { apiHarness } from '../services/api/src/testing/app';
import { aReportPlant } from './support/report-mix';

const MACHINES = Number(process.argv[2] ?? 100);
const DAYS = Number(process.argv[3] ?? 120);
const DIALECT = (process.argv[4] ?? 'sqlite') as DialectName;

const h = await apiHarness(DIALECT, 0);
try {
  const { plant, now, reqs, statesFrom } = await aReportPlant(h, MACHINES, DAYS);
  useSharedAnswers(h.t.db, false);
  const cookie = await h.login(plant.user.email, plant.user.password);
  const scope = companyScope(h.t.db, plant.company.id);
  const calendar = await loadCalendar(h.t.db, plant.company.id);
  const ctx = {
    scope,
    at: now,
    now,
    caller: { kind: 'user', user: { role: 'manager', isRoot: false } },
  } as unknown as ServiceCtx;
  const figures = async (path: string) => {
    const t0 = performance.now();
    const res = await h.get(path, cookie);
    if (res.status !== 200) throw new Error(`${path}: ${res.status} ${await res.text()}`);
    const { data, summary, byMachine } = (await res.json()) as Record<string, unknown>;
    return { text: JSON.stringify({ data, summary, byMachine }), ms: performance.now() - t0 };
  };
  console.log(
    `downtime calls of the report mix on ${DIALECT}, ${MACHINES} machines × ${DAYS} days, states from ${Math.round((now - statesFrom) / 86_400_000)} days before now:`,
  );
  let equal = 0;
  const downtime = reqs.filter((r) => r.report === 'downtime');
  for (const r of downtime) {
    const q = new URL(r.path, 'http://mix').searchParams;
    const [start, end] = [Number(q.get('start')), Number(q.get('end'))];
    const stored = await figures(r.path);
    const states = await figures(`${r.path}&detail=true`);
    if (stored.text !== states.text) throw new Error(`${r.label}: the figures differ from detail=true's`);
    equal++;
    const served = await storedDowntimeFigures(
      ctx,
      calendar,
      plant.ids,
      { start, until: Math.min(end, now) },
      null,
    );
    console.log(
      `  ${r.label.padEnd(18)} machines from their rows ${String(served.figures.size).padStart(3)} of ${plant.ids.length} | figures only ${stored.ms.toFixed(0).padStart(5)} ms, detail=true ${states.ms.toFixed(0).padStart(5)} ms`,
    );
  }
  console.log(
    `  figures equal to detail=true's: ${equal} of ${downtime.length}; load average ${loadavg()
      .map((x) => x.toFixed(1))
      .join(' ')}`,
  );
} finally {
  await h.close();
}
process.exit(0);
