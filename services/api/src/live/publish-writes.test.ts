import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { apiHarness } from '../testing/app';
import type { ApiHarness } from '../testing/app';
import { aMachine } from '../testing/builders';
import { DIALECTS } from '@takt/db/testing';
import { aDowntimeReason, aRejectReason, aTenantWithMachine, MIN } from '../testing/downtime-builders';
import { madeParts } from '../testing/parts-builders';
import type { LiveEvent } from './bus';

// A change made through the HTTP API reaches the machine's live channels like the same action synced from a
// tablet (ARCHITECTURE.md "Offline sync contract"): one bus event per machine acted on, only once the write succeeded.
describe.each(DIALECTS)('HTTP writes announced on the live bus on %s', (dialect) => {
  let h: ApiHarness;
  let events: LiveEvent[];
  beforeEach(async () => {
    h = await apiHarness(dialect);
    events = [];
    h.bus.subscribe((e) => events.push(e));
  });
  afterEach(async () => {
    await h.close();
  });

  it('a reject, its edit and its delete each announce the machine, named in the body or by the record', async () => {
    const s = await aTenantWithMachine(h);
    const other = await aMachine(h.t.db, s.company, { name: 'Not touched' });
    await madeParts(h.t.db, s.company, s.machineId, h.clock.now - MIN);
    const reason = await aRejectReason(h.t.db, s.company, { reject_behavior: 'scrap' });
    const created = await h.send('POST', '/api/partadjustment', s.cookie, {
      machine_id: s.machineId,
      category_id: reason.id,
      scrapcount: 2,
      scrap: true,
      adjustmenttime: h.clock.now,
    });
    expect(created.status).toBe(201);
    const { id } = (await created.json()) as { id: string };
    expect(events).toEqual([{ companyId: s.company.id, machineId: s.machineId, topic: 'parts' }]);

    const edited = await h.send('PUT', `/api/partadjustment/${id}`, s.cookie, { scrapcount: 3 });
    expect(edited.status).toBe(200);
    const deleted = await h.send('DELETE', `/api/partadjustment/${id}`, s.cookie);
    expect(deleted.status).toBeLessThan(300);
    expect(events.map((e) => e.machineId)).toEqual([s.machineId, s.machineId, s.machineId]);
    expect(events.some((e) => e.machineId === other)).toBe(false);
  });

  it('a categorized downtime announces annotations; a refused write and a read announce nothing', async () => {
    const s = await aTenantWithMachine(h);
    const reason = await aDowntimeReason(h.t.db, s.company, { name: 'Waiting' });
    const refused = await h.send('POST', '/api/annotations', s.cookie, {
      machineId: s.machineId,
      start: h.clock.now - 30 * MIN,
    });
    expect(refused.status).toBe(400);
    await h.get(`/api/annotations?machineId=${s.machineId}`, s.cookie);
    expect(events).toEqual([]);

    const saved = await h.send('POST', '/api/annotations', s.cookie, {
      machineId: s.machineId,
      start: h.clock.now - 30 * MIN,
      category_id: reason.id,
    });
    expect(saved.status).toBe(201);
    expect(events).toEqual([{ companyId: s.company.id, machineId: s.machineId, topic: 'annotations' }]);
  });

  it("never announces another company's machine named in a write", async () => {
    const mine = await aTenantWithMachine(h);
    const theirs = await aTenantWithMachine(h);
    const reason = await aRejectReason(h.t.db, mine.company, { reject_behavior: 'scrap' });
    const res = await h.send('POST', '/api/partadjustment', mine.cookie, {
      machine_id: theirs.machineId,
      category_id: reason.id,
      scrapcount: 1,
      scrap: true,
      adjustmenttime: h.clock.now,
    });
    expect(res.status).toBe(404);
    expect(events).toEqual([]);
  });
});
