import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { laborActivitySetSchema, workcenterLiveSchema } from '@takt/domain';
import { DIALECTS } from '@takt/db/testing';
import type { ApiHarness } from '../testing/app';
import { apiHarness } from '../testing/app';
import { aMachine } from '../testing/builders';
import { aJob, aJobMachine } from '../testing/live-builders';

// Start in setup means one thing from every entry point (live-operations §4 "Start-in-setup: none clears
// setuptime, planned and unplanned set setuptime to 0", reports-admin §4; issue 29; decision 1083): a run
// started in setup, planned or unplanned, has setuptime 0 whatever the job's setup time, in production none;
// its setup is timed against the job's standard (expectedSetupDuration). The entry points: the dispatch route
// (the dispatch modal and the tile's job picker), the tablet's offline start_job command; the job-run editor
// keeps a planner's planned setup time.

/** The job run as dispatch answers it (GET /api/dispatch/current, POST /api/dispatch/start). */
const jobRunSchema = z.object({
  id: z.string(),
  startdate: z.number(),
  setupMode: z.enum(['none', 'planned', 'unplanned']),
  setuptime: z.number().nullable(),
  laborActivitySet: laborActivitySetSchema,
});

/** The production run as the job-run editor answers it. */
const runView = z.object({
  id: z.string(),
  startInSetup: z.enum(['none', 'planned', 'unplanned']),
  setuptime: z.number().nullable(),
});

describe.each(DIALECTS)('start in setup from every entry point on %s', (dialect) => {
  let h: ApiHarness;
  beforeEach(async () => {
    h = await apiHarness(dialect);
  });
  afterEach(async () => {
    await h.close();
  });

  /** A machine whose job machine has 45 minutes of setup in the given mode. */
  async function plant(mode: 'planned' | 'unplanned') {
    const tenant = await h.tenant();
    const machine = await aMachine(h.t.db, tenant.company);
    const job = await aJob(h.t.db, tenant.company, { setuptime: 2700 });
    await aJobMachine(h.t.db, tenant.company, job, machine, { setuptime: 2700, startInSetup: mode });
    return { ...tenant, machine, job };
  }

  const current = async (cookie: string, machine: string) => {
    const res = await h.get(`/api/dispatch/current?machineId=${machine}`, cookie);
    expect(res.status, await res.clone().text()).toBe(200);
    return jobRunSchema.parse(await res.json());
  };

  it("the dispatch route: planned and unplanned setup 0, timed against the job's 45 minutes; production none", async () => {
    const cases = [
      { mode: 'unplanned', setup: true, want: { setupMode: 'unplanned', setuptime: 0, expected: 2_700_000 } },
      { mode: 'planned', setup: true, want: { setupMode: 'planned', setuptime: 0, expected: 2_700_000 } },
      { mode: 'unplanned', setup: false, want: { setupMode: 'none', setuptime: null, expected: null } },
    ] as const;
    for (const c of cases) {
      const { cookie, machine, job } = await plant(c.mode);
      const res = await h.send('POST', '/api/dispatch/start', cookie, {
        id: machine,
        jobId: job,
        setup: c.setup,
      });
      expect(res.status, await res.clone().text()).toBe(201);
      const run = jobRunSchema.parse(await res.json());
      expect([run.setupMode, run.setuptime, run.laborActivitySet.expectedSetupDuration]).toEqual([
        c.want.setupMode,
        c.want.setuptime,
        c.want.expected,
      ]);
      // The machine's open run reads the same.
      expect((await current(cookie, machine)).setuptime).toBe(c.want.setuptime);
      // The workcenter card's expected setup reads the same duration (live-operations §2, §3).
      const card = await h.read(`/api/workcenter/${machine}`, cookie, workcenterLiveSchema);
      expect(card.currentLaborActivitySet?.expectedSetupDuration ?? null).toBe(c.want.expected);
    }
  });

  it("the tablet's start_job sync command: the same rule as the route", async () => {
    for (const [mode, want] of [
      ['unplanned', 0],
      ['planned', 0],
    ] as const) {
      const { cookie, machine, job } = await plant(mode);
      const res = await h.send('POST', '/api/sync', cookie, {
        commands: [
          {
            id: crypto.randomUUID(),
            type: 'start_job',
            machineId: machine,
            occurredAt: h.clock.now - 60_000,
            payload: { id: machine, jobId: job, setup: true },
          },
        ],
      });
      expect(res.status, await res.clone().text()).toBe(200);
      const run = await current(cookie, machine);
      expect([run.setupMode, run.setuptime, run.laborActivitySet.expectedSetupDuration]).toEqual([
        mode,
        want,
        2_700_000,
      ]);
    }
  });

  it("another company's caller reads neither the run nor its expected setup", async () => {
    const { cookie, machine, job } = await plant('planned');
    const other = await h.tenant();
    const res = await h.send('POST', '/api/dispatch/start', cookie, { id: machine, jobId: job, setup: true });
    expect(res.status, await res.clone().text()).toBe(201);
    expect((await h.get(`/api/dispatch/current?machineId=${machine}`, other.cookie)).status).toBe(404);
    expect((await h.get(`/api/workcenter/${machine}`, other.cookie)).status).toBe(404);
  });

  it("the job-run editor: keeps a planned run's planned time, switching to unplanned sets 0, to none clears it", async () => {
    const { cookie, machine, job } = await plant('planned');
    const started = jobRunSchema.parse(
      await (
        await h.send('POST', '/api/dispatch/start', cookie, { id: machine, jobId: job, setup: true })
      ).json(),
    );
    const edit = async (startInSetup: string, setupend: number | null) => {
      const res = await h.send('PUT', `/api/productionruns/${started.id}`, cookie, {
        job_id: job,
        machine_id: machine,
        startdate: started.startdate,
        enddate: null,
        startInSetup,
        setupend,
        cycletime: 60_000,
        idealcycletime: 60_000,
        partcount_multiplier: 1,
        actualParts: 1,
        setuptime: 2_700_000,
      });
      expect(res.status, await res.clone().text()).toBe(200);
      return runView.parse(await res.json());
    };
    expect(started.setuptime).toBe(0);
    const planned = await edit('planned', null);
    expect(planned).toMatchObject({ startInSetup: 'planned', setuptime: 2_700_000 });
    expect((await current(cookie, machine)).laborActivitySet.expectedSetupDuration).toBe(2_700_000);
    expect(await edit('unplanned', null)).toMatchObject({ startInSetup: 'unplanned', setuptime: 0 });
    expect((await current(cookie, machine)).setuptime).toBe(0);
    expect(await edit('none', started.startdate)).toMatchObject({ startInSetup: 'none', setuptime: null });
  });
});
