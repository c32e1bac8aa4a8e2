import { describe, expect, it } from 'vitest';
import { DIALECTS } from '@takt/db/testing';
import { aMachine } from '../testing/builders';
import { machineFigures } from '../testing/report-figures';
import { aManualWorkcenter, MIN } from '../testing/downtime-builders';
import {
  aMachineWithFacts,
  anAdjustmentRow,
  apiPerTest,
  aReportTenant,
  generatedFacts,
} from '../testing/report-plant';

// Decision 1201 (issue 30 point 2): the hours of a range before a machine's monitored life (METRICS.md §1) are no
// gap in its stored rows, so a range reaching before it (a new plant's "this year") reads the stored rows from the
// bucket holding the life's start on, by hour, shift, day, week or month. Oracle: every machine's OEE, utilization
// and production figures equal those of a twin with the same facts and no stored rows (built wholly from the facts),
// for machines whose life starts a month into the range, mid-day, mid-hour, a manual work center's at its first
// count, and one never monitored. The stored rows are read (facts removed behind their back do not change the
// figures), and a real gap after life started, rows starting after the life's bucket or a pending mark still send
// the machine to the facts. Both dialects.

const HOUR = 60 * MIN;
const DAY = 24 * HOUR;
/** Local wall time in America/Chicago: CDT (UTC−5) up to 2025-11-02 02:00, CST (UTC−6) after. */
const at = (month: number, day: number, h: number, m = 0) =>
  Date.UTC(2025, month - 1, day, h + (month < 11 || (month === 11 && day < 2) ? 5 : 6), m);
/** Now: Wednesday 2025-11-12 14:37:12.345; the company day starts at 06:00. */
const NOW = at(11, 12, 14, 37) + 12_345;
const DAY_START = 6 * HOUR;
/** Day 13:00–21:00 and Swing 21:00–05:00 after the 06:00 day start. */
const SHIFTS = [['Day', 420, 900] as const, ['Swing', 900, 1380] as const];
const STATES = ['ACTIVE', 'ACTIVE', 'INACTIVE', 'FAULT', 'UNAVAILABLE'];

/** The machines with facts, by their first fact: a month into the ranges, mid-day, mid-hour (and mid-minute). */
const LIVES = {
  early: { t0: at(10, 13, 8), cuts: 120, cycles: 400 },
  midDay: { t0: at(11, 3, 13), cuts: 60, cycles: 250 },
  midHour: { t0: at(11, 5, 10, 17) + 30_123, cuts: 50, cycles: 250 },
} as const;
/** The manual work center's first count (its life's start) and its counts every 30 minutes from there. */
const COUNTED = at(11, 4, 9, 40) + 7_000;
const COUNTS = Array.from({ length: 400 }, (_, i) => COUNTED + i * 30 * MIN + (i % 7) * 1_000).filter(
  (t) => t < NOW,
);

/**
 * Facts removed behind the stored rows' back (no mark), in whole stored hours, and a week around them starting before
 * the machine's life (partGoals answers up to 7 days), by machine.
 */
const REMOVED: Record<string, { start: number; end: number }> = {
  early: { start: at(10, 17, 7), end: at(10, 18, 13) },
  midDay: { start: at(11, 8, 7), end: at(11, 9, 13) },
  midHour: { start: at(11, 8, 7), end: at(11, 9, 13) },
  manual: { start: at(11, 8, 7), end: at(11, 9, 13) },
};
const WEEK_OF: Record<string, { start: number; end: number }> = {
  early: { start: at(10, 12, 23), end: at(10, 19, 12) },
  midDay: { start: at(11, 3, 11), end: at(11, 10, 11) },
  midHour: { start: at(11, 3, 11), end: at(11, 10, 11) },
  manual: { start: at(11, 3, 11), end: at(11, 10, 11) },
};

/** Ranges reaching before some machines' life: whole days before it, a head at 23:00 the day before, across DST. */
const RANGES = [
  { start: at(9, 14, 6), end: NOW, interval: 'week' },
  { start: at(10, 12, 23), end: at(11, 12, 9, 41) + 123, interval: 'day' },
  { start: at(11, 1, 10, 17), end: NOW, interval: 'month' },
  { start: at(11, 2, 23), end: at(11, 6, 12), interval: 'hour' },
  { start: at(11, 4, 7, 13), end: NOW, interval: 'shift' },
  { start: at(10, 12, 23), end: NOW, interval: 'hour' },
] as const;

describe.each(DIALECTS)('a range reaching before a machine’s monitored life on %s', (dialect) => {
  const api = apiPerTest(dialect, NOW);

  /**
   * The machine's figures over the range (a manual work center's unexplained time is Uncategorized read either way:
   * decision 1207).
   */
  async function figures(
    cookie: string,
    machineId: string,
    r: { start: number; end: number; interval: string },
  ) {
    return machineFigures(
      api.h,
      cookie,
      { machineId, ...r },
      {
        data: ['oee', 'availability', 'performance', 'quality', 'allTime', 'timeInCycle', 'timeInCut'],
        groupBys: [['interval', 'shift'], ['shift']],
      },
    );
  }

  /** A machine's parts over the range from partGoals, its stored rows or (`cache=false`) its facts. */
  async function parts(cookie: string, machineId: string, r: { start: number; end: number }, cache = true) {
    const q = `start=${r.start}&end=${r.end}&machineId=${machineId}&interval=hour${cache ? '' : '&cache=false'}`;
    const res = await api.h.get(`/api/reports/partGoals?${q}`, cookie);
    expect(res.status, await res.clone().text()).toBe(200);
    return ((await res.json()) as { machines: Array<{ parts: number }> }).machines[0]!.parts;
  }

  /**
   * Each kind of machine twice, `stored` with its rows recomputed from its life's company day (as the worker
   * writes them from its first mark: none before) and `facts` with the same facts and no rows at all.
   */
  async function plant() {
    const { company, cookie, scope, recompute } = await aReportTenant(api.h, SHIFTS, {
      dayStartMs: DAY_START,
    });
    const pairs: Record<string, { stored: string; facts: string; life: number | null }> = {};
    for (const [name, o] of Object.entries(LIVES)) {
      const facts = generatedFacts({
        ...o,
        now: NOW,
        corrections: 6,
        states: STATES,
        seed: o.cycles + o.cuts,
      });
      const [stored, twin] = [
        (await aMachineWithFacts(api.h, company, `${name} stored`, o.t0, facts)).id,
        (await aMachineWithFacts(api.h, company, `${name} facts`, o.t0, facts)).id,
      ];
      pairs[name] = { stored, facts: twin, life: o.t0 };
    }
    const manual: string[] = [];
    for (const name of ['Bench stored', 'Bench facts']) {
      const id = await aManualWorkcenter(api.h.t.db, company, name);
      await scope
        .insertInto(
          'part_adjustments',
          COUNTS.map((t) => anAdjustmentRow(id, t, { kind: 'manual', count: 1 + (t % 3) })),
        )
        .execute();
      manual.push(id);
    }
    pairs.manual = { stored: manual[0]!, facts: manual[1]!, life: COUNTED };
    const never = [await aMachine(api.h.t.db, company, { name: 'Idle stored' })];
    never.push(await aMachine(api.h.t.db, company, { name: 'Idle facts' }));
    pairs.never = { stored: never[0]!, facts: never[1]!, life: null };
    for (const p of Object.values(pairs))
      if (p.life !== null) await recompute([p.stored], { from: p.life, to: NOW, now: NOW });
    await api.h.t.db.deleteFrom('rollup_dirty').execute();
    // No rows before each life's company day: what this decision reads past.
    for (const p of Object.values(pairs)) {
      const first = await scope
        .selectFrom('rollups')
        .where('machine_id', '=', p.stored)
        .select((eb) => eb.fn.min<number>('start_at').as('t'))
        .executeTakeFirst();
      if (p.life === null) expect(first?.t ?? null).toBeNull();
      else expect(p.life - Number(first!.t)).toBeLessThan(DAY);
    }
    return { cookie, scope, pairs };
  }

  /**
   * Removes the stored machines' cycles (the manual work center's counts) in REMOVED, without a mark: read from the
   * facts, each has fewer parts over its week than its twin.
   */
  async function removeFactsBehindRows(p: Awaited<ReturnType<typeof plant>>) {
    for (const [name, m] of Object.entries(p.pairs)) {
      const gone = REMOVED[name];
      if (!gone) continue;
      // The manual work center's counts, the others' cycles.
      const [table, time] =
        name === 'manual'
          ? (['part_adjustments', 'adjustment_time'] as const)
          : (['cycles', 'end_at'] as const);
      await p.scope
        .deleteFrom(table)
        .where('machine_id', '=', m.stored)
        .where(time, '>=', gone.start)
        .where(time, '<', gone.end)
        .execute();
      const week = WEEK_OF[name]!;
      expect(await parts(p.cookie, m.stored, week, false), name).toBeLessThan(
        await parts(p.cookie, m.facts, week),
      );
    }
  }

  it('every machine read from its stored rows = its twin built from the facts, for ranges before its life', async () => {
    const p = await plant();
    for (const r of RANGES)
      for (const [name, m] of Object.entries(p.pairs)) {
        const [stored, facts] = await Promise.all([
          figures(p.cookie, m.stored, r),
          figures(p.cookie, m.facts, r),
        ]);
        expect(stored, `${name} ${r.interval} ${new Date(r.start).toISOString()}`).toEqual(facts);
      }
  });

  it('the stored rows are read from the life on: facts removed behind them do not change the figures', async () => {
    const p = await plant();
    await removeFactsBehindRows(p);
    for (const [name, m] of Object.entries(p.pairs)) {
      const gone = REMOVED[name];
      if (!gone) continue;
      for (const r of RANGES) {
        if (r.start > gone.start || r.end < gone.end) continue;
        const [stored, facts] = await Promise.all([
          figures(p.cookie, m.stored, r),
          figures(p.cookie, m.facts, r),
        ]);
        expect(stored, `${name} ${r.interval} ${new Date(r.start).toISOString()}`).toEqual(facts);
      }
      const week = WEEK_OF[name]!;
      expect(await parts(p.cookie, m.stored, week), name).toBe(await parts(p.cookie, m.facts, week));
    }
  });

  it('a gap after the life started, rows starting after its bucket, or a pending mark: built from the facts', async () => {
    const p = await plant();
    await removeFactsBehindRows(p);
    const { early, midDay, midHour, manual } = p.pairs as Record<string, { stored: string; facts: string }>;
    // A day of rows never written a few days into its life (decision 1016), the mid-day machine's first rows two
    // buckets after its life's, and the manual work center marked dirty from its first count.
    await p.scope
      .deleteFrom('rollups')
      .where('machine_id', '=', early!.stored)
      .where('start_at', '>=', at(10, 15, 6))
      .where('start_at', '<', at(10, 16, 6))
      .execute();
    await p.scope
      .deleteFrom('rollups')
      .where('machine_id', '=', midDay!.stored)
      .where('start_at', '<', LIVES.midDay.t0 + 2 * HOUR)
      .execute();
    await p.scope
      .insertInto('rollup_dirty', [
        {
          machine_id: manual!.stored,
          from_at: COUNTED,
          marked_at: NOW,
          claimed_until: null,
          renewed_from: null,
        },
      ])
      .execute();
    for (const [name, m] of Object.entries({ early, midDay, manual })) {
      const week = WEEK_OF[name]!;
      const [stored, facts, twin] = await Promise.all([
        parts(p.cookie, m!.stored, week),
        parts(p.cookie, m!.stored, week, false),
        parts(p.cookie, m!.facts, week),
      ]);
      expect(stored, name).toBe(facts);
      expect(stored, name).toBeLessThan(twin);
    }
    // The untouched machine still reads its rows (its removed facts unseen).
    const week = WEEK_OF.midHour!;
    expect(await parts(p.cookie, midHour!.stored, week)).toBe(await parts(p.cookie, midHour!.facts, week));
  });
});
