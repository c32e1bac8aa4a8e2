import fc from 'fast-check';
import { companyScope } from '@takt/db';
import type { CompanyScope, Database } from '@takt/db';
import { clearDirty, loadCalendar, recomputeRollups, takeDirty } from '@takt/db/rollups';
import type { Kysely } from 'kysely';
import { afterEach, beforeEach } from 'vitest';
import type { Company } from '../repositories/company';
import { apiHarness } from './app';
import type { ApiHarness } from './app';
import { aCompany, aMachine, aUser } from './builders';
import { aShift } from './live-builders';

// Builders for the plants the report tests compute figures by hand on (reports-admin §2, §7, §9): a company in
// America/Chicago with its shifts, jobs with a run, cycles and part adjustments as the floor writes them, and
// the rollups the report calls read (decision 0804). New ids each call (STYLE.md: builders with defaults).

/**
 * A fresh API (database of `dialect`, clock at `now`) for each test of the describe, closed after it: `.h` is
 * the current test's (tests are independent, STYLE.md).
 */
export function apiPerTest(dialect: Parameters<typeof apiHarness>[0], now: number): { h: ApiHarness } {
  const api = {} as { h: ApiHarness };
  beforeEach(async () => {
    api.h = await apiHarness(dialect, now);
  });
  afterEach(async () => {
    await api.h.close();
  });
  return api;
}

/** A shift as [name, start, end] in minutes after the company day's start (a Night shift ends after 1440). */
export type ShiftSpec = readonly [name: string, startoffsetminutes: number, endoffsetminutes: number];

/**
 * The start of a report route test: a full-tier company in America/Chicago (its day starting at `dayStartMs`, else
 * midnight) with the given shifts every day, a
 * logged-in user of it, its scope for the rows the test writes, and the recompute of its rollups.
 */
export async function aReportTenant(
  h: ApiHarness,
  shifts: readonly ShiftSpec[],
  o: { dayStartMs?: number } = {},
) {
  const company = await aCompany(h.t.db, { timezone: 'America/Chicago', productTier: 'full' });
  if (o.dayStartMs !== undefined)
    await h.t.db
      .updateTable('companies')
      .set({ time_context_offset_ms: o.dayStartMs })
      .where('id', '=', company.id)
      .execute();
  const user = await aUser(h.t.db, company);
  const cookie = await h.login(user.email, user.password);
  const shiftIds: string[] = [];
  for (const [name, startoffsetminutes, endoffsetminutes] of shifts)
    shiftIds.push(await aShift(h.t.db, company, { name, startoffsetminutes, endoffsetminutes }));
  return {
    company,
    cookie,
    shiftIds,
    scope: companyScope(h.t.db, company.id),
    /** The rollups of the company's machines, as recomputeMachines writes them. */
    recompute: (machineIds: readonly string[], span: { from: number; to: number; now: number }) =>
      recomputeMachines(h.t.db, company, machineIds, span),
  };
}

/**
 * A job and one run of it on a machine over [start, end), one part a cycle (aJobRun's, with the figures). With `setupEnd` the run starts in
 * planned setup until then; without, it runs from its start. Returns the job's id.
 */
export async function aJobWithRun(
  scope: CompanyScope,
  j: {
    machineId: string;
    name: string;
    expected: number;
    ideal: number;
    /** When the job was created. */
    jobCreatedAt: number;
    start: number;
    /** Null while it runs. */
    end: number | null;
    setupEnd?: number;
    /** When the run was created; its start unless given. */
    runCreatedAt?: number;
  },
): Promise<string> {
  const jobId = crypto.randomUUID();
  await scope
    .insertInto('jobs', {
      id: jobId,
      name: j.name,
      erp_job_id: null,
      expected_cycle_time: j.expected,
      ideal_cycle_time: j.ideal,
      part_count_multiplier: 1,
      actual_parts: 1,
      setuptime: null,
      quantity: null,
      hidden: 0,
      created_at: j.jobCreatedAt,
    })
    .execute();
  await scope
    .insertInto('job_runs', {
      id: crypto.randomUUID(),
      machine_id: j.machineId,
      job_id: jobId,
      job_machine_id: null,
      start_at: j.start,
      end_at: j.end,
      setup_mode: j.setupEnd == null ? 'none' : 'planned',
      setup_end: j.setupEnd ?? j.start,
      expected_cycle_time: j.expected,
      ideal_cycle_time: j.ideal,
      part_count_multiplier: 1,
      actual_parts: 1,
      reported_parts: null,
      required_cycles: null,
      part_behavior: 'one',
      expected_setup_ms: null,
      setup_note: null,
      created_at: j.runCreatedAt ?? j.start,
    })
    .execute();
  return jobId;
}

/** Cycles of one part each, as the part counter writes them: [start, end) per cycle. */
export async function someCycles(
  scope: CompanyScope,
  machineId: string,
  cycles: ReadonlyArray<{ start: number; end: number }>,
): Promise<void> {
  await scope
    .insertInto(
      'cycles',
      cycles.map((c) => ({
        machine_id: machineId,
        start_at: c.start,
        end_at: c.end,
        duration: c.end - c.start,
        count: 1,
        source: 'part_count',
        setup: 0,
      })),
    )
    .execute();
}

/** A part adjustment row: a correction of nothing unless `over` says otherwise. */
export const anAdjustmentRow = (machineId: string, at: number, over: Partial<AdjustmentRow> = {}) =>
  ({
    id: crypto.randomUUID(),
    machine_id: machineId,
    adjustment_time: at,
    type_id: null,
    scrapcount: 0,
    count: 0,
    message: null,
    reject_behavior: null,
    deduct_from_good_parts: 0,
    job_run_id: null,
    kind: 'correction',
    created_by: null,
    created_at: at,
    ...over,
  }) satisfies AdjustmentRow;

/** A reject of `scrapcount` parts of a reason, taken off the good parts (reports-admin §9 reject behaviors). */
export const aRejectRow = (
  machineId: string,
  at: number,
  reject: { typeId: string; scrapcount: number; behavior?: 'scrap' | 'nonconform'; createdAt?: number },
) =>
  anAdjustmentRow(machineId, at, {
    type_id: reject.typeId,
    scrapcount: reject.scrapcount,
    reject_behavior: reject.behavior ?? 'scrap',
    deduct_from_good_parts: 1,
    kind: 'reject',
    created_at: reject.createdAt ?? at,
  });

/** A part_adjustments row as the company scope inserts it (the scope adds the company). */
export type AdjustmentRow = Omit<Database['part_adjustments'], 'company_id'>;

/** The rollups of each machine over [from, to), as the rollup worker writes them after the facts change. */
export async function recomputeMachines(
  db: Kysely<Database>,
  company: Company,
  machineIds: readonly string[],
  span: { from: number; to: number; now: number },
): Promise<void> {
  for (const machineId of machineIds)
    await recomputeRollups(db, { companyId: company.id, machineId, ...span });
}

/**
 * What the rollup worker does with the dirty marks (services/ingest worker/rollup.ts), at `now`: each mark's
 * machine recomputed from its start, then cleared. Returns how many marks there were.
 */
export async function recomputeMarked(db: Kysely<Database>, now: number): Promise<number> {
  const marks = await takeDirty(db, 50);
  for (const mark of marks) {
    const calendar = await loadCalendar(db, mark.company_id);
    await recomputeRollups(db, {
      companyId: mark.company_id,
      machineId: mark.machine_id,
      from: mark.from_at,
      to: now,
      now,
      calendar,
    });
    await clearDirty(db, mark, mark.marked_at);
  }
  return marks.length;
}

/** A machine's generated facts (the report property tests): state cuts and states, cycle ends, corrections. */
export interface GeneratedFacts {
  /** Instants the state changes at after the setup (any order). */
  cuts: readonly number[];
  /** The state of each interval, by index (index 0, the setup, and 1 are not read). */
  states: readonly string[];
  cycleEnds: readonly number[];
  corrections: ReadonlyArray<{ at: number; count: number }>;
}

/**
 * A machine named `name` with the generated facts from `t0`: 15 minutes of planned setup of a running job
 * (2 min expected, 90 s ideal) then the generated states (the last one still open), a 90 s cycle ending at
 * each cycle end and the part corrections. Returns its id and its downtime intervals (not ACTIVE, ended),
 * for the annotations a test puts on them.
 */
export async function aMachineWithFacts(
  h: ApiHarness,
  company: Company,
  name: string,
  t0: number,
  facts: GeneratedFacts,
): Promise<{ id: string; downtime: Array<{ start: number; end: number }> }> {
  const scope = companyScope(h.t.db, company.id);
  const cuts = [t0, t0 + 15 * 60_000, ...[...facts.cuts].sort((x, y) => x - y)];
  const id = await aMachine(h.t.db, company, { name });
  await scope
    .insertInto(
      'state_intervals',
      cuts.map((start, i) => ({
        machine_id: id,
        start_at: start,
        end_at: cuts[i + 1] ?? null,
        state: i === 0 ? 'SETUP' : facts.states[i]!,
      })),
    )
    .execute();
  await aJobWithRun(scope, {
    machineId: id,
    name: `Flange ${name}`,
    expected: 2 * 60_000,
    ideal: 90_000,
    jobCreatedAt: t0,
    start: t0,
    end: null,
    setupEnd: t0 + 15 * 60_000,
  });
  await someCycles(
    scope,
    id,
    facts.cycleEnds.map((end) => ({ start: end - 90_000, end })),
  );
  await scope
    .insertInto(
      'part_adjustments',
      facts.corrections.map((c) => anAdjustmentRow(id, c.at, { count: c.count })),
    )
    .execute();
  const downtime = cuts.flatMap((start, i) =>
    i > 0 && facts.states[i] !== 'ACTIVE' && cuts[i + 1] ? [{ start, end: cuts[i + 1]! }] : [],
  );
  return { id, downtime };
}

/**
 * Machines named `names`, each with facts generated over [t0, now) (`o` with the seed `seed + k` for the k-th),
 * their rollups recomputed up to now: the report tests' plants. Returns their ids.
 */
export async function machinesWithFacts(
  h: ApiHarness,
  tenant: Awaited<ReturnType<typeof aReportTenant>>,
  names: readonly string[],
  o: Omit<Parameters<typeof generatedFacts>[0], 'states'>,
): Promise<string[]> {
  const ids: string[] = [];
  for (const [k, name] of names.entries()) {
    const facts = generatedFacts({
      ...o,
      states: ['ACTIVE', 'ACTIVE', 'INACTIVE', 'FAULT'],
      seed: o.seed + k,
    });
    ids.push((await aMachineWithFacts(h, tenant.company, name, o.t0, facts)).id);
  }
  await tenant.recompute(ids, { from: o.t0, to: o.now, now: o.now });
  return ids;
}

/**
 * One machine's facts generated over [t0, now) with a fixed seed (the same plant every run): `cuts` state
 * changes after the 15-minute setup, a state each from `states` (repeats weigh), `cycles` cycle ends and
 * `corrections` part corrections of 1–3.
 */
export function generatedFacts(o: {
  t0: number;
  now: number;
  cuts: number;
  cycles: number;
  corrections: number;
  states: readonly string[];
  seed: number;
}): GeneratedFacts {
  const exactly = (n: number) => ({ minLength: n, maxLength: n });
  return fc.sample(
    fc.record({
      cuts: fc.uniqueArray(fc.integer({ min: o.t0 + 15 * 60_000 + 1, max: o.now - 1 }), exactly(o.cuts)),
      states: fc.array(fc.constantFrom(...o.states), exactly(o.cuts + 2)),
      cycleEnds: fc.uniqueArray(fc.integer({ min: o.t0 + 2 * 60_000, max: o.now - 1 }), exactly(o.cycles)),
      corrections: fc.array(
        fc.record({ at: fc.integer({ min: o.t0, max: o.now - 1 }), count: fc.integer({ min: 1, max: 3 }) }),
        exactly(o.corrections),
      ),
    }),
    { seed: o.seed, numRuns: 1 },
  )[0]!;
}
