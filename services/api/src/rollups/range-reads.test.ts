import { describe, expect, it } from 'vitest';
import { companyScope } from '@takt/db';
import { AWKWARD_TEXT, DIALECTS } from '@takt/db/testing';
import { toAnnotation } from '@takt/db';
import { loadDowntimeFacts, loadMonitoredFrom, loadRollupSources, stateRowsIn } from '@takt/db/rollups';
import { aCompany, aMachine } from '../testing/builders';
import { aDowntimeReason, anAnnotation, MIN, someStates } from '../testing/downtime-builders';
import { apiPerTest } from '../testing/report-plant';

// Decision 1076: the stored facts of a range are read from the last row starting at or before it (state rows;
// flag spans per kind) and the last ACTIVE before it / first ACTIVE after it one key step away. Rows that
// start long before the range and reach into it, open rows, and rows on both sides must all still be read, and
// another machine's rows never.

const NOW = Date.UTC(2026, 10, 20, 12);
const T0 = NOW - 3 * 24 * 60 * MIN;
const at = (minutes: number) => T0 + minutes * MIN;

describe.each(DIALECTS)('range reads on %s', (dialect) => {
  const api = apiPerTest(dialect, NOW);

  it('reads the rows reaching into a range from long before it, and the ACTIVE runs around it', async () => {
    const { db } = api.h.t;
    const company = await aCompany(db);
    const of = { db, companyId: company.id };
    const machine = await aMachine(db, company, { name: 'Lathe' });
    const other = await aMachine(db, company, { name: 'Mill' });
    // ACTIVE for an hour, then a long IDLE (from minute 60 to 3000) across the range [1000, 1100), ACTIVE
    // again, a FAULT, ACTIVE still going.
    await someStates(db, company, machine, [
      [at(0), at(60), 'ACTIVE'],
      [at(60), at(3000), 'INACTIVE'],
      [at(3000), at(3010), 'ACTIVE'],
      [at(3010), at(3020), 'FAULT'],
    ]);
    await companyScope(db, company.id)
      .insertInto('state_intervals', [
        { machine_id: machine, start_at: at(3020), end_at: null, state: 'ACTIVE' },
        // The other machine: rows overlapping the range that are not the first machine's, its next ACTIVE later.
        { machine_id: other, start_at: at(0), end_at: at(2000), state: 'ACTIVE' },
        { machine_id: other, start_at: at(2000), end_at: at(4000), state: 'INACTIVE' },
        { machine_id: other, start_at: at(4000), end_at: null, state: 'ACTIVE' },
      ])
      .execute();
    await companyScope(db, company.id)
      .insertInto('flag_spans', [
        // A spindle span from long before the range to inside it; in-cut spans before, inside and open.
        { machine_id: machine, kind: 'spindle', start_at: at(10), end_at: at(1050) },
        { machine_id: machine, kind: 'spindle', start_at: at(1060), end_at: at(1070) },
        { machine_id: machine, kind: 'incut', start_at: at(20), end_at: at(30) },
        { machine_id: machine, kind: 'incut', start_at: at(900), end_at: at(1001) },
        { machine_id: machine, kind: 'incut', start_at: at(1090), end_at: null },
        { machine_id: other, kind: 'spindle', start_at: at(0), end_at: at(2000) },
      ])
      .execute();
    const range = { start: at(1000), end: at(1100) };

    const facts = await loadDowntimeFacts(of, [machine], range);
    // The downtime period around the range: from the last ACTIVE's end (60) to the next ACTIVE's start (3000).
    expect(facts.intervals.map((r) => [r.start_at, r.end_at, r.state])).toEqual([
      [at(60), at(3000), 'INACTIVE'],
      [at(3000), at(3010), 'ACTIVE'],
    ]);

    // Read together, each machine keeps its own bounds (decision 1180: its own ACTIVE edges, by its own id).
    const both = await loadDowntimeFacts(of, [machine, other], range);
    expect(
      both.intervals.filter((r) => r.machine_id === other).map((r) => [r.start_at, r.end_at, r.state]),
    ).toEqual([
      [at(0), at(2000), 'ACTIVE'],
      [at(2000), at(4000), 'INACTIVE'],
      [at(4000), null, 'ACTIVE'],
    ]);
    expect(both.intervals.filter((r) => r.machine_id === machine)).toEqual(facts.intervals);

    // Monitored life from the first state (closed, or the open one of a machine with no other).
    const drill = await aMachine(db, company, { name: 'Drill' });
    await someStates(db, company, drill, [[at(500), null, 'INACTIVE']]);
    expect(await loadMonitoredFrom(db, [machine, drill])).toEqual(
      new Map([
        [machine, at(0)],
        [drill, at(500)],
      ]),
    );

    const source = (await loadRollupSources(of, [machine, other], range, { now: NOW })).get(machine)!;
    expect(source.intervals.map((r) => [r.start, r.end, r.state])).toEqual([
      [at(1000), at(1100), 'INACTIVE'],
    ]);
    expect(source.spindle?.map((s) => [s.start, s.end])).toEqual([
      [at(1000), at(1050)],
      [at(1060), at(1070)],
    ]);
    expect(source.inCut?.map((s) => [s.start, s.end])).toEqual([
      [at(1000), at(1001)],
      [at(1090), at(1100)],
    ]);

    // A range near now, inside the open ACTIVE row: from the end of the ACTIVE before it (3010) on.
    const live = await loadDowntimeFacts(of, [machine], { start: NOW - MIN, end: NOW });
    expect(live.intervals.map((r) => [r.start_at, r.end_at, r.state])).toEqual([
      [at(3010), at(3020), 'FAULT'],
      [at(3020), null, 'ACTIVE'],
    ]);
  });

  it("reads a company's own states, annotations and spans of a machine id another company also stores under", async () => {
    // Decision 1130: the same machine id under another company is another machine; its rows are never read.
    const { db } = api.h.t;
    const mine = await aCompany(db);
    const theirs = await aCompany(db);
    const machine = await aMachine(db, mine, { name: 'Lathe' });
    await someStates(db, mine, machine, [
      [at(0), at(60), 'ACTIVE'],
      [at(60), at(3000), 'INACTIVE'],
      [at(3000), null, 'ACTIVE'],
    ]);
    await someStates(db, theirs, machine, [
      [at(-500), at(1050), 'ACTIVE'],
      [at(1050), at(2000), 'FAULT'],
      [at(2000), null, 'ACTIVE'],
    ]);
    const ours = await aDowntimeReason(db, mine, { name: 'Ours' });
    const foreign = await aDowntimeReason(db, theirs, { name: 'Theirs' });
    await anAnnotation(db, mine, { machineId: machine, start: at(60), end: at(3000), typeId: ours.id });
    await anAnnotation(db, theirs, {
      machineId: machine,
      start: at(1050),
      end: at(2000),
      typeId: foreign.id,
    });
    await companyScope(db, theirs.id)
      .insertInto('flag_spans', [
        { machine_id: machine, kind: 'spindle', start_at: at(1000), end_at: at(1100) },
      ])
      .execute();
    const range = { start: at(1000), end: at(1100) };
    const of = { db, companyId: mine.id };

    const facts = await loadDowntimeFacts(of, [machine], range);
    // Its downtime period around the range, from its own ACTIVE edges (60 and 3000), not the other company's.
    expect(facts.intervals.map((r) => [r.start_at, r.end_at, r.state])).toEqual([
      [at(60), at(3000), 'INACTIVE'],
      [at(3000), null, 'ACTIVE'],
    ]);
    expect(facts.annotations.map((a) => [a.start, a.end, a.annotationTypeId])).toEqual([
      [at(60), at(3000), ours.id],
    ]);
    expect([...facts.types.keys()]).toEqual([ours.id]);

    const source = (await loadRollupSources(of, [machine], range, { now: NOW })).get(machine)!;
    expect(source.intervals.map((r) => [r.start, r.end, r.state])).toEqual([
      [at(1000), at(1100), 'INACTIVE'],
    ]);
    expect(source.spindle ?? []).toEqual([]);
    expect(await loadMonitoredFrom(db, [machine])).toEqual(new Map([[machine, at(0)]]));
  });

  it('reads states and reasons of any text back as stored (each machine packed as one JSON array, decision 1186)', async () => {
    const { db } = api.h.t;
    const company = await aCompany(db);
    const machine = await aMachine(db, company, { name: 'Lathe' });
    const other = await aMachine(db, company, { name: 'Mill' });
    const texts = [...AWKWARD_TEXT, 'emoji 🛠️', "\\u0000 and \\ and 'single'"];
    const rows = texts.map((reason, i) => ({
      machine_id: machine,
      start_at: at(i * 10),
      end_at: at(i * 10 + 10),
      state: reason === null ? 'ACTIVE' : `STATE ${reason}`,
      reason,
    }));
    await companyScope(db, company.id)
      .insertInto('state_intervals', [
        ...rows,
        { machine_id: machine, start_at: at(texts.length * 10), end_at: null, state: 'x,"y"', reason: 'a"b' },
        { machine_id: other, start_at: at(5), end_at: null, state: 'INACTIVE', reason: null },
      ])
      .execute();
    const read = await stateRowsIn(
      db,
      [
        { machineId: other, from: at(0), to: at(1000) },
        { machineId: machine, from: at(0), to: at(1000) },
      ],
      company.id,
    );
    // In the order of the bounds, each machine's states in time order, its open one last.
    expect(read).toEqual([
      { machine_id: other, start_at: at(5), end_at: null, state: 'INACTIVE', reason: null },
      ...rows,
      { machine_id: machine, start_at: at(texts.length * 10), end_at: null, state: 'x,"y"', reason: 'a"b' },
    ]);
    // None reaching in: no rows, and another company reads none of them.
    expect(await stateRowsIn(db, [{ machineId: machine, from: at(5000), to: at(5001) }], company.id)).toEqual(
      [{ machine_id: machine, start_at: at(texts.length * 10), end_at: null, state: 'x,"y"', reason: 'a"b' }],
    );
    expect(await stateRowsIn(db, [{ machineId: machine, from: at(0), to: at(5) }], company.id)).toEqual([
      rows[0],
    ]);
    const stranger = await aCompany(db);
    expect(await stateRowsIn(db, [{ machineId: machine, from: at(0), to: at(1000) }], stranger.id)).toEqual(
      [],
    );
  });

  it('reads annotations of any message back as stored, each machine its own in start then creation order', async () => {
    const { db } = api.h.t;
    const company = await aCompany(db);
    const machine = await aMachine(db, company, { name: 'Lathe' });
    const other = await aMachine(db, company, { name: 'Mill' });
    await someStates(db, company, machine, [[at(0), null, 'INACTIVE']]);
    await someStates(db, company, other, [[at(0), null, 'INACTIVE']]);
    const reason = await aDowntimeReason(db, company, { name: 'Ours' });
    const messages = [...AWKWARD_TEXT, 'emoji 🛠️', "\\u0000 and \\ and 'single'"];
    for (const [i, message] of messages.entries())
      await anAnnotation(db, company, {
        machineId: i % 2 === 0 ? machine : other,
        start: at(10 * i),
        end: i % 3 === 0 ? null : at(10 * i + 5),
        typeId: i % 4 === 0 ? null : reason.id,
        planned: i % 5 === 0 ? null : i % 5 === 1,
        setup: i % 7 === 0,
        message,
      });
    const facts = await loadDowntimeFacts({ db, companyId: company.id }, [other, machine], {
      start: at(0),
      end: at(1000),
    });
    const listed = await companyScope(db, company.id)
      .selectFrom('annotations')
      .selectAll()
      .orderBy('start_at')
      .execute();
    const of = (id: string) => listed.filter((r) => r.machine_id === id).map(toAnnotation);
    // Open annotations before a machine's bounds are left out as before: its states begin at 0, so none here.
    expect(facts.annotations).toEqual([...of(other), ...of(machine)]);
    expect(facts.annotations.map((a) => a.message)).toEqual([
      ...messages.filter((_, i) => i % 2 === 1),
      ...messages.filter((_, i) => i % 2 === 0),
    ]);
  });
});
