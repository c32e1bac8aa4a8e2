import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { jobSchema, operatorSchema, setupStageSchema, shiftSchema } from '@takt/domain';
import { companyScope } from '@takt/db';
import { DEMO_JOBS, seedDemoJobs } from './provision-live-jobs';
import { createGroup, createMachine } from './repositories/machines';
import type { ApiHarness } from './testing/app';
import { apiHarness } from './testing/app';
import { DIALECTS } from '@takt/db/testing';

describe.each(DIALECTS)('demo jobs, stages, operators and shifts on %s', (dialect) => {
  let h: ApiHarness;
  beforeEach(async () => {
    h = await apiHarness(dialect);
  });
  afterEach(async () => {
    await h.close();
  });

  async function demoPlant() {
    const t = await h.tenant();
    const scope = companyScope(h.t.db, t.company.id);
    const milling = await createGroup(scope, { name: 'Milling' }, 1);
    const turning = await createGroup(scope, { name: 'Turning' }, 1);
    const mill = await createMachine(scope, { name: 'Mill', groupIds: [milling] }, 1);
    const lathe = await createMachine(scope, { name: 'Lathe', groupIds: [turning] }, 1);
    const assembly = await createGroup(scope, { name: 'Assembly' }, 1);
    const bench = await createMachine(
      scope,
      { name: 'Assembly Bench 1', workcenterType: 'manual', groupIds: [assembly] },
      1,
    );
    await seedDemoJobs(scope, h.clock.now);
    return { ...t, scope, mill, lathe, bench };
  }

  it('seeds jobs with and without standards on the machines of their group, once', async () => {
    const { cookie, scope, mill, lathe } = await demoPlant();
    await seedDemoJobs(scope, h.clock.now);
    const page = z
      .object({ rows: z.array(jobSchema), count: z.number() })
      .parse(await (await h.get('/api/jobs?limit=100', cookie)).json());
    expect(page.count).toBe(DEMO_JOBS.length);
    const noStandard = page.rows.filter((j) => j.idealCycleTime === 0);
    expect(noStandard.length).toBeGreaterThanOrEqual(2);
    expect(
      page.rows.filter((j) => j.idealCycleTime > 0 && j.expectedCycleTime >= j.idealCycleTime).length,
    ).toBeGreaterThanOrEqual(8);
    const onMill = z
      .object({ count: z.number() })
      .parse(await (await h.get(`/api/jobs?machineId=${mill}&limit=100`, cookie)).json());
    const onLathe = z
      .object({ count: z.number() })
      .parse(await (await h.get(`/api/jobs?machineId=${lathe}&limit=100`, cookie)).json());
    expect(onMill.count).toBe(DEMO_JOBS.filter((j) => j.group === 'Milling').length);
    expect(onLathe.count).toBe(DEMO_JOBS.filter((j) => j.group === 'Turning').length);
  });

  it('gives the manual assembly bench its own jobs, one counting several parts per Add Part', async () => {
    const { cookie, bench } = await demoPlant();
    const { rows, count } = z
      .object({ rows: z.array(jobSchema), count: z.number() })
      .parse(await (await h.get(`/api/jobs?machineId=${bench}&limit=100`, cookie)).json());
    expect(count).toBe(DEMO_JOBS.filter((j) => j.group === 'Assembly').length);
    expect(count).toBeGreaterThanOrEqual(2);
    const onBench = rows.map((j) => j.job_machines.find((jm) => jm.machine_id === bench));
    expect(onBench.every((jm) => jm !== undefined)).toBe(true);
    // live-operations §2: Add 1 Part appears only with a multiplier above 1.
    expect(onBench.some((jm) => jm!.partCountMultiplier > 1)).toBe(true);
    expect(onBench.some((jm) => jm!.partCountMultiplier === 1)).toBe(true);
    // Start Job on the bench works in production.
    const kit = rows.find((j) => j.job_machines.some((jm) => jm.partCountMultiplier > 1))!;
    const started = await h.send('POST', '/api/dispatch/start', cookie, {
      id: bench,
      jobId: kit.id,
      setup: false,
    });
    expect(started.status, await started.clone().text()).toBe(201);
  });

  it('seeds setup stages totalling 100 %, operators and three shifts covering every hour', async () => {
    const { cookie } = await demoPlant();
    const stages = z.array(setupStageSchema).parse(await (await h.get('/api/setup/stages', cookie)).json());
    expect(stages.length).toBeGreaterThanOrEqual(3);
    expect(stages.reduce((s, x) => s + x.setupPercentage, 0)).toBe(100);
    const ops = z.array(operatorSchema).parse(await (await h.get('/api/operators', cookie)).json());
    expect(ops.length).toBeGreaterThanOrEqual(5);
    const shifts = z.array(shiftSchema).parse(await (await h.get('/api/shifts', cookie)).json());
    expect(shifts).toHaveLength(3);
    expect(shifts.find((s) => s.name === 'First shift')?.current?.startoffsetminutes).toBe(360);
    for (let hour = 0; hour < 24; hour++) {
      h.clock.now = Date.parse('2025-11-24T00:30:00Z') + hour * 3_600_000;
      const res = await h.get('/api/shifts/current', cookie);
      expect(z.object({ name: z.string() }).parse(await res.json()).name).toMatch(/shift$/);
    }
  });

  it('lets a seeded job be started in setup on a stage, moved to the next stage and put into production', async () => {
    const { cookie, mill } = await demoPlant();
    const { rows } = z
      .object({ rows: z.array(jobSchema) })
      .parse(await (await h.get(`/api/jobs?machineId=${mill}&filter=bracket`, cookie)).json());
    const stages = z.array(setupStageSchema).parse(await (await h.get('/api/setup/stages', cookie)).json());
    const job = rows[0];
    expect(job?.job_machines[0]?.setuptime).toBe(2700);
    const started = await h.send('POST', '/api/dispatch/start', cookie, {
      id: mill,
      jobId: job?.id,
      setup: true,
      setupStageId: stages[0]?.id,
    });
    expect(started.status).toBe(201);
    const { id } = z.object({ id: z.string() }).parse(await started.json());
    h.clock.now += 600_000;
    expect(
      (
        await h.send('POST', '/api/setup/transition', cookie, {
          laborActivitySetId: id,
          setupStageId: stages[1]?.id,
        })
      ).status,
    ).toBe(200);
    h.clock.now += 600_000;
    expect(
      (await h.send('POST', '/api/setup/end', cookie, { jsgId: id, machineId: mill, keptParts: 0 })).status,
    ).toBe(200);
  });
});
