import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { SyncOutcome } from '@takt/domain';
import { companyScope } from '@takt/db';
import { apiHarness } from '../testing/app';
import type { ApiHarness } from '../testing/app';
import { aMachine } from '../testing/builders';
import { DIALECTS } from '@takt/db/testing';
import { aDowntimeReason, aRejectReason, MIN, someStates } from '../testing/downtime-builders';
import { aJob } from '../testing/live-builders';
import { madeParts as madePartsBy } from '../testing/parts-builders';

const uuid = () => crypto.randomUUID();

describe.each(DIALECTS)('offline sync on %s', (dialect) => {
  let h: ApiHarness;
  beforeEach(async () => {
    h = await apiHarness(dialect);
  });
  afterEach(async () => {
    await h.close();
  });

  /** Parts the machine counted (rejects never take more than were made: METRICS.md §3, decision 0997). */
  const madeParts = (companyId: string, machineId: string, end: number, count = 10) =>
    madePartsBy(h.t.db, { id: companyId }, machineId, end, count);

  const post = async (cookie: string, commands: unknown[]) => {
    const res = await h.send('POST', '/api/sync', cookie, { commands });
    return {
      status: res.status,
      body: (await res.json()) as { results: SyncOutcome[]; error?: { code: string } },
    };
  };

  it('applies a batch at the operators’ times, and a repeated batch changes nothing', async () => {
    const { company, cookie } = await h.tenant();
    const machine = await aMachine(h.t.db, company, { name: 'Mill' });
    await madeParts(company.id, machine, h.clock.now - 55 * MIN);
    const reason = await aRejectReason(h.t.db, company, { reject_behavior: 'scrap' });
    const downtime = await aDowntimeReason(h.t.db, company, { plannedBehavior: 'unplanned' });
    const jobId = await aJob(h.t.db, company);
    const now = h.clock.now;
    await someStates(h.t.db, company, machine, [
      [now - 60 * MIN, now - 30 * MIN, 'ACTIVE'],
      [now - 30 * MIN, now - 20 * MIN, 'INACTIVE'],
      [now - 20 * MIN, null, 'ACTIVE'],
    ]);
    const batch = [
      {
        id: uuid(),
        type: 'reject_part',
        machineId: machine,
        occurredAt: now - 50 * MIN,
        payload: { machine_id: machine, category_id: reason.id, scrapcount: 2, deductFromGoodParts: true },
      },
      {
        id: uuid(),
        type: 'categorize_downtime',
        machineId: machine,
        occurredAt: now - 15 * MIN,
        payload: {
          machineId: machine,
          start: now - 30 * MIN,
          end: null,
          category_id: downtime.id,
          message: 'coolant',
        },
      },
      {
        id: uuid(),
        type: 'start_job',
        machineId: machine,
        occurredAt: now - 10 * MIN,
        payload: { id: machine, jobId, setup: false },
      },
    ];
    const first = await post(cookie, batch);
    expect(first.status).toBe(200);
    expect(first.body.results.map((r) => r.status)).toEqual(['applied', 'applied', 'applied']);

    const scope = companyScope(h.t.db, company.id);
    const rejects = await scope.selectFrom('part_adjustments').selectAll().execute();
    expect(rejects).toHaveLength(1);
    // Facts are recorded when they happened, not when they arrived.
    expect(rejects[0]).toMatchObject({
      adjustment_time: now - 50 * MIN,
      scrapcount: 2,
      count: 0,
      reject_behavior: 'scrap',
    });
    const runs = await scope.selectFrom('job_runs').selectAll().execute();
    expect(runs).toHaveLength(1);
    expect(runs[0]!.start_at).toBe(now - 10 * MIN);
    expect(await scope.selectFrom('annotations').select('annotation_type_id').execute()).toEqual([
      { annotation_type_id: downtime.id },
    ]);
    // The rollup worker is told to recompute from the earliest changed fact.
    const dirty = await h.t.db
      .selectFrom('rollup_dirty')
      .selectAll()
      .where('machine_id', '=', machine)
      .executeTakeFirst();
    expect(dirty?.from_at).toBe(now - 50 * MIN);

    const again = await post(cookie, batch);
    expect(again.body.results.map((r) => r.status)).toEqual(['duplicate', 'duplicate', 'duplicate']);
    expect(again.body.results.every((r) => r.status === 'duplicate' && r.first === 'applied')).toBe(true);
    expect(await scope.selectFrom('part_adjustments').selectAll().execute()).toHaveLength(1);
    expect(await scope.selectFrom('job_runs').selectAll().execute()).toHaveLength(1);
    expect(await scope.selectFrom('annotations').selectAll().execute()).toHaveLength(1);
  });

  it('answers each command on its own: a rejected one keeps its spec text and is answered the same on redelivery', async () => {
    const { company, cookie } = await h.tenant();
    const machine = await aMachine(h.t.db, company);
    await madeParts(company.id, machine, h.clock.now - MIN);
    const reason = await aRejectReason(h.t.db, company);
    const bad = {
      id: uuid(),
      type: 'reject_part',
      machineId: machine,
      occurredAt: h.clock.now,
      payload: { machine_id: machine, category_id: reason.id, scrapcount: 0 },
    };
    const good = {
      id: uuid(),
      type: 'reject_part',
      machineId: machine,
      occurredAt: h.clock.now,
      payload: { machine_id: machine, category_id: reason.id, scrapcount: 1 },
    };
    const { body } = await post(cookie, [bad, good]);
    expect(body.results[0]).toMatchObject({
      status: 'rejected',
      error: { message: expect.stringContaining('Parts could not be rejected.') },
    });
    expect(body.results[1]!.status).toBe('applied');
    const again = await post(cookie, [bad]);
    expect(again.body.results[0]).toMatchObject({
      status: 'duplicate',
      first: 'rejected',
      error: { message: expect.stringContaining('Parts could not be rejected.') },
    });
  });

  it('refuses actions dated in the future, on another company’s machine, or naming another machine', async () => {
    const { company, cookie } = await h.tenant();
    const other = await h.tenant();
    const mine = await aMachine(h.t.db, company);
    const theirs = await aMachine(h.t.db, other.company);
    const reason = await aRejectReason(h.t.db, company);
    const payload = (m: string) => ({ machine_id: m, category_id: reason.id, scrapcount: 1 });
    const { body } = await post(cookie, [
      {
        id: uuid(),
        type: 'reject_part',
        machineId: mine,
        occurredAt: h.clock.now + 3_600_000,
        payload: payload(mine),
      },
      {
        id: uuid(),
        type: 'reject_part',
        machineId: theirs,
        occurredAt: h.clock.now,
        payload: payload(theirs),
      },
      { id: uuid(), type: 'reject_part', machineId: mine, occurredAt: h.clock.now, payload: payload(theirs) },
    ]);
    expect(body.results.map((r) => r.status)).toEqual(['rejected', 'rejected', 'rejected']);
    expect(body.results[0]).toMatchObject({ error: { code: 'OCCURRED_IN_FUTURE' } });
    expect(
      await companyScope(h.t.db, other.company.id).selectFrom('part_adjustments').selectAll().execute(),
    ).toEqual([]);
  });

  it('keys commands by company: the same id from two companies is two commands, each answered with its own first result', async () => {
    const a = await h.tenant();
    const b = await h.tenant();
    const id = uuid();
    const command = async (tenant: typeof a, scrapcount: number) => {
      const machine = await aMachine(h.t.db, tenant.company);
      await madeParts(tenant.company.id, machine, h.clock.now - MIN);
      const reason = await aRejectReason(h.t.db, tenant.company);
      return {
        id,
        type: 'reject_part',
        machineId: machine,
        occurredAt: h.clock.now,
        payload: { machine_id: machine, category_id: reason.id, scrapcount },
      };
    };
    const fromA = await command(a, 2);
    const fromB = await command(b, 3);
    const aFirst = await post(a.cookie, [fromA]);
    expect(aFirst.body.results).toEqual([{ id, status: 'applied', result: expect.anything() }]);
    // Before the key was (company_id, id), B's insert failed: INTERNAL, never remembered, retried forever.
    const bFirst = await post(b.cookie, [fromB]);
    expect(bFirst.body.results).toEqual([{ id, status: 'applied', result: expect.anything() }]);

    const counts = async (tenant: typeof a) =>
      (
        await companyScope(h.t.db, tenant.company.id)
          .selectFrom('part_adjustments')
          .select('scrapcount')
          .execute()
      ).map((r) => r.scrapcount);
    expect(await counts(a)).toEqual([2]);
    expect(await counts(b)).toEqual([3]);

    const firstResult = (r: { body: { results: SyncOutcome[] } }) =>
      (r.body.results[0] as { result: unknown }).result;
    const aAgain = await post(a.cookie, [fromA]);
    expect(aAgain.body.results).toEqual([
      { id, status: 'duplicate', first: 'applied', result: firstResult(aFirst) },
    ]);
    const bAgain = await post(b.cookie, [fromB]);
    expect(bAgain.body.results).toEqual([
      { id, status: 'duplicate', first: 'applied', result: firstResult(bFirst) },
    ]);
    expect(aAgain.body.results).not.toEqual(bAgain.body.results);
    expect(await counts(a)).toEqual([2]);
    expect(await counts(b)).toEqual([3]);

    // A rejected first answer is remembered per company too.
    const rejectedId = uuid();
    const c = await h.tenant();
    const rejected = { ...(await command(c, 0)), id: rejectedId };
    const accepted = { ...(await command(a, 1)), id: rejectedId };
    expect((await post(c.cookie, [rejected])).body.results[0]!.status).toBe('rejected');
    expect((await post(a.cookie, [accepted])).body.results[0]!.status).toBe('applied');
    expect((await post(c.cookie, [rejected])).body.results[0]).toMatchObject({
      status: 'duplicate',
      first: 'rejected',
    });
    expect((await post(a.cookie, [accepted])).body.results[0]).toMatchObject({
      status: 'duplicate',
      first: 'applied',
    });
  });

  it('refuses a malformed batch as a whole with the list of problems', async () => {
    const { cookie } = await h.tenant();
    const res = await h.send('POST', '/api/sync', cookie, {
      commands: [{ id: 'not-a-uuid', type: 'launch', machineId: '', payload: 1, occurredAt: 'x' }],
    });
    expect(res.status).toBe(400);
    const body = await res.json();
    expect(body.error.issues.length).toBeGreaterThanOrEqual(4);
  });

  it('resolves two tablets categorizing the same downtime offline: the later categorization wins, in either arrival order', async () => {
    for (const laterArrivesFirst of [true, false]) {
      const { company, cookie } = await h.tenant();
      const machine = await aMachine(h.t.db, company);
      const a = await aDowntimeReason(h.t.db, company, { name: 'Material' });
      const b = await aDowntimeReason(h.t.db, company, { name: 'Maintenance' });
      const now = h.clock.now;
      await someStates(h.t.db, company, machine, [
        [now - 60 * MIN, now - 40 * MIN, 'ACTIVE'],
        [now - 40 * MIN, null, 'INACTIVE'],
      ]);
      const categorize = (reasonId: string, occurredAt: number) => ({
        id: uuid(),
        type: 'categorize_downtime',
        machineId: machine,
        occurredAt,
        payload: { machineId: machine, start: now - 40 * MIN, end: null, category_id: reasonId },
      });
      const earlier = categorize(a.id, now - 30 * MIN);
      const later = categorize(b.id, now - 20 * MIN);
      const [first, second] = laterArrivesFirst ? [later, earlier] : [earlier, later];
      expect((await post(cookie, [first])).body.results[0]!.status).toBe('applied');
      const outcome = (await post(cookie, [second])).body.results[0]!;
      const stored = await companyScope(h.t.db, company.id)
        .selectFrom('annotations')
        .select('annotation_type_id')
        .execute();
      expect(stored).toEqual([{ annotation_type_id: b.id }]);
      if (laterArrivesFirst)
        expect(outcome).toMatchObject({ status: 'rejected', error: { code: 'CATEGORIZED_ELSEWHERE' } });
      else expect(outcome.status).toBe('applied');
    }
  });
});
