import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { jobMachineSchema, jobSchema } from '@takt/domain';
import type { ApiHarness } from '../testing/app';
import { apiHarness } from '../testing/app';
import { aCompany, aMachine } from '../testing/builders';
import { DIALECTS } from '@takt/db/testing';
import { aJob, aJobMachine, errorOf, issueFields, loginAs } from '../testing/live-builders';

const jobPage = z.object({
  rows: z.array(jobSchema.extend({ hidden: z.boolean() })),
  count: z.number().int(),
});

describe.each(DIALECTS)('jobs and job machines on %s', (dialect) => {
  let h: ApiHarness;
  beforeEach(async () => {
    h = await apiHarness(dialect);
  });
  afterEach(async () => {
    await h.close();
  });

  async function jobs(cookie: string, query = '') {
    const res = await h.get(`/api/jobs${query}`, cookie);
    expect(res.status, await res.clone().text()).toBe(200);
    return jobPage.parse(await res.json());
  }

  describe('GET /api/jobs', () => {
    it('pages 15 jobs by default, by name, with the total count; offset pages on; limit 10 for completions', async () => {
      const { company, cookie } = await h.tenant();
      const machine = await aMachine(h.t.db, company);
      for (let i = 1; i <= 32; i++) {
        const job = await aJob(h.t.db, company, { name: `Part ${String(i).padStart(2, '0')}` });
        await aJobMachine(h.t.db, company, job, machine);
      }
      const first = await jobs(cookie, `?machineId=${machine}`);
      expect(first.count).toBe(32);
      expect(first.rows).toHaveLength(15);
      expect(first.rows[0]?.job_name).toBe('Part 01');
      const third = await jobs(cookie, `?machineId=${machine}&offset=30`);
      expect(third.rows.map((r) => r.displayName)).toEqual(['Part 31', 'Part 32']);
      const completions = await jobs(cookie, '?limit=10&includeHidden=true');
      expect(completions.rows).toHaveLength(10);
      expect(completions.count).toBe(32);
    });

    it("answers the admins' company-wide search 10 jobs at a time unless a limit is asked for", async () => {
      const { company, cookie } = await h.tenant();
      for (let i = 1; i <= 12; i++)
        await aJob(h.t.db, company, { name: `Part ${String(i).padStart(2, '0')}` });
      const search = await jobs(cookie, '?filter=part');
      expect(search.rows.map((r) => r.job_name)).toEqual(
        Array.from({ length: 10 }, (_, i) => `Part ${String(i + 1).padStart(2, '0')}`),
      );
      expect(search.count).toBe(12);
      expect((await jobs(cookie, '?filter=part&limit=15')).rows).toHaveLength(12);
    });

    it('searches names case-insensitively, taking % and _ literally', async () => {
      const { company, cookie } = await h.tenant();
      await aJob(h.t.db, company, { name: 'Bracket LEFT' });
      await aJob(h.t.db, company, { name: 'bracket right' });
      await aJob(h.t.db, company, { name: 'Flange' });
      await aJob(h.t.db, company, { name: '100% steel' });
      await aJob(h.t.db, company, { name: 'a_b' });
      const found = await jobs(cookie, '?filter=BRACK');
      expect(found.rows.map((r) => r.job_name)).toEqual(['Bracket LEFT', 'bracket right']);
      expect(found.count).toBe(2);
      expect((await jobs(cookie, `?filter=${encodeURIComponent('%')}`)).rows.map((r) => r.job_name)).toEqual([
        '100% steel',
      ]);
      expect((await jobs(cookie, '?filter=_')).rows.map((r) => r.job_name)).toEqual(['a_b']);
      expect((await jobs(cookie, '?filter=nothing')).count).toBe(0);
    });

    it('leaves hidden jobs out unless includeHidden', async () => {
      const { company, cookie } = await h.tenant();
      await aJob(h.t.db, company, { name: 'Visible' });
      await aJob(h.t.db, company, { name: 'Old', hidden: true });
      expect((await jobs(cookie)).rows.map((r) => r.job_name)).toEqual(['Visible']);
      const all = await jobs(cookie, '?includeHidden=true');
      expect(all.rows.map((r) => [r.job_name, r.hidden])).toEqual([
        ['Old', true],
        ['Visible', false],
      ]);
    });

    it("lists a machine's jobs with their job machine for anyone with FullProduct; the company-wide search is the admins'", async () => {
      const { company, cookie } = await h.tenant();
      const operator = await loginAs(h, company, 'operator');
      const m1 = await aMachine(h.t.db, company);
      const m2 = await aMachine(h.t.db, company);
      const a = await aJob(h.t.db, company, { name: 'A' });
      const b = await aJob(h.t.db, company, { name: 'B' });
      await aJobMachine(h.t.db, company, a, m1, { expectedCycleTime: 30_000 });
      await aJobMachine(h.t.db, company, b, m2);
      await aJobMachine(h.t.db, company, a, m2);
      const page = await jobs(operator, `?machineId=${m1}`);
      expect(page.rows.map((r) => r.id)).toEqual([a]);
      expect(page.rows[0]?.job_machines.map((jm) => [jm.machine_id, jm.expectedCycleTime])).toEqual([
        [m1, 30_000],
      ]);
      expect((await h.get('/api/jobs', operator)).status).toBe(403);
      const admin = await jobs(cookie);
      expect(admin.rows.find((r) => r.id === a)?.job_machines).toHaveLength(2);
    });

    it('answers 400 with the problems for a bad page', async () => {
      const { cookie } = await h.tenant();
      const res = await h.get('/api/jobs?limit=0&offset=-1', cookie);
      expect(res.status).toBe(400);
      expect(issueFields(await errorOf(res))).toEqual(['limit', 'offset']);
      expect((await h.get('/api/jobs?limit=abc', cookie)).status).toBe(400);
    });

    it('needs FullProduct', async () => {
      const company = await aCompany(h.t.db, { productTier: 'utilization' });
      const cookie = await loginAs(h, company, 'admin');
      expect((await h.get('/api/jobs', cookie)).status).toBe(403);
      expect((await h.send('POST', '/api/jobs', cookie, { name: 'X' })).status).toBe(403);
    });

    it("answers 404 for another company's machine and never shows its jobs", async () => {
      const mine = await h.tenant();
      const theirs = await h.tenant();
      const theirMachine = await aMachine(h.t.db, theirs.company);
      await aJob(h.t.db, theirs.company, { name: 'Secret job' });
      const res = await h.get(`/api/jobs?machineId=${theirMachine}`, mine.cookie);
      expect(res.status).toBe(404);
      expect((await jobs(mine.cookie, '?filter=secret')).count).toBe(0);
    });
  });

  describe('POST /api/jobs', () => {
    it("creates a job with the spec's default standards (60000 ms, 60000 ms, multiplier 1, actual parts 1)", async () => {
      const { cookie } = await h.tenant();
      const res = await h.send('POST', '/api/jobs', cookie, { name: '  Shaft 12 ', job_id: 'ERP-12' });
      expect(res.status).toBe(201);
      const job = jobSchema.parse(await res.json());
      expect(job).toMatchObject({
        displayName: 'Shaft 12',
        job_name: 'Shaft 12',
        job_id: 'ERP-12',
        expectedCycleTime: 60_000,
        idealCycleTime: 60_000,
        partCountMultiplier: 1,
        actualParts: 1,
        setuptime: null,
        job_machines: [],
      });
      expect((await jobs(cookie, '?filter=shaft')).rows.map((r) => r.id)).toEqual([job.id]);
    });

    it('accepts a job without a standard (ideal cycle time 0) and a setup time', async () => {
      const { cookie } = await h.tenant();
      const res = await h.send('POST', '/api/jobs', cookie, {
        name: 'Prototype',
        expectedCycleTime: 90_000,
        idealCycleTime: 0,
        actualParts: 4,
        setuptime: 1800,
      });
      expect(res.status).toBe(201);
      expect(jobSchema.parse(await res.json())).toMatchObject({
        expectedCycleTime: 90_000,
        idealCycleTime: 0,
        actualParts: 4,
        partCountMultiplier: 4,
        setuptime: 1800,
      });
    });

    it('answers 400 with the list of problems', async () => {
      const { cookie } = await h.tenant();
      const res = await h.send('POST', '/api/jobs', cookie, { actualParts: 0, expectedCycleTime: -1 });
      expect(res.status).toBe(400);
      const e = await errorOf(res);
      expect(e.code).toBe('VALIDATION_ERROR');
      expect(issueFields(e)).toEqual(['actualParts', 'expectedCycleTime', 'name']);
      expect(e.issues?.find((i) => i.field === 'name')?.message).toBe('Missing required field: Name');
      expect(e.issues?.find((i) => i.field === 'actualParts')?.message).toBe(
        'Actual parts must be at least 1',
      );
      const blank = await errorOf(await h.send('POST', '/api/jobs', cookie, { name: '   ' }));
      expect(blank.message).toBe('Missing required field: Name');
    });

    it('is for planners: admins and managers, not operators or kiosks (decision 1084)', async () => {
      const { company } = await h.tenant();
      const manager = await loginAs(h, company, 'manager');
      expect((await h.send('POST', '/api/jobs', manager, { name: 'X' })).status).toBe(201);
      for (const role of ['operator', 'kiosk'] as const) {
        const who = await loginAs(h, company, role);
        expect((await h.send('POST', '/api/jobs', who, { name: 'Y' })).status).toBe(403);
      }
      expect((await jobs(manager, '?filter=x')).rows.map((r) => r.job_name)).toEqual(['X']);
    });

    it('retires a job (hidden) and brings it back; the list filters active or retired jobs', async () => {
      const { company, cookie } = await h.tenant();
      const manager = await loginAs(h, company, 'manager');
      const make = async (name: string) =>
        jobSchema.parse(await (await h.send('POST', '/api/jobs', manager, { name })).json()).id;
      const keep = await make('Keep');
      const old = await make('Old');
      const retire = await h.send('PUT', `/api/jobs/${old}`, manager, { hidden: true });
      expect(retire.status).toBe(200);
      expect(await retire.json()).toMatchObject({ id: old, hidden: true });
      expect((await jobs(cookie)).rows.map((r) => r.id)).toEqual([keep]);
      expect((await jobs(cookie, '?retired=true')).rows.map((r) => r.id)).toEqual([old]);
      expect((await jobs(cookie, '?includeHidden=true')).count).toBe(2);
      await h.send('PUT', `/api/jobs/${old}`, manager, { hidden: false });
      expect((await jobs(cookie, '?retired=true')).count).toBe(0);
    });

    it('answers one job with every machine it is assigned to; another company’s job is 404 (GET /api/jobs/:id)', async () => {
      const mine = await h.tenant();
      const theirs = await h.tenant();
      const m1 = await aMachine(h.t.db, mine.company);
      const m2 = await aMachine(h.t.db, mine.company);
      const job = await aJob(h.t.db, mine.company, { name: 'Cover' });
      await aJobMachine(h.t.db, mine.company, job, m1, { expectedCycleTime: 30_000 });
      await aJobMachine(h.t.db, mine.company, job, m2);
      const res = await h.get(`/api/jobs/${job}`, mine.cookie);
      expect(res.status).toBe(200);
      const one = jobSchema.extend({ hidden: z.boolean() }).parse(await res.json());
      expect(one.job_machines.map((jm) => [jm.machine_id, jm.expectedCycleTime]).sort()).toEqual(
        [
          [m1, 30_000],
          [m2, 60_000],
        ].sort(),
      );
      expect((await h.get(`/api/jobs/${job}`, theirs.cookie)).status).toBe(404);
      expect((await h.send('PUT', `/api/jobs/${job}`, theirs.cookie, { hidden: true })).status).toBe(404);
      expect((await h.get(`/api/jobs/${crypto.randomUUID()}`, mine.cookie)).status).toBe(404);
      const operator = await loginAs(h, mine.company, 'operator');
      expect((await h.get(`/api/jobs/${job}`, operator)).status).toBe(403);
    });

    it('changes the fields sent and keeps the others (PUT /api/jobs/:id, planners; decisions 1047, 1084)', async () => {
      const { company, cookie } = await h.tenant();
      const created = await h.send('POST', '/api/jobs', cookie, {
        name: 'Bracket',
        job_id: 'ERP-7',
        expectedCycleTime: 30_000,
        quantity: 100,
      });
      const { id } = jobSchema.parse(await created.json());
      const res = await h.send('PUT', `/api/jobs/${id}`, cookie, { name: ' Bracket B ', actualParts: 2 });
      expect(res.status).toBe(200);
      expect(jobSchema.parse(await res.json())).toMatchObject({
        id,
        job_name: 'Bracket B',
        job_id: 'ERP-7',
        expectedCycleTime: 30_000,
        actualParts: 2,
        partCountMultiplier: 2,
      });
      const nothing = await errorOf(await h.send('PUT', `/api/jobs/${id}`, cookie, {}));
      expect(nothing.message).toBe('Nothing to change');
      const unknown = await h.send('PUT', `/api/jobs/${crypto.randomUUID()}`, cookie, { name: 'X' });
      expect(unknown.status).toBe(404);
      const manager = await loginAs(h, company, 'manager');
      expect((await h.send('PUT', `/api/jobs/${id}`, manager, { name: 'X' })).status).toBe(200);
      const operator = await loginAs(h, company, 'operator');
      expect((await h.send('PUT', `/api/jobs/${id}`, operator, { name: 'Y' })).status).toBe(403);
    });
  });

  describe('job machines', () => {
    it("associates a job with a machine with the spec's defaults and lists it for the machine", async () => {
      const { company, cookie } = await h.tenant();
      const machine = await aMachine(h.t.db, company);
      const job = await aJob(h.t.db, company, { name: 'Cover' });
      const res = await h.send('POST', '/api/jobmachines', cookie, {
        job_id: job,
        job_machine: { machine_id: machine },
      });
      expect(res.status).toBe(201);
      const jm = jobMachineSchema.parse(await res.json());
      expect(jm).toMatchObject({
        name: 'Cover',
        job_id: job,
        machine_id: machine,
        expectedCycleTime: 60_000,
        idealCycleTime: 60_000,
        partCountMultiplier: 1,
        actualParts: 1,
        reportedParts: null,
        requiredCycles: null,
        setuptime: null,
        partBehavior: 'one',
        startInSetup: 'none',
        schedule: { ends: 'never' },
      });
      const list = await h.get(`/api/jobmachines?machineId=${machine}`, cookie);
      expect(list.status).toBe(200);
      expect(
        z
          .array(jobMachineSchema)
          .parse(await list.json())
          .map((x) => x.id),
      ).toEqual([jm.id]);
    });

    it("starts a new association from the job's own standards", async () => {
      const { company, cookie } = await h.tenant();
      const machine = await aMachine(h.t.db, company);
      const job = await aJob(h.t.db, company, {
        expectedCycleTime: 45_000,
        idealCycleTime: 0,
        setuptime: 600,
      });
      const jm = jobMachineSchema.parse(
        await (
          await h.send('POST', '/api/jobmachines', cookie, {
            job_id: job,
            job_machine: { machine_id: machine },
          })
        ).json(),
      );
      expect(jm).toMatchObject({
        expectedCycleTime: 45_000,
        idealCycleTime: 0,
        setuptime: 600,
        startInSetup: 'unplanned',
      });
    });

    it('changes only the fields sent; the multiplier follows the part behavior', async () => {
      const { company, cookie } = await h.tenant();
      const machine = await aMachine(h.t.db, company);
      const job = await aJob(h.t.db, company);
      const save = async (fields: Record<string, unknown>) => {
        const res = await h.send('POST', '/api/jobmachines', cookie, {
          job_id: job,
          job_machine: { machine_id: machine, ...fields },
        });
        expect(res.status, await res.clone().text()).toBeLessThan(300);
        return { status: res.status, jm: jobMachineSchema.parse(await res.json()) };
      };
      const first = await save({ expectedCycleTime: 30_000 });
      expect(first.status).toBe(201);
      const second = await save({ partBehavior: 'manyparts', actualParts: 4, partCountMultiplier: 99 });
      expect(second.status).toBe(200);
      expect(second.jm).toMatchObject({
        id: first.jm.id,
        expectedCycleTime: 30_000,
        actualParts: 4,
        partCountMultiplier: 4,
      });
      const third = await save({ partBehavior: 'manycycles', reportedParts: 1, requiredCycles: 2 });
      expect(third.jm).toMatchObject({
        partCountMultiplier: 0.5,
        reportedParts: 1,
        requiredCycles: 2,
        expectedCycleTime: 30_000,
      });
      const one = await save({ partBehavior: 'one' });
      expect(one.jm.partCountMultiplier).toBe(1);
    });

    it('start-in-setup none clears the setup time; planned and unplanned set it to 0 when missing', async () => {
      const { company, cookie } = await h.tenant();
      const machine = await aMachine(h.t.db, company);
      const job = await aJob(h.t.db, company);
      const save = async (fields: Record<string, unknown>) =>
        jobMachineSchema.parse(
          await (
            await h.send('POST', '/api/jobmachines', cookie, {
              job_id: job,
              job_machine: { machine_id: machine, ...fields },
            })
          ).json(),
        );
      expect(await save({ startInSetup: 'planned' })).toMatchObject({
        startInSetup: 'planned',
        setuptime: 0,
      });
      expect(await save({ startInSetup: 'unplanned', setuptime: 900 })).toMatchObject({
        startInSetup: 'unplanned',
        setuptime: 900,
      });
      expect(await save({ startInSetup: 'none', setuptime: 900 })).toMatchObject({
        startInSetup: 'none',
        setuptime: null,
      });
      expect(await save({ setuptime: 300 })).toMatchObject({ startInSetup: 'unplanned', setuptime: 300 });
      expect(await save({ setuptime: null })).toMatchObject({ startInSetup: 'none', setuptime: null });
    });

    it('requires reported parts and required cycles (at least 1) for manycycles, and actual parts of at least 1', async () => {
      const { company, cookie } = await h.tenant();
      const machine = await aMachine(h.t.db, company);
      const job = await aJob(h.t.db, company);
      const missing = await h.send('POST', '/api/jobmachines', cookie, {
        job_id: job,
        job_machine: { machine_id: machine, partBehavior: 'manycycles' },
      });
      expect(missing.status).toBe(400);
      const e = await errorOf(missing);
      expect(issueFields(e)).toEqual(['job_machine.reportedParts', 'job_machine.requiredCycles']);
      expect(e.issues?.map((i) => i.message).sort()).toEqual([
        'Missing required field: Reported Parts',
        'Missing required field: Required Cycles',
      ]);
      const zero = await h.send('POST', '/api/jobmachines', cookie, {
        job_id: job,
        job_machine: {
          machine_id: machine,
          partBehavior: 'manycycles',
          reportedParts: 0,
          requiredCycles: 'x',
          actualParts: 0,
        },
      });
      expect(zero.status).toBe(400);
      const z0 = await errorOf(zero);
      expect(issueFields(z0)).toEqual([
        'job_machine.actualParts',
        'job_machine.reportedParts',
        'job_machine.requiredCycles',
      ]);
      expect(z0.issues?.find((i) => i.field === 'job_machine.reportedParts')?.message).toBe(
        'Reported parts must be at least 1',
      );
      // Nothing was saved.
      expect(await (await h.get(`/api/jobmachines?machineId=${machine}`, cookie)).json()).toEqual([]);
    });

    it('answers 400 for a missing machine id and for a bad body', async () => {
      const { cookie } = await h.tenant();
      const res = await h.get('/api/jobmachines', cookie);
      expect(res.status).toBe(400);
      expect(issueFields(await errorOf(res))).toEqual(['machineId']);
      const bad = await h.send('POST', '/api/jobmachines', cookie, { job_machine: {} });
      expect(issueFields(await errorOf(bad))).toEqual(['job_id', 'job_machine.machine_id']);
    });

    it('saving is for planners (admins, managers); listing for anyone with FullProduct', async () => {
      const { company } = await h.tenant();
      const manager = await loginAs(h, company, 'manager');
      const operator = await loginAs(h, company, 'operator');
      const machine = await aMachine(h.t.db, company);
      const job = await aJob(h.t.db, company);
      expect((await h.get(`/api/jobmachines?machineId=${machine}`, operator)).status).toBe(200);
      const res = await h.send('POST', '/api/jobmachines', operator, {
        job_id: job,
        job_machine: { machine_id: machine },
      });
      expect(res.status).toBe(403);
      const planned = await h.send('POST', '/api/jobmachines', manager, {
        job_id: job,
        job_machine: { machine_id: machine, expectedCycleTime: 90_500 },
      });
      expect(planned.status).toBe(201);
    });

    it("answers 404 for another company's machine or job, and changes nothing there", async () => {
      const mine = await h.tenant();
      const theirs = await h.tenant();
      const myMachine = await aMachine(h.t.db, mine.company);
      const myJob = await aJob(h.t.db, mine.company);
      const theirMachine = await aMachine(h.t.db, theirs.company);
      const theirJob = await aJob(h.t.db, theirs.company);
      await aJobMachine(h.t.db, theirs.company, theirJob, theirMachine);
      for (const body of [
        { job_id: theirJob, job_machine: { machine_id: myMachine } },
        { job_id: myJob, job_machine: { machine_id: theirMachine } },
        { job_id: theirJob, job_machine: { machine_id: theirMachine, expectedCycleTime: 1 } },
      ]) {
        const res = await h.send('POST', '/api/jobmachines', mine.cookie, body);
        expect(res.status).toBe(404);
      }
      expect((await h.get(`/api/jobmachines?machineId=${theirMachine}`, mine.cookie)).status).toBe(404);
      const theirList = z
        .array(jobMachineSchema)
        .parse(await (await h.get(`/api/jobmachines?machineId=${theirMachine}`, theirs.cookie)).json());
      expect(theirList.map((x) => x.expectedCycleTime)).toEqual([60_000]);
    });
  });
});
