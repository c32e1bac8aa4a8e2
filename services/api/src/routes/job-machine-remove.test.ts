import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { jobMachineSchema } from '@takt/domain';
import { DIALECTS } from '@takt/db/testing';
import { JOB_MACHINE_IN_USE } from '../services/jobs';
import type { ApiHarness } from '../testing/app';
import { apiHarness } from '../testing/app';
import { aMachine } from '../testing/builders';
import { aJob, aJobMachine, aShift, errorOf, loginAs } from '../testing/live-builders';

// JobMachine delete (issue 29 point 8, decision 1106): DELETE /api/jobmachines/:id removes a job from a machine,
// refused (409) while a run of that job is open on that machine; past runs keep their figures.

const HOUR = 3_600_000;

describe.each(DIALECTS)('removing a job from a machine on %s', (dialect) => {
  let h: ApiHarness;
  beforeEach(async () => {
    h = await apiHarness(dialect);
  });
  afterEach(async () => {
    await h.close();
  });

  const jobMachinesOf = async (cookie: string, machineId: string) => {
    const res = await h.get(`/api/jobmachines?machineId=${machineId}`, cookie);
    expect(res.status).toBe(200);
    return z.array(jobMachineSchema).parse(await res.json());
  };

  it('refuses while the job runs on the machine, removes it once the run ended, and keeps the ended run', async () => {
    const { company, cookie } = await h.tenant();
    const machine = await aMachine(h.t.db, company);
    const job = await aJob(h.t.db, company, { name: 'Bracket' });
    const other = await aJob(h.t.db, company, { name: 'Flange' });
    const id = await aJobMachine(h.t.db, company, job, machine);
    const kept = await aJobMachine(h.t.db, company, other, machine);
    const started = await h.send('POST', '/api/dispatch/start', cookie, {
      id: machine,
      jobId: job,
      setup: false,
    });
    expect(started.status, await started.clone().text()).toBe(201);

    const refused = await h.send('DELETE', `/api/jobmachines/${id}`, cookie);
    expect(refused.status).toBe(409);
    expect(await errorOf(refused)).toMatchObject({ code: 'JOB_RUN_OPEN', message: JOB_MACHINE_IN_USE });
    expect((await jobMachinesOf(cookie, machine)).map((j) => j.id).sort()).toEqual([id, kept].sort());

    h.clock.now += HOUR;
    const stopped = await h.send('POST', '/api/dispatch/stop', cookie, { id: machine, jobId: job });
    expect(stopped.status, await stopped.clone().text()).toBe(200);
    h.clock.now += 1000;
    expect((await h.send('DELETE', `/api/jobmachines/${id}`, cookie)).status).toBe(204);
    expect((await jobMachinesOf(cookie, machine)).map((j) => j.id)).toEqual([kept]);
    // The ended run stays, with its job.
    const runs = await h.get(
      `/api/productionruns?start=${h.clock.now - 3 * HOUR}&end=${h.clock.now}`,
      cookie,
    );
    expect(runs.status).toBe(200);
    expect(JSON.stringify(await runs.json())).toContain(job);
    expect((await h.send('DELETE', `/api/jobmachines/${id}`, cookie)).status).toBe(404);
  });

  it('refuses a run scheduled to end later, and lets it go once that run is over', async () => {
    const { company, cookie } = await h.tenant();
    const machine = await aMachine(h.t.db, company);
    const job = await aJob(h.t.db, company);
    const id = await aJobMachine(h.t.db, company, job, machine);
    const shift = await aShift(h.t.db, company);
    const planned = await h.send('POST', '/api/productionruns', cookie, {
      job_id: job,
      machine_id: machine,
      startdate: h.clock.now - HOUR,
      enddate: h.clock.now + HOUR,
      startInSetup: 'none',
      setupend: null,
      cycletime: 60_000,
      idealcycletime: 50_000,
      partcount_multiplier: 1,
      actualParts: 1,
      shifts: [shift],
      partchangeovertime: 0,
    });
    expect(planned.status, await planned.clone().text()).toBe(201);
    expect((await h.send('DELETE', `/api/jobmachines/${id}`, cookie)).status).toBe(409);
    h.clock.now += 2 * HOUR;
    expect((await h.send('DELETE', `/api/jobmachines/${id}`, cookie)).status).toBe(204);
  });

  it("is for planners of the machine's company: another company's admin gets 404, an operator 403", async () => {
    const { company, cookie } = await h.tenant();
    const machine = await aMachine(h.t.db, company);
    const id = await aJobMachine(h.t.db, company, await aJob(h.t.db, company), machine);
    const them = await h.tenant();
    expect((await h.send('DELETE', `/api/jobmachines/${id}`, them.cookie)).status).toBe(404);
    const operator = await loginAs(h, company, 'operator');
    expect((await h.send('DELETE', `/api/jobmachines/${id}`, operator)).status).toBe(403);
    expect((await jobMachinesOf(cookie, machine)).map((j) => j.id)).toEqual([id]);
    const manager = await loginAs(h, company, 'manager');
    expect((await h.send('DELETE', `/api/jobmachines/${id}`, manager)).status).toBe(204);
  });
});
