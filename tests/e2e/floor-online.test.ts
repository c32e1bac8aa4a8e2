import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser } from 'playwright-core';
import type { SyncCommand } from '@takt/domain';
import { DEMO_LOGINS } from '@takt/api';
import { describeTablets, SOON, Tablet } from './floor-app';
import { launchChromium, startProduct } from './harness';
import type { RunningProduct } from './harness';
import { query, syncCommands } from './server-db';

// Issue 6 point 6 (a): online, every operator action of the workcenter reaches the server once, as the fact
// the spec names, recorded at the operator's time (the command's occurredAt).
const admin = DEMO_LOGINS.find((l) => l.role === 'admin')!;

describe('the workcenter online', () => {
  let product: RunningProduct;
  let browser: Browser;

  beforeAll(async () => {
    // 20 times real speed: the lathe makes parts within seconds, so there are parts made in setup to keep.
    [product, browser] = await Promise.all([startProduct({ TAKT_DEMO_SPEED: '20' }), launchChromium()]);
  });

  afterAll(async () => {
    await browser?.close();
    await product?.stop();
  });

  it('records setup, start of production, a reject, a categorized downtime and an operator log-in at the operator’s times', async ({
    onTestFailed,
  }) => {
    const tablet = await Tablet.open(browser, product.url);
    onTestFailed(async () => console.log(await describeTablets([tablet]), product.output().slice(-3000)));
    await tablet.logIn(admin);
    const machine = await tablet.machine('Citizen L20');
    const wc = await tablet.workcenter(machine);
    const one = (type: SyncCommand['type']): SyncCommand => {
      const found = tablet.sent.filter((c) => c.type === type);
      expect(found.map((c) => c.type)).toEqual([type]);
      return found[0]!;
    };
    const idOf = (table: string, name: string) =>
      String(query<{ id: string }>(product, `SELECT id FROM ${table} WHERE name = ?`, name)[0]?.id);

    // Start Job in setup, on the first stage.
    await wc.startJob('Shaft S-450', { stage: 'Teardown' });
    await expect.poll(() => wc.button('Setup').count(), SOON).toBe(1);
    await wc.waitAllSaved();
    const start = one('start_job');
    const runs = query(product, 'SELECT * FROM job_runs WHERE machine_id = ?', machine.id);
    expect(runs).toHaveLength(1);
    const run = runs[0]!;
    expect(run).toMatchObject({
      job_id: idOf('jobs', 'Shaft S-450'),
      start_at: start.occurredAt,
      end_at: null,
      setup_end: null,
    });

    // Change Stage.
    await wc.changeStage('Load tools and fixtures');
    await wc.waitAllSaved();
    const stage = one('setup_stage');
    const activities = () =>
      query(
        product,
        'SELECT start_at, end_at, setup_stage_id, setup FROM labor_activities WHERE job_run_id = ? ORDER BY start_at',
        run.id,
      );
    expect(activities()).toEqual([
      {
        start_at: start.occurredAt,
        end_at: stage.occurredAt,
        setup_stage_id: idOf('setup_stages', 'Teardown'),
        setup: 1,
      },
      {
        start_at: stage.occurredAt,
        end_at: null,
        setup_stage_id: idOf('setup_stages', 'Load tools and fixtures'),
        setup: 1,
      },
    ]);

    // Start Production keeping one of the parts made in setup, with a note. Wait until the lathe made two.
    await expect
      .poll(
        async () =>
          (await tablet.api<{ netCount: number }>(`/api/setup/parts?jsgId=${run.id}&machineId=${machine.id}`))
            .netCount,
        { timeout: 30_000, interval: 500 },
      )
      .toBeGreaterThanOrEqual(2);
    await wc.startProduction({ keep: 1, notes: 'First article OK', madeAtLeast: 2 });
    await expect.poll(() => wc.button('Setup').count(), SOON).toBe(0);
    await wc.waitAllSaved();
    const production = one('start_production');
    const answer = JSON.parse(
      String(syncCommands(product, machine.id).find((c) => c.id === production.id)?.result),
    ) as { setupParts: number; keptParts: number; removedParts: number; adjustmentId: string };
    expect(answer.keptParts).toBe(1);
    expect(answer.setupParts).toBeGreaterThanOrEqual(2);
    expect(answer.removedParts).toBe(answer.setupParts - 1);
    expect(query(product, 'SELECT setup_end, setup_note FROM job_runs WHERE id = ?', run.id)).toEqual([
      { setup_end: production.occurredAt, setup_note: 'First article OK' },
    ]);
    expect(
      query(
        product,
        "SELECT id, count, adjustment_time, message, job_run_id FROM part_adjustments WHERE machine_id = ? AND kind = 'setup'",
        machine.id,
      ),
    ).toEqual([
      {
        id: answer.adjustmentId,
        count: -answer.removedParts,
        adjustment_time: production.occurredAt,
        message: 'First article OK',
        job_run_id: run.id,
      },
    ]);
    expect(activities().slice(1)).toEqual([
      {
        start_at: stage.occurredAt,
        end_at: production.occurredAt,
        setup_stage_id: idOf('setup_stages', 'Load tools and fixtures'),
        setup: 1,
      },
      { start_at: production.occurredAt, end_at: null, setup_stage_id: null, setup: 0 },
    ]);

    // Reject Part: two parts, removed from the good parts (the default).
    await wc.rejectPart({ count: 2, reason: 'Dimension out of tolerance', message: 'bore oversize' });
    await wc.waitAllSaved();
    const reject = one('reject_part');
    expect(
      query(
        product,
        "SELECT type_id, scrapcount, count, message, adjustment_time, job_run_id, reject_behavior FROM part_adjustments WHERE machine_id = ? AND kind = 'reject'",
        machine.id,
      ),
    ).toEqual([
      {
        type_id: idOf('part_adjustment_types', 'Dimension out of tolerance'),
        scrapcount: 2,
        count: 0,
        message: 'bore oversize',
        adjustment_time: reject.occurredAt,
        job_run_id: run.id,
        reject_behavior: 'scrap',
      },
    ]);

    // Categorize a downtime period the server knows.
    await wc.categorizeDowntime({ reason: 'Waiting for material', description: 'bar stock late' });
    await wc.waitAllSaved();
    const categorize = one('categorize_downtime');
    const periodStart = categorize.payload.start as number;
    const downtime = await tablet.api<{ items: Array<{ start: number }> }>(
      `/api/downtime?machineId=${machine.id}`,
    );
    expect(downtime.items.map((p) => p.start)).toContain(periodStart);
    expect(
      query(
        product,
        'SELECT annotation_type_id, start_at, message, created_at, updated_at FROM annotations WHERE machine_id = ?',
        machine.id,
      ),
    ).toEqual([
      {
        annotation_type_id: idOf('annotation_types', 'Waiting for material'),
        start_at: periodStart,
        message: 'bar stock late',
        created_at: categorize.occurredAt,
        updated_at: categorize.occurredAt,
      },
    ]);

    // Operator log-in, now.
    await wc.logInOperator('Maria Lopez');
    await expect.poll(() => wc.button('Operator: Maria Lopez').count(), SOON).toBe(1);
    await wc.waitAllSaved();
    const login = one('operator_login');
    expect(
      query(
        product,
        'SELECT operator_id, start_at, end_at FROM operator_runs WHERE machine_id = ?',
        machine.id,
      ),
    ).toEqual([{ operator_id: idOf('operators', 'Maria Lopez'), start_at: login.occurredAt, end_at: null }]);

    // The sync log holds each command once, applied, at the time the tablet recorded it.
    const log = syncCommands(product, machine.id);
    expect(log.map((c) => [c.id, c.type, c.status, c.occurred_at])).toEqual(
      [start, stage, production, reject, categorize, login].map((c) => [
        c.id,
        c.type,
        'applied',
        c.occurredAt,
      ]),
    );
    expect(await wc.pendingMarks.count()).toBe(0);
    expect(await wc.refused.count()).toBe(0);
    await tablet.close();
  }, 90_000);
});
