import { describe, expect, it } from 'vitest';
import { companyScope } from '@takt/db';
import { DIALECTS } from '@takt/db/testing';
import { loadRollupSources, recomputeRollups } from '@takt/db/rollups';
import { aCompany, aMachine } from '../testing/builders';
import { MIN, someStates } from '../testing/downtime-builders';
import { madeParts } from '../testing/parts-builders';
import { aReportTenant, apiPerTest } from '../testing/report-plant';

// Decision 1130: the same machine id under another company is another machine (a gateway or adapter of another
// company may report an id this company also has). A company's reads and writes of a machine's derived rows (the
// cycles of its figures, timeline and production; a manual work center's states) never touch the other's.

const NOW = Date.UTC(2026, 10, 20, 12);
const T0 = NOW - 3 * 24 * 60 * MIN;
const at = (minutes: number) => T0 + minutes * MIN;

describe.each(DIALECTS)('reads of a machine id two companies store on %s', (dialect) => {
  const api = apiPerTest(dialect, NOW);

  it("reads a company's own cycles of the machine, not another company's of the same id", async () => {
    const { db } = api.h.t;
    const mine = await aCompany(db);
    const theirs = await aCompany(db);
    const machine = await aMachine(db, mine, { name: 'Lathe' });
    await madeParts(db, mine, machine, at(10), 3);
    await madeParts(db, theirs, machine, at(20), 70);
    await madeParts(db, theirs, machine, at(30), 80);
    const range = { start: at(0), end: at(100) };
    const of = { db, companyId: mine.id };

    const whole = (await loadRollupSources(of, [machine], range, { now: NOW })).get(machine)!;
    expect((whole.cycles ?? []).map((c) => [c.end, c.count])).toEqual([[at(10), 3]]);
    // Each machine in its own span (the tiles' goals read so): the same.
    const within = new Map([[machine, { start: at(5), end: at(50) }]]);
    const spans = (await loadRollupSources(of, [machine], range, { now: NOW, within })).get(machine)!;
    expect((spans.cycles ?? []).map((c) => [c.end, c.count])).toEqual([[at(10), 3]]);
  });

  it("answers a company's cycles report with its own parts of the machine", async () => {
    const { db } = api.h.t;
    const me = await aReportTenant(api.h, []);
    const theirs = await aCompany(db);
    const machine = await aMachine(db, me.company, { name: 'Lathe' });
    await madeParts(db, me.company, machine, at(10), 3);
    await madeParts(db, theirs, machine, at(20), 70);
    const res = await api.h.get(
      `/api/reports/cycles?start=${at(0)}&end=${at(100)}&machineId=${machine}`,
      me.cookie,
    );
    expect(res.status).toBe(200);
    const body = (await res.json()) as { parts: { total: number }; cycles: Array<{ timestamp: number }> };
    expect(body.parts.total).toBe(3);
    expect(body.cycles.map((c) => c.timestamp)).toEqual([at(10)]);
  });

  it("re-derives a manual work center's states without touching another company's of the same id", async () => {
    const { db } = api.h.t;
    const mine = await aCompany(db);
    const theirs = await aCompany(db);
    const machine = await aMachine(db, mine, { name: 'Bench', workcenterType: 'manual' });
    await someStates(db, mine, machine, [[at(0), null, 'ACTIVE']]);
    await someStates(db, theirs, machine, [
      [at(0), at(40), 'ACTIVE'],
      [at(40), null, 'FAULT'],
    ]);
    const statesOf = (companyId: string) =>
      companyScope(db, companyId)
        .selectFrom('state_intervals')
        .select(['start_at', 'end_at', 'state'])
        .where('machine_id', '=', machine)
        .orderBy('start_at')
        .execute()
        .then((rows) =>
          rows.map((r) => [Number(r.start_at), r.end_at == null ? null : Number(r.end_at), r.state]),
        );
    const recompute = (companyId: string) =>
      recomputeRollups(db, { companyId, machineId: machine, from: at(0), to: at(100), now: NOW });

    // The other company's machine of that id is no manual work center: its states are its own, and stay.
    await recompute(theirs.id);
    expect(await statesOf(mine.id)).toEqual([[at(0), null, 'ACTIVE']]);
    expect(await statesOf(theirs.id)).toEqual([
      [at(0), at(40), 'ACTIVE'],
      [at(40), null, 'FAULT'],
    ]);

    // The manual work center without runs or parts has no states; the other company's stay.
    await recompute(mine.id);
    expect(await statesOf(mine.id)).toEqual([]);
    expect(await statesOf(theirs.id)).toEqual([
      [at(0), at(40), 'ACTIVE'],
      [at(40), null, 'FAULT'],
    ]);
  });
});
