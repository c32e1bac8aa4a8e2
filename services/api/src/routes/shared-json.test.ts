import { describe, expect, it } from 'vitest';
import { DIALECTS } from '@takt/db/testing';
import { PRODUCTION_METRICS } from '@takt/domain';
import { useSharedAnswers } from '../services/report-shared';
import { aMachine } from '../testing/builders';
import { someStates } from '../testing/downtime-builders';
import { apiPerTest, aReportTenant } from '../testing/report-plant';

// Decision 1185: the call that computes a shared answer sends the JSON text its size was measured on (one
// serialization); the bytes and headers are those of the answer serialized at each response.

const HOUR = 3_600_000;
/** Monday 2025-10-06 00:00 CDT. */
const T0 = Date.UTC(2025, 9, 6, 5);
const NOW = T0 + 2 * 24 * HOUR;

describe.each(DIALECTS)('shared report answers as JSON on %s', (dialect) => {
  const api = apiPerTest(dialect, NOW);

  it('sends the same bytes computed, given again and with sharing off', async () => {
    const tenant = await aReportTenant(api.h, [['Day', 360, 840]]);
    const machine = await aMachine(api.h.t.db, tenant.company, { name: 'Lathe' });
    await someStates(api.h.t.db, tenant.company, machine, [
      [T0, T0 + 9 * HOUR, 'ACTIVE'],
      [T0 + 9 * HOUR, null, 'INACTIVE'],
    ]);
    await tenant.recompute([machine], { from: T0, to: NOW, now: NOW });
    const range = { start: T0 + 7 * HOUR, end: T0 + 30 * HOUR };
    const q = `start=${range.start}&end=${range.end}&interval=day`;
    const calls = [
      () => api.h.get(`/api/reports/oee?${q}`, tenant.cookie),
      () => api.h.get(`/api/reports/utilization?${q}`, tenant.cookie),
      () => api.h.send('POST', '/api/oee/bymachine', tenant.cookie, { ...range, intervalType: 'day' }),
      () =>
        api.h.send('POST', '/api/reports/warehouse/production', tenant.cookie, {
          ...range,
          interval: 'day',
          data: [...PRODUCTION_METRICS],
          groupBy: ['machine', 'interval'],
        }),
    ];
    const send = async (call: () => Promise<Response>) => {
      const res = await call();
      expect(res.status).toBe(200);
      expect(res.headers.get('content-type')).toBe('application/json');
      return res.text();
    };
    for (const call of calls) {
      useSharedAnswers(api.h.t.db, true);
      const computed = await send(call);
      const again = await send(call);
      useSharedAnswers(api.h.t.db, false);
      const alone = await send(call);
      expect(computed).toBe(alone);
      expect(again).toBe(alone);
      expect(computed.length).toBeGreaterThan(100);
    }
    useSharedAnswers(api.h.t.db, true);
  });
});
