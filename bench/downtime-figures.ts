// `npx tsx bench/downtime-figures.ts [machines=100] [sqlite|postgres]` (decision 1188): the plant of
// bench/downtime-report.ts (40 days of states, a change every 20 minutes on average; BENCH_ANNOTATIONS=1: two of
// every three stops categorized) with its rollups written by the recompute itself (each machine's 40 days at now),
// then for whole-day ranges in two shift selections: the downtime report's figures (GET /api/reports/downtime, shared
// answers off) against the same figures from the stored rows (loadDowntimeFigureRows and domain
// selectDowntimeFigures), BENCH_PAIRS pairs interleaved, wall and process CPU medians, every pair's summary, Pareto
// and byMachine durations and counts compared (throws when they differ). BENCH_OLD=dir: also the recompute of
// BENCH_RECOMPUTE machines (default 10) by the checkout at dir (a worktree of the commit before, node_modules
// hard-linked) against this tree's, interleaved, each into empty rollup tables. Not a test: figures only.
import { loadavg } from 'node:os';
import { sql } from 'kysely';
import type { DialectName } from '@takt/db';
import { companyScope } from '@takt/db';
import {
  companyDayRange,
  epochMs,
  NO_DATA_REASON,
  selectDowntimeFigures,
  shopDateOf,
  UNCATEGORIZED_REASON,
} from '@takt/domain';
import type { DowntimeReasonFigures } from '@takt/domain';
import { loadCalendar, loadDowntimeFigureRows, recomputeRollups } from '@takt/db/rollups';
import { useSharedAnswers } from '../services/api/src/services/report-shared';
import { apiHarness } from '../services/api/src/testing/app';
import { aCompany, aMachine, aUser } from '../services/api/src/testing/builders';
import { aShift } from '../services/api/src/testing/live-builders';
import { categorizedStops } from './support/categorized';
import { fortyDaysOfStates, recomputeFortyDays } from './support/year-of-rollups';

const MACHINES = Number(process.argv[2] ?? 100);
const DIALECT = (process.argv[3] ?? 'sqlite') as DialectName;
const PAIRS = Number(process.env.BENCH_PAIRS ?? 3);
const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;
const load = () => loadavg()[0]!.toFixed(1);

/** Wall and process CPU ms of f. */
async function timed<T>(f: () => Promise<T>): Promise<{ value: T; ms: number; cpu: number }> {
  const cpu = process.cpuUsage();
  const t0 = performance.now();
  const value = await f();
  const ms = performance.now() - t0;
  const used = process.cpuUsage(cpu);
  return { value, ms, cpu: (used.user + used.system) / 1000 };
}

const h = await apiHarness(DIALECT, 0);
try {
  const db = h.t.db;
  const company = await aCompany(db, { timezone: 'America/Chicago', productTier: 'full' });
  const user = await aUser(db, company, { role: 'manager' });
  const shifts: string[] = [];
  for (const [name, startoffsetminutes, endoffsetminutes] of [
    ['Day', 360, 840],
    ['Swing', 840, 1320],
  ] as const)
    shifts.push(
      await aShift(db, company, { name, startoffsetminutes, endoffsetminutes, byweekday: [0, 1, 2, 3, 4] }),
    );
  const calendar = await loadCalendar(db, company.id);
  const day = (t: number) => companyDayRange(calendar, shopDateOf(calendar, epochMs(t)));
  const now = (day(Date.UTC(2024, 11, 20, 12)).start as number) + 14 * 3_600_000 + 17 * 60_000;
  h.clock.now = now;
  const ids: string[] = [];
  for (let m = 0; m < MACHINES; m++)
    ids.push(await aMachine(db, company, { name: `M${String(m).padStart(3, '0')}`, sortOrder: m }));
  await fortyDaysOfStates(h, company.id, ids, now);
  if (process.env.BENCH_ANNOTATIONS) await categorizedStops(h, company, now);
  const recomputeAll = (machineIds: readonly string[], recompute = recomputeRollups) =>
    recomputeFortyDays(h, { companyId: company.id, calendar, now }, machineIds, recompute);
  const seeded = await timed(() => recomputeAll(ids));
  console.log(
    `downtime figures on ${DIALECT}, ${MACHINES} machines × 40 days recomputed in ${(seeded.ms / 1000).toFixed(1)} s (cpu ${(seeded.cpu / 1000).toFixed(1)} s), load ${load()}`,
  );
  if (DIALECT === 'postgres') await sql`analyze`.execute(db);
  for (const table of ['rollups', 'rollup_days', 'rollup_weeks'] as const) {
    const r = await db
      .selectFrom(table)
      .select([sql<number>`count(*)`.as('n'), sql<number>`avg(length(downtime))`.as('bytes')])
      .executeTakeFirstOrThrow();
    console.log(
      `  ${table}: ${Number(r.n)} rows, downtime figures ${Number(r.bytes).toFixed(0)} bytes a row on average`,
    );
  }

  if (process.env.BENCH_OLD) await oldRecompute(process.env.BENCH_OLD, recomputeAll);

  useSharedAnswers(db, false);
  const cookie = await h.login(user.email, user.password);
  const scope = companyScope(db, company.id);
  const today = day(now);
  const ranges: Array<[string, number, number]> = [
    ['today', today.start, today.end],
    ['yesterday', day(today.start - 1).start, today.start],
    ['7 days', today.start - 7 * 86_400_000, today.start],
    ['31 days to now', today.end - 31 * 86_400_000, today.end],
  ];
  interface Tally {
    reasonId: string;
    count: number;
    duration: number;
  }
  const tallies = (ts: readonly Tally[]) =>
    ts
      .filter((t) => t.count > 0)
      .map(({ reasonId, count, duration }) => ({ reasonId, count, duration }))
      .sort((a, b) => a.reasonId.localeCompare(b.reasonId));
  const ofFigures = (f: Record<string, DowntimeReasonFigures>) =>
    tallies(
      Object.entries(f).map(([reasonId, x]) => ({
        reasonId,
        count: x.planned + x.unplanned,
        duration: x.plannedMs + x.unplannedMs,
      })),
    );
  const viaReport = async (range: [number, number], sel: readonly string[]) => {
    const res = await h.get(
      `/api/reports/downtime?start=${range[0]}&end=${range[1]}${sel.length ? `&shifts=${sel.join(',')}` : ''}`,
      cookie,
    );
    if (res.status !== 200) throw new Error(`${res.status} ${await res.text()}`);
    const r = (await res.json()) as {
      data: Tally[];
      summary: { count: number; duration: number; noDataDuration: number; uncategorizedDuration: number };
      byMachine: Array<{ machineId: string; downtime: Tally[] }>;
    };
    return JSON.stringify({
      data: tallies(r.data),
      summary: [
        r.summary.count,
        r.summary.duration,
        r.summary.uncategorizedDuration,
        r.summary.noDataDuration,
      ],
      byMachine: r.byMachine.map((m) => [m.machineId, tallies(m.downtime)]),
    });
  };
  const viaRows = async (range: [number, number], sel: readonly string[]) => {
    const rows = await loadDowntimeFigureRows(
      scope,
      calendar,
      ids,
      { start: range[0], end: range[1] },
      sel.length ? new Set(sel) : null,
    );
    const until = Math.min(range[1], now);
    const inSel = (t: number, s: string | null) =>
      t >= range[0] && t < until && (sel.length === 0 || (s !== null && sel.includes(s)));
    const all: Record<string, DowntimeReasonFigures> = {};
    const byMachine: Array<[string, Tally[]]> = [];
    for (const id of ids) {
      const mine = rows.get(id);
      if (!mine) throw new Error(`${id}: rows without figures`);
      const f = selectDowntimeFigures(mine, inSel);
      selectDowntimeFigures(mine, inSel, all);
      const t = ofFigures(f);
      if (t.length > 0) byMachine.push([id, t]);
    }
    const sum = (pick: (r: string, f: DowntimeReasonFigures) => number) =>
      Object.entries(all).reduce((t, [r, f]) => t + pick(r, f), 0);
    return JSON.stringify({
      data: ofFigures(all),
      summary: [
        sum((_r, f) => f.planned + f.unplanned),
        sum((_r, f) => f.plannedMs + f.unplannedMs),
        sum((r, f) => (r === UNCATEGORIZED_REASON ? f.unplannedMs : 0)),
        sum((r, f) => (r === NO_DATA_REASON ? f.unplannedMs : 0)),
      ],
      byMachine,
    });
  };
  console.log(`report (states) against stored figures, ${PAIRS} pairs, load ${load()}`);
  for (const [label, start, end] of ranges)
    for (const sel of [[], [shifts[0]!]] as const) {
      const range: [number, number] = [start, end];
      await viaReport(range, sel);
      await viaRows(range, sel);
      const t = {
        report: [] as number[],
        rows: [] as number[],
        reportCpu: [] as number[],
        rowsCpu: [] as number[],
      };
      for (let i = 0; i < PAIRS; i++) {
        const order = i % 2 === 0 ? (['report', 'rows'] as const) : (['rows', 'report'] as const);
        const answers: Record<string, string> = {};
        for (const which of order) {
          const r = await timed(() => (which === 'report' ? viaReport(range, sel) : viaRows(range, sel)));
          answers[which] = r.value;
          t[which].push(r.ms);
          t[which === 'report' ? 'reportCpu' : 'rowsCpu'].push(r.cpu);
        }
        if (answers.report !== answers.rows)
          throw new Error(
            `${label} shifts ${sel.length}: the figures differ\n${answers.report}\n${answers.rows}`,
          );
      }
      const [o, n, oc, nc] = [t.report, t.rows, t.reportCpu, t.rowsCpu].map(median) as [
        number,
        number,
        number,
        number,
      ];
      console.log(
        `  ${label.padEnd(15)} ${sel.length ? 'Day shift' : 'all time '} wall ${o.toFixed(0).padStart(5)} -> ${n.toFixed(0).padStart(4)} ms (${(n / o).toFixed(2)}), cpu ${oc.toFixed(0).padStart(5)} -> ${nc.toFixed(0).padStart(4)} ms (${(nc / oc).toFixed(2)}), figures equal, load ${load()}`,
      );
    }
} finally {
  await h.close();
}
process.exit(0);

/** The recompute of the checkout at `dir` against this tree's, interleaved, each into empty rollup tables. */
async function oldRecompute(
  dir: string,
  recomputeAll: (ids: readonly string[], recompute?: typeof recomputeRollups) => Promise<void>,
) {
  const old = {
    ...(await import(`${dir}/packages/db/src/connect.ts`)),
    ...(await import(`${dir}/packages/db/src/rollups/index.ts`)),
  } as {
    openDb: (url: string, options?: { poolSize?: number }) => { db: unknown; close(): Promise<void> };
    recomputeRollups: typeof recomputeRollups;
  };
  const oldDb = old.openDb(h.t.url, { poolSize: 4 });
  const some = (await h.t.db.selectFrom('machines').select('id').orderBy('sort_order').execute())
    .map((r) => r.id)
    .slice(0, Number(process.env.BENCH_RECOMPUTE ?? 10));
  const empty = async () => {
    for (const table of ['rollups', 'rollup_days', 'rollup_weeks'] as const)
      await h.t.db.deleteFrom(table).where('machine_id', 'in', some).execute();
  };
  const oldRecomputeOn: typeof recomputeRollups = (_db, input) =>
    old.recomputeRollups(oldDb.db as Parameters<typeof recomputeRollups>[0], input);
  const t = { old: [] as number[], new: [] as number[] };
  for (let i = 0; i < PAIRS; i++)
    for (const which of i % 2 === 0 ? (['old', 'new'] as const) : (['new', 'old'] as const)) {
      await empty();
      const r = await timed(() => recomputeAll(some, which === 'old' ? oldRecomputeOn : undefined));
      t[which].push(r.cpu);
    }
  const [o, n] = [median(t.old), median(t.new)];
  console.log(
    `  recompute of ${some.length} machines × 40 days into empty tables, cpu ${o.toFixed(0)} -> ${n.toFixed(0)} ms (${(n / o).toFixed(2)}), load ${load()}`,
  );
  await oldDb.close();
  // This tree's rows again (the old ones have no figures).
  await empty();
  await recomputeAll(some);
}
