import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { ProductionResponse } from '@takt/domain';
import { companyScope } from '@takt/db';
import { recomputeRollups } from '@takt/db/rollups';
import { DIALECTS } from '@takt/db/testing';
import { apiHarness } from '../testing/app';
import type { ApiHarness } from '../testing/app';
import { aRejectReason, aTenantWithMachine, MIN, someStates } from '../testing/downtime-builders';
import { aShift } from '../testing/live-builders';

// The scrap form's writes (reports-admin §2 "Machine quality", §4 "Scrap form: create, edit, delete", §5
// scrap rules) move the OEE report's Quality (METRICS.md §3: Q = good / total, total = machine parts + Σ count,
// rejected = Σ scrapcount) by exactly the hand-computed amount: each write marks the machine's rollups dirty
// and the report recomputes them. Both dialects.

// Thursday 2025-11-20 in America/Chicago (CST = UTC−6), the day before the harness clock's day.
const at = (h: number, m = 0) => Date.UTC(2025, 10, 20, h + 6, m);
const START = at(0);
const END = at(24);

describe.each(DIALECTS)('rejects move the OEE report quality on %s', (dialect) => {
  let h: ApiHarness;
  beforeEach(async () => {
    h = await apiHarness(dialect);
  });
  afterEach(async () => {
    await h.close();
  });

  /** The Lathe: Day shift 06:00–14:00, in cycle 06:00–09:20, 20 cycles of 10 min, one part each. */
  async function plant() {
    const me = await aTenantWithMachine(h, { role: 'manager', machine: { name: 'Lathe' } });
    await aShift(h.t.db, me.company, { name: 'Day', startoffsetminutes: 360, endoffsetminutes: 840 });
    await someStates(h.t.db, me.company, me.machineId, [
      [START, at(6), 'INACTIVE'],
      [at(6), at(9, 20), 'ACTIVE'],
      [at(9, 20), END, 'INACTIVE'],
    ]);
    const ends = Array.from({ length: 20 }, (_, i) => at(6) + (i + 1) * 10 * MIN);
    await companyScope(h.t.db, me.company.id)
      .insertInto(
        'cycles',
        ends.map((end) => ({
          machine_id: me.machineId,
          start_at: end - 10 * MIN,
          end_at: end,
          duration: 10 * MIN,
          count: 1,
          source: 'part_count',
          setup: 0,
        })),
      )
      .execute();
    await recomputeRollups(h.t.db, {
      companyId: me.company.id,
      machineId: me.machineId,
      from: START,
      to: END,
      now: h.clock.now,
    });
    const burr = await aRejectReason(h.t.db, me.company, { name: 'Burr', reject_behavior: 'operator' });
    return { ...me, burr };
  }

  async function quality(cookie: string): Promise<number | null> {
    const res = await h.send('POST', '/api/reports/warehouse/production', cookie, {
      start: START,
      end: END,
      data: ['quality'],
      groupBy: ['machine'],
    });
    expect(res.status, await res.clone().text()).toBe(200);
    const body = (await res.json()) as ProductionResponse;
    return body.aggregate.quality ?? null;
  }

  it('a reject lowers quality by scrap / total; editing and deleting it move quality back', async () => {
    const p = await plant();
    expect(await quality(p.cookie)).toBe(1);

    // 2 parts removed from good parts (count 0): good 18 of 20.
    const created = await h.send('POST', '/api/partadjustment', p.cookie, {
      machine_id: p.machineId,
      adjustmenttime: at(7, 5),
      category_id: p.burr.id,
      scrapcount: 2,
      count: 0,
      deductFromGoodParts: true,
      reject_behavior: 'nonconform',
      scrap: true,
      message: 'burr on the bore',
    });
    expect(created.status, await created.clone().text()).toBe(201);
    const reject = (await created.json()) as { id: string; count: number; reject_behavior: string };
    expect(reject).toMatchObject({ count: 0, reject_behavior: 'nonconform' });
    expect(await quality(p.cookie)).toBeCloseTo(18 / 20, 10);

    // Edited to 3 parts that the machine never counted (count = scrap count): good 20 of 23.
    const put = await h.send('PUT', `/api/partadjustment/${reject.id}`, p.cookie, {
      scrapcount: 3,
      count: 3,
      deductFromGoodParts: false,
      scrap: true,
    });
    expect(put.status, await put.clone().text()).toBe(200);
    expect(await quality(p.cookie)).toBeCloseTo(20 / 23, 10);

    // A part correction of +2 (not a reject): good 22 of 25.
    const correction = await h.send('POST', '/api/partadjustment', p.cookie, {
      machine_id: p.machineId,
      adjustmenttime: at(8),
      count: 2,
      scrap: false,
    });
    expect(correction.status, await correction.clone().text()).toBe(201);
    expect(await quality(p.cookie)).toBeCloseTo(22 / 25, 10);

    const del = await h.send('DELETE', `/api/partadjustment/${reject.id}`, p.cookie);
    expect(del.status).toBe(200);
    expect(await quality(p.cookie)).toBe(1);
  });

  it('answers a bad scrap form with the list of problems under "Parts could not be rejected."', async () => {
    const p = await plant();
    const res = await h.send('POST', '/api/partadjustment', p.cookie, {
      machine_id: p.machineId,
      adjustmenttime: at(7),
      scrapcount: 0,
      scrap: true,
    });
    expect(res.status).toBe(400);
    const { error } = (await res.json()) as { error: { message: string; issues: { field: string }[] } };
    expect(error.message).toBe('Parts could not be rejected.');
    expect(error.issues.map((i) => i.field).sort()).toEqual(['category_id', 'scrapcount']);
  });
});
