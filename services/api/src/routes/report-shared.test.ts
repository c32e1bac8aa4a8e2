import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { companyScope } from '@takt/db';
import { markRollupsDirty } from '@takt/db/rollups';
import { DIALECTS } from '@takt/db/testing';
import type { Caller } from '../http/context';
import type { Company } from '../repositories/company';
import type { ServiceCtx } from '../services/context';
import { downtimeReport } from '../services/report-downtime';
import {
  LIVE_REUSE_MS,
  SETTLED_REUSE_MS,
  SHARED_ANSWER_BUDGET,
  SHARED_ANSWER_MAX,
  sharedAnswer,
  sharedAnswersKept,
  useSharedAnswers,
} from '../services/report-shared';
import { apiHarness } from '../testing/app';
import type { ApiHarness } from '../testing/app';
import { aGroup, aMachine, aUser } from '../testing/builders';
import { downTwice, someStates } from '../testing/downtime-builders';

// Decision 1148: report answers shared between callers of the same company, call, parameters, view and data
// version; never across companies; a write that changes an input (facts with their rollup mark, a machine's
// name) gives a new answer; the anonymize option still applies to each caller's own copy.

const HOUR = 3_600_000;
/** Monday 2025-11-17 00:00 UTC; the harness clock stands a day later. */
const D = Date.UTC(2025, 10, 17);
const NOW = D + 24 * HOUR;

interface Downtime {
  summary: { count: number; duration: number };
  byMachine: Array<{ machine: string }>;
}

describe.each(DIALECTS)('shared report answers on %s', (dialect) => {
  let h: ApiHarness;
  beforeEach(async () => {
    h = await apiHarness(dialect, NOW);
  });
  afterEach(async () => {
    await h.close();
  });

  /** A company with one machine named `name`, down 01:00–02:00 and 05:00–07:00 of D. */
  async function plant(name: string) {
    const tenant = await h.tenant({ role: 'manager' });
    const machine = await aMachine(h.t.db, tenant.company, { name });
    await someStates(h.t.db, tenant.company, machine, downTwice(D));
    return { ...tenant, machine };
  }

  const path = `/api/reports/downtime?start=${D}&end=${D + 12 * HOUR}`;
  const downtime = async (cookie: string) => {
    const res = await h.get(path, cookie);
    expect(res.status, await res.clone().text()).toBe(200);
    return (await res.json()) as Downtime;
  };

  it("another company's caller never receives a shared answer", async () => {
    const a = await plant('Mill of A');
    const b = await plant('Lathe of B');
    // The same call with the same parameters, one company after the other and back.
    const first = await downtime(a.cookie);
    expect(first.byMachine.map((m) => m.machine)).toEqual(['Mill of A']);
    const other = await downtime(b.cookie);
    expect(other.byMachine.map((m) => m.machine)).toEqual(['Lathe of B']);
    expect((await downtime(a.cookie)).byMachine.map((m) => m.machine)).toEqual(['Mill of A']);
    // The same for the rollup reports: a company without machines gets no machines, whatever A asked first.
    const empty = await h.tenant({ role: 'manager' });
    const util = `/api/reports/utilization?start=${D}&end=${D + 12 * HOUR}&interval=hour`;
    const aUtil = (await (await h.get(util, a.cookie)).json()) as {
      machines: Array<{ machineName: string }>;
    };
    expect(aUtil.machines.map((m) => m.machineName)).toEqual(['Mill of A']);
    const eUtil = (await (await h.get(util, empty.cookie)).json()) as { machines: unknown[] };
    expect(eUtil.machines).toEqual([]);
  });

  it('a new fact with its rollup mark, or a renamed machine, gives a new answer', async () => {
    const a = await plant('Mill');
    const before = await downtime(a.cookie);
    expect(before.summary).toMatchObject({ count: 2, duration: 3 * HOUR });
    // Asked again with nothing changed: the same figures.
    expect((await downtime(a.cookie)).summary).toEqual(before.summary);
    // Ingest writes a stop and marks the machine's rollups, as it does with every fact it derives.
    const scope = companyScope(h.t.db, a.company.id);
    await scope
      .updateTable('state_intervals')
      .set({ end_at: D + 9 * HOUR })
      .where('machine_id', '=', a.machine)
      .where('start_at', '=', D + 7 * HOUR)
      .execute();
    await someStates(h.t.db, a.company, a.machine, [
      [D + 9 * HOUR, D + 10 * HOUR, 'INACTIVE'],
      [D + 10 * HOUR, D + 12 * HOUR, 'ACTIVE'],
    ]);
    await markRollupsDirty(h.t.db, {
      companyId: a.company.id,
      machineId: a.machine,
      from: D + 9 * HOUR,
      now: NOW + 1,
    });
    const after = await downtime(a.cookie);
    expect(after.summary).toMatchObject({ count: 3, duration: 4 * HOUR });
    // A machine renamed (configuration has no rollup mark): the answer names it.
    await scope.updateTable('machines').set({ name: 'Mill 2' }).where('id', '=', a.machine).execute();
    expect((await downtime(a.cookie)).byMachine.map((m) => m.machine)).toEqual(['Mill 2']);
  });

  it('the anonymize option applies to each caller of a shared answer', async () => {
    const a = await plant('Mill Alpha');
    const other = await aUser(h.t.db, a.company, { role: 'manager' });
    const anonymous = await h.login(other.email, other.password);
    expect((await h.send('PUT', '/api/me/preferences', anonymous, { anonymize: true })).status).toBe(200);
    for (const [cookie, name] of [
      [a.cookie, 'Mill Alpha'],
      [anonymous, 'Machine 1'],
      [a.cookie, 'Mill Alpha'],
    ] as const)
      expect((await downtime(cookie)).byMachine.map((m) => m.machine)).toEqual([name]);
  });

  /** A manager's service context in `company` at `now`. */
  const ctxOf = (company: Company, now: number): ServiceCtx => ({
    scope: companyScope(h.t.db, company.id),
    at: now,
    now,
    caller: {
      kind: 'user',
      user: { role: 'manager', isRoot: false },
      company: { productTier: company.productTier },
    } as unknown as Caller,
  });

  it("the downtime report's figures are shared without its periods; the list, the detail and the CSV keep them", async () => {
    const a = await plant('Mill');
    const ctx = ctxOf(a.company, NOW);
    const q = {
      start: D,
      end: D + 12 * HOUR,
      showPlanned: true,
      showUnplanned: true,
      showUncategorized: true,
    };
    const full = await downtimeReport(ctx, q);
    expect(full.periods).toHaveLength(2);
    const figures = await downtimeReport(ctx, q, 'downtime', false);
    // Decision 1160: the figures' answer holds no period (a month of a plant's periods weighs megabytes).
    expect(figures.periods).toEqual([]);
    const { periods: _p, ...rest } = full;
    expect({ ...figures, periods: undefined }).toEqual({ ...rest, periods: undefined });
    expect(sharedAnswersKept(h.t.db).answers).toBe(2);
    // Again: both given from the shared answers; with detail the items are listed.
    expect(await downtimeReport(ctx, q, 'downtime', false)).toBe(figures);
    expect((await downtimeReport(ctx, { ...q, detail: true }, 'downtime', false)).items).toHaveLength(2);
    const csv = await h.get(`${path}&format=csv`, a.cookie);
    expect((await csv.text()).trim().split('\n')).toHaveLength(3);
  });

  it('concurrent identical calls compute once; another company, a later now or a new version compute again', async () => {
    const a = await plant('Mill');
    const b = await plant('Lathe');
    let computed = 0;
    const compute = (answer: string) => async () => {
      computed++;
      await new Promise((r) => setTimeout(r, 20));
      return answer;
    };
    const live = { start: D, end: NOW + HOUR };
    const call = (company: Company, now: number, range = live) =>
      sharedAnswer(ctxOf(company, now), 'test', { ...range, shifts: ['x'] }, range, compute(company.id));
    // Five at once: one computation, every caller its answer.
    expect(await Promise.all([1, 2, 3, 4, 5].map(() => call(a.company, NOW)))).toEqual(
      Array(5).fill(a.company.id),
    );
    expect(computed).toBe(1);
    // Another company with the same call and parameters: its own computation and answer.
    expect(await call(b.company, NOW)).toBe(b.company.id);
    expect(computed).toBe(2);
    // A range reaching past now is given again only for LIVE_REUSE_MS.
    await call(a.company, NOW + LIVE_REUSE_MS);
    expect(computed).toBe(2);
    await call(a.company, NOW + LIVE_REUSE_MS + 1);
    expect(computed).toBe(3);
    // A range that ended before it was computed, with no pending mark in it, is given again for SETTLED_REUSE_MS
    // (never for an earlier now), then computed again.
    const past = { start: D, end: D + 12 * HOUR };
    await call(a.company, NOW, past);
    await call(a.company, NOW + SETTLED_REUSE_MS, past);
    expect(computed).toBe(4);
    await call(a.company, NOW - 1, past);
    expect(computed).toBe(5);
    await call(a.company, NOW - 1 + SETTLED_REUSE_MS + 1, past);
    expect(computed).toBe(6);
    // A mark in the range changes the data version.
    await call(a.company, NOW + SETTLED_REUSE_MS, past);
    expect(computed).toBe(6);
    await markRollupsDirty(h.t.db, { companyId: a.company.id, machineId: a.machine, from: D, now: NOW });
    await call(a.company, NOW + SETTLED_REUSE_MS, past);
    expect(computed).toBe(7);
  });

  it("a company's calls within LIVE_REUSE_MS under one data version are computed at one instant", async () => {
    const a = await plant('Mill');
    const b = await plant('Lathe');
    const live = { start: D, end: NOW + HOUR };
    /** Call `i` (its own answer) of `company` at `now`: the now it was computed at. */
    const computedAt = (company: Company, now: number, i: number) =>
      sharedAnswer(ctxOf(company, now), 'test', { ...live, i }, live, async (ctx) => ctx.now);
    expect(await computedAt(a.company, NOW, 1)).toBe(NOW);
    // Another call of the same company, later within LIVE_REUSE_MS: computed at the same instant.
    expect(await computedAt(a.company, NOW + 400, 2)).toBe(NOW);
    expect(await computedAt(a.company, NOW + LIVE_REUSE_MS, 3)).toBe(NOW);
    // Another company: its own instant.
    expect(await computedAt(b.company, NOW + 500, 4)).toBe(NOW + 500);
    // A new data version (a mark): a new instant, which then holds for the calls after it.
    await markRollupsDirty(h.t.db, { companyId: a.company.id, machineId: a.machine, from: D, now: NOW });
    expect(await computedAt(a.company, NOW + 600, 5)).toBe(NOW + 600);
    expect(await computedAt(a.company, NOW + 700, 6)).toBe(NOW + 600);
    // Past LIVE_REUSE_MS, or a clock before the instant: a new one.
    expect(await computedAt(a.company, NOW + 601 + LIVE_REUSE_MS, 7)).toBe(NOW + 601 + LIVE_REUSE_MS);
    expect(await computedAt(a.company, NOW + 500, 8)).toBe(NOW + 500);
  });

  it('reports computed at one instant are those computed alone at it (each machine set its own build)', async () => {
    const a = await plant('Mill');
    const group = await aGroup(h.t.db, a.company, 'Cell');
    const lathe = await aMachine(h.t.db, a.company, { name: 'Lathe', groupIds: [group] });
    await someStates(h.t.db, a.company, lathe, downTwice(D + HOUR));
    // Ranges reaching past now: their rows are built from the facts up to the instant (no stored rows here).
    const q = `start=${D}&end=${NOW + HOUR}`;
    const paths = [
      `/api/reports/utilization?${q}&interval=hour&group=${group}`,
      `/api/reports/utilization?${q}&interval=hour`,
      `/api/reports/downtime?${q}&group=${group}`,
      `/api/reports/downtime?${q}`,
    ];
    const answers = async (nowOf: (i: number) => number) => {
      const out: string[] = [];
      for (const [i, path] of paths.entries()) {
        h.clock.now = nowOf(i);
        const res = await h.get(path, a.cookie);
        expect(res.status, path).toBe(200);
        out.push(await res.text());
      }
      return out;
    };
    // Asked 200 ms apart with sharing on: all at the first one's instant.
    const shared = await answers((i) => NOW + 200 * i);
    useSharedAnswers(h.t.db, false);
    expect(await answers(() => NOW)).toEqual(shared);
    // Sharing off, each at its own now: the live figures differ from the instant's (its No data grows with now).
    const alone = await answers((i) => NOW + 200 * i);
    expect(alone[0]).toBe(shared[0]);
    for (const i of [1, 2, 3]) expect(alone[i]).not.toBe(shared[i]);
    useSharedAnswers(h.t.db, true);
  });

  describe('kept by size, least recently used first', () => {
    const past = { start: D, end: D + 12 * HOUR };
    let computed: number[];
    /**
     * Call `i` (its own key) for company `company` at NOW, answering `answer` (after `ms`, so that callers arriving
     * meanwhile find it in flight); counts its computations.
     */
    const ask = (company: Company, i: number, answer: unknown, ms = 0) =>
      sharedAnswer(ctxOf(company, NOW), 'test', { ...past, i }, past, async () => {
        computed[i] = (computed[i] ?? 0) + 1;
        if (ms) await new Promise((r) => setTimeout(r, ms));
        return answer;
      });
    beforeEach(() => {
      computed = [];
    });

    it('many small answers are all kept, more than 32', async () => {
      const a = await plant('Mill');
      const n = 100;
      for (let i = 0; i < n; i++) expect(await ask(a.company, i, { i })).toEqual({ i });
      for (let i = 0; i < n; i++) expect(await ask(a.company, i, { i })).toEqual({ i });
      expect(computed).toEqual(Array(n).fill(1));
      expect(sharedAnswersKept(h.t.db).answers).toBe(n);
    });

    it('an answer past the budget evicts the least recently used', async () => {
      const a = await plant('Mill');
      // Four answers just under a quarter of the budget each fill it; a fifth does not fit.
      const big = 'x'.repeat(SHARED_ANSWER_MAX - 1_000);
      for (const i of [1, 2, 3, 4]) await ask(a.company, i, big);
      const kept = sharedAnswersKept(h.t.db);
      expect(kept.answers).toBe(4);
      expect(kept.size).toBeGreaterThan(SHARED_ANSWER_BUDGET - 5_000);
      expect(kept.size).toBeLessThanOrEqual(SHARED_ANSWER_BUDGET);
      // The first is asked again (now the most recently used), so the fifth evicts the second.
      await ask(a.company, 1, big);
      await ask(a.company, 5, big);
      expect(sharedAnswersKept(h.t.db).answers).toBe(4);
      for (const i of [1, 3, 4, 5]) await ask(a.company, i, big);
      expect(computed).toEqual([undefined, 1, 1, 1, 1, 1]);
      await ask(a.company, 2, big);
      expect(computed[2]).toBe(2);
    });

    it('an object answer is counted twice its JSON: the answer and the text its responses send', async () => {
      const a = await plant('Mill');
      const answer = { text: 'x'.repeat(10_000) };
      await ask(a.company, 0, answer);
      const json = JSON.stringify(answer).length;
      const { size } = sharedAnswersKept(h.t.db);
      expect(size).toBeGreaterThan(2 * json);
      expect(size).toBeLessThan(2 * json + 1_000);
    });

    it('an answer larger than a quarter of the budget is computed each time, shared only in flight', async () => {
      const a = await plant('Mill');
      await ask(a.company, 0, { small: true });
      const huge = 'x'.repeat(SHARED_ANSWER_MAX);
      for (let k = 0; k < 3; k++) expect((await ask(a.company, 1, huge)) as string).toHaveLength(huge.length);
      expect(computed[1]).toBe(3);
      await Promise.all([ask(a.company, 1, huge, 20), ask(a.company, 1, huge, 20)]);
      expect(computed[1]).toBe(4);
      // The small answer stays kept; the huge one is not.
      expect(sharedAnswersKept(h.t.db).answers).toBe(1);
      await ask(a.company, 0, { small: true });
      expect(computed[0]).toBe(1);
    });
  });
});
