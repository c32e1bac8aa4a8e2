import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { apiHarness } from '../testing/app';
import type { ApiHarness } from '../testing/app';
import { DIALECTS } from '@takt/db/testing';
import { aShop, sendRaw } from '../testing/route-table';
import type { Method } from '../testing/route-table';

// Malformed input the walk over every route (malformed-routes-*.test.ts) cannot judge by status alone:
// numbers the columns cannot hold, named by field, and an empty patch.

describe.each(DIALECTS)('malformed requests on %s', (dialect) => {
  let h: ApiHarness;
  beforeEach(async () => {
    h = await apiHarness(dialect);
  });
  afterEach(async () => {
    await h.close();
  });

  it('refuses numbers the columns cannot hold, on both dialects, naming the field', async () => {
    const me = await h.tenant();
    const shop = await aShop(h, me.company, me.cookie);
    const TOO_BIG = 2 ** 31;
    const jm = (fields: Record<string, unknown>) => ({
      job_id: shop.jobId,
      job_machine: { machine_id: shop.machineId, ...fields },
    });
    const cases: Array<[Method, string, unknown, string, string]> = [
      [
        'POST',
        '/api/jobs',
        { name: 'J', actualParts: TOO_BIG },
        'actualParts',
        'Actual parts must be at most',
      ],
      ['POST', '/api/jobs', { name: 'J', expectedCycleTime: 1.5 }, 'expectedCycleTime', 'whole number'],
      ['POST', '/api/jobs', { name: 'J', setuptime: TOO_BIG }, 'setuptime', 'Setup time must be at most'],
      ['POST', '/api/jobmachines', jm({ requiredCycles: TOO_BIG }), 'job_machine.requiredCycles', 'at most'],
      [
        'POST',
        '/api/jobmachines',
        jm({ idealCycleTime: 1e300 }),
        'job_machine.idealCycleTime',
        'whole number',
      ],
      [
        'PUT',
        '/api/setup/stages',
        { setupStages: [{ name: 'A', stageOrder: TOO_BIG, setupPercentage: 100 }] },
        'setupStages',
        'Stage order must be at most',
      ],
      [
        'POST',
        '/api/annotationtypes',
        { name: 'R', plannedBehavior: 'plannedWithLimit', plannedLimitMs: 0.5 },
        'plannedLimitMs',
        'whole number of milliseconds',
      ],
      [
        'POST',
        '/api/partadjustment',
        { machine_id: shop.machineId, category_id: shop.rejectReasonId, scrapcount: TOO_BIG, scrap: true },
        'scrapcount',
        'Count must be at most 2147483647',
      ],
      [
        'POST',
        '/api/partadjustment',
        { machine_id: shop.machineId, count: -TOO_BIG, scrap: false },
        'count',
        'Count must be between -2147483647 and 2147483647',
      ],
    ];
    for (const [method, path, body, field, text] of cases) {
      const res = await sendRaw(h, me.cookie, method, path, JSON.stringify(body));
      expect(res.status, `${path} ${JSON.stringify(body)}`).toBe(400);
      const { error } = (await res.json()) as {
        error: { issues: Array<{ field: string; message: string }> };
      };
      expect(error.issues.find((i) => i.field === field)?.message, `${path} ${field}`).toContain(text);
    }
  });

  it('answers an empty patch with the record unchanged', async () => {
    const me = await h.tenant();
    const shop = await aShop(h, me.company, me.cookie);
    for (const path of [
      `/api/operators/${shop.operatorId}`,
      `/api/partadjustmenttypes/${shop.rejectReasonId}`,
    ]) {
      const before = await (await h.get(path.replace(/\/[^/]+$/, '?includeHidden=true'), me.cookie)).json();
      const res = await sendRaw(h, me.cookie, 'PUT', path, '{}');
      expect(res.status, path).toBe(200);
      expect(await (await h.get(path.replace(/\/[^/]+$/, '?includeHidden=true'), me.cookie)).json()).toEqual(
        before,
      );
    }
  });
});
