import { describe, expect, it } from 'vitest';
import { DEMO_LOGINS } from '@takt/api';
import { describeTablets, productAndBrowser, SOON, Tablet } from './floor-app';
import { query, syncCommands } from './server-db';

// live-operations §2 (Start Job: "Admins also get a job dispatch modal that can search all operations"), §4 Job
// dispatch (associate the job with the machine first, then start), §5 and §9 (server-side search for admins,
// limit 10, 250 ms debounce), §6 isAdmin.
const admin = DEMO_LOGINS.find((l) => l.role === 'admin')!;
const manager = DEMO_LOGINS.find((l) => l.role === 'manager')!;

describe('the admins’ job dispatch modal', () => {
  const running = productAndBrowser();

  it('searches every operation on the server and starts one not yet on the machine', async ({
    onTestFailed,
  }) => {
    const { product, browser } = running;
    const tablet = await Tablet.open(browser, product.url);
    onTestFailed(async () => console.log(await describeTablets([tablet])));
    await tablet.logIn(admin);
    const machine = await tablet.machine('Okuma Genos M560');
    // A job of the company that no machine has yet.
    const name = `Dispatch bracket ${Date.now()}`;
    const created = await tablet.context.request.post(`${product.url}/api/jobs`, {
      data: { name, setuptime: 600 },
    });
    expect(created.status()).toBe(201);
    const job = (await created.json()) as { id: string };
    const wc = await tablet.workcenter(machine);

    const searches: URL[] = [];
    tablet.page.on('request', (r) => {
      const url = new URL(r.url());
      if (r.method() === 'GET' && url.pathname === '/api/jobs') searches.push(url);
    });
    await wc.button('Start Job').click();
    // The Start Job overlay lists the machine's own jobs (page size 15); the dispatch modal asks for all.
    await expect.poll(() => searches.length, SOON).toBeGreaterThan(0);
    expect(searches[0]!.searchParams.get('machineId')).toBe(machine.id);
    const own = searches.length;
    await wc.dialog('Start Job').getByRole('button', { name: 'Dispatch Job' }).click();
    const dispatch = wc.dialog('Job Dispatch');
    await expect.poll(() => dispatch.getByRole('radio').count(), SOON).toBeGreaterThan(0);
    const first = searches.length;

    // Typed faster than the 250 ms debounce (40 ms a key): searches go out for the text typed so far only when the
    // typing pauses, never one a key, and the last is for the whole text. A loaded machine may stall the keys past
    // the debounce once or twice, so an earlier search for a prefix is allowed.
    const typed = 'Dispatch bracket';
    await dispatch.getByLabel('Search all operations').pressSequentially(typed, { delay: 40 });
    // The list holds the one match only once the search answered.
    await expect
      .poll(
        async () =>
          await dispatch
            .locator('label')
            .filter({ has: tablet.page.getByRole('radio') })
            .allTextContents(),
        SOON,
      )
      .toEqual([name]);
    const filters = searches.slice(first).map((u) => u.searchParams.get('filter') ?? '');
    expect(filters.at(-1)).toBe(typed);
    expect(filters.every((f) => typed.startsWith(f))).toBe(true);
    expect(filters.length).toBeLessThan(typed.length / 2);
    // Every search is the server's, over all operations (no machine), ten rows at most.
    for (const u of searches.slice(own)) {
      expect(u.searchParams.get('machineId')).toBeNull();
      expect(u.searchParams.get('limit')).toBe('10');
    }

    await dispatch.getByRole('radio', { name }).check();
    // The demo company has setup stages on: one start-in-setup button per stage (live-operations §2).
    await dispatch.getByRole('button', { name: 'Start Job in Setup: Teardown', exact: true }).click();
    await expect.poll(() => dispatch.count(), SOON).toBe(0);
    await expect.poll(() => wc.card.getByText(name).count(), SOON).toBe(1);
    await wc.waitAllSaved();

    // Associated with the machine first, then started on it in setup.
    expect(
      query(product, 'SELECT machine_id FROM job_machines WHERE job_id = ?', job.id).map((r) => r.machine_id),
    ).toEqual([machine.id]);
    expect(syncCommands(product, machine.id).map((c) => [c.type, c.status])).toEqual([
      ['start_job', 'applied'],
    ]);
    expect(
      query(product, 'SELECT job_id, end_at FROM job_runs WHERE machine_id = ?', machine.id).filter(
        (r) => r.job_id === job.id,
      ),
    ).toEqual([{ job_id: job.id, end_at: null }]);
    // Started on the stage chosen.
    expect(
      query(
        product,
        `SELECT s.name FROM labor_activities a JOIN setup_stages s ON s.id = a.setup_stage_id
         JOIN job_runs r ON r.id = a.job_run_id WHERE r.job_id = ?`,
        job.id,
      ).map((r) => r.name),
    ).toEqual(['Teardown']);
  }, 120_000);

  it('shows a job another device started, with its setup stage, from the machine’s open run', async ({
    onTestFailed,
  }) => {
    const { product, browser } = running;
    const tablet = await Tablet.open(browser, product.url);
    onTestFailed(async () => console.log(await describeTablets([tablet]), product.output().slice(-3000)));
    await tablet.logIn(admin);
    const machine = await tablet.machine('Mazak VCN-530C');
    const jobs = await tablet.api<{ rows: Array<{ id: string; displayName: string }> }>(
      `/api/jobs?machineId=${machine.id}&filter=Bracket`,
    );
    const job = jobs.rows.find((j) => j.displayName === 'Bracket 7075-A')!;
    const stages = await tablet.api<Array<{ id: string; name: string }>>('/api/setup/stages');
    const stage = stages.find((s) => s.name === 'Load tools and fixtures')!;
    // Started elsewhere (the office, another tablet): this device has no answer of its own to go by.
    const started = await tablet.context.request.post(`${product.url}/api/dispatch/start`, {
      data: { id: machine.id, jobId: job.id, setup: true, setupStageId: stage.id },
    });
    expect(started.status()).toBe(201);
    const run = (await started.json()) as { id: string };
    expect(await tablet.api(`/api/dispatch/current?machineId=${machine.id}`)).toMatchObject({ id: run.id });

    const wc = await tablet.workcenter(machine);
    await expect.poll(() => wc.card.getByText('Bracket 7075-A').count(), SOON).toBe(1);
    // The stage is only in the run (the dashboard tile has none): the Setup overlay marks it current.
    const current = async () => {
      await wc.button('Setup').click();
      const d = wc.dialog('Setup');
      const pressed = d.getByRole('group', { name: 'Change Stage' }).locator('button[aria-pressed="true"]');
      await expect.poll(() => pressed.count(), SOON).toBe(1);
      const name = await pressed.textContent();
      await d.getByRole('button', { name: 'Cancel' }).click();
      await expect.poll(() => d.count(), SOON).toBe(0);
      return name;
    };
    expect(await current()).toBe('Load tools and fixtures');
    // Cached on the device: the same offline after a reload.
    await wc.waitForServiceWorker();
    await tablet.setOffline(true);
    await wc.reload();
    expect(await current()).toBe('Load tools and fixtures');
    await tablet.setOffline(false);
    await tablet.close();
  }, 120_000);

  it('is not offered to a user who is not an admin', async ({ onTestFailed }) => {
    const { product, browser } = running;
    const tablet = await Tablet.open(browser, product.url);
    onTestFailed(async () => console.log(await describeTablets([tablet])));
    await tablet.logIn(manager);
    const wc = await tablet.workcenter(await tablet.machine('Haas VF-4'));
    await wc.button('Start Job').click();
    const start = wc.dialog('Start Job');
    await expect.poll(() => start.count(), SOON).toBe(1);
    await expect.poll(() => start.getByRole('searchbox').count(), SOON).toBe(1);
    expect(await start.getByRole('button', { name: 'Dispatch Job' }).count()).toBe(0);
  }, 120_000);
});
