import { describe, expect, it } from 'vitest';
import { DIALECTS } from '@takt/db/testing';
import {
  EDGE_ROWS_MAX_BYTES,
  indexedRollups,
  keptWithStamp,
  loadRollups,
  reportDataVersion,
  useEdgeRows,
} from '@takt/db/rollups';
import { anAdjustmentRow, apiPerTest, aReportTenant, machinesWithFacts } from '../testing/report-plant';

// Decision 1183: a report's partial days' hourly rows are kept while the company's week rows stamp holds, and
// give what loadRollups reads: the same rows and computed-at, a recompute at the same clock (this process's
// recompute count) or by another process (a later computed_at) read again, another company's rows apart.
// Decision 1189: another company's recompute in this process (its machines ingesting) moves neither.

const DAY = 86_400_000;
const HOUR = 3_600_000;
/** Monday 2025-10-06 00:00 CDT. */
const T0 = Date.UTC(2025, 9, 6, 5);
const NOW = T0 + 5 * DAY;

describe.each(DIALECTS)('partial days kept with the week rows stamp on %s', (dialect) => {
  const api = apiPerTest(dialect, NOW);

  it('gives the hourly rows loadRollups reads, read once per stamp, and again after a recompute', async () => {
    const tenant = await aReportTenant(api.h, [['Day', 360, 840]]);
    const machines = await machinesWithFacts(api.h, tenant, ['Lathe', 'Mill'], {
      t0: T0,
      now: NOW,
      cuts: 20,
      cycles: 60,
      corrections: 5,
      seed: 21,
    });
    // Thursday from 10:17 to the next company day (05:00 UTC): a partial day, as a range starting 10:17 has.
    const span = { start: T0 + 3 * DAY + 10 * HOUR + 17 * 60_000, end: T0 + 4 * DAY };
    const read = async (kept: boolean) => {
      const computedAt = new Map<string, number>();
      const input = { machineIds: [...machines], ...span, computedAt };
      const rows = kept ? await indexedRollups(tenant.scope, input) : await loadRollups(tenant.scope, input);
      return { rows, computedAt };
    };
    const first = await read(true);
    expect(first.rows.length).toBeGreaterThan(20);
    expect(first).toEqual(await read(false));
    // Every row overlapping the span, the ones its start cuts included (decision 1246: the read's bound below it).
    const byStart = (rows: typeof first.rows) =>
      [...rows].sort((a, b) => a.start - b.start || a.machineId.localeCompare(b.machineId));
    const wider = await loadRollups(tenant.scope, {
      machineIds: [...machines],
      start: T0 + 3 * DAY,
      end: span.end,
    });
    expect(byStart(first.rows)).toEqual(byStart(wider.filter((r) => r.end > span.start)));
    expect(first.rows.filter((r) => r.start < span.start).length).toBe(machines.length);
    // Kept: the same rows again, not read a second time.
    expect((await read(true)).rows).toBe(first.rows);

    // Another company's machine recomputed in this process: this company's rows and data version stay kept.
    const version = (await reportDataVersion(tenant.scope, NOW)).version;
    const busy = await aReportTenant(api.h, [['Day', 360, 840]]);
    const [busyMachine] = await machinesWithFacts(api.h, busy, ['Press'], {
      t0: T0,
      now: NOW,
      cuts: 5,
      cycles: 10,
      corrections: 1,
      seed: 22,
    });
    await busy.recompute([busyMachine!], { from: T0 + 3 * DAY, to: T0 + 4 * DAY, now: NOW });
    expect((await read(true)).rows).toBe(first.rows);
    expect((await reportDataVersion(tenant.scope, NOW)).version).toBe(version);

    // A correction of 40 parts in that afternoon, recomputed at the same now: only the recompute count moves.
    await tenant.scope
      .insertInto('part_adjustments', [anAdjustmentRow(machines[0]!, span.start + 5 * HOUR, { count: 40 })])
      .execute();
    await tenant.recompute([machines[0]!], { from: T0 + 3 * DAY, to: T0 + 4 * DAY, now: NOW });
    const after = await read(true);
    expect(after.rows).not.toBe(first.rows);
    expect(after).toEqual(await read(false));
    expect(after).not.toEqual(first);

    // Another process's recompute (rows written with a later computed_at, this process's count unchanged).
    const later = NOW + 60_000;
    await tenant.scope
      .updateTable('rollups')
      .set({ computed_at: later })
      .where('machine_id', '=', machines[1]!)
      .where('start_at', '>=', T0 + 3 * DAY)
      .where('start_at', '<', T0 + 4 * DAY)
      .execute();
    await tenant.scope
      .updateTable('rollup_weeks')
      .set({ computed_at: later })
      .where('machine_id', '=', machines[1]!)
      .where('start_at', '<=', T0 + 3 * DAY)
      .where('end_at', '>', T0 + 3 * DAY)
      .execute();
    const other = await read(true);
    expect(other.computedAt.get(machines[1]!)).toBe(later);
    expect(other).toEqual(await read(false));

    // Another company's call over the same machines and span reads its own (none: they are not its machines).
    const stranger = await aReportTenant(api.h, [['Day', 360, 840]]);
    expect(await indexedRollups(stranger.scope, { machineIds: [...machines], ...span })).toEqual([]);
    // Off: read every call.
    useEdgeRows(api.h.t.db, false);
    const off = await read(true);
    expect(off.rows).not.toBe(other.rows);
    expect(off).toEqual(other);
    useEdgeRows(api.h.t.db, true);
  });

  it('keeps reads up to its bound, dropping the least recently used first, and never one over half of it', async () => {
    // Decision 1247: the bound holds a report mix's partial days (48 calls, ~34 MB counted at 1 KB a row).
    expect(EDGE_ROWS_MAX_BYTES).toBe(64 * 1024 * 1024);
    const tenant = await aReportTenant(api.h, [['Day', 360, 840]]);
    let reads = 0;
    const kept = (name: string, bytes: number) =>
      keptWithStamp(
        tenant.scope,
        ['bound', name],
        () => bytes,
        async () => {
          reads++;
          return { name };
        },
      );
    const quarter = EDGE_ROWS_MAX_BYTES / 4;
    const a = await kept('a', quarter);
    await kept('b', quarter);
    await kept('c', quarter);
    await kept('d', quarter);
    expect(reads).toBe(4);
    // All four fit: each is answered as kept; 'a' used last, so 'b' is the least recently used.
    expect(await kept('a', quarter)).toBe(a);
    await kept('b', quarter);
    await kept('c', quarter);
    await kept('d', quarter);
    await kept('a', quarter);
    expect(reads).toBe(4);
    // A fifth pushes out the least recently used ('b'), no other.
    await kept('e', quarter);
    expect(reads).toBe(5);
    for (const name of ['a', 'c', 'd', 'e']) await kept(name, quarter);
    expect(reads).toBe(5);
    await kept('b', quarter);
    expect(reads).toBe(6);
    // A read over half the bound is given to its caller and not kept: read again, and the others stay.
    const big = await kept('big', EDGE_ROWS_MAX_BYTES / 2 + 1);
    expect(big).toEqual({ name: 'big' });
    expect(await kept('big', EDGE_ROWS_MAX_BYTES / 2 + 1)).not.toBe(big);
    expect(reads).toBe(8);
    for (const name of ['b', 'd', 'e']) await kept(name, quarter);
    expect(reads).toBe(8);
  });
});
