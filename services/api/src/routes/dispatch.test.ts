import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { jobMachineSchema, laborActivitySetSchema } from '@takt/domain';
import type { ApiHarness } from '../testing/app';
import { apiHarness } from '../testing/app';
import { aCompany, aMachine } from '../testing/builders';
import { DIALECTS } from '@takt/db/testing';
import { aJob, aJobMachine, aSetupStage, errorOf, issueFields, loginAs } from '../testing/live-builders';
import { aTablet } from '../testing/tablet-builders';

const jobRunSchema = z.object({
  id: z.string(),
  job_id: z.string(),
  jobName: z.string(),
  machine_id: z.string(),
  startdate: z.number(),
  enddate: z.number().nullable(),
  setupMode: z.enum(['none', 'planned', 'unplanned']),
  setuptime: z.number().nullable(),
  setupend: z.number().nullable(),
  cycletime: z.number(),
  idealcycletime: z.number(),
  partcount_multiplier: z.number(),
  actualParts: z.number(),
  partBehavior: z.string(),
  laborActivitySet: laborActivitySetSchema,
});

describe.each(DIALECTS)('job dispatch on %s', (dialect) => {
  let h: ApiHarness;
  beforeEach(async () => {
    h = await apiHarness(dialect);
  });
  afterEach(async () => {
    await h.close();
  });

  const start = (cookie: string, body: unknown) => h.send('POST', '/api/dispatch/start', cookie, body);
  const stop = (cookie: string, body: unknown) => h.send('POST', '/api/dispatch/stop', cookie, body);
  const runs = (companyId: string) =>
    h.t.db
      .selectFrom('job_runs')
      .selectAll()
      .where('company_id', '=', companyId)
      .orderBy('start_at')
      .execute();

  it('starts a job in production with the job machine standards and a production labor activity', async () => {
    const { company, cookie } = await h.tenant();
    const machine = await aMachine(h.t.db, company);
    const job = await aJob(h.t.db, company, { name: 'Housing' });
    await aJobMachine(h.t.db, company, job, machine, { expectedCycleTime: 42_000, idealCycleTime: 40_000 });
    const res = await start(cookie, { id: machine, jobId: job, setup: false });
    expect(res.status, await res.clone().text()).toBe(201);
    const run = jobRunSchema.parse(await res.json());
    const now = h.clock.now;
    expect(run).toMatchObject({
      job_id: job,
      jobName: 'Housing',
      machine_id: machine,
      startdate: now,
      enddate: null,
      setupMode: 'none',
      setupend: now,
      cycletime: 42_000,
      idealcycletime: 40_000,
      partcount_multiplier: 1,
    });
    // Decision 0300: the job run id is the labor activity set id.
    expect(run.laborActivitySet).toMatchObject({
      id: run.id,
      jobId: job,
      machineId: machine,
      startAt: now,
      endAt: null,
    });
    expect(run.laborActivitySet.laborActivities).toEqual([
      { startAt: now, endAt: null, setupStageId: null, setupStage: null, setup: false },
    ]);
  });

  it("associates an unassociated job with the machine first, with the job's standards", async () => {
    const { company, cookie } = await h.tenant();
    const machine = await aMachine(h.t.db, company);
    const job = await aJob(h.t.db, company, { expectedCycleTime: 30_000, idealCycleTime: 0 });
    const res = await start(cookie, { id: machine, jobId: job, setup: false });
    expect(res.status).toBe(201);
    expect(jobRunSchema.parse(await res.json())).toMatchObject({ cycletime: 30_000, idealcycletime: 0 });
    const jms = z
      .array(jobMachineSchema)
      .parse(await (await h.get(`/api/jobmachines?machineId=${machine}`, cookie)).json());
    expect(jms.map((jm) => [jm.job_id, jm.expectedCycleTime, jm.idealCycleTime])).toEqual([[job, 30_000, 0]]);
  });

  it('starts in setup on a stage when the job has a setup time: a setup labor activity with its stage', async () => {
    const { company, cookie } = await h.tenant();
    const machine = await aMachine(h.t.db, company);
    const job = await aJob(h.t.db, company);
    await aJobMachine(h.t.db, company, job, machine, { setuptime: 1200, startInSetup: 'planned' });
    const stage = await aSetupStage(h.t.db, company, { name: 'Fixture', stageOrder: 1, setupPercentage: 40 });
    const res = await start(cookie, { id: machine, jobId: job, setup: true, setupStageId: stage });
    expect(res.status, await res.clone().text()).toBe(201);
    const run = jobRunSchema.parse(await res.json());
    expect(run).toMatchObject({ setupMode: 'planned', setupend: null, setuptime: 0 });
    expect(run.laborActivitySet.expectedSetupDuration).toBe(1_200_000);
    expect(run.laborActivitySet.laborActivities).toEqual([
      {
        startAt: h.clock.now,
        endAt: null,
        setupStageId: stage,
        setup: true,
        setupStage: { id: stage, name: 'Fixture', stageOrder: 1, setupPercentage: 40, archivedAt: null },
      },
    ]);
  });

  it('refuses to start in setup without a setup time: "Job could not be started" with the reasons, nothing saved', async () => {
    const { company, cookie } = await h.tenant();
    const machine = await aMachine(h.t.db, company);
    const job = await aJob(h.t.db, company, { setuptime: null });
    const res = await start(cookie, { id: machine, jobId: job, setup: true });
    expect(res.status).toBe(400);
    const e = await errorOf(res);
    expect(e.message).toBe('Job could not be started');
    expect(e.code).toBe('JOB_START_FAILED');
    expect(e.issues).toEqual([
      {
        field: 'setup',
        code: 'no_setup_time',
        message: 'This job has no setup time: start it in production.',
      },
    ]);
    expect(await runs(company.id)).toEqual([]);
    expect(await (await h.get(`/api/jobmachines?machineId=${machine}`, cookie)).json()).toEqual([]);
  });

  it('refuses a stage without setup and an archived stage', async () => {
    const { company, cookie } = await h.tenant();
    const machine = await aMachine(h.t.db, company);
    const job = await aJob(h.t.db, company, { setuptime: 600 });
    const stage = await aSetupStage(h.t.db, company);
    const archived = await aSetupStage(h.t.db, company, { name: 'Old', archivedAt: 1 });
    const a = await errorOf(
      await start(cookie, { id: machine, jobId: job, setup: false, setupStageId: stage }),
    );
    expect(a.message).toBe('Job could not be started');
    expect(a.issues?.map((i) => i.code)).toEqual(['stage_without_setup']);
    const b = await errorOf(
      await start(cookie, { id: machine, jobId: job, setup: true, setupStageId: archived }),
    );
    expect(b.issues?.map((i) => i.message)).toEqual(['Setup stage Old is archived.']);
    expect(await runs(company.id)).toEqual([]);
  });

  it('refuses a second job on a busy machine until the first is stopped (409)', async () => {
    const { company, cookie } = await h.tenant();
    const machine = await aMachine(h.t.db, company);
    const a = await aJob(h.t.db, company);
    const b = await aJob(h.t.db, company);
    expect((await start(cookie, { id: machine, jobId: a, setup: false })).status).toBe(201);
    const busy = await start(cookie, { id: machine, jobId: b, setup: false });
    expect(busy.status).toBe(409);
    const e = await errorOf(busy);
    expect(e.message).toBe('Job could not be started');
    expect(e.issues?.[0]?.message).toBe('A job is already running on this machine. Stop it first.');
    h.clock.now += 60_000;
    expect((await stop(cookie, { id: machine, jobId: a })).status).toBe(200);
    expect((await start(cookie, { id: machine, jobId: b, setup: false })).status).toBe(201);
  });

  it('stops the running job: ends the run and its open labor activity, and the machine is free again', async () => {
    const { company, cookie } = await h.tenant();
    const machine = await aMachine(h.t.db, company);
    const job = await aJob(h.t.db, company, { setuptime: 300 });
    const started = jobRunSchema.parse(
      await (await start(cookie, { id: machine, jobId: job, setup: true })).json(),
    );
    h.clock.now += 90_000;
    const res = await stop(cookie, { id: machine, jobId: job, laborActivitySetId: started.id });
    expect(res.status).toBe(200);
    const run = jobRunSchema.parse(await res.json());
    expect(run.id).toBe(started.id);
    expect(run.enddate).toBe(h.clock.now);
    expect(run.laborActivitySet.endAt).toBe(h.clock.now);
    expect(run.laborActivitySet.laborActivities.map((a) => a.endAt)).toEqual([h.clock.now]);
    const again = await stop(cookie, { id: machine, jobId: job });
    expect(again.status).toBe(409);
    expect((await errorOf(again)).message).toBe('No job is running on this machine.');
  });

  it('refuses to stop a job that is not the one running, or another labor activity set', async () => {
    const { company, cookie } = await h.tenant();
    const machine = await aMachine(h.t.db, company);
    const running = await aJob(h.t.db, company);
    const other = await aJob(h.t.db, company, { name: 'Other job' });
    await start(cookie, { id: machine, jobId: running, setup: false });
    const wrongJob = await stop(cookie, { id: machine, jobId: other });
    expect(wrongJob.status).toBe(409);
    expect((await errorOf(wrongJob)).message).toBe('Other job is not the job running on this machine.');
    const wrongSet = await stop(cookie, {
      id: machine,
      jobId: running,
      laborActivitySetId: crypto.randomUUID(),
    });
    expect(wrongSet.status).toBe(409);
    expect((await runs(company.id)).map((r) => r.end_at)).toEqual([null]);
  });

  it('answers 400 with the list of problems for a bad body', async () => {
    const { cookie } = await h.tenant();
    const res = await start(cookie, { id: '', jobId: 5 });
    expect(res.status).toBe(400);
    expect(issueFields(await errorOf(res))).toEqual(['id', 'jobId', 'setup']);
    const s = await stop(cookie, {});
    expect(issueFields(await errorOf(s))).toEqual(['id', 'jobId']);
  });

  it('needs FullProduct, not admin', async () => {
    const { company } = await h.tenant();
    const operator = await loginAs(h, company, 'operator');
    const machine = await aMachine(h.t.db, company);
    const job = await aJob(h.t.db, company);
    expect((await start(operator, { id: machine, jobId: job, setup: false })).status).toBe(201);
    const small = await aCompany(h.t.db, { productTier: 'utilization' });
    const cookie = await loginAs(h, small, 'admin');
    const m2 = await aMachine(h.t.db, small);
    const j2 = await aJob(h.t.db, small);
    expect((await start(cookie, { id: m2, jobId: j2, setup: false })).status).toBe(403);
    expect((await stop(cookie, { id: m2, jobId: j2 })).status).toBe(403);
  });

  it("answers 404 for another company's machine, job or stage and never touches its runs", async () => {
    const mine = await h.tenant();
    const theirs = await h.tenant();
    const myMachine = await aMachine(h.t.db, mine.company);
    const myJob = await aJob(h.t.db, mine.company, { setuptime: 60 });
    const theirMachine = await aMachine(h.t.db, theirs.company);
    const theirJob = await aJob(h.t.db, theirs.company, { setuptime: 60 });
    const theirStage = await aSetupStage(h.t.db, theirs.company);
    expect((await start(mine.cookie, { id: theirMachine, jobId: myJob, setup: false })).status).toBe(404);
    expect((await start(mine.cookie, { id: myMachine, jobId: theirJob, setup: false })).status).toBe(404);
    const stage = await start(mine.cookie, {
      id: myMachine,
      jobId: myJob,
      setup: true,
      setupStageId: theirStage,
    });
    expect(stage.status).toBe(404);
    expect((await errorOf(stage)).message).toBe('Setup stage not found.');
    // Their running job cannot be stopped from here.
    expect((await start(theirs.cookie, { id: theirMachine, jobId: theirJob, setup: false })).status).toBe(
      201,
    );
    expect((await stop(mine.cookie, { id: theirMachine, jobId: theirJob })).status).toBe(404);
    expect((await runs(theirs.company.id)).map((r) => r.end_at)).toEqual([null]);
    expect(await runs(mine.company.id)).toEqual([]);
  });

  describe('GET /api/dispatch/current', () => {
    const current = (cookie: string, machineId?: string) =>
      h.get(`/api/dispatch/current${machineId === undefined ? '' : `?machineId=${machineId}`}`, cookie);

    it('answers the open job run as start answered it, null when none, and null again after stop', async () => {
      const { company, cookie } = await h.tenant();
      const machine = await aMachine(h.t.db, company);
      const job = await aJob(h.t.db, company, { name: 'Bracket', setuptime: 300 });
      const stage = await aSetupStage(h.t.db, company, { name: 'Fixture' });
      let res = await current(cookie, machine);
      expect(res.status).toBe(200);
      expect(await res.json()).toBeNull();

      const started = await start(cookie, { id: machine, jobId: job, setup: true, setupStageId: stage });
      expect(started.status).toBe(201);
      const run = await started.json();
      res = await current(cookie, machine);
      expect(res.status).toBe(200);
      const raw: unknown = await res.json();
      expect(raw).toEqual(run);
      const body = jobRunSchema.parse(raw);
      expect(body).toMatchObject({ jobName: 'Bracket', machine_id: machine, enddate: null, setupend: null });
      expect(body.laborActivitySet.laborActivities).toEqual([
        expect.objectContaining({ setupStageId: stage, endAt: null, setup: true }),
      ]);
      // An operator and a tablet bound to this machine read it too.
      expect((await current(await loginAs(h, company, 'operator'), machine)).status).toBe(200);
      const tablet = await aTablet(h.t.db, company, machine, h.clock.now);
      expect(jobRunSchema.parse(await (await current(tablet.cookie, machine)).json()).id).toBe(run.id);

      h.clock.now += 60_000;
      expect((await stop(cookie, { id: machine, jobId: job })).status).toBe(200);
      expect(await (await current(cookie, machine)).json()).toBeNull();
    });

    it('answers 400 without machineId, 404 for another company, 403 to a tablet bound elsewhere', async () => {
      const mine = await h.tenant();
      const theirs = await h.tenant();
      const myMachine = await aMachine(h.t.db, mine.company);
      const otherMachine = await aMachine(h.t.db, mine.company);
      const theirMachine = await aMachine(h.t.db, theirs.company);
      const theirJob = await aJob(h.t.db, theirs.company);
      expect((await start(theirs.cookie, { id: theirMachine, jobId: theirJob, setup: false })).status).toBe(
        201,
      );

      const missing = await current(mine.cookie);
      expect(missing.status).toBe(400);
      expect(issueFields(await errorOf(missing))).toEqual(['machineId']);
      expect((await current(mine.cookie, '')).status).toBe(400);

      const foreign = await current(mine.cookie, theirMachine);
      expect(foreign.status).toBe(404);
      expect((await errorOf(foreign)).message).toBe('Machine not found.');

      const tablet = await aTablet(h.t.db, mine.company, myMachine, h.clock.now);
      const bound = await current(tablet.cookie, otherMachine);
      expect(bound.status).toBe(403);
      expect(await errorOf(bound)).toMatchObject({
        code: 'TABLET_BOUND',
        message: 'This tablet is bound to another machine.',
      });
      expect((await current(tablet.cookie, myMachine)).status).toBe(200);
    });

    it('needs FullProduct, like the rest of dispatch', async () => {
      const small = await aCompany(h.t.db, { productTier: 'serviceProvider' });
      const cookie = await loginAs(h, small, 'admin');
      const machine = await aMachine(h.t.db, small);
      expect((await current(cookie, machine)).status).toBe(403);
    });
  });
});
