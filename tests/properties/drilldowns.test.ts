import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import fc from 'fast-check';
import type { OeeReportResponse, ProductionResponse, ProductionRun } from '@takt/domain';
import { DIALECTS } from '@takt/db/testing';
import { apiHarness } from '../../services/api/src/testing/app';
import type { ApiHarness } from '../../services/api/src/testing/app';
import { aMachine } from '../../services/api/src/testing/builders';
import {
  aDowntimeReason,
  anAnnotation,
  aRejectReason,
  MIN,
} from '../../services/api/src/testing/downtime-builders';
import { anAdjustmentRow, aRejectRow, aReportTenant } from '../../services/api/src/testing/report-plant';

// Issue 27 point 2, "drill-downs add up": for every figure that links to a list, the list's total equals the
// figure. fast-check draws a machine, a range and a shift filter over one generated plant per dialect (three
// machines: states with No data, reasons, job runs of two part behaviours, cycles, rejects, corrections; two
// read from stored rollups, one built from the facts) and checks each pair through the HTTP API:
// - a Parts report cell → the Cycles report over the cell (its parts' total), and the machine's total → the
//   Cycles report over the range;
// - a waterfall downtime step (planned downtime or availability loss of one reason) → the Downtime report of
//   that machine, reason, planned value and shift time;
// - a Pareto bar of the Downtime report → the report filtered to its reason, a machine's stacked bar → that
//   machine's Downtime report; a rejects Pareto bar of the
//   Quality report → the reject list of its reason;
// - a machine's row of the OEE Machines list → that machine's OEE report (the tile it opens);
// - a job report figure → its runs, and each run → the Production Runs list and the Cycles report over the
//   run's time in the range.

/** Local time (America/Chicago, CST = UTC−6) on Tuesday 2025-11-04. */
const at = (h: number, m = 0) => Date.UTC(2025, 10, 4, h + 6, m);
const T0 = at(10);
const NOW = at(18);
/** Day 06:00–14:00 and Swing 14:00–17:00: 17:00–18:00 is outside shift time. */
const SHIFTS = [
  ['Day', 360, 840],
  ['Swing', 840, 1020],
] as const;

/** One machine's generated facts, on whole minutes (a fixed seed: the same plant every run). */
const machineFacts = fc.record({
  cuts: fc.uniqueArray(fc.integer({ min: 1, max: 479 }), { minLength: 14, maxLength: 14 }),
  states: fc.array(fc.constantFrom('ACTIVE', 'ACTIVE', 'INACTIVE', 'FAULT', 'UNAVAILABLE'), {
    minLength: 15,
    maxLength: 15,
  }),
  cycleEnds: fc.uniqueArray(fc.integer({ min: 2, max: 479 }), { minLength: 40, maxLength: 40 }),
  corrections: fc.array(
    fc.record({ at: fc.integer({ min: 0, max: 479 }), count: fc.integer({ min: 1, max: 3 }) }),
    {
      minLength: 2,
      maxLength: 2,
    },
  ),
});
const PLANT = fc.sample(fc.tuple(machineFacts, machineFacts, machineFacts), { seed: 272, numRuns: 1 })[0]!;

const minute = (m: number) => T0 + m * MIN;

interface Plant {
  cookie: string;
  machines: string[];
  shiftIds: string[];
}

type Cell = { start: number; end: number; parts: number; goal: number | null };
interface PartGoalsAnswer {
  machines: Array<{ machineId: string; parts: number; intervals: Cell[] }>;
}
interface CyclesAnswer {
  parts: { total: number; rejected: number; good: number };
}
interface DowntimeAnswer {
  data: Array<{ reasonId: string; duration: number; count: number }>;
  summary: { duration: number; count: number };
  byMachine: Array<{ machineId: string; downtime: Array<{ duration: number }> }>;
  /** With detail=true: the periods (the grid). */
  items?: Array<{ reasonId: string; duration: number; planned: boolean | null }>;
}
interface JobsAnswer {
  jobs: Array<{
    good_parts: number;
    rejected_parts: number;
    runs: Array<{ jobschedulegroup_id: string; good_parts: number; rejected_parts: number }>;
  }>;
}

describe.each(DIALECTS)('drill-downs add up on %s', (dialect) => {
  let h: ApiHarness;
  let p: Plant;

  async function get<T>(path: string): Promise<T> {
    const res = await h.get(path, p.cookie);
    expect(res.status, `${path}: ${await res.clone().text()}`).toBe(200);
    return (await res.json()) as T;
  }

  beforeAll(async () => {
    h = await apiHarness(dialect, NOW);
    const { company, cookie, scope, shiftIds, recompute } = await aReportTenant(h, SHIFTS);
    const reasons = [
      await aDowntimeReason(h.t.db, company, { name: 'Break', plannedBehavior: 'planned' }),
      await aDowntimeReason(h.t.db, company, { name: 'Jam', plannedBehavior: 'unplanned' }),
      await aDowntimeReason(h.t.db, company, {
        name: 'Wait',
        plannedBehavior: 'plannedWithLimit',
        plannedLimitMs: 10 * MIN,
      }),
    ];
    const rejectReasons = [
      await aRejectReason(h.t.db, company, { name: 'Burr' }),
      await aRejectReason(h.t.db, company, { name: 'Scratch', reject_behavior: 'nonconform' }),
    ];
    const machines: string[] = [];
    for (const [k, facts] of PLANT.entries()) {
      const m = await aMachine(h.t.db, company, { name: `M${k}` });
      machines.push(m);
      const cuts = [0, ...[...facts.cuts].sort((x, y) => x - y)];
      await scope
        .insertInto(
          'state_intervals',
          cuts.map((c, i) => ({
            machine_id: m,
            start_at: minute(c),
            end_at: i + 1 < cuts.length ? minute(cuts[i + 1]!) : null,
            state: facts.states[i]!,
          })),
        )
        .execute();
      // M0: a one-part job 11:00–15:00; M1: a manycycles job (2 cycles make 3 parts) from 10:00, in planned
      // setup until 10:20; M2: no job.
      if (k < 2) {
        const jobId = crypto.randomUUID();
        await scope
          .insertInto('jobs', {
            id: jobId,
            name: `Job ${k}`,
            erp_job_id: null,
            expected_cycle_time: 6 * MIN,
            ideal_cycle_time: 5 * MIN,
            part_count_multiplier: 1,
            actual_parts: 1,
            setuptime: null,
            quantity: null,
            hidden: 0,
            created_at: T0,
          })
          .execute();
        await scope
          .insertInto('job_runs', {
            id: crypto.randomUUID(),
            machine_id: m,
            job_id: jobId,
            job_machine_id: null,
            start_at: k === 0 ? at(11) : T0,
            end_at: k === 0 ? at(15) : null,
            setup_mode: k === 0 ? 'none' : 'planned',
            setup_end: k === 0 ? at(11) : minute(20),
            expected_cycle_time: 6 * MIN,
            ideal_cycle_time: 5 * MIN,
            part_count_multiplier: 1,
            actual_parts: 1,
            reported_parts: k === 0 ? null : 3,
            required_cycles: k === 0 ? null : 2,
            part_behavior: k === 0 ? 'one' : 'manycycles',
            expected_setup_ms: k === 0 ? null : 20 * MIN,
            setup_note: null,
            created_at: T0,
          })
          .execute();
      }
      const ends = [...facts.cycleEnds].sort((x, y) => x - y);
      await scope
        .insertInto(
          'cycles',
          ends.map((e) => ({
            machine_id: m,
            start_at: minute(e) - MIN,
            end_at: minute(e),
            duration: MIN,
            count: 1,
            source: 'part_count',
            setup: k === 1 && e < 20 ? 1 : 0,
          })),
        )
        .execute();
      // A reject of one part at the end of every 7th cycle (never more than made), and corrections.
      await scope
        .insertInto('part_adjustments', [
          ...ends
            .filter((_, i) => i % 7 === 6)
            .map((e, i) => {
              const reason = rejectReasons[i % 2]!;
              return aRejectRow(m, minute(e), {
                typeId: reason.id,
                scrapcount: 1,
                behavior: reason.reject_behavior === 'nonconform' ? 'nonconform' : 'scrap',
              });
            }),
          ...facts.corrections.map((c) => anAdjustmentRow(m, minute(c.at), { count: c.count })),
        ])
        .execute();
      // The first three downtime periods categorized: Break, Jam, Wait.
      const downtime = cuts.flatMap((c, i) =>
        facts.states[i] !== 'ACTIVE' && i + 1 < cuts.length
          ? [{ start: minute(c), end: minute(cuts[i + 1]!) }]
          : [],
      );
      for (const [i, d] of downtime.slice(0, 3).entries())
        await anAnnotation(h.t.db, company, { machineId: m, ...d, typeId: reasons[i]!.id });
    }
    // M0 and M1 read from stored rollups (the worker has caught up), M2 from the facts.
    await recompute(machines.slice(0, 2), { from: T0 - 60 * MIN, to: NOW, now: NOW });
    await h.t.db.deleteFrom('rollup_dirty').where('machine_id', 'in', machines.slice(0, 2)).execute();
    p = { cookie, machines, shiftIds };
  });

  afterAll(async () => {
    await h?.close();
  });

  /** A range of the plant: whole hours, or whole minutes (mid-hour edges, decision 1015). */
  const instant = fc.oneof(
    fc.integer({ min: 0, max: 8 }).map((x) => T0 + x * 60 * MIN),
    fc.integer({ min: 0, max: 480 }).map(minute),
  );
  const query = fc.record({
    machine: fc.integer({ min: 0, max: 2 }),
    range: fc
      .tuple(instant, instant)
      .filter(([x, y]) => x !== y)
      .map(([x, y]) => ({ start: Math.min(x, y), end: Math.max(x, y) })),
    /** Index into: no filter, Day, Swing, both. */
    shifts: fc.integer({ min: 0, max: 3 }),
    interval: fc.constantFrom('hour', 'shift', 'day'),
  });
  const shiftList = (k: number) => [[], [p.shiftIds[0]!], [p.shiftIds[1]!], p.shiftIds][k]!;

  it('every figure that links to a list equals the list’s total (property)', async () => {
    /** How many pairs of each kind were checked: each kind must have been met. */
    const checked = {
      cells: 0,
      steps: 0,
      bars: 0,
      noDataBars: 0,
      machineBars: 0,
      rejects: 0,
      rows: 0,
      runs: 0,
    };
    await fc.assert(
      fc.asyncProperty(query, async (q) => {
        const m = p.machines[q.machine]!;
        const r = `start=${q.range.start}&end=${q.range.end}`;
        const filter = shiftList(q.shifts);
        const shifts = filter.length ? `&shifts=${filter.join(',')}` : '';

        // Parts report cells and total → Cycles report.
        const goals = await get<PartGoalsAnswer>(
          `/api/reports/partGoals?${r}&machineId=${m}&interval=${q.interval}`,
        );
        const row = goals.machines[0]!;
        const cyclesOf = (start: number, end: number) =>
          get<CyclesAnswer>(`/api/reports/cycles?start=${start}&end=${end}&machineId=${m}`);
        expect((await cyclesOf(q.range.start, q.range.end)).parts.good).toBe(row.parts);
        for (const cell of row.intervals) {
          const list = await cyclesOf(cell.start, cell.end);
          expect({ cell: cell.start, parts: list.parts.good }).toEqual({
            cell: cell.start,
            parts: cell.parts,
          });
          checked.cells += 1;
        }

        // Waterfall downtime steps → the Downtime report of the machine, reason, planned value and shift time
        // (the waterfall counts downtime inside shift time: the selected shifts, else all of them).
        const oee = await get<OeeReportResponse>(
          `/api/reports/oee?${r}&machineId=${m}&interval=hour${shifts}`,
        );
        const inShift = `&shifts=${(filter.length ? filter : p.shiftIds).join(',')}`;
        for (const step of oee.waterfall) {
          if (step.link?.report !== 'downtime' || !step.reasonId || step.reasonId === 'setup') continue;
          const planned = step.key === 'plannedDowntime';
          const list = await get<DowntimeAnswer>(
            `/api/reports/downtime?${r}&machineId=${m}${inShift}&categoryId=${step.reasonId}` +
              `&showPlanned=${planned}&showUnplanned=${!planned}&showUncategorized=${!planned}`,
          );
          expect({ step: `${step.key}:${step.reasonId}`, ms: list.summary.duration }).toEqual({
            step: `${step.key}:${step.reasonId}`,
            ms: step.ms,
          });
          checked.steps += 1;
        }

        // Pareto bars → the report filtered to the bar's reason (all machines, the shift filter).
        const pareto = await get<DowntimeAnswer>(`/api/reports/downtime?${r}${shifts}&detail=true`);
        for (const bar of pareto.data) {
          const listed = pareto.items!.filter((x) => x.reasonId === bar.reasonId);
          expect(listed.reduce((t, x) => t + x.duration, 0)).toBe(bar.duration);
          const one = await get<DowntimeAnswer>(
            `/api/reports/downtime?${r}${shifts}&categoryId=${bar.reasonId}`,
          );
          expect({ reason: bar.reasonId, ms: one.summary.duration }).toEqual({
            reason: bar.reasonId,
            ms: bar.duration,
          });
          checked.bars += 1;
          // METRICS.md §1 No data (UNAVAILABLE time in monitored life): its own bar, adding up like the rest.
          if (bar.reasonId === 'nodata') checked.noDataBars += 1;
        }

        // The stacked chart's machine bar → that machine's Downtime report (reports-admin §2).
        for (const bar of pareto.byMachine) {
          const one = await get<DowntimeAnswer>(
            `/api/reports/downtime?${r}${shifts}&machineId=${bar.machineId}`,
          );
          expect(one.summary.duration).toBe(bar.downtime.reduce((t, x) => t + x.duration, 0));
          checked.machineBars += 1;
        }

        // Quality report Pareto bars → the reject list of the bar's reason (the machine, the shift filter).
        const rq = `${r}&machine_id=${m}${shifts}`;
        const quality = await get<{ rejects: Array<{ scrapCount: number; category_id: string | null }> }>(
          `/api/partadjustment/allRejectsByCategory?${rq}`,
        );
        for (const bar of quality.rejects) {
          const category = bar.category_id ?? 'uncategorized';
          const list = await get<{ rows: Array<{ scrapcount: number }>; count: number }>(
            `/api/partadjustment/rejects?${rq}&category_id=${category}&limit=100`,
          );
          expect(list.count).toBe(list.rows.length);
          expect({ category, n: list.rows.reduce((t, x) => t + x.scrapcount, 0) }).toEqual({
            category,
            n: bar.scrapCount,
          });
          checked.rejects += 1;
        }

        // The OEE Machines list row → that machine's OEE report.
        const res = await h.send('POST', '/api/reports/warehouse/production', p.cookie, {
          start: q.range.start,
          end: q.range.end,
          data: ['oee', 'availability', 'performance', 'quality'],
          groupBy: ['machine'],
          ...(filter.length ? { filter: { shift: filter } } : {}),
        });
        expect(res.status, await res.clone().text()).toBe(200);
        const item = ((await res.json()) as ProductionResponse).items.find((i) => i.machine === m);
        const factors = (e: {
          oee?: number | null;
          availability?: number | null;
          performance?: number | null;
          quality?: number | null;
        }) =>
          [e.oee ?? null, e.availability ?? null, e.performance ?? null, e.quality ?? null].map((v) =>
            v === null ? null : Math.round(v * 1e9),
          );
        expect(factors(item ?? {})).toEqual(factors(oee.efficiency));
        checked.rows += 1;

        // Job report figures → their runs → Production Runs.
        const [jobs, runs] = await Promise.all([
          get<JobsAnswer>(`/api/reports/warehouse/jobs?${r}`),
          get<ProductionRun[]>(`/api/productionruns?${r}`),
        ]);
        for (const job of jobs.jobs) {
          expect(job.good_parts).toBe(job.runs.reduce((t, x) => t + x.good_parts, 0));
          expect(job.rejected_parts).toBe(job.runs.reduce((t, x) => t + x.rejected_parts, 0));
          for (const run of job.runs) {
            const listed = runs.find((x) => x.id === run.jobschedulegroup_id)!;
            expect(listed.parts).toMatchObject({ good: run.good_parts, rejected: run.rejected_parts });
            // …and the run's figure → the Cycles report of its machine over its time in the range.
            const from = Math.max(listed.startdate, q.range.start);
            const to = Math.min(listed.enddate ?? NOW, q.range.end, NOW);
            if (to > from) {
              const list = await get<CyclesAnswer>(
                `/api/reports/cycles?start=${from}&end=${to}&machineId=${listed.machine_id}`,
              );
              expect(list.parts).toMatchObject({ good: run.good_parts, rejected: run.rejected_parts });
            }
            checked.runs += 1;
          }
        }
      }),
      { numRuns: 25, seed: 27 },
    );
    for (const [kind, n] of Object.entries(checked)) expect([kind, n > 0]).toEqual([kind, true]);
  });
});
