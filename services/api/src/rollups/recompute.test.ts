import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { efficiency, efficiencyTotals, sumRollups } from '@takt/domain';
import { companyScope } from '@takt/db';
import { aCompany, aMachine } from '../testing/builders';
import { DIALECTS, freshDb } from '@takt/db/testing';
import type { TestDb } from '@takt/db/testing';
import { loadRollups, clearDirty, markRollupsDirty, recomputeRollups, takeDirty } from '@takt/db/rollups';

const MIN = 60_000;
const day = Date.parse('2024-01-15T00:00:00Z'); // a Monday
const s0 = day + 6 * 3_600_000; // the shift starts 06:00 UTC
const at = (m: number) => s0 + m * MIN;
const close = (x: number | null, pct: number) =>
  expect(Math.abs((x as number) * 100 - pct)).toBeLessThan(0.01);

describe.each(DIALECTS)('rollups stored on %s', (dialect) => {
  let t: TestDb;
  beforeEach(async () => {
    t = await freshDb(dialect);
  });
  afterEach(async () => {
    await t.cleanup();
  });

  it('reproduce the METRICS.md §7 worked example from stored facts to 0.01 %', async () => {
    const company = await aCompany(t.db, { timezone: 'UTC' });
    const scope = companyScope(t.db, company.id);
    const machineId = await aMachine(t.db, company, { name: 'Press 1' });
    // One 480-minute shift 06:00–14:00 on weekdays.
    await scope.insertInto('shifts', { id: 'first', name: 'First', created_at: 0 }).execute();
    await scope
      .insertInto('shift_versions', {
        id: 'first-v1',
        shift_id: 'first',
        startoffsetminutes: 360,
        endoffsetminutes: 840,
        byweekday: '0,1,2,3,4',
        effectivedate: '2024-01-01',
        terminationdate: null,
        created_at: 0,
      })
      .execute();
    for (const [id, behavior] of [
      ['break', 'planned'],
      ['jam', 'unplanned'],
    ] as const) {
      await scope
        .insertInto('annotation_types', {
          id,
          name: id,
          planned_behavior: behavior,
          planned_limit_ms: null,
          color: '#828282',
          hidden: 0,
          created_at: 0,
        })
        .execute();
    }
    // Two 15-minute breaks and a 30-minute meal (planned, 60 min), 47 minutes unplanned, 373 minutes in cycle.
    const pieces: Array<[number, string, string | null, number | null]> = [
      [100, 'ACTIVE', null, null],
      [15, 'INACTIVE', 'break', 1],
      [90, 'ACTIVE', null, null],
      [30, 'INACTIVE', 'break', 1],
      [20, 'INACTIVE', null, null],
      [83, 'ACTIVE', null, null],
      [15, 'INACTIVE', 'break', 1],
      [27, 'FAULT', 'jam', 0],
      [100, 'ACTIVE', null, null],
    ];
    const intervals = [{ start_at: day, end_at: s0, state: 'UNAVAILABLE', reason: 'DISCONNECTED' }];
    let m = 0;
    const active: Array<[number, number]> = [];
    for (const [len, state, reason, planned] of pieces) {
      intervals.push({ start_at: at(m), end_at: at(m + len), state, reason: null as unknown as string });
      if (state === 'ACTIVE') active.push([at(m), at(m + len)]);
      if (reason) {
        await scope
          .insertInto('annotations', {
            id: crypto.randomUUID(),
            machine_id: machineId,
            annotation_type_id: reason,
            start_at: at(m),
            end_at: at(m + len),
            message: null,
            planned,
            setup: 0,
            active_setup: 0,
            created_by: null,
            created_at: 0,
            updated_at: 0,
          })
          .execute();
      }
      m += len;
    }
    intervals.push({
      start_at: at(480),
      end_at: day + 24 * 3_600_000,
      state: 'UNAVAILABLE',
      reason: 'DISCONNECTED',
    });
    await t.db
      .insertInto('state_intervals')
      .values(intervals.map((i) => ({ ...i, company_id: company.id, machine_id: machineId })))
      .execute();
    // 19,271 cycles of ideal 1.0 s spread over the ACTIVE time.
    const activeMs = 373 * MIN;
    const cycles = [];
    for (let k = 0; k < 19_271; k++) {
      let offset = Math.floor(((k + 1) * activeMs) / 19_271) - 1;
      let end = 0;
      for (const [a, b] of active) {
        if (offset < b - a) {
          end = a + offset;
          break;
        }
        offset -= b - a;
      }
      cycles.push({
        company_id: company.id,
        machine_id: machineId,
        start_at: end,
        end_at: end,
        duration: 0,
        count: 1,
        source: 'part_count',
        setup: 0,
      });
    }
    for (let i = 0; i < cycles.length; i += 1000)
      await t.db
        .insertInto('cycles')
        .values(cycles.slice(i, i + 1000))
        .execute();
    await scope
      .insertInto('jobs', {
        id: 'job',
        name: 'Bracket',
        erp_job_id: null,
        expected_cycle_time: 1000,
        ideal_cycle_time: 1000,
        part_count_multiplier: 1,
        actual_parts: 1,
        setuptime: null,
        quantity: null,
        hidden: 0,
        created_at: 0,
      })
      .execute();
    await scope
      .insertInto('job_runs', {
        id: 'run',
        machine_id: machineId,
        job_id: 'job',
        job_machine_id: null,
        start_at: s0,
        end_at: at(480),
        setup_mode: 'none',
        setup_end: s0,
        expected_cycle_time: 1000,
        ideal_cycle_time: 1000,
        part_count_multiplier: 1,
        actual_parts: 1,
        reported_parts: null,
        required_cycles: null,
        part_behavior: 'one',
        expected_setup_ms: null,
        setup_note: null,
        created_at: 0,
      })
      .execute();
    // 423 rejects already counted by the machine (removed from good parts: count 0).
    for (const [time, scrap, behavior] of [
      [at(200), 400, 'scrap'],
      [at(470), 23, 'nonconform'],
    ] as const) {
      await scope
        .insertInto('part_adjustments', {
          id: crypto.randomUUID(),
          machine_id: machineId,
          adjustment_time: time,
          type_id: null,
          scrapcount: scrap,
          count: 0,
          message: null,
          reject_behavior: behavior,
          deduct_from_good_parts: 1,
          job_run_id: 'run',
          kind: 'reject',
          created_by: null,
          created_at: 0,
        })
        .execute();
    }

    await markRollupsDirty(t.db, { companyId: company.id, machineId, from: at(10), now: 1 });
    const [dirty] = await takeDirty(t.db, 10);
    expect(dirty).toMatchObject({ machine_id: machineId, from_at: at(10) });
    const rows = await recomputeRollups(t.db, {
      companyId: company.id,
      machineId,
      from: dirty!.from_at,
      to: day + 1,
      now: day + 48 * 3_600_000,
    });
    await clearDirty(t.db, dirty!, dirty!.marked_at);
    expect(await takeDirty(t.db, 10)).toEqual([]);
    expect(rows).toBeGreaterThanOrEqual(24);

    const range = { start: day, end: day + 24 * 3_600_000 };
    const stored = await loadRollups(scope, { machineIds: [machineId], ...range });
    const totals = efficiencyTotals(sumRollups(stored, range as never));
    expect(totals).toMatchObject({
      shiftTimeMs: 480 * MIN,
      plannedDowntimeMs: 60 * MIN,
      runTimeMs: 373 * MIN,
      totalParts: 19_271,
      rejectedParts: 423,
    });
    const e = efficiency(totals, { shiftFiltered: false });
    close(e.availability, 88.81);
    close(e.performance, 86.11);
    close(e.quality, 97.8);
    close(e.oee, 74.79);
    const pq = (19_271 / 22_380) * (18_848 / 19_271);
    close(e.ooe, (373 / 480) * pq * 100);
    close(e.teep, (373 / 1440) * pq * 100);

    // Recomputing the same day again replaces the rows instead of adding to them.
    await recomputeRollups(t.db, {
      companyId: company.id,
      machineId,
      from: day,
      to: day + 1,
      now: day + 48 * 3_600_000,
    });
    const again = await loadRollups(scope, { machineIds: [machineId], ...range });
    expect(efficiencyTotals(sumRollups(again, range as never))).toEqual(totals);
    // Another company's caller reads none of them.
    const other = await aCompany(t.db);
    expect(await loadRollups(companyScope(t.db, other.id), { machineIds: [machineId], ...range })).toEqual(
      [],
    );
  }, 60_000);

  it('keeps the earliest dirty mark until it is cleared', async () => {
    const company = await aCompany(t.db);
    const machineId = await aMachine(t.db, company);
    await markRollupsDirty(t.db, { companyId: company.id, machineId, from: 5000, now: 1 });
    await markRollupsDirty(t.db, { companyId: company.id, machineId, from: 9000, now: 2 });
    await markRollupsDirty(t.db, { companyId: company.id, machineId, from: 3000, now: 3 });
    const [mark] = await takeDirty(t.db, 10);
    expect(mark).toMatchObject({ from_at: 3000, marked_at: 3 });
    // A mark renewed after it was taken survives the clear.
    await markRollupsDirty(t.db, { companyId: company.id, machineId, from: 7000, now: 4 });
    await clearDirty(t.db, mark!, 3);
    expect(await takeDirty(t.db, 10)).toHaveLength(1);
  });
});
