import { describe, expect, it } from 'vitest';
import { encodeDowntimeFigures, NO_DATA_REASON } from '@takt/domain';
import { DIALECTS } from '@takt/db/testing';
import { historyChanged, loadCalendar, loadDowntimeFacts } from '@takt/db/rollups';
import type { CompanyScope } from '@takt/db';
import type { ApiHarness } from '../testing/app';
import { aCompany } from '../testing/builders';
import { aDowntimeReason, anAnnotation, HOUR, MIN, someStates } from '../testing/downtime-builders';
import {
  aDowntimePlant,
  aPlantOfLives,
  piecesOfMachine,
  PLANT_NOW,
  PLANT_T0,
} from '../testing/downtime-plant';
import { apiPerTest, recomputeMarked } from '../testing/report-plant';
import { useSharedAnswers } from '../services/report-shared';
import { storedDowntimeFigures } from '../services/report-downtime-stored';
import type { ServiceCtx } from '../services/context';

// Decision 1193: the downtime report's figures (its JSON without the list) read from the figures stored with the
// rollup rows over the range's whole buckets and computed from the states over its edges. The oracle is the same
// call with detail=true, which lists every period and so computes everything from the states: the figures (Pareto,
// summary, byMachine, every count and duration, and their order) must be equal, on both dialects.

const T0 = PLANT_T0;

/** A manager's service context in the scope's company at NOW. */
const ctxOf = (scope: CompanyScope): ServiceCtx =>
  ({
    scope,
    at: NOW,
    now: NOW,
    caller: { kind: 'user', user: { role: 'manager', isRoot: false } },
  }) as unknown as ServiceCtx;
const NOW = PLANT_NOW;

interface Answer {
  data: unknown[];
  summary: unknown;
  byMachine: unknown[];
}

async function answer(h: ApiHarness, cookie: string, query: string): Promise<Answer> {
  // The rows are changed behind the API's back below: no answer given again (decision 1148).
  useSharedAnswers(h.t.db, true);
  const res = await h.get(`/api/reports/downtime?${query}`, cookie);
  expect(res.status, await res.clone().text()).toBe(200);
  const { data, summary, byMachine } = (await res.json()) as Answer;
  return { data, summary, byMachine };
}

/** The figures read from the stored rows and those computed from the states, for one query. */
const bothWays = async (h: ApiHarness, cookie: string, query: string) => ({
  stored: await answer(h, cookie, query),
  states: await answer(h, cookie, `${query}&detail=true`),
});

describe.each(DIALECTS)('the downtime report reads its stored figures on %s (decision 1193)', (dialect) => {
  const api = apiPerTest(dialect, NOW);

  it('ranges with mid-hour edges, past now and over the week boundary, in every shift selection', async () => {
    const { h } = api;
    const { tenant, monday, ids } = await aDowntimePlant(h);
    const calendar = await loadCalendar(h.t.db, tenant.company.id);
    const { cookie, shiftIds } = tenant;
    const ranges = [
      { start: T0, end: NOW },
      { start: T0 + 7 * HOUR + 13 * MIN, end: NOW - 2 * HOUR - 47 * MIN },
      { start: monday - 2 * HOUR - 30 * MIN, end: monday + HOUR + 10 * MIN + 17_000 },
      { start: T0 + 30 * HOUR + 1, end: monday + 59 * MIN },
      { start: NOW - 20 * HOUR - 5 * MIN, end: NOW + 5 * HOUR },
      { start: T0 + 26 * HOUR + 20 * MIN, end: T0 + 26 * HOUR + 50 * MIN },
    ];
    const selections: Array<readonly string[]> = [[], [shiftIds[0]!], [shiftIds[1]!], shiftIds];
    for (const range of ranges)
      for (const sel of selections) {
        const query = `start=${range.start}&end=${range.end}${sel.length ? `&shifts=${sel.join(',')}` : ''}`;
        const { stored, states } = await bothWays(h, cookie, query);
        expect(stored, query).toEqual(states);
        const served = await storedDowntimeFigures(
          ctxOf(tenant.scope),
          calendar,
          ids,
          { start: range.start, until: Math.min(range.end, NOW) },
          sel.length ? sel : null,
        );
        // Every machine's whole buckets from its stored rows (none in a range without one).
        expect(served.figures.size, query).toBe(range.end - range.start > HOUR ? ids.length : 0);
      }
    // The filters apply to the stored figures as to the periods.
    for (const filter of [
      'showPlanned=false',
      'showUncategorized=false&showNoData=false',
      `categoryId=${NO_DATA_REASON}`,
    ]) {
      const query = `start=${T0 + 7 * HOUR + 13 * MIN}&end=${NOW - 2 * HOUR - 47 * MIN}&${filter}`;
      const { stored, states } = await bothWays(h, cookie, query);
      expect(stored, query).toEqual(states);
    }
  });

  it('edges where the first downtime piece begins before them, for machines of different lives (1198)', async () => {
    const { h } = api;
    // M4's life begins on Saturday 02:17 (late), inside some ranges' first hour; `limited` is inside a stop of a
    // plannedWithLimit reason (the range's own, judged on its duration).
    const { tenant, ids, monday, limited, late, calendar } = await aPlantOfLives(h);
    const { cookie, shiftIds } = tenant;
    const ranges = [
      // M1 without data from Sunday 23:00 to Monday 07:00: No data at the start edge.
      { start: monday + 2 * HOUR + 10 * MIN, end: NOW - 3 * HOUR - 20 * MIN },
      { start: late - 40 * MIN, end: late + 5 * HOUR + 5 * MIN },
      { start: T0 + 26 * HOUR + 20 * MIN, end: T0 + 50 * HOUR + 7 * MIN },
      { start: NOW - 25 * HOUR - 13 * MIN, end: NOW },
      { start: limited, end: limited + 6 * HOUR },
    ];
    /** The machines whose first downtime piece around an edge begins before it. */
    const crossing = async (t: number) => {
      const facts = await loadDowntimeFacts(tenant.scope, ids, { start: t, end: t + 1 });
      return ids.filter((id) => {
        const first = piecesOfMachine(facts, id)[0];
        return first !== undefined && first.start < t;
      }).length;
    };
    const check = async () => {
      for (const range of ranges)
        for (const sel of [[], [shiftIds[0]!]]) {
          const query = `start=${range.start}&end=${range.end}${sel.length ? `&shifts=${sel.join(',')}` : ''}`;
          const { stored, states } = await bothWays(h, cookie, query);
          expect(stored, query).toEqual(states);
        }
    };
    let before = 0;
    for (const range of ranges) before += await crossing(range.start);
    // Several machines at once, in every range but one at least.
    expect(before).toBeGreaterThanOrEqual(2 * (ranges.length - 1));
    await check();
    // Rows holding up to different hours for different machines (dirty marks): the tails begin at different
    // bucket starts, each machine's from its own.
    await historyChanged(tenant.scope, ids[1]!, NOW - 5 * HOUR - 20 * MIN);
    await historyChanged(tenant.scope, ids[3]!, NOW - 9 * HOUR);
    await check();
    const served = await storedDowntimeFigures(
      ctxOf(tenant.scope),
      calendar,
      ids,
      { start: ranges[3]!.start, until: NOW },
      null,
    );
    expect([...served.figures.keys()].sort()).toEqual([...ids].sort());
  });

  it("reads the stored rows, not another company's, and leaves a dirty or null-figure machine to the states", async () => {
    const { h } = api;
    const { tenant, ids } = await aDowntimePlant(h);
    const { cookie, company } = tenant;
    const m1 = ids[0]!;
    // Friday 02:20 to 09:10 Chicago: hourly rows from 03:00 to 09:00, edges before and after.
    const query = `start=${T0 + 26 * HOUR + 20 * MIN}&end=${T0 + 33 * HOUR + 10 * MIN}`;
    const at = T0 + 28 * HOUR;
    const wrong = encodeDowntimeFigures({
      byReason: { [NO_DATA_REASON]: { plannedMs: 0, unplannedMs: 1234, planned: 0, unplanned: 1 } },
      inProgress: [],
    });
    const before = await bothWays(h, cookie, query);
    expect(before.stored).toEqual(before.states);
    // Rows written here behind the recompute's back: their week rows' computed_at moved as a recompute moves it, so the
    // rows kept decoded while it holds (decision 1254) are read again.
    const rewritten = () =>
      h.t.db
        .updateTable('rollup_weeks')
        .set((eb) => ({ computed_at: eb('computed_at', '+', 1) }))
        .where('company_id', '=', company.id)
        .execute();

    // Another company's row under the same machine id and hour (decision 1130: another machine) is not read.
    const other = await aCompany(h.t.db);
    const row = await h.t.db
      .selectFrom('rollups')
      .selectAll()
      .where('company_id', '=', company.id)
      .where('machine_id', '=', m1)
      .where('start_at', '=', at)
      .executeTakeFirstOrThrow();
    await h.t.db
      .insertInto('rollups')
      .values({ ...row, company_id: other.id, downtime: wrong })
      .execute();
    await rewritten();
    expect((await bothWays(h, cookie, query)).stored).toEqual(before.states);
    // Nor its states and annotations around the range's edges (decision 1198: the edges read every machine at once).
    await someStates(h.t.db, other, m1, [
      [T0 + 25 * HOUR, T0 + 26 * HOUR + 40 * MIN, 'FAULT'],
      [T0 + 26 * HOUR + 40 * MIN, T0 + 33 * HOUR, 'ACTIVE'],
      [T0 + 33 * HOUR, T0 + 34 * HOUR, 'UNAVAILABLE'],
    ]);
    const theirs = await aDowntimeReason(h.t.db, other, { name: 'Theirs' });
    await anAnnotation(h.t.db, other, {
      machineId: m1,
      start: T0 + 25 * HOUR,
      end: T0 + 26 * HOUR + 40 * MIN,
      typeId: theirs.id,
    });
    expect((await bothWays(h, cookie, query)).stored).toEqual(before.states);

    // The stored row is what the report reads: a wrong figure in it shows.
    const setDowntime = (downtime: string | null) =>
      h.t.db
        .updateTable('rollups')
        .set({ downtime })
        .where('company_id', '=', company.id)
        .where('machine_id', '=', m1)
        .where('start_at', '=', at)
        .execute();
    await setDowntime(wrong);
    await rewritten();
    expect((await bothWays(h, cookie, query)).stored).not.toEqual(before.states);

    // A dirty mark before that row: the machine's rows hold only up to the mark, the rest from the states.
    await historyChanged(tenant.scope, m1, at - 30 * MIN);
    const dirty = await bothWays(h, cookie, query);
    expect(dirty.stored).toEqual(dirty.states);
    expect(dirty.stored).toEqual(before.states);
    await h.t.db.deleteFrom('rollup_dirty').where('machine_id', '=', m1).execute();
    expect((await bothWays(h, cookie, query)).stored).not.toEqual(before.states);

    // A row stored without figures (before migration 0067's recompute): that machine from the states.
    await setDowntime(null);
    await rewritten();
    expect((await bothWays(h, cookie, query)).stored).toEqual(before.states);
  });
  it('a reason given and recomputed shows in the next call, over the stored rows each range kept (decision 1254)', async () => {
    const { h } = api;
    const { tenant, ids, monday, reasons } = await aDowntimePlant(h);
    const { cookie, company } = tenant;
    // M1's stop without data over the week boundary: in hourly rows, and in day and week rows of a longer range.
    const queries = [
      `start=${monday - 2 * HOUR + 20 * MIN}&end=${monday + 8 * HOUR + 10 * MIN}`,
      `start=${T0 + 26 * HOUR + 20 * MIN}&end=${NOW - 50 * MIN}`,
    ];
    const before = [];
    for (const q of queries) before.push(await bothWays(h, cookie, q));
    for (const b of before) expect(b.stored).toEqual(b.states);
    await anAnnotation(h.t.db, company, {
      machineId: ids[0]!,
      start: monday - HOUR,
      end: monday + 7 * HOUR,
      typeId: reasons.tooling.id,
    });
    // As the rollup worker answers the annotation's mark.
    await recomputeMarked(h.t.db, NOW);
    for (const [i, q] of queries.entries()) {
      const after = await bothWays(h, cookie, q);
      expect(after.stored, q).toEqual(after.states);
      expect(after.states, q).not.toEqual(before[i]!.states);
    }
  });
  it("takes a machine's rows as holding to the last bucket only from its own company's rows (decision 1205)", async () => {
    const { h } = api;
    const { tenant, ids } = await aDowntimePlant(h);
    const { cookie, company } = tenant;
    const m1 = ids[0]!;
    // Friday 02:20 to 09:10 Chicago; m1's rows computed up to 06:15 only (the worker behind): they hold to 06:00,
    // and the rest, to the range's last bucket (09:00), is m1's tail from the states.
    const query = `start=${T0 + 26 * HOUR + 20 * MIN}&end=${T0 + 33 * HOUR + 10 * MIN}`;
    const computed = T0 + 30 * HOUR + 15 * MIN;
    const mine = () =>
      h.t.db.selectFrom('rollups').where('company_id', '=', company.id).where('machine_id', '=', m1);
    const lastRow = await mine()
      .selectAll()
      .where('start_at', '=', T0 + 33 * HOUR)
      .executeTakeFirstOrThrow();
    await h.t.db
      .deleteFrom('rollups')
      .where('company_id', '=', company.id)
      .where('machine_id', '=', m1)
      .where('start_at', '>=', T0 + 30 * HOUR)
      .execute();
    await h.t.db
      .updateTable('rollups')
      .set({ computed_at: computed })
      .where('company_id', '=', company.id)
      .where('machine_id', '=', m1)
      .where('start_at', '>=', T0 + 24 * HOUR)
      .execute();
    const behind = await bothWays(h, cookie, query);
    expect(behind.stored).toEqual(behind.states);
    // Another company's row under the same machine id in the range's last bucket (decision 1130: another machine)
    // says nothing of m1's rows: m1's rows still hold to 06:00 only.
    const other = await aCompany(h.t.db);
    await h.t.db
      .insertInto('rollups')
      .values({ ...lastRow, company_id: other.id, computed_at: NOW })
      .execute();
    expect((await bothWays(h, cookie, query)).stored).toEqual(behind.states);
  });
});
