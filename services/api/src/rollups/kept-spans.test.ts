import { describe, expect, it } from 'vitest';
import { DIALECTS } from '@takt/db/testing';
import { historyChanged, useEdgeRows } from '@takt/db/rollups';
import { useSharedAnswers } from '../services/report-shared';
import { aDowntimeReason, anAnnotation, aRejectReason, someStates } from '../testing/downtime-builders';
import { aMachine } from '../testing/builders';
import {
  apiPerTest,
  aRejectRow,
  aReportTenant,
  machinesWithFacts,
  recomputeMarked,
} from '../testing/report-plant';

// Decision 1185: a mid-day range's spans of hourly rows, their cut buckets built from the facts, are kept under the
// company's week rows stamp. Every answer equals the one built at that call with nothing kept (useEdgeRows off):
// kept, after a late fact with its mark (the machine leaves the span until the recompute), after the recompute, and
// when an open annotation makes a cut bucket's planned downtime depend on now.

const MIN = 60_000;
const HOUR = 60 * MIN;
const DAY = 24 * HOUR;
/** Monday 2025-10-06 00:00 CDT. */
const T0 = Date.UTC(2025, 9, 6, 5);
const NOW = T0 + 5 * DAY;
/** Tuesday 10:17 to Thursday 18:43, by day: two partial days around a whole one. */
const RANGE = { start: T0 + DAY + 10 * HOUR + 17 * MIN, end: T0 + 3 * DAY + 18 * HOUR + 43 * MIN };

describe.each(DIALECTS)('a report range’s kept partial-day spans on %s', (dialect) => {
  const api = apiPerTest(dialect, NOW);

  const reports = async (cookie: string) => {
    const q = `start=${RANGE.start}&end=${RANGE.end}&interval=day`;
    const text = async (res: Response) => {
      expect(res.status).toBe(200);
      return res.text();
    };
    return [
      await text(await api.h.get(`/api/reports/oee?${q}`, cookie)),
      await text(await api.h.get(`/api/reports/utilization?${q}`, cookie)),
      await text(
        await api.h.send('POST', '/api/oee/bymachine', cookie, {
          start: RANGE.start,
          end: RANGE.end,
          intervalType: 'day',
        }),
      ),
    ];
  };
  /** The same calls with nothing kept: every span read and built at this call. */
  const built = async (cookie: string) => {
    useEdgeRows(api.h.t.db, false);
    try {
      return await reports(cookie);
    } finally {
      useEdgeRows(api.h.t.db, true);
    }
  };

  it('answers as built: kept, after a late fact with its mark in a cut bucket, and after its recompute', async () => {
    useSharedAnswers(api.h.t.db, false);
    const tenant = await aReportTenant(api.h, [['Day', 360, 840]]);
    const machines = await machinesWithFacts(api.h, tenant, ['Lathe', 'Mill', 'Drill'], {
      t0: T0,
      now: NOW,
      cuts: 60,
      cycles: 120,
      corrections: 5,
      seed: 85,
    });
    // Each kept answer is asked before the built one: turning the kept spans off empties them.
    const asBuilt = await built(tenant.cookie);
    const first = await reports(tenant.cookie);
    expect(first).toEqual(asBuilt);
    expect(await reports(tenant.cookie)).toEqual(first);

    // 3 parts rejected at 10:30 Tuesday (in the cut bucket 10:17–11:00), marked as the API marks an edit.
    const at = T0 + DAY + 10 * HOUR + 30 * MIN;
    const burr = await aRejectReason(api.h.t.db, tenant.company, { name: 'Burr' });
    await tenant.scope
      .insertInto('part_adjustments', [aRejectRow(machines[0]!, at, { typeId: burr.id, scrapcount: 3 })])
      .execute();
    await historyChanged(tenant.scope, machines[0]!, at);
    const marked = await reports(tenant.cookie);
    expect(marked).toEqual(await built(tenant.cookie));
    expect(marked[2]).not.toEqual(first[2]);

    // Kept while marked; the worker's recompute clears the mark and moves the stamp: the spans are read again.
    expect(await reports(tenant.cookie)).toEqual(marked);
    expect(await recomputeMarked(api.h.t.db, NOW)).toBe(1);
    const recomputed = await reports(tenant.cookie);
    expect(recomputed).toEqual(await built(tenant.cookie));
    expect(recomputed[2]).not.toEqual(first[2]);
  });

  it('judges an open planned-with-limit downtime in a cut bucket at each call’s now', async () => {
    useSharedAnswers(api.h.t.db, false);
    const tenant = await aReportTenant(api.h, [['Long day', 360, 1380]]);
    const machineId = await aMachine(api.h.t.db, tenant.company, { name: 'Lathe' });
    // Idle from 18:20 Thursday (in the cut bucket 18:00–18:43), still open, a 30-minute break.
    const idle = RANGE.end - 23 * MIN;
    await someStates(api.h.t.db, tenant.company, machineId, [
      [T0, idle, 'ACTIVE'],
      [idle, null, 'INACTIVE'],
    ]);
    const reason = await aDowntimeReason(api.h.t.db, tenant.company, {
      name: 'Break',
      plannedBehavior: 'plannedWithLimit',
      plannedLimitMs: 30 * MIN,
    });
    await anAnnotation(api.h.t.db, tenant.company, { machineId, start: idle, typeId: reason.id });
    const within = idle + 25 * MIN;
    await tenant.recompute([machineId], { from: T0, to: within, now: within });
    // The annotation's mark recomputed and cleared, as the worker does: the machine's rows hold to the range's end.
    expect(await recomputeMarked(api.h.t.db, within)).toBe(1);
    api.h.clock.now = within;
    const asBuilt = await built(tenant.cookie);
    const planned = await reports(tenant.cookie);
    expect(planned).toEqual(asBuilt);
    expect(planned[0]).toContain('Break');

    // 40 minutes on, past the limit: the same stamp (no recompute), the cut bucket judged again.
    api.h.clock.now = idle + 40 * MIN;
    const exceeded = await reports(tenant.cookie);
    expect(exceeded).toEqual(await built(tenant.cookie));
    expect(exceeded[0]).not.toEqual(planned[0]);
  });
});
