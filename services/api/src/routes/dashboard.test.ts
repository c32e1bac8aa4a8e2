import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { utilizationStatus, workcenterLiveSchema } from '@takt/domain';
import type { Kysely } from 'kysely';
import type { Database } from '@takt/db';
import { companyScope } from '@takt/db';
import type { Company } from '../repositories/company';
import type { PartsEntry, UtilizationEntry } from '@takt/domain';
import { apiHarness } from '../testing/app';
import type { ApiHarness } from '../testing/app';
import { aCompany, aGroup, aMachine, aUser } from '../testing/builders';
import { DIALECTS } from '@takt/db/testing';
import { aJobRun, HOUR, MIN, someStates } from '../testing/downtime-builders';
import { aJobWithRun } from '../testing/report-plant';
import { aShift } from '../testing/live-builders';

/** `count` one-part cycles of `each` ms back to back from `start`. */
async function someCycles(
  db: Kysely<Database>,
  company: Company,
  machine: string,
  start: number,
  count: number,
  each: number,
) {
  await companyScope(db, company.id)
    .insertInto(
      'cycles',
      Array.from({ length: count }, (_, i) => ({
        machine_id: machine,
        start_at: start + i * each,
        end_at: start + (i + 1) * each,
        duration: each,
        count: 1,
        source: 'part_count',
        setup: 0,
      })),
    )
    .execute();
}

describe.each(DIALECTS)('live dashboard figures on %s', (dialect) => {
  let h: ApiHarness;
  beforeEach(async () => {
    h = await apiHarness(dialect);
  });
  afterEach(async () => {
    await h.close();
  });

  it('gives parts against goal per machine, the same as the workcenter card, and the tile agrees', async () => {
    const { company, cookie } = await h.tenant();
    const behind = await aMachine(h.t.db, company, { name: 'Behind', sortOrder: 1 });
    const ahead = await aMachine(h.t.db, company, { name: 'Ahead', sortOrder: 2 });
    const idle = await aMachine(h.t.db, company, { name: 'Idle', sortOrder: 3 });
    const now = h.clock.now;
    const start = now - 60 * MIN;
    // 60 s standard: 60 parts expected by now. Behind made 30 (80 s cycles), Ahead made 65 (55 s cycles).
    await aJobRun(h.t.db, company, behind, { start });
    await aJobRun(h.t.db, company, ahead, { start });
    await someCycles(h.t.db, company, behind, start, 30, 80_000);
    await someCycles(h.t.db, company, ahead, start, 65, 55_000);

    const res = await h.get('/api/dashboard/parts', cookie);
    expect(res.status).toBe(200);
    const parts = (await res.json()) as PartsEntry[];
    expect(parts.map((p) => p.machineId)).toEqual([behind, ahead, idle]);
    expect(parts[0]).toMatchObject({
      scheduled: true,
      inSetup: false,
      expectedParts: 60,
      actualParts: 30,
      aheadBehind: -30,
      status: 'danger',
    });
    expect(parts[0]!.percent).toBeCloseTo(50, 6);
    expect(parts[1]).toMatchObject({ expectedParts: 60, actualParts: 65, aheadBehind: 5, status: 'success' });
    expect(parts[2]).toMatchObject({
      scheduled: false,
      jobId: null,
      expectedParts: null,
      percent: null,
      aheadBehind: null,
      status: 'unavailable',
    });

    for (const p of parts.slice(0, 2)) {
      const card = workcenterLiveSchema.parse(
        await (await h.get(`/api/workcenter/${p.machineId}`, cookie)).json(),
      );
      expect(p.expectedParts).toBe(card.expectedPartsNow);
      expect(p.actualParts).toBe(card.jobGoodParts);
      expect(p.percent).toBeCloseTo(card.partPercent!, 9);
      expect(p.status).toBe(card.cardStatus);
    }
    const tiles = (await (await h.get('/api/dashboard', cookie)).json()) as {
      machines: Array<{
        id: string;
        progress: number | null;
        expectedParts: number | null;
        actualParts: number | null;
      }>;
    };
    expect(tiles.machines.find((m) => m.id === ahead)).toMatchObject({ expectedParts: 60, actualParts: 65 });
  });

  it('gives utilization over the current window with the company utilization thresholds', async () => {
    const { company, cookie } = await h.tenant();
    const busy = await aMachine(h.t.db, company, { name: 'Busy', sortOrder: 1 });
    const slow = await aMachine(h.t.db, company, { name: 'Slow', sortOrder: 2 });
    const now = h.clock.now;
    const start = now - 2 * HOUR;
    await someStates(h.t.db, company, busy, [[start, null, 'ACTIVE']]);
    await someStates(h.t.db, company, slow, [
      [start, start + 10 * MIN, 'ACTIVE'],
      [start + 10 * MIN, null, 'INACTIVE'],
    ]);
    await h.t.db
      .updateTable('companies')
      .set({ utilization_warningpercent: 70, utilization_failurepercent: 30 })
      .where('id', '=', company.id)
      .execute();

    const res = await h.get('/api/dashboard/utilization', cookie);
    expect(res.status).toBe(200);
    const rows = (await res.json()) as UtilizationEntry[];
    expect(rows.map((r) => r.machineId)).toEqual([busy, slow]);
    for (const r of rows) {
      const card = workcenterLiveSchema.parse(
        await (await h.get(`/api/workcenter/${r.machineId}`, cookie)).json(),
      );
      expect(r.utilization).toBeCloseTo(card.utilization!, 9);
      expect(r.oee ?? null).toEqual(card.oee);
      expect(r.end).toBe(now);
      expect(r.status).toBe(utilizationStatus(r.utilization!, { warningPercent: 70, failurePercent: 30 }));
    }
    expect(rows[0]!.utilization).toBeGreaterThan(rows[1]!.utilization!);
    expect(rows[1]!.status).toBe('danger');
  });

  it('an OEE tile of a job without ideal cycle time: noJobStandards, P and OEE null, never 0 % (decisions 1002, 1003)', async () => {
    const { company, cookie } = await h.tenant();
    const none = await aMachine(h.t.db, company, { name: 'No ideal', sortOrder: 1 });
    const std = await aMachine(h.t.db, company, { name: 'Standard', sortOrder: 2 });
    const idle = await aMachine(h.t.db, company, { name: 'Unscheduled', sortOrder: 3 });
    await aShift(h.t.db, company, { startoffsetminutes: 0, endoffsetminutes: 1440 });
    const now = h.clock.now;
    const start = now - HOUR;
    const scope = companyScope(h.t.db, company.id);
    for (const [machineId, ideal] of [
      [none, 0],
      [std, 60_000],
    ] as const) {
      await someStates(h.t.db, company, machineId, [[start, null, 'ACTIVE']]);
      const job = { machineId, name: `Job ${ideal}`, expected: 60_000, ideal, jobCreatedAt: start };
      await aJobWithRun(scope, { ...job, start, end: null });
      await someCycles(h.t.db, company, machineId, start, 59, 60_000);
    }
    await someStates(h.t.db, company, idle, [[start, null, 'ACTIVE']]);

    const rows = (await (await h.get('/api/dashboard/utilization', cookie)).json()) as UtilizationEntry[];
    const byId = new Map(rows.map((r) => [r.machineId, r]));
    expect(byId.get(none)).toMatchObject({ oeeStatus: 'noJobStandards', performance: null, oee: null });
    expect(byId.get(none)!.availability).toBeGreaterThan(0);
    expect(byId.get(std)!.oeeStatus).not.toBe('noJobStandards');
    expect(byId.get(std)!.performance).toBeGreaterThan(0);
    // Unscheduled: unavailable (live-operations §4), its run time has no standard either.
    expect(byId.get(idle)).toMatchObject({ oeeStatus: 'unavailable', performance: null, oee: null });
  });

  it("colours the OEE tile by the company's OEE percents, set on the settings screen (decision 1087)", async () => {
    const { company, cookie } = await h.tenant();
    const machineId = await aMachine(h.t.db, company, { name: 'Standard' });
    await aShift(h.t.db, company, { startoffsetminutes: 0, endoffsetminutes: 1440 });
    const start = h.clock.now - HOUR;
    await someStates(h.t.db, company, machineId, [[start, null, 'ACTIVE']]);
    const job = { machineId, name: 'Bracket', expected: 60_000, ideal: 60_000, jobCreatedAt: start };
    await aJobWithRun(companyScope(h.t.db, company.id), { ...job, start, end: null });
    // 59 parts of the 60 expected: about 98 % of goal.
    await someCycles(h.t.db, company, machineId, start, 59, 60_000);
    const oeeStatus = async (percents: { warningpercent_oee: number; failurepercent_oee: number }) => {
      expect((await h.send('PUT', '/api/company/settings', cookie, percents)).status).toBe(200);
      const rows = (await (await h.get('/api/dashboard/utilization', cookie)).json()) as UtilizationEntry[];
      return rows.find((r) => r.machineId === machineId)!.oeeStatus;
    };
    expect(await oeeStatus({ warningpercent_oee: 90, failurepercent_oee: 75 })).toBe('success');
    expect(await oeeStatus({ warningpercent_oee: 100, failurepercent_oee: 90 })).toBe('warning');
    expect(await oeeStatus({ warningpercent_oee: 100, failurepercent_oee: 100 })).toBe('danger');
  });

  it('filters by group, and keeps parts goal to FullProduct companies', async () => {
    const { company, cookie } = await h.tenant();
    const group = await aGroup(h.t.db, company, 'Cell A');
    const inGroup = await aMachine(h.t.db, company, { groupIds: [group] });
    await aMachine(h.t.db, company);
    for (const path of ['/api/dashboard/utilization', '/api/dashboard/parts']) {
      const rows = (await (await h.get(`${path}?group=${group}`, cookie)).json()) as Array<{
        machineId: string;
      }>;
      expect(rows.map((r) => r.machineId)).toEqual([inGroup]);
    }

    const small = await aCompany(h.t.db, { productTier: 'utilization' });
    const user = await aUser(h.t.db, small);
    const theirs = await h.login(user.email, user.password);
    expect((await h.get('/api/dashboard/parts', theirs)).status).toBe(403);
    expect((await h.get('/api/dashboard/utilization', theirs)).status).toBe(200);
  });

  it('answers 50 scheduled machines from one batch of queries, quickly', async () => {
    const { company, cookie } = await h.tenant();
    const start = h.clock.now - HOUR;
    for (let i = 0; i < 50; i++) {
      const m = await aMachine(h.t.db, company, { sortOrder: i });
      await aJobRun(h.t.db, company, m, { start });
    }
    const t0 = performance.now();
    const res = await h.get('/api/dashboard', cookie);
    const ms = performance.now() - t0;
    expect(res.status).toBe(200);
    const body = (await res.json()) as { machines: Array<{ scheduled: boolean }> };
    expect(body.machines.filter((m) => m.scheduled)).toHaveLength(50);
    // Generous: the point is that it does not grow with ten queries per machine (about 1 s before batching).
    expect(ms).toBeLessThan(3000);
  });
});
