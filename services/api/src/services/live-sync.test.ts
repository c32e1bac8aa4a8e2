import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { SyncCommand, SyncCommandType } from '@takt/domain';
import { companyScope } from '@takt/db';
import { inProcessBus } from '../live/bus';
import type { ApiHarness } from '../testing/app';
import { apiHarness } from '../testing/app';
import { aMachine } from '../testing/builders';
import { DIALECTS } from '@takt/db/testing';
import { aJob, anOperator, aSetupStage } from '../testing/live-builders';
import { liveSyncHandlers } from './live-sync';
import { applySyncBatch } from './sync';

describe.each(DIALECTS)('offline sync of dispatch, setup and operator commands on %s', (dialect) => {
  let h: ApiHarness;
  beforeEach(async () => {
    h = await apiHarness(dialect);
  });
  afterEach(async () => {
    await h.close();
  });

  async function setup() {
    const { company, user } = await h.tenant();
    const scope = companyScope(h.t.db, company.id);
    const apply = (commands: SyncCommand[]) =>
      applySyncBatch(
        {
          scope,
          caller: { kind: 'user', user, company, sessionToken: 'test' },
          now: h.clock.now,
          bus: inProcessBus(),
          handlers: liveSyncHandlers,
        },
        { commands },
      );
    return { company, scope, apply };
  }
  const command = (
    type: SyncCommandType,
    machineId: string,
    occurredAt: number,
    payload: Record<string, unknown>,
  ) => ({
    id: crypto.randomUUID(),
    type,
    machineId,
    occurredAt,
    payload,
  });

  it('records each fact at occurredAt, and a repeated batch changes nothing', async () => {
    const { company, apply } = await setup();
    const machine = await aMachine(h.t.db, company);
    const job = await aJob(h.t.db, company, { setuptime: 1200 });
    const [s1, s2] = [await aSetupStage(h.t.db, company), await aSetupStage(h.t.db, company)];
    const operator = await anOperator(h.t.db, company);
    const T = h.clock.now;
    const start = command('start_job', machine, T - 60_000, {
      id: machine,
      jobId: job,
      setup: true,
      setupStageId: s1,
    });
    const first = await apply([start]);
    expect(first.map((o) => o.status)).toEqual(['applied']);
    const runId = (first[0] as { result: { id: string } }).result.id;
    const batch = [
      command('operator_login', machine, T - 50_000, { machineId: machine, operatorId: operator }),
      command('setup_stage', machine, T - 30_000, { laborActivitySetId: runId, setupStageId: s2 }),
      command('start_production', machine, T - 10_000, { jsgId: runId, machineId: machine, keptParts: 0 }),
      command('operator_logout', machine, T - 5_000, { machineId: machine }),
      command('stop_job', machine, T - 1_000, { id: machine, jobId: job }),
    ];
    expect((await apply(batch)).map((o) => o.status)).toEqual([
      'applied',
      'applied',
      'applied',
      'applied',
      'applied',
    ]);
    const run = await h.t.db
      .selectFrom('job_runs')
      .selectAll()
      .where('id', '=', runId)
      .executeTakeFirstOrThrow();
    expect([run.start_at, run.setup_end, run.end_at]).toEqual([T - 60_000, T - 10_000, T - 1_000]);
    const activities = await h.t.db
      .selectFrom('labor_activities')
      .select(['start_at', 'end_at', 'setup'])
      .where('job_run_id', '=', runId)
      .orderBy('start_at')
      .execute();
    expect(activities).toEqual([
      { start_at: T - 60_000, end_at: T - 30_000, setup: 1 },
      { start_at: T - 30_000, end_at: T - 10_000, setup: 1 },
      { start_at: T - 10_000, end_at: T - 1_000, setup: 0 },
    ]);
    const opRuns = await h.t.db.selectFrom('operator_runs').select(['start_at', 'end_at']).execute();
    expect(opRuns).toEqual([{ start_at: T - 50_000, end_at: T - 5_000 }]);

    const again = await apply([start, ...batch]);
    expect(again.map((o) => o.status)).toEqual(Array(6).fill('duplicate'));
    expect(await h.t.db.selectFrom('job_runs').select('id').execute()).toHaveLength(1);
    expect(await h.t.db.selectFrom('labor_activities').select('id').execute()).toHaveLength(3);
  });

  it("refuses a command whose payload names another machine, and one dated before the machine's last change", async () => {
    const { company, apply } = await setup();
    const machine = await aMachine(h.t.db, company);
    const other = await aMachine(h.t.db, company);
    const job = await aJob(h.t.db, company);
    const T = h.clock.now;
    const [mismatch] = await apply([
      command('start_job', machine, T, { id: other, jobId: job, setup: false }),
    ]);
    expect(mismatch).toMatchObject({ status: 'rejected', error: { code: 'MACHINE_MISMATCH' } });
    await apply([command('start_job', machine, T - 10_000, { id: machine, jobId: job, setup: false })]);
    const [early] = await apply([command('stop_job', machine, T - 20_000, { id: machine, jobId: job })]);
    expect(early).toMatchObject({ status: 'rejected', error: { code: 'BEFORE_LAST_CHANGE' } });
    const [badKept] = await apply([
      command('start_production', machine, T, { jsgId: 'x', machineId: machine, keptParts: -2 }),
    ]);
    expect(badKept).toMatchObject({
      status: 'rejected',
      error: { message: "There was an error, please re-submit the number of parts you'd like to keep." },
    });
  });
});
