import { describe, expect, it } from 'vitest';
import type { ProductionItem, ProductionResponse } from '@takt/domain';
import { PRODUCTION_METRICS } from '@takt/domain';
import { DIALECTS } from '@takt/db/testing';
import { aMachine } from '../testing/builders';
import { MIN } from '../testing/downtime-builders';
import { aMachineWithFacts, apiPerTest, aReportTenant, generatedFacts } from '../testing/report-plant';

// Decision 1197: a report's machines built from the facts (nothing stored for them) are loaded several at once when
// their span is shorter than a month (and on PostgreSQL four machines' month a load), their monitored life read
// once a call. The boundary: machines with different facts, job standards and monitored life in one load give each
// the figures it gets asked for alone (one machine a load), over a span of days and one of several monthly slices.
// Both dialects.

const HOUR = 60 * MIN;
const DAY = 24 * HOUR;
/** Local time (America/Chicago, CST = UTC−6) on Thursday 2025-12-04. */
const at = (h: number, m = 0) => Date.UTC(2025, 11, 4, h + 6, m);
const NOW = at(15, 41);
const SHIFTS = [
  ['Day', 360, 870],
  ['Swing', 870, 1320],
] as const;

describe.each(DIALECTS)('machines built from the facts in one load on %s', (dialect) => {
  const api = apiPerTest(dialect, NOW);

  async function production(cookie: string, start: number, end: number, machine?: string) {
    const res = await api.h.send('POST', '/api/reports/warehouse/production', cookie, {
      start,
      end,
      interval: 'day',
      data: [...PRODUCTION_METRICS],
      groupBy: ['machine', 'interval'],
      ...(machine ? { filter: { machine: [machine] } } : {}),
    });
    expect(res.status, await res.clone().text()).toBe(200);
    return (await res.json()) as ProductionResponse;
  }

  it('each machine of a load has the figures of a load of its own (days, and monthly slices)', async () => {
    const tenant = await aReportTenant(api.h, SHIFTS);
    // Five machines whose facts start at different times (their monitored life), with their own seeds and a
    // sixth without any fact (not monitored). None is recomputed: all are built from the facts.
    const ids: string[] = [];
    for (let k = 0; k < 5; k++) {
      const t0 = NOW - (45 - 9 * k) * DAY + k * 3 * HOUR;
      const facts = generatedFacts({
        t0,
        now: NOW,
        cuts: 40 + 10 * k,
        cycles: 80,
        corrections: 3,
        states: ['ACTIVE', 'ACTIVE', 'INACTIVE', 'FAULT', 'SETUP'],
        seed: 1197 + k,
      });
      ids.push((await aMachineWithFacts(api.h, tenant.company, `M${k}`, t0, facts)).id);
    }
    ids.push(await aMachine(api.h.t.db, tenant.company, { name: 'M5' }));
    const of = (r: ProductionResponse, id: string): ProductionItem[] =>
      r.items.filter((i) => i.machine === id);
    for (const [start, end] of [
      [NOW - 3 * DAY - 17 * MIN, NOW], // 6 machines × 3 days: one load (one machine alone: one load each)
      [NOW - 50 * DAY + 5 * HOUR, NOW - 2 * HOUR], // two monthly slices a machine
    ] as const) {
      const all = await production(tenant.cookie, start, end);
      expect(all.items.length).toBeGreaterThan(ids.length);
      let seen = 0;
      for (const id of ids) {
        const alone = await production(tenant.cookie, start, end, id);
        expect(of(alone, id).length).toBeGreaterThan(0);
        expect(of(all, id)).toEqual(of(alone, id));
        seen += of(alone, id).filter((i) => (i.timeInCycle ?? 0) > 0).length;
      }
      // The facts reach the figures (a load that lost a machine's facts would show it idle).
      expect(seen).toBeGreaterThan(ids.length);
    }
  });
});
