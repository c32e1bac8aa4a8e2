import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { DashboardMachine } from '@takt/domain';
import { companyScope } from '@takt/db';
import type { Company } from '../repositories/company';
import { apiHarness } from '../testing/app';
import type { ApiHarness } from '../testing/app';
import { aGroup, aMachine } from '../testing/builders';
import { DIALECTS } from '@takt/db/testing';
import {
  aDowntimeReason,
  aJobRun,
  aMachineLive,
  anAnnotation,
  MIN,
  someStates,
} from '../testing/downtime-builders';
import type { StateRows } from '../testing/downtime-builders';

// live-operations §3 Machine tile `downtime_reason` and `pausedJobName`; §4 "Idle … with an idle reason".

describe.each(DIALECTS)('dashboard tile reason and paused job on %s', (dialect) => {
  let h: ApiHarness;
  let T: number;
  beforeEach(async () => {
    h = await apiHarness(dialect);
    T = h.clock.now;
  });
  afterEach(async () => {
    await h.close();
  });

  /** A connected machine in `state` since `since` (the live row ingest keeps), with its state history. */
  const aLiveMachine = async (company: Company, name: string, states: StateRows) => {
    const id = await aMachine(h.t.db, company, { name });
    await someStates(h.t.db, company, id, states);
    const [since, , state] = states[states.length - 1]!;
    await aMachineLive(h.t.db, company, id, { state, since, connectedSince: T - 60 * MIN, now: T });
    return id;
  };

  const tiles = async (cookie: string) => {
    const res = await h.get('/api/dashboard', cookie);
    expect(res.status, await res.clone().text()).toBe(200);
    const body = (await res.json()) as { machines: DashboardMachine[] };
    return new Map(body.machines.map((m) => [m.name, m]));
  };

  it('names the reason of the annotation covering the current downtime, the same as the downtime list', async () => {
    const { company, cookie } = await h.tenant();
    const waiting = await aDowntimeReason(h.t.db, company, { name: 'Waiting for material' });
    const categorized = await aLiveMachine(company, 'Categorized', [
      [T - 2 * 60 * MIN, T - 30 * MIN, 'ACTIVE'],
      [T - 30 * MIN, null, 'INACTIVE'],
    ]);
    // The underlay's flow: the current downtime categorized while it goes on (end null).
    await anAnnotation(h.t.db, company, { machineId: categorized, start: T - 30 * MIN, typeId: waiting.id });
    // An open annotation of an earlier downtime does not name the current one.
    const earlier = await aLiveMachine(company, 'Earlier', [
      [T - 2 * 60 * MIN, T - 60 * MIN, 'INACTIVE'],
      [T - 60 * MIN, T - 30 * MIN, 'ACTIVE'],
      [T - 30 * MIN, null, 'FAULT'],
    ]);
    await anAnnotation(h.t.db, company, { machineId: earlier, start: T - 2 * 60 * MIN, typeId: waiting.id });
    // An annotation whose explicit end has passed: the downtime restarts uncategorized from there.
    const ended = await aLiveMachine(company, 'Ended', [
      [T - 2 * 60 * MIN, T - 30 * MIN, 'ACTIVE'],
      [T - 30 * MIN, null, 'INACTIVE'],
    ]);
    await anAnnotation(h.t.db, company, {
      machineId: ended,
      start: T - 30 * MIN,
      end: T - 10 * MIN,
      typeId: waiting.id,
    });
    // Running again: no downtime, no reason.
    const running = await aLiveMachine(company, 'Running', [
      [T - 2 * 60 * MIN, T - 30 * MIN, 'INACTIVE'],
      [T - 30 * MIN, null, 'ACTIVE'],
    ]);
    await anAnnotation(h.t.db, company, { machineId: running, start: T - 2 * 60 * MIN, typeId: waiting.id });

    const byName = await tiles(cookie);
    expect(byName.get('Categorized')).toMatchObject({
      status: 'INACTIVE',
      downtime_reason: 'Waiting for material',
    });
    expect(byName.get('Earlier')!.downtime_reason).toBeNull();
    expect(byName.get('Ended')!.downtime_reason).toBeNull();
    expect(byName.get('Running')!.downtime_reason).toBeNull();

    // The downtime list names the same reason for the live period.
    const list = await h.get(`/api/downtime?machineId=${categorized}`, cookie);
    const items = ((await list.json()) as { items: Array<{ end: number | null; reason: string | null }> })
      .items;
    expect(items.at(-1)).toMatchObject({ end: null, reason: 'Waiting for material' });
  });

  it('names the paused job of an unscheduled machine: the job of its last stopped run, unless archived', async () => {
    const { company, cookie } = await h.tenant();
    const states: StateRows = [[T - 5 * 60 * MIN, null, 'INACTIVE']];
    const paused = await aLiveMachine(company, 'Paused', states);
    await aJobRun(h.t.db, company, paused, {
      start: T - 4 * 60 * MIN,
      end: T - 3 * 60 * MIN,
      jobName: 'Old',
    });
    await aJobRun(h.t.db, company, paused, {
      start: T - 2 * 60 * MIN,
      end: T - 60 * MIN,
      jobName: 'Bracket',
    });
    const archived = await aLiveMachine(company, 'Archived', states);
    await aJobRun(h.t.db, company, archived, { start: T - 2 * 60 * MIN, end: T - 60 * MIN, jobName: 'Done' });
    await companyScope(h.t.db, company.id)
      .updateTable('jobs')
      .set({ hidden: 1 })
      .where('name', '=', 'Done')
      .execute();
    const scheduled = await aLiveMachine(company, 'Scheduled', states);
    await aJobRun(h.t.db, company, scheduled, {
      start: T - 3 * 60 * MIN,
      end: T - 2 * 60 * MIN,
      jobName: 'Before',
    });
    await aJobRun(h.t.db, company, scheduled, { start: T - 60 * MIN, jobName: 'Now' });
    await aLiveMachine(company, 'Never', states);

    const byName = await tiles(cookie);
    expect(byName.get('Paused')).toMatchObject({ scheduled: false, pausedJobName: 'Bracket' });
    expect(byName.get('Archived')!.pausedJobName).toBeNull();
    expect(byName.get('Scheduled')).toMatchObject({ scheduled: true, pausedJobName: null });
    expect(byName.get('Never')!.pausedJobName).toBeNull();
  });

  it("reads by company (decision 1146): another company's machines, live rows, runs and groups never show", async () => {
    const ours = await h.tenant();
    const theirs = await h.tenant();
    const states: StateRows = [[T - 2 * 60 * MIN, null, 'INACTIVE']];
    const plant = async (company: Company, prefix: string) => {
      const group = await aGroup(h.t.db, company, `${prefix} cell`);
      const running = await aMachine(h.t.db, company, { name: `${prefix} running`, groupIds: [group] });
      await someStates(h.t.db, company, running, states);
      await aMachineLive(h.t.db, company, running, {
        state: 'INACTIVE',
        since: T - 2 * 60 * MIN,
        connectedSince: T - 60 * MIN,
        now: T,
      });
      await aJobRun(h.t.db, company, running, { start: T - 60 * MIN, jobName: `${prefix} now` });
      const paused = await aLiveMachine(company, `${prefix} paused`, states);
      await aJobRun(h.t.db, company, paused, {
        start: T - 3 * 60 * MIN,
        end: T - 2 * 60 * MIN,
        jobName: `${prefix} before`,
      });
      return { group, running, paused };
    };
    const a = await plant(ours.company, 'Ours');
    const b = await plant(theirs.company, 'Theirs');

    const answer = async (cookie: string, query = '') => {
      const res = await h.get(`/api/dashboard${query}`, cookie);
      expect(res.status, await res.clone().text()).toBe(200);
      return (await res.json()) as { machines: DashboardMachine[]; groups: Array<{ id: string }> };
    };
    // In the machines' order (by name here): paused before running.
    const mine = await answer(ours.cookie);
    expect(mine.machines.map((m) => [m.id, m.scheduled, m.pausedJobName, m.groupIds])).toEqual([
      [a.paused, false, 'Ours before', []],
      [a.running, true, null, [a.group]],
    ]);
    expect(mine.groups.map((g) => g.id)).toEqual([a.group]);
    // Their group through our caller: no machine of theirs.
    expect((await answer(ours.cookie, `?group=${b.group}`)).machines).toEqual([]);
    expect((await answer(ours.cookie, `?group=${a.group}`)).machines.map((m) => m.id)).toEqual([a.running]);
    // And the other way round.
    const others = await answer(theirs.cookie);
    expect(others.machines.map((m) => [m.id, m.scheduled, m.pausedJobName])).toEqual([
      [b.paused, false, 'Theirs before'],
      [b.running, true, null],
    ]);
  });
});
