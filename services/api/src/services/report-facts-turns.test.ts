import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { companyScope } from '@takt/db';
import { loadCalendar } from '@takt/db/rollups';
import { DIALECTS } from '@takt/db/testing';
import type { Caller } from '../http/context';
import { apiHarness } from '../testing/app';
import type { ApiHarness } from '../testing/app';
import { aMachine } from '../testing/builders';
import { someStates } from '../testing/downtime-builders';
import type { ServiceCtx } from './context';
import { buildFromFacts } from './report-facts';

// Decision 1237: a report's rows built from the facts over many machine-days hand the event loop back between
// machines only once the build has held it `holdMs` (BUILD_HOLD_MS), not between every machine: under 20 managers'
// calls each turn handed back waits for all the others' work, and a call built over 100 machines took 100 turns.

const HOUR = 3_600_000;
/** Monday 2025-11-17 00:00 UTC; the clock stands two days later. */
const D = Date.UTC(2025, 10, 17);
const NOW = D + 48 * HOUR;

describe.each(DIALECTS)('rows built from the facts on %s', (dialect) => {
  let h: ApiHarness;
  beforeEach(async () => {
    h = await apiHarness(dialect, NOW);
  });
  afterEach(async () => {
    vi.restoreAllMocks();
    await h.close();
  });

  it('hand the loop back between machines only once the build has held it holdMs', async () => {
    const { company } = await h.tenant({ role: 'manager' });
    const ids: string[] = [];
    for (const name of ['M1', 'M2', 'M3', 'M4']) {
      const id = await aMachine(h.t.db, company, { name });
      await someStates(h.t.db, company, id, [
        [D, D + 5 * HOUR, 'ACTIVE'],
        [D + 5 * HOUR, D + 7 * HOUR, 'FAULT'],
        [D + 7 * HOUR, D + 40 * HOUR, 'ACTIVE'],
      ]);
      ids.push(id);
    }
    const ctx: ServiceCtx = {
      scope: companyScope(h.t.db, company.id),
      at: NOW,
      now: NOW,
      caller: {
        kind: 'user',
        user: { role: 'manager', isRoot: false },
        company: { productTier: company.productTier },
      } as unknown as Caller,
    };
    const calendar = await loadCalendar(h.t.db, company.id);
    // Four machines' two days: more than a machine-day, so loaded and built in slices, machine by machine.
    const span = { start: D, end: D + 48 * HOUR };
    // The turns the build hands back: its own setImmediate calls (the driver's and vitest's are not counted).
    let turns = 0;
    const original = globalThis.setImmediate;
    vi.spyOn(globalThis, 'setImmediate').mockImplementation(((
      callback: (...args: unknown[]) => void,
      ...args: unknown[]
    ) => {
      if (new Error().stack?.includes('report-facts')) turns++;
      return original(callback, ...args);
    }) as typeof setImmediate);
    const counted = async (holdMs: number) => {
      turns = 0;
      const rows = await buildFromFacts(ctx, calendar, ids, span, holdMs);
      return { turns, rows };
    };
    // Held for no time at all: a turn before the slice's load and between every two machines (before this
    // decision every build gave the latter whatever it held: 3 turns for 4 machines).
    const every = await counted(0);
    expect(every.turns).toBe(ids.length);
    // Never held long enough: not one turn, and the same rows.
    const never = await counted(Number.POSITIVE_INFINITY);
    expect(never.turns).toBe(0);
    expect(never.rows).toEqual(every.rows);
    expect([...never.rows.keys()].sort()).toEqual([...ids].sort());
    // The machines' rows are built from their facts: each machine's two hours of FAULT are in them.
    for (const id of ids) expect(never.rows.get(id)!.length).toBeGreaterThan(0);
  });
});
