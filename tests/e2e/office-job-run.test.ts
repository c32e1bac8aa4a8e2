import type net from 'node:net';
import { afterAll, describe, expect, it } from 'vitest';
import { epochMs, formatDay, toWall } from '@takt/domain';
import { companyScope } from '@takt/db';
import type { Database } from '@takt/db';
import type { Kysely } from 'kysely';
import { createAdapter } from '../../services/api/src/repositories/adapters';
import { createShdrSource } from '../../services/api/src/repositories/machine-sources';
import { createMachine } from '../../services/api/src/repositories/machines';
import { insertSetupStage } from '../../services/api/src/repositories/setup-stages';
import { aCompany, aUser } from '../../services/api/src/testing/builders';
import { aJob, aShift } from '../../services/api/src/testing/live-builders';
import { fakeAdapter } from '../../services/ingest/src/testing/test-support';
import type { FakeAdapter } from '../../services/ingest/src/testing/test-support';
import { logIn } from './harness';
import { CLOCK, officeSession, ON_POSTGRES, tableRows } from './office-harness';

// Job runs from the schedule to the reports (reports-admin §2 "Schedule (job runs) timeline … the two forms",
// §4 start-in-setup, §2 Job report and machine-job report, §3 Labor activity, §9 rounding; METRICS.md §2–§4;
// decisions 0940, 0813, 0820), in Chromium on PostgreSQL (decision 0871) with ingest on: an admin plans Gear
// on the Press and on the Lathe in the schedule's form with setup stages, each starting now; each machine is
// an SHDR adapter this test plays on a real socket, stamping each line with the time it tells of; then the
// job report, the Press's machine-job report and its CSV read the same parts, OEE and setup time, the ones
// computed below by hand. Screenshots at desk and phone widths go to test-results/office-job-run/
// (gitignored).
//
// Each run, from its start S (to the second): a setup of 0.3 min (18 s) as Fixture (25 %, 4.5 s) then First
// article (75 %, 13.5 s), so production from S+18 s; it ends at S+48 s. The machine is idle but for cycles in
// production, each counting one part at its end: on the Press S+20–26, S+28–34 and S+36–42, on the Lathe
// S+20–25 and S+27–32. The company's one shift covers the whole day, so all of a run is shift time. Gear:
// expected cycle 8 s, ideal 5 s, one part a cycle. Expected parts ⌊30 / 8⌋ = 3 on each (production time:
// setup excluded, METRICS.md §4).
// - Press, setup planned: T_pdt = the setup, 18 s (METRICS.md §2); T_ppt = 30 s; T_run = 18 s.
//   A = 18/30 = 60.0 %; P = 3 × 5 / 18 = 83.3 %; Q = 3/3 = 100.0 %; OEE = 50.0 %; 3/3 = 100.0 % of the goal.
//   Downtime: setup 18 s planned (0.30 min), idle 30 − 18 = 12 s uncategorized (0.20 min).
// - Lathe, setup unplanned: T_ppt = 48 s; T_run = 10 s. A = 20.8 %; P = 10/10 = 100.0 %; Q = 100.0 %;
//   OEE = 10/48 = 20.8 %; 2/3 = 66.7 % of the goal. Downtime: idle 48 − 18 − 10 = 20 s (0.33 min, 52.6 %),
//   setup 18 s unplanned (0.30 min, 47.4 %).
// - Gear (both): T_ppt = 78 s, T_run = 28 s: A = 35.9 %; P = 25/28 = 89.3 %; Q = 100.0 %; OEE = 25/78 =
//   32.1 %; 5/6 = 83.3 % of the goal. Setup 36 s: 0.0 h as the tiles and the CSV round it (§9: hours 1
//   decimal), 0.60 min in downtime by reason (0.30 planned, 0.30 unplanned, 52.9 %), idle 32 s (0.53 min).

const SECOND = 1000;
const SETUP_MS = 18 * SECOND;
const RUN_MS = 48 * SECOND;
/** Production cycles as [in cycle from, part counted at], seconds after the run's start, in ms. */
const cycles = (...c: Array<[number, number]>) => c.map(([a, b]) => [a * SECOND, b * SECOND] as const);
const PRESS_CYCLES = cycles([20, 26], [28, 34], [36, 42]);
const LATHE_CYCLES = cycles([20, 25], [27, 32]);

/** Figures after machine, start and end: goal, good, expected, rejected, OEE, A, P, Q, setup. */
const PRESS = ['100.0%', '3', '3', '0', '50.0%', '60.0%', '83.3%', '100.0%', '0.0 h'];
const LATHE = ['66.7%', '2', '3', '0', '20.8%', '20.8%', '100.0%', '100.0%', '0.0 h'];
/** The reports' tiles: goal, good, rejected, OEE, A, P, Q, setup. */
const tilesOf = (f: readonly string[]) => [f[0], f[1], ...f.slice(3)];
const GEAR_TILES = tilesOf(['83.3%', '5', '6', '0', '32.1%', '35.9%', '89.3%', '100.0%', '0.0 h']);
/** The Press's CSV figures by column (§9: percents 1 decimal, hours 1 decimal, downtime minutes 2). */
const PRESS_CSV = {
  'Parts Goal (%)': '100.0',
  'Expected Parts': '3',
  'Good Parts': '3',
  'Rejected Parts': '0',
  'OEE (%)': '50.0',
  'Availability (%)': '60.0',
  'Performance (%)': '83.3',
  'Quality (%)': '100.0',
  'Setup (h)': '0.0',
  'In-Cycle (h)': '0.0',
  'Downtime (min)': '0.20',
};

/**
 * A machine as its SHDR adapter sends it: execution and part count, each line stamped with the time it tells
 * of; a new connection first hears the current values. Answers the link's PING.
 */
class SimulatedMachine {
  /** What the machine reports now. */
  private readonly now = { exec: 'READY', count: 0 };
  private constructor(readonly adapter: FakeAdapter) {}

  static async start(): Promise<SimulatedMachine> {
    const machine = new SimulatedMachine(
      await fakeAdapter(
        (socket) => machine.hello(socket),
        (socket, line) => {
          if (line.startsWith('* PING')) socket.write('* PONG 10000\n');
        },
      ),
    );
    return machine;
  }

  private hello(socket: net.Socket) {
    socket.write(`${new Date().toISOString()}|exec|${this.now.exec}|pc|${this.now.count}\n`);
  }

  /** At `at` (waiting for it: an adapter tells of now, never of the future), execution and maybe a part. */
  async send(at: number, exec: 'ACTIVE' | 'READY', part = false) {
    // A timer may fire a millisecond early: wait until the stamp has come.
    while (Date.now() < at) await new Promise((r) => setTimeout(r, at - Date.now()));
    this.now.exec = exec;
    if (part) this.now.count += 1;
    // Execution first: the part ends the cycle that went ACTIVE (decision 0100).
    const line = `${new Date(at).toISOString()}|exec|${exec}${part ? `|pc|${this.now.count}` : ''}\n`;
    for (const s of this.adapter.sockets) if (!s.destroyed) s.write(line);
  }
}

interface Plant {
  email: string;
  password: string;
  gear: string;
  press: string;
  lathe: string;
  /** The machines' adapters. */
  adapters: { Press: SimulatedMachine; Lathe: SimulatedMachine };
}

async function seedPlant(db: Kysely<Database>, _week: unknown, now: number): Promise<Plant> {
  const company = await aCompany(db, {
    name: 'Acme Machining',
    timezone: CLOCK.timezone,
    productTier: 'full',
  });
  // Changing the schedule is for administrators.
  const admin = await aUser(db, company, { role: 'admin', displayName: 'Ada Admin' });
  const scope = companyScope(db, company.id);
  await db.updateTable('companies').set({ enable_setup_stages: 1 }).where('id', '=', company.id).execute();
  await insertSetupStage(scope, { name: 'Fixture', stageOrder: 1, setupPercentage: 25 });
  await insertSetupStage(scope, { name: 'First article', stageOrder: 2, setupPercentage: 75 });
  await aShift(db, company, { name: 'All day', startoffsetminutes: 0, endoffsetminutes: 1440 });
  // The Press and the Lathe send execution and a part count, as a Haas does.
  const fields = [
    ['exec', 'EXECUTION'],
    ['pc', 'PART_COUNT'],
  ].map(([name, dataItemType]) => ({
    name: name!,
    dataItemType: dataItemType!,
    componentName: 'path',
    componentType: 'Path',
  }));
  const adapterId = await createAdapter(scope, { name: 'Haas NGC', fields }, now);
  const machine = async (name: string, sortOrder: number) => {
    const id = await createMachine(scope, { name, adapterId, sortOrder }, now);
    const adapter = await SimulatedMachine.start();
    await createShdrSource(scope, { machineId: id, host: '127.0.0.1', port: adapter.adapter.port }, now);
    return [id, adapter] as const;
  };
  const [press, pressAdapter] = await machine('Press', 1);
  const [lathe, latheAdapter] = await machine('Lathe', 2);
  const gear = await aJob(db, company, {
    name: 'Gear',
    expectedCycleTime: 8 * SECOND,
    idealCycleTime: 5 * SECOND,
  });
  return {
    email: admin.email,
    password: admin.password,
    gear,
    press,
    lathe,
    adapters: { Press: pressAdapter, Lathe: latheAdapter },
  };
}

/** An instant as a datetime-local value on the company's wall clock, to the second. */
function wallInput(t: number): string {
  const { day, msOfDay } = toWall(CLOCK.timezone, epochMs(t));
  return `${formatDay(day)}T${new Date(msOfDay).toISOString().slice(11, 19)}`;
}

/** Long enough for ingest to write what the adapter sent and the reports to read it. */
const SLOW = { timeout: 40_000, interval: 1000 } as const;

describe.each(ON_POSTGRES)(
  'scheduled job runs from the adapters to the reports in Chromium on %s',
  (dialect) => {
    const office = officeSession(dialect, 'office-job-run', seedPlant, { TAKT_INGEST: '1' });
    afterAll(async () => {
      for (const m of Object.values(office.plant?.adapters ?? {})) await m.adapter.close();
    });

    /** Plans Gear on `machine` in the schedule's form with setup stages (decision 0940) from now: its start. */
    async function planRun(machine: 'Press' | 'Lathe', setup: 'Planned' | 'Unplanned') {
      const { page } = office;
      await page.getByRole('button', { name: 'New job run' }).click();
      const form = page.getByRole('dialog', { name: 'New job run' });
      await form.getByRole('radio', { name: 'Setup stages' }).check();
      await form.getByLabel('Job', { exact: true }).selectOption({ label: 'Gear' });
      await form.getByLabel('Machine', { exact: true }).selectOption({ label: machine });
      const start = Math.floor(Date.now() / SECOND) * SECOND;
      await form.getByLabel('Start', { exact: true }).fill(wallInput(start));
      await form.getByRole('radio', { name: 'On a date' }).check();
      await form.getByLabel('End', { exact: true }).fill(wallInput(start + RUN_MS));
      await form.getByRole('radio', { name: setup, exact: true }).check();
      await form.getByLabel('Setup time (min)').fill(String(SETUP_MS / 60_000));
      await form.getByLabel('Expected cycle time (s)').fill('8');
      await form.getByLabel('Ideal cycle time (s)').fill('5');
      const plan = form.getByRole('table', { name: 'Setup stages' });
      await expect
        .poll(
          async () => (await plan.getByRole('row').allInnerTexts()).map((r) => r.split('\t').slice(0, 3)),
          SLOW,
        )
        .toEqual([
          ['Stage', 'Share', 'Minutes'],
          ['Fixture', '25\u00a0%', '0.08'],
          ['First article', '75\u00a0%', '0.23'],
          ['Production', '', ''],
        ]);
      await page.getByRole('button', { name: 'Save', exact: true }).click();
      await expect.poll(() => page.getByRole('dialog').count(), SLOW).toBe(0);
      await office.settled();
      const bars = page.getByRole('listitem', { name: machine, exact: true }).getByRole('button');
      await expect.poll(() => bars.first().getAttribute('aria-label'), SLOW).toMatch(/^Gear, /);
      return start;
    }

    /** The machine from `start`: idle in setup, then `plan`'s cycles of a part each, then idle. */
    async function run(machine: SimulatedMachine, start: number, plan: typeof PRESS_CYCLES) {
      for (const [active, part] of plan) {
        await machine.send(start + active, 'ACTIVE');
        await machine.send(start + part, 'READY', true);
      }
    }

    it('plans runs with setup stages, runs them on two machines, and reads the same figures in the reports', async () => {
      const { page, plant } = office;
      const { Press, Lathe } = plant.adapters;
      // The product's ingest holds both links before the runs start.
      for (const m of [Press, Lathe])
        await expect.poll(() => m.adapter.sockets.length, SLOW).toBeGreaterThan(0);

      // 1. The schedule: the Press's setup planned, the Lathe's unplanned (reports-admin §4).
      const today = wallInput(Date.now()).slice(0, 10);
      await logIn(page, plant, `${office.product.url}/app/production/schedule?start=${today}&days=1`);
      await expect.poll(() => office.heading().textContent(), SLOW).toBe('Schedule');
      await office.settled();
      const pressStart = await planRun('Press', 'Planned');
      const latheStart = await planRun('Lathe', 'Unplanned');

      // 2. The machines run, each from its run's start; the reports are read once both runs have ended.
      await Promise.all([run(Press, pressStart, PRESS_CYCLES), run(Lathe, latheStart, LATHE_CYCLES)]);
      const end = Math.max(pressStart, latheStart) + RUN_MS;
      await new Promise((r) => setTimeout(r, Math.max(0, end - Date.now()) + 2 * SECOND));

      // 3. The job report (all time: the two runs), polled until ingest has written the runs' ends.
      await page.goto(`${office.product.url}/dashboard/jobreport?job_id=${plant.gear}`);
      const tiles = page.getByRole('region', { name: 'The job’s figures for the range' });
      await expect
        .poll(async () => {
          await page.reload();
          await expect.poll(() => office.heading().textContent(), SLOW).toBe('Job Report: Gear');
          await office.settled();
          return tiles.locator('.tile__value').allTextContents();
        }, SLOW)
        .toEqual(GEAR_TILES);
      const byMachine = office.section('By machine').getByRole('table');
      const rowsOf = async (table: typeof byMachine) =>
        (await tableRows(table)).map((r) => [r[0], ...r.slice(3)]);
      await expect
        .poll(() => rowsOf(byMachine), SLOW)
        .toEqual([
          ['Lathe', ...LATHE],
          ['Press', ...PRESS],
        ]);
      // The runs (listed by start: the order of runs seconds apart is the API tests' to check, the wall clock
      // here shows minutes), read by machine.
      const runs = office.section('Runs').getByRole('table');
      const byName = (rows: Array<Array<string | undefined>>) =>
        [...rows].sort((a, b) => (a[0] ?? '').localeCompare(b[0] ?? ''));
      await expect
        .poll(async () => byName(await rowsOf(runs)), SLOW)
        .toEqual([
          ['Lathe', ...LATHE, 'Job on Lathe Go to Production Run'],
          ['Press', ...PRESS, 'Job on Press Go to Production Run'],
        ]);
      await expectDetail(
        [
          ['Setup', '0.60', '52.9%', '0.30', '0.30'],
          ['Uncategorized', '0.53', '47.1%', '0.00', '0.53'],
        ],
        GEAR_TILES,
      );
      await office.screenshots('job-report', true);

      // The Lathe's run opens its machine-job report (the run's action): the Lathe's figures alone.
      await runs.getByRole('link', { name: 'Job on Lathe' }).click();
      await expect.poll(() => office.heading().textContent(), SLOW).toBe('Job Report: Gear on Lathe');
      await office.settled();
      await expect.poll(() => tiles.locator('.tile__value').allTextContents(), SLOW).toEqual(tilesOf(LATHE));
      await expectDetail(
        [
          ['Uncategorized', '0.33', '52.6%', '0.00', '0.33'],
          ['Setup', '0.30', '47.4%', '0.00', '0.30'],
        ],
        tilesOf(LATHE),
      );

      // The Press's machine-job report (without a start: the job's own range rounded to 15 minutes).
      await page.goto(
        `${office.product.url}/reports/machineoperationreport?machine_id=${plant.press}&job_id=${plant.gear}`,
      );
      await expect.poll(() => office.heading().textContent(), SLOW).toBe('Job Report: Gear on Press');
      await office.settled();
      await expect.poll(() => tiles.locator('.tile__value').allTextContents(), SLOW).toEqual(tilesOf(PRESS));
      await expect.poll(() => rowsOf(byMachine), SLOW).toEqual([['Press', ...PRESS]]);
      await expect.poll(() => rowsOf(runs), SLOW).toEqual([['Press', ...PRESS]]);
      await expectDetail(
        [
          ['Setup', '0.30', '60.0%', '0.30', '0.00'],
          ['Uncategorized', '0.20', '40.0%', '0.00', '0.20'],
        ],
        tilesOf(PRESS),
      );
      await office.screenshots('machine-job-report', true);

      // Its CSV through the page's link (the user's token in the URL): the Press and the Total, the same.
      const [head, ...body] = await office.downloadCsv(
        office.section('By machine').getByRole('link', { name: 'Download CSV' }),
        /^\/api\/reports\/warehouse\/jobs\/aggregatedbymachine\?job_id=.*&machine_id=.*format=csv&token=/,
      );
      const byColumn = body.map((row) => Object.fromEntries(head!.map((h, i) => [h, row[i]])));
      const times = { Start: expect.any(String), End: expect.any(String) };
      expect(byColumn).toEqual([
        { Machine: 'Press', ...times, ...PRESS_CSV },
        { Machine: 'Total', ...times, ...PRESS_CSV },
      ]);
    }, 150_000);

    /**
     * The detail a report shows: downtime by reason (total, share, planned, unplanned minutes), no rejects, and
     * OEE in the one shift, the report's own factors (`tiles`: all its time is the shift's).
     */
    async function expectDetail(downtime: string[][], tiles: readonly (string | undefined)[]) {
      const table = (name: string) => office.section(name).getByRole('table');
      await expect.poll(() => tableRows(table('Downtime by reason')), SLOW).toEqual(downtime);
      await expect
        .poll(() => tableRows(table('OEE by shift')), SLOW)
        .toEqual([['All day', ...tiles.slice(3, 7)]]);
      await expect
        .poll(() => office.section('Quality: rejects by reason').textContent(), SLOW)
        .toContain('No rejected parts in this range.');
    }
  },
);
