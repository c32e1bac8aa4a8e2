import { describe, expect, it } from 'vitest';
import { companyScope } from '@takt/db';
import { DIALECTS } from '@takt/db/testing';
import {
  claimDirty,
  clearDirty,
  loadRollupDays,
  loadRollups,
  markRollupsDirty,
  recomputeRollups,
  rollupGaps,
  storedRollupsEnd,
  takeDirty,
} from '@takt/db/rollups';
import { aCompany, aMachine } from '../testing/builders';
import { MIN, someStates } from '../testing/downtime-builders';
import { apiPerTest } from '../testing/report-plant';

// Decision 1190 (the left of decision 1187): the same machine id under another company is another machine (decision
// 1130), so its hourly, day and week rollups and its dirty mark are its own. Keyed by the machine id alone (before
// migration 0066), the second company's recompute collided with the first's rows and its mark merged into the other's.

const NOW = Date.UTC(2026, 10, 20, 12);
const T0 = NOW - 2 * 24 * 60 * MIN;
const at = (minutes: number) => T0 + minutes * MIN;

describe.each(DIALECTS)('rollups of a machine id two companies store on %s', (dialect) => {
  const api = apiPerTest(dialect, NOW);

  it("keeps each company's hourly, day and week rows of the machine", async () => {
    const { db } = api.h.t;
    const mine = await aCompany(db);
    const theirs = await aCompany(db);
    const machine = await aMachine(db, mine, { name: 'Lathe' });
    await someStates(db, mine, machine, [[at(0), null, 'ACTIVE']]);
    await someStates(db, theirs, machine, [[at(0), null, 'FAULT']]);
    const range = { start: at(0), end: at(24 * 60) };
    const recompute = (companyId: string) =>
      recomputeRollups(db, { companyId, machineId: machine, from: range.start, to: NOW, now: NOW });
    await recompute(mine.id);
    await recompute(theirs.id);

    const hourly = async (companyId: string) => {
      const rows = await loadRollups(companyScope(db, companyId), { machineIds: [machine], ...range });
      return {
        active: rows.reduce((n, r) => n + r.stateMs.ACTIVE, 0),
        fault: rows.reduce((n, r) => n + r.stateMs.FAULT, 0),
      };
    };
    const daily = async (companyId: string) => {
      const rows = await loadRollupDays(companyScope(db, companyId), {
        machineIds: [machine],
        start: range.start - 86_400_000,
        end: range.end + 86_400_000,
        reasons: false,
      });
      return {
        active: rows.reduce((n, r) => n + r.stateMs.ACTIVE, 0),
        fault: rows.reduce((n, r) => n + r.stateMs.FAULT, 0),
      };
    };
    const day = 24 * 60 * MIN;
    expect(await hourly(mine.id)).toEqual({ active: day, fault: 0 });
    expect(await hourly(theirs.id)).toEqual({ active: 0, fault: day });
    expect((await daily(mine.id)).fault).toBe(0);
    expect((await daily(theirs.id)).active).toBe(0);
    expect((await daily(mine.id)).active).toBeGreaterThanOrEqual(day);
    const weeks = (companyId: string) =>
      companyScope(db, companyId)
        .selectFrom('rollup_weeks')
        .select(['active_ms', 'fault_ms'])
        .where('machine_id', '=', machine)
        .execute();
    expect((await weeks(mine.id)).every((w) => Number(w.fault_ms) === 0)).toBe(true);
    expect((await weeks(theirs.id)).every((w) => Number(w.active_ms) === 0)).toBe(true);

    // Recomputed again (a later mark), each company's rows stay its own.
    await recompute(mine.id);
    expect(await hourly(theirs.id)).toEqual({ active: 0, fault: day });
    expect(await storedRollupsEnd(db, mine.id, machine)).toBe(NOW);
    expect(await rollupGaps(db)).toEqual([]);
  });

  it("keeps each company's dirty mark of the machine", async () => {
    const { db } = api.h.t;
    const mine = await aCompany(db);
    const theirs = await aCompany(db);
    const machine = await aMachine(db, mine, { name: 'Lathe' });
    await markRollupsDirty(db, { companyId: mine.id, machineId: machine, from: at(10), now: 1 });
    await markRollupsDirty(db, { companyId: theirs.id, machineId: machine, from: at(5), now: 2 });
    await markRollupsDirty(db, { companyId: mine.id, machineId: machine, from: at(20), now: 3 });

    const marks = (await takeDirty(db, 10)).map((m) => [
      m.company_id,
      Number(m.from_at),
      Number(m.marked_at),
    ]);
    expect(marks).toEqual([
      [theirs.id, at(5), 2],
      [mine.id, at(10), 3],
    ]);
    if (dialect === 'postgres') {
      const claimed = await claimDirty(db, 10);
      expect(claimed.map((m) => m.company_id).sort()).toEqual([mine.id, theirs.id].sort());
    }
    // Clearing one company's mark leaves the other's.
    await clearDirty(db, { company_id: mine.id, machine_id: machine }, 3);
    expect((await takeDirty(db, 10)).map((m) => m.company_id)).toEqual([theirs.id]);
  });
});
