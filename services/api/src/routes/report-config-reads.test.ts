import { describe, expect, it } from 'vitest';
import { sql } from 'kysely';
import { DIALECTS } from '@takt/db/testing';
import { aMachine } from '../testing/builders';
import { aShift } from '../testing/live-builders';
import { apiPerTest } from '../testing/report-plant';

// Decision 1250: a report call's configuration reads (calendar, machines, settings, hidden reasons) are kept by the
// configuration generation its data version read. What a manager sees: a configuration write, even one made behind
// the API's back, shows in the very next call; one company's configuration never shows in another's answers.

const NOW = Date.UTC(2025, 10, 18, 15);
const DAY = 86_400_000;

describe.each(DIALECTS)('report configuration reads on %s', (dialect) => {
  const api = apiPerTest(dialect, NOW);

  /** Day `n` before now as a range (each call's own range, so no answer is given again from an earlier call). */
  const day = (n: number) => `start=${NOW - (n + 1) * DAY}&end=${NOW - n * DAY}`;
  async function machineNames(cookie: string, n: number): Promise<string[]> {
    const res = await api.h.get(`/api/reports/utilization?${day(n)}&interval=day`, cookie);
    expect(res.status).toBe(200);
    const body = (await res.json()) as { machines: Array<{ machineName: string }> };
    return body.machines.map((m) => m.machineName).sort();
  }

  it("a configuration write, even behind the API's back, shows in the next call at once", async () => {
    const { company, cookie } = await api.h.tenant();
    const lathe = await aMachine(api.h.t.db, company, { name: 'Lathe' });
    expect(await machineNames(cookie, 1)).toEqual(['Lathe']);
    expect(await machineNames(cookie, 2)).toEqual(['Lathe']);

    await sql`update machines set name = 'Lathe 2' where id = ${lathe}`.execute(api.h.t.db);
    expect(await machineNames(cookie, 3)).toEqual(['Lathe 2']);
    expect(await machineNames(cookie, 1)).toEqual(['Lathe 2']);
    await aMachine(api.h.t.db, company, { name: 'Mill' });
    expect(await machineNames(cookie, 4)).toEqual(['Lathe 2', 'Mill']);
    await sql`update machines set decommissioned_at = ${NOW - 10 * DAY} where id = ${lathe}`.execute(
      api.h.t.db,
    );
    expect(await machineNames(cookie, 5)).toEqual(['Mill']);

    // The calendar: a shift added after a call read the company's is there for the next call's shift filter (an
    // unknown shift is 404).
    const downtime = (n: number, extra = '') => api.h.get(`/api/reports/downtime?${day(n)}${extra}`, cookie);
    expect((await downtime(6)).status).toBe(200);
    const night = await aShift(api.h.t.db, company, { name: 'Night' });
    expect((await downtime(7, `&shifts=${night}`)).status).toBe(200);
    expect((await downtime(8, `&shifts=not-a-shift`)).status).toBe(404);

    // The company's settings: activities turned on by manual SQL.
    expect(((await (await downtime(9)).json()) as { activities: boolean }).activities).toBe(false);
    await sql`update companies set activities_enabled = 1 where id = ${company.id}`.execute(api.h.t.db);
    expect(((await (await downtime(10)).json()) as { activities: boolean }).activities).toBe(true);
  });

  it("one company's configuration never shows in another's answers, calls at once or one after another", async () => {
    const a = await api.h.tenant();
    const b = await api.h.tenant();
    await aMachine(api.h.t.db, a.company, { name: 'A lathe' });
    await aMachine(api.h.t.db, b.company, { name: 'B mill' });
    const calls = Array.from({ length: 12 }, (_, i) => (i % 2 === 0 ? a : b));
    const names = await Promise.all(calls.map((t, i) => machineNames(t.cookie, i % 3)));
    calls.forEach((t, i) => expect(names[i]).toEqual([t === a ? 'A lathe' : 'B mill']));
    for (const [i, t] of calls.entries())
      expect(await machineNames(t.cookie, 3 + (i % 4))).toEqual([t === a ? 'A lathe' : 'B mill']);
  });
});
