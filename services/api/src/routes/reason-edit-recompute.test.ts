import { describe, expect, it } from 'vitest';
import type { OeeByMachineResponse } from '@takt/domain';
import { DIALECTS } from '@takt/db/testing';
import { aMachine } from '../testing/builders';
import { aDowntimeReason, anAnnotation, MIN, someStates } from '../testing/downtime-builders';
import { apiPerTest, aReportTenant, recomputeMarked as recomputeMarkedAt } from '../testing/report-plant';

// A downtime reason's planned behavior decides whether its downtime counts against availability (METRICS.md,
// live-operations §3 Annotation type). Changing it on a reason already used must change the stored figures of
// every report that reads them, not only new downtime: the machines with such downtime are recomputed from
// their first one. A change of name or colour recomputes nothing. Both dialects.

const HOUR = 60 * MIN;
/** Monday 2025-11-03 in America/Chicago (UTC−6): hour h of the day. */
const mon = (h: number, m = 0) => Date.UTC(2025, 10, 3, h + 6, m);
const NOW = Date.UTC(2025, 10, 5, 12);

describe.each(DIALECTS)('editing a used downtime reason on %s', (dialect) => {
  const api = apiPerTest(dialect, NOW);

  const recomputeMarked = () => recomputeMarkedAt(api.h.t.db, NOW);

  it('recomputes the stored availability of the downtime it names when its planned behavior changes', async () => {
    const tenant = await aReportTenant(api.h, [['Day', 360, 840]]);
    const { company, cookie } = tenant;
    const lathe = await aMachine(api.h.t.db, company, { name: 'Lathe' });
    await someStates(api.h.t.db, company, lathe, [
      [mon(6), mon(9), 'ACTIVE'],
      [mon(9), mon(10), 'INACTIVE'],
      [mon(10), mon(14), 'ACTIVE'],
    ]);
    const meeting = await aDowntimeReason(api.h.t.db, company, {
      name: 'Meeting',
      plannedBehavior: 'planned',
    });
    await anAnnotation(api.h.t.db, company, {
      machineId: lathe,
      start: mon(9),
      end: mon(10),
      typeId: meeting.id,
    });
    await recomputeMarked();
    const availability = async () => {
      const res = await api.h.send('POST', '/api/oee/bymachine', cookie, {
        start: mon(0),
        end: mon(24),
        intervalType: 'day',
        efficiencyMetric: 'availability',
        machines: [lathe],
      });
      expect(res.status, await res.clone().text()).toBe(200);
      return ((await res.json()) as OeeByMachineResponse).machines[0]?.value;
    };
    // Planned: the hour is out of the planned production time, so the day is all available.
    expect(await availability()).toBeCloseTo(1, 12);

    // A new name recomputes nothing.
    const renamed = await api.h.send('PUT', `/api/annotationtypes/${meeting.id}`, cookie, {
      name: 'Team meeting',
    });
    expect(renamed.status).toBe(200);
    expect(await recomputeMarked()).toBe(0);

    // Unplanned: the hour counts against availability (7 of 8 hours).
    const put = await api.h.send('PUT', `/api/annotationtypes/${meeting.id}`, cookie, {
      plannedBehavior: 'unplanned',
    });
    expect(put.status, await put.clone().text()).toBe(200);
    expect(await recomputeMarked()).toBe(1);
    expect(await availability()).toBeCloseTo((7 * HOUR) / (8 * HOUR), 12);
  });
});
