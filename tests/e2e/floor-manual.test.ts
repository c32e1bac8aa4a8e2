import { describe, expect, it } from 'vitest';
import { DEMO_LOGINS } from '@takt/api';
import { describeTablets, productAndBrowser, SOON, Tablet } from './floor-app';
import { manualParts, syncCommands } from './server-db';

// live-operations §2 "Manual work centers show Add Part (by the multiplier), Add 1 Part (only if multiplier > 1)
// and Undo", driven by the server's workcenterType (GET /api/dashboard, GET /api/workcenter/:id); every tap is
// a command through the outbox (ARCHITECTURE.md "Offline sync contract") that reaches the server once.
const admin = DEMO_LOGINS.find((l) => l.role === 'admin')!;

describe('a manual work center', () => {
  const running = productAndBrowser();

  it('adds parts by the multiplier, one part, and undoes, on the server', async ({ onTestFailed }) => {
    const { product, browser } = running;
    const tablet = await Tablet.open(browser, product.url);
    onTestFailed(async () => console.log(await describeTablets([tablet]), product.output().slice(-3000)));
    await tablet.logIn(admin);

    // The server names the type; a machine has no manual buttons.
    const types = await tablet.api<{ machines: Array<{ name: string; workcenterType: string }> }>(
      '/api/dashboard',
    );
    const bench = await tablet.machine('Assembly Bench 1');
    expect(types.machines.find((m) => m.name === 'Assembly Bench 1')?.workcenterType).toBe('manual');
    const mill = await tablet.workcenter(await tablet.machine('Haas VF-4'));
    expect(await mill.button('Add Part').count()).toBe(0);
    expect(await mill.button('Undo').count()).toBe(0);

    // No job yet: multiplier 1, so Add Part and Undo but no Add 1 Part.
    const wc = await tablet.workcenter(bench);
    await expect.poll(() => wc.button('Add Part').count(), SOON).toBe(1);
    expect(await wc.button('Undo').count()).toBe(1);
    expect(await wc.button('Add 1 Part').count()).toBe(0);

    await wc.button('Add Part').click();
    await wc.button('Add Part').click();
    await wc.waitAllSaved();
    await wc.button('Undo').click();
    await wc.waitAllSaved();
    expect(syncCommands(product, bench.id).map((c) => [c.type, c.status])).toEqual([
      ['manual_add_part', 'applied'],
      ['manual_add_part', 'applied'],
      ['manual_undo', 'applied'],
    ]);
    expect(manualParts(product, bench.id)).toEqual([1]);

    // A job of 3 per kit on the bench: Add Part counts 3, Add 1 Part appears and counts 1.
    const name = `Kit K-3 ${Date.now()}`;
    const created = await tablet.context.request.post(`${product.url}/api/jobs`, {
      data: { name, setuptime: null },
    });
    expect(created.status()).toBe(201);
    const job = (await created.json()) as { id: string };
    const associated = await tablet.context.request.post(`${product.url}/api/jobmachines`, {
      data: {
        job_id: job.id,
        job_machine: { machine_id: bench.id, partBehavior: 'manyparts', actualParts: 3 },
      },
    });
    expect(associated.status()).toBe(201);
    await wc.startJob(name, 'production');
    await wc.waitAllSaved();
    await expect.poll(() => wc.button('Add 1 Part').count(), SOON).toBe(1);

    await wc.button('Add Part').click();
    await wc.button('Add 1 Part').click();
    await wc.waitAllSaved();
    expect(manualParts(product, bench.id)).toEqual([1, 3, 1]);
    await wc.button('Undo').click();
    await wc.waitAllSaved();
    expect(manualParts(product, bench.id)).toEqual([1, 3]);
    expect(
      syncCommands(product, bench.id)
        .slice(3)
        .map((c) => [c.type, c.status]),
    ).toEqual([
      ['start_job', 'applied'],
      ['manual_add_part', 'applied'],
      ['manual_add_part', 'applied'],
      ['manual_undo', 'applied'],
    ]);
    // Each add carried the count the operator chose (the multiplier, then 1).
    expect(
      tablet.sent
        .filter((c) => c.type === 'manual_add_part')
        .map((c) => (c.payload as { count: number }).count),
    ).toEqual([1, 1, 3, 1]);
    await tablet.close();
  }, 180_000);
});
