import { companyWeekRange, piecesOf, segmentsOf } from '@takt/domain';
import type { CompanyClock } from '@takt/domain';
import { loadCalendar, loadDowntimeFacts } from '@takt/db/rollups';
import type { DowntimeFacts } from '@takt/db/rollups';
import type { ApiHarness } from './app';
import { aDowntimeReason, anAnnotation, HOUR, MIN } from './downtime-builders';
import { aMachineWithFacts, aReportTenant, generatedFacts, recomputeMarked } from './report-plant';

// The downtime figures' plant (decisions 1188, 1193): 3 machines × 5.5 days over a week boundary, shifts Day and
// Night, three reasons of each planned behaviour, splits without a reason, open annotations and No data, its
// rollups (and their downtime figures) written by the recompute.

/** Thursday 2025-11-13 00:00 in America/Chicago (UTC-6): the plant runs over a week boundary to Tuesday noon. */
export const PLANT_T0 = Date.parse('2025-11-13T06:00:00Z');
export const PLANT_NOW = PLANT_T0 + 5 * 24 * HOUR + 12 * HOUR;
const SHIFTS = [
  ['Day', 360, 840],
  ['Night', 1320, 1800],
] as const;

export async function aDowntimePlant(h: ApiHarness) {
  const T0 = PLANT_T0;
  const NOW = PLANT_NOW;
  const tenant = await aReportTenant(h, SHIFTS);
  const { company } = tenant;
  const planned = await aDowntimeReason(h.t.db, company, { name: 'Break', plannedBehavior: 'planned' });
  const tooling = await aDowntimeReason(h.t.db, company, { name: 'Tooling' });
  const limited = await aDowntimeReason(h.t.db, company, {
    name: 'Meeting',
    plannedBehavior: 'plannedWithLimit',
    plannedLimitMs: 40 * MIN,
  });
  const reasons = [planned, tooling, limited];
  const clock = (await loadCalendar(h.t.db, company.id)) as CompanyClock;
  const monday = companyWeekRange(clock, NOW).start as number;
  const ids: string[] = [];
  for (const [k, name] of ['M1', 'M2', 'M3'].entries()) {
    const facts = generatedFacts({
      t0: T0,
      now: NOW,
      cuts: 90,
      cycles: 1,
      corrections: 1,
      states: ['ACTIVE', 'ACTIVE', 'INACTIVE', 'FAULT', 'UNAVAILABLE', 'INACTIVE'],
      seed: 4242 + k,
    });
    // M1: a long stop without data over the week boundary (Monday 00:00 Chicago), from 23:00 in Sunday's Night
    // shift to Monday 07:00.
    const long = { start: monday - HOUR, end: monday + 7 * HOUR };
    const cuts =
      k === 0
        ? [...facts.cuts.filter((t) => t < long.start || t > long.end), long.start, long.end]
        : [...facts.cuts];
    cuts.sort((a, b) => a - b);
    const states = [
      ...facts.states.slice(0, 2),
      ...cuts.map((t, i) =>
        t === long.start && k === 0
          ? 'UNAVAILABLE'
          : t === long.end && k === 0
            ? 'ACTIVE'
            : facts.states[i + 2]!,
      ),
    ];
    const m = await aMachineWithFacts(h, company, name, T0, { ...facts, cuts, states });
    ids.push(m.id);
    // Every third stop categorized (some annotations reach over two stops, one open), one a split without a reason.
    for (const [i, d] of m.downtime.entries()) {
      if (i % 3 !== 0) continue;
      const end = i % 9 === 0 ? null : i % 6 === 0 ? (m.downtime[i + 1]?.end ?? d.end) : d.end;
      // None over M1's long stop: it stays No data until a test annotates it.
      if (k === 0 && d.start < long.end && (end ?? d.end) > long.start) continue;
      await anAnnotation(h.t.db, company, {
        machineId: m.id,
        start: d.start + (i % 2) * MIN,
        end,
        typeId: i % 15 === 0 ? null : reasons[i % reasons.length]!.id,
      });
    }
  }
  await tenant.recompute(ids, { from: T0, to: NOW, now: NOW });
  await recomputeMarked(h.t.db, NOW);
  return { tenant, ids, clock, monday, reasons: { planned, tooling, limited } };
}

/**
 * Decision 1198: a machine of the plant's company whose monitored life begins at `t0` (its first state), inside the
 * plant's days, with generated facts up to PLANT_NOW and its rollups recomputed: machines of different lives.
 */
export async function aLateMachine(
  h: ApiHarness,
  tenant: Awaited<ReturnType<typeof aDowntimePlant>>['tenant'],
  t0: number,
) {
  const facts = generatedFacts({
    t0,
    now: PLANT_NOW,
    cuts: 40,
    cycles: 1,
    corrections: 1,
    states: ['ACTIVE', 'INACTIVE', 'FAULT', 'UNAVAILABLE'],
    seed: 77,
  });
  const m = await aMachineWithFacts(h, tenant.company, 'M4', t0, facts);
  await tenant.recompute([m.id], { from: t0, to: PLANT_NOW, now: PLANT_NOW });
  await recomputeMarked(h.t.db, PLANT_NOW);
  return m.id;
}

/**
 * The plant's longest stop without an annotation (of the machines `ids`, closed) given the reason `typeId` over its
 * whole period and its machine recomputed; returns an instant in its middle (7 s past a minute): a range starting
 * there begins inside a downtime of that reason (decision 1198: a plannedWithLimit one, judged on its duration).
 */
export async function aStopOfReason(
  h: ApiHarness,
  tenant: Awaited<ReturnType<typeof aDowntimePlant>>['tenant'],
  ids: readonly string[],
  typeId: string,
): Promise<number> {
  const facts = await loadDowntimeFacts(tenant.scope, ids, { start: PLANT_T0, end: PLANT_NOW });
  const stops = ids.flatMap((id) =>
    piecesOfMachine(facts, id).flatMap((p) =>
      p.annotation || p.end === null ? [] : [{ id, start: p.start, end: p.end }],
    ),
  );
  const longest = stops.sort((a, b) => b.end - b.start - (a.end - a.start))[0]!;
  await anAnnotation(h.t.db, tenant.company, {
    machineId: longest.id,
    start: longest.start,
    end: longest.end,
    typeId,
  });
  await tenant.recompute([longest.id], { from: PLANT_T0, to: PLANT_NOW, now: PLANT_NOW });
  await recomputeMarked(h.t.db, PLANT_NOW);
  return Math.floor((longest.start + longest.end) / 2 / MIN) * MIN + 7_000;
}

/** A machine's downtime pieces of facts read for several machines (as the report splits them). */
export const piecesOfMachine = (facts: DowntimeFacts, id: string) =>
  piecesOf(
    segmentsOf(
      facts.intervals
        .filter((r) => r.machine_id === id)
        .map((r) => ({ start: r.start_at, end: r.end_at, state: r.state })),
    ),
    facts.annotations.filter((a) => a.machineId === id),
  );

/**
 * Decision 1198's plant: aDowntimePlant, one of its stops given the plannedWithLimit reason (`limited`: an instant
 * inside it) and M4, whose life begins on Saturday 02:17 (`late`, its first state): machines of different lives.
 */
export async function aPlantOfLives(h: ApiHarness) {
  const { tenant, ids: plant, monday, reasons } = await aDowntimePlant(h);
  const limited = await aStopOfReason(h, tenant, plant, reasons.limited.id);
  const late = PLANT_T0 + 2 * 24 * HOUR + 2 * HOUR + 17 * MIN;
  const ids = [...plant, await aLateMachine(h, tenant, late)];
  const calendar = await loadCalendar(h.t.db, tenant.company.id);
  return { tenant, plant, ids, monday, limited, late, calendar };
}
