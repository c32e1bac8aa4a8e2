import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { laborActivitySetSchema, setupPartsSchema, setupStageSchema } from '@takt/domain';
import type { Company } from '../repositories/company';
import type { ApiHarness } from '../testing/app';
import { apiHarness } from '../testing/app';
import { TEST_PASSWORD, aCompany, aMachine } from '../testing/builders';
import { DIALECTS } from '@takt/db/testing';
import { runRawRetention } from '@takt/db';
import {
  aCountingMachine,
  aJob,
  aSetupStage,
  errorOf,
  issueFields,
  loginAs,
  partCounts,
} from '../testing/live-builders';
import { madeParts } from '../testing/parts-builders';

const endSetupResultSchema = z.object({
  setupParts: z.number(),
  keptParts: z.number(),
  removedParts: z.number(),
  adjustmentId: z.string().nullable(),
  jobRun: z.object({
    id: z.string(),
    setupend: z.number().nullable(),
    setupNote: z.string().nullable(),
    laborActivitySet: laborActivitySetSchema,
  }),
});

describe.each(DIALECTS)('setup on %s', (dialect) => {
  let h: ApiHarness;
  beforeEach(async () => {
    h = await apiHarness(dialect);
  });
  afterEach(async () => {
    await h.close();
  });

  /** A counting machine with a job started in setup at the harness clock; 100 on the counter before. */
  async function inSetup(company: Company, cookie: string, opts: { stageId?: string } = {}) {
    const machine = await aCountingMachine(h.t.db, company);
    const job = await aJob(h.t.db, company, { setuptime: 1800 });
    await partCounts(h.t.db, company, machine, [[h.clock.now - 60_000, 100]]);
    const res = await h.send('POST', '/api/dispatch/start', cookie, {
      id: machine,
      jobId: job,
      setup: true,
      ...(opts.stageId ? { setupStageId: opts.stageId } : {}),
    });
    expect(res.status, await res.clone().text()).toBe(201);
    const { id } = z.object({ id: z.string() }).parse(await res.json());
    return { machine, job, jsgId: id, startedAt: h.clock.now };
  }

  const parts = async (cookie: string, jsgId: string, machineId: string) => {
    const res = await h.get(`/api/setup/parts?jsgId=${jsgId}&machineId=${machineId}`, cookie);
    expect(res.status, await res.clone().text()).toBe(200);
    return setupPartsSchema.parse(await res.json()).netCount;
  };
  const end = (cookie: string, body: unknown) => h.send('POST', '/api/setup/end', cookie, body);
  const transition = (cookie: string, body: unknown) => h.send('POST', '/api/setup/transition', cookie, body);
  const setupAdjustments = (companyId: string) =>
    h.t.db
      .selectFrom('part_adjustments')
      .select(['count', 'kind', 'job_run_id', 'adjustment_time', 'scrapcount'])
      .where('company_id', '=', companyId)
      .execute();

  describe('GET /api/setup/parts', () => {
    it('counts the parts the machine made since the run started in setup', async () => {
      const { company, cookie } = await h.tenant();
      const run = await inSetup(company, cookie);
      await partCounts(h.t.db, company, run.machine, [
        [run.startedAt + 10_000, 103],
        [run.startedAt + 20_000, 107],
      ]);
      h.clock.now = run.startedAt + 30_000;
      expect(await parts(cookie, run.jsgId, run.machine)).toBe(7);
    });

    it('counts from the kept last value when raw retention removed the counter’s reading before setup (decision 1132)', async () => {
      const { company, cookie } = await h.tenant();
      const machine = await aCountingMachine(h.t.db, company);
      const job = await aJob(h.t.db, company, { setuptime: 1800 });
      // The counter last moved 40 days ago; 35 days are kept, so that reading goes and stays as the key's seed.
      await partCounts(h.t.db, company, machine, [[h.clock.now - 40 * 86_400_000, 100]]);
      expect((await runRawRetention(h.t.db, 35, h.clock.now)).floor).toBeGreaterThan(
        h.clock.now - 40 * 86_400_000,
      );
      const res = await h.send('POST', '/api/dispatch/start', cookie, {
        id: machine,
        jobId: job,
        setup: true,
      });
      expect(res.status, await res.clone().text()).toBe(201);
      const { id } = z.object({ id: z.string() }).parse(await res.json());
      const startedAt = h.clock.now;
      await partCounts(h.t.db, company, machine, [
        [startedAt + 10_000, 103],
        [startedAt + 20_000, 107],
      ]);
      h.clock.now = startedAt + 30_000;
      expect(await parts(cookie, id, machine)).toBe(7);
    });

    it('counts a setup begun before the raw floor from its derived cycles there and its readings after (decision 1150)', async () => {
      const { company, user, cookie } = await h.tenant();
      const { machine, jsgId: id, startedAt } = await inSetup(company, cookie);
      await partCounts(h.t.db, company, machine, [
        [startedAt + 10_000, 103],
        [startedAt + 20_000, 107],
      ]);
      // The cycles ingest derives from those readings: one a step, its count the step (METRICS.md §3).
      await madeParts(h.t.db, company, machine, startedAt + 10_000, 3);
      await madeParts(h.t.db, company, machine, startedAt + 20_000, 4);
      // 40 days on, still in setup; 35 days are kept, so the readings of the setup's first days are gone.
      h.clock.now = startedAt + 40 * 86_400_000;
      const floor = (await runRawRetention(h.t.db, 35, h.clock.now)).floor;
      expect(floor).toBeGreaterThan(startedAt + 20_000);
      expect(
        await h.t.db.selectFrom('observations').select('ts').where('machine_id', '=', machine).execute(),
      ).toEqual([]);
      await partCounts(h.t.db, company, machine, [[floor + 3_600_000, 110]]);
      await madeParts(h.t.db, company, machine, floor + 3_600_000, 3);
      // The session of 40 days ago has expired: a new one.
      expect(await parts(await h.login(user.email, TEST_PASSWORD), id, machine)).toBe(10);
    });

    it('counts parts, not cycles: a manyparts job of 4 parts a cycle made 12 parts in 3 cycles (decision 1020)', async () => {
      const { company, cookie } = await h.tenant();
      const machine = await aCountingMachine(h.t.db, company);
      const job = await aJob(h.t.db, company, { setuptime: 1800, actualParts: 4 });
      await partCounts(h.t.db, company, machine, [[h.clock.now - 60_000, 100]]);
      const res = await h.send('POST', '/api/dispatch/start', cookie, {
        id: machine,
        jobId: job,
        setup: true,
      });
      expect(res.status, await res.clone().text()).toBe(201);
      const { id } = z.object({ id: z.string() }).parse(await res.json());
      const startedAt = h.clock.now;
      await partCounts(h.t.db, company, machine, [[startedAt + 10_000, 103]]);
      h.clock.now = startedAt + 30_000;
      expect(await parts(cookie, id, machine)).toBe(12);
      const ended = await end(cookie, { jsgId: id, machineId: machine, keptParts: 5 });
      expect(endSetupResultSchema.parse(await ended.json())).toMatchObject({
        setupParts: 12,
        keptParts: 5,
        removedParts: 7,
      });
    });

    it('is 0 for a run started in production', async () => {
      const { company, cookie } = await h.tenant();
      const machine = await aCountingMachine(h.t.db, company);
      const job = await aJob(h.t.db, company);
      const res = await h.send('POST', '/api/dispatch/start', cookie, {
        id: machine,
        jobId: job,
        setup: false,
      });
      const { id } = z.object({ id: z.string() }).parse(await res.json());
      await partCounts(h.t.db, company, machine, [
        [h.clock.now - 1, 5],
        [h.clock.now + 1000, 9],
      ]);
      h.clock.now += 5000;
      expect(await parts(cookie, id, machine)).toBe(0);
    });

    it('answers 400 without jsgId and machineId', async () => {
      const { cookie } = await h.tenant();
      const res = await h.get('/api/setup/parts', cookie);
      expect(res.status).toBe(400);
      expect(issueFields(await errorOf(res))).toEqual(['jsgId', 'machineId']);
    });
  });

  describe('POST /api/setup/transition', () => {
    it('closes the open setup activity and opens one on the target stage; returns the labor activity set', async () => {
      const { company, cookie } = await h.tenant();
      const first = await aSetupStage(h.t.db, company, {
        name: 'Teardown',
        stageOrder: 0,
        setupPercentage: 30,
      });
      const second = await aSetupStage(h.t.db, company, {
        name: 'First article',
        stageOrder: 1,
        setupPercentage: 70,
      });
      const run = await inSetup(company, cookie, { stageId: first });
      h.clock.now += 120_000;
      const res = await transition(cookie, { laborActivitySetId: run.jsgId, setupStageId: second });
      expect(res.status, await res.clone().text()).toBe(200);
      const set = laborActivitySetSchema.parse(await res.json());
      expect(set.id).toBe(run.jsgId);
      // The run starts with setup time 0 and is timed against the job's 30 minutes (decision 1083).
      expect(set.expectedSetupDuration).toBe(1_800_000);
      expect(set.laborActivities.map((a) => [a.setupStage?.name, a.startAt, a.endAt, a.setup])).toEqual([
        ['Teardown', run.startedAt, h.clock.now, true],
        ['First article', h.clock.now, null, true],
      ]);
      expect(set.laborActivities[1]?.setupStage).toEqual({
        id: second,
        name: 'First article',
        stageOrder: 1,
        setupPercentage: 70,
        archivedAt: null,
      });
      // Choosing the stage already open changes nothing.
      h.clock.now += 1000;
      const same = laborActivitySetSchema.parse(
        await (await transition(cookie, { laborActivitySetId: run.jsgId, setupStageId: second })).json(),
      );
      expect(same.laborActivities).toEqual(set.laborActivities);
    });

    it('answers "Something went wrong" when the job is no longer in setup, or the stage is archived', async () => {
      const { company, cookie } = await h.tenant();
      const stage = await aSetupStage(h.t.db, company);
      const archived = await aSetupStage(h.t.db, company, { name: 'Retired', archivedAt: 5 });
      const run = await inSetup(company, cookie);
      const a = await transition(cookie, { laborActivitySetId: run.jsgId, setupStageId: archived });
      expect(a.status).toBe(400);
      expect((await errorOf(a)).message).toBe('Something went wrong');
      expect((await end(cookie, { jsgId: run.jsgId, machineId: run.machine, keptParts: 0 })).status).toBe(
        200,
      );
      const b = await transition(cookie, { laborActivitySetId: run.jsgId, setupStageId: stage });
      expect(b.status).toBe(409);
      const e = await errorOf(b);
      expect(e.message).toBe('Something went wrong');
      expect(e.issues?.[0]?.message).toBe('The job is already in production.');
      expect(e.issues?.[0]?.code).toBe('in_production');
    });

    it('answers 400 with the problems for a bad body', async () => {
      const { cookie } = await h.tenant();
      const res = await transition(cookie, { laborActivitySetId: '' });
      expect(res.status).toBe(400);
      expect(issueFields(await errorOf(res))).toEqual(['laborActivitySetId', 'setupStageId']);
    });
  });

  describe('POST /api/setup/end', () => {
    it('keeps N parts, saves a negative setup adjustment of the rest and goes into production', async () => {
      const { company, cookie } = await h.tenant();
      const run = await inSetup(company, cookie);
      await partCounts(h.t.db, company, run.machine, [
        [run.startedAt + 10_000, 103],
        [run.startedAt + 20_000, 107],
      ]);
      h.clock.now = run.startedAt + 60_000;
      const res = await end(cookie, {
        jsgId: run.jsgId,
        machineId: run.machine,
        keptParts: 4,
        message: 'first piece ok',
      });
      expect(res.status, await res.clone().text()).toBe(200);
      const result = endSetupResultSchema.parse(await res.json());
      expect(result).toMatchObject({ setupParts: 7, keptParts: 4, removedParts: 3 });
      expect(result.adjustmentId).not.toBeNull();
      expect(result.jobRun.setupend).toBe(h.clock.now);
      expect(result.jobRun.setupNote).toBe('first piece ok');
      expect(
        result.jobRun.laborActivitySet.laborActivities.map((a) => [a.setup, a.startAt, a.endAt]),
      ).toEqual([
        [true, run.startedAt, h.clock.now],
        [false, h.clock.now, null],
      ]);
      expect(await setupAdjustments(company.id)).toEqual([
        { count: -3, kind: 'setup', job_run_id: run.jsgId, adjustment_time: h.clock.now, scrapcount: 0 },
      ]);
      // Parts counted after setup ended are production parts, not setup parts.
      await partCounts(h.t.db, company, run.machine, [[h.clock.now + 1000, 120]]);
      h.clock.now += 5000;
      expect(await parts(cookie, run.jsgId, run.machine)).toBe(4);
    });

    it('clamps kept parts to the parts made in setup: nothing removed, no adjustment', async () => {
      const { company, cookie } = await h.tenant();
      const run = await inSetup(company, cookie);
      await partCounts(h.t.db, company, run.machine, [[run.startedAt + 10_000, 105]]);
      h.clock.now = run.startedAt + 20_000;
      const res = await end(cookie, { jsgId: run.jsgId, machineId: run.machine, keptParts: 50 });
      expect(endSetupResultSchema.parse(await res.json())).toMatchObject({
        setupParts: 5,
        keptParts: 5,
        removedParts: 0,
        adjustmentId: null,
      });
      expect(await setupAdjustments(company.id)).toEqual([]);
    });

    it('removes everything when 0 parts are kept, and keeps everything when keptParts is left out', async () => {
      const { company, cookie } = await h.tenant();
      const a = await inSetup(company, cookie);
      await partCounts(h.t.db, company, a.machine, [[a.startedAt + 10_000, 102]]);
      h.clock.now = a.startedAt + 20_000;
      const zero = endSetupResultSchema.parse(
        await (await end(cookie, { jsgId: a.jsgId, machineId: a.machine, keptParts: 0 })).json(),
      );
      expect(zero).toMatchObject({ setupParts: 2, keptParts: 0, removedParts: 2 });
      const b = await inSetup(company, cookie);
      await partCounts(h.t.db, company, b.machine, [[b.startedAt + 10_000, 103]]);
      h.clock.now = b.startedAt + 20_000;
      const all = endSetupResultSchema.parse(
        await (await end(cookie, { jsgId: b.jsgId, machineId: b.machine })).json(),
      );
      expect(all).toMatchObject({ setupParts: 3, keptParts: 3, removedParts: 0, adjustmentId: null });
      expect((await setupAdjustments(company.id)).map((x) => x.count)).toEqual([-2]);
    });

    it('asks to re-submit the parts to keep when they are not a whole number of at least 0', async () => {
      const { company, cookie } = await h.tenant();
      const run = await inSetup(company, cookie);
      for (const keptParts of [-1, 1.5, 'three']) {
        const res = await end(cookie, { jsgId: run.jsgId, machineId: run.machine, keptParts });
        expect(res.status).toBe(400);
        const e = await errorOf(res);
        expect(e.message).toBe(
          "There was an error, please re-submit the number of parts you'd like to keep.",
        );
        expect(issueFields(e)).toEqual(['keptParts']);
      }
      expect(await setupAdjustments(company.id)).toEqual([]);
    });

    it('takes a note of at most 250 characters', async () => {
      const { company, cookie } = await h.tenant();
      const run = await inSetup(company, cookie);
      const long = await end(cookie, {
        jsgId: run.jsgId,
        machineId: run.machine,
        keptParts: 0,
        message: 'x'.repeat(251),
      });
      expect(long.status).toBe(400);
      const e = await errorOf(long);
      expect(issueFields(e)).toEqual(['message']);
      expect(e.issues?.[0]?.message).toBe('At most 250 characters');
      const ok = await end(cookie, {
        jsgId: run.jsgId,
        machineId: run.machine,
        keptParts: 0,
        message: 'x'.repeat(250),
      });
      expect(ok.status).toBe(200);
    });

    it('answers "We ran into an issue, please try again." when the job is already in production or stopped', async () => {
      const { company, cookie } = await h.tenant();
      const run = await inSetup(company, cookie);
      expect((await end(cookie, { jsgId: run.jsgId, machineId: run.machine, keptParts: 0 })).status).toBe(
        200,
      );
      const again = await end(cookie, { jsgId: run.jsgId, machineId: run.machine, keptParts: 0 });
      expect(again.status).toBe(409);
      const e = await errorOf(again);
      expect(e.message).toBe('We ran into an issue, please try again.');
      expect(e.issues?.[0]?.message).toBe('The job is already in production.');
      const other = await inSetup(company, cookie);
      await h.send('POST', '/api/dispatch/stop', cookie, { id: other.machine, jobId: other.job });
      const stopped = await errorOf(
        await end(cookie, { jsgId: other.jsgId, machineId: other.machine, keptParts: 0 }),
      );
      expect(stopped.issues?.[0]?.message).toBe('The job has been stopped.');
    });

    it('answers 400 with the problems for a bad body', async () => {
      const { cookie } = await h.tenant();
      const res = await end(cookie, {});
      expect(res.status).toBe(400);
      expect(issueFields(await errorOf(res))).toEqual(['jsgId', 'machineId']);
    });
  });

  it('lists the setup stages in order, archived ones on request', async () => {
    const { company, cookie } = await h.tenant();
    await aSetupStage(h.t.db, company, { name: 'B', stageOrder: 2, setupPercentage: 60 });
    await aSetupStage(h.t.db, company, { name: 'A', stageOrder: 1, setupPercentage: 40 });
    await aSetupStage(h.t.db, company, { name: 'Z', stageOrder: 0, setupPercentage: 10, archivedAt: 7 });
    const list = z.array(setupStageSchema).parse(await (await h.get('/api/setup/stages', cookie)).json());
    expect(list.map((s) => s.name)).toEqual(['A', 'B']);
    const all = z
      .array(setupStageSchema)
      .parse(await (await h.get('/api/setup/stages?includeArchived=true', cookie)).json());
    expect(all.map((s) => s.name)).toEqual(['Z', 'A', 'B']);
  });

  it('needs FullProduct', async () => {
    const company = await aCompany(h.t.db, { productTier: 'utilization' });
    const cookie = await loginAs(h, company, 'admin');
    const machine = await aMachine(h.t.db, company);
    expect((await h.get(`/api/setup/parts?jsgId=x&machineId=${machine}`, cookie)).status).toBe(403);
    expect((await h.get('/api/setup/stages', cookie)).status).toBe(403);
    expect((await end(cookie, { jsgId: 'x', machineId: machine, keptParts: 0 })).status).toBe(403);
    expect((await transition(cookie, { laborActivitySetId: 'x', setupStageId: 'y' })).status).toBe(403);
  });

  it("answers 404 for another company's run, machine or stage and changes nothing there", async () => {
    const mine = await h.tenant();
    const theirs = await h.tenant();
    const myStage = await aSetupStage(h.t.db, mine.company);
    const theirStage = await aSetupStage(h.t.db, theirs.company);
    const myRun = await inSetup(mine.company, mine.cookie);
    const theirRun = await inSetup(theirs.company, theirs.cookie);
    const myMachine = await aMachine(h.t.db, mine.company);
    const cases: Array<[string, Promise<Response>]> = [
      [
        'parts of their run',
        h.get(`/api/setup/parts?jsgId=${theirRun.jsgId}&machineId=${theirRun.machine}`, mine.cookie),
      ],
      [
        'their run on my machine',
        h.get(`/api/setup/parts?jsgId=${theirRun.jsgId}&machineId=${myMachine}`, mine.cookie),
      ],
      [
        'my run on their machine',
        h.get(`/api/setup/parts?jsgId=${myRun.jsgId}&machineId=${theirRun.machine}`, mine.cookie),
      ],
      [
        'transition their run',
        transition(mine.cookie, { laborActivitySetId: theirRun.jsgId, setupStageId: myStage }),
      ],
      [
        'transition to their stage',
        transition(mine.cookie, { laborActivitySetId: myRun.jsgId, setupStageId: theirStage }),
      ],
      [
        'end their run',
        end(mine.cookie, { jsgId: theirRun.jsgId, machineId: theirRun.machine, keptParts: 0 }),
      ],
      [
        'end their run on my machine',
        end(mine.cookie, { jsgId: theirRun.jsgId, machineId: myMachine, keptParts: 0 }),
      ],
    ];
    for (const [what, res] of cases) expect((await res).status, what).toBe(404);
    const theirs2 = await h.t.db
      .selectFrom('job_runs')
      .select(['setup_end', 'end_at'])
      .where('id', '=', theirRun.jsgId)
      .executeTakeFirstOrThrow();
    expect(theirs2).toEqual({ setup_end: null, end_at: null });
    expect(
      await h.t.db
        .selectFrom('labor_activities')
        .select('id')
        .where('job_run_id', '=', theirRun.jsgId)
        .execute(),
    ).toHaveLength(1);
  });
});
