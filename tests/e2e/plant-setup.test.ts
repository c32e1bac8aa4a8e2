import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser, Page } from 'playwright-core';
import { addDays, companyDayStart, epochMs, formatDay, fromWall, shopDateOf } from '@takt/domain';
import { companyScope } from '@takt/db';
import { freshDb } from '@takt/db/testing';
import type { TestDb } from '@takt/db/testing';
import type { Company } from '../../services/api/src/repositories/company';
import { createAdapter } from '../../services/api/src/repositories/adapters';
import { aCompany, aMachine, aUser } from '../../services/api/src/testing/builders';
import { HOUR, MIN, someStates } from '../../services/api/src/testing/downtime-builders';
import type { StateRows } from '../../services/api/src/testing/downtime-builders';
import { aShift } from '../../services/api/src/testing/live-builders';
import { aJobWithRun, recomputeMachines, someCycles } from '../../services/api/src/testing/report-plant';
import { fakeAdapter } from '../../services/ingest/src/testing/test-support';
import type { FakeAdapter } from '../../services/ingest/src/testing/test-support';
import { launchChromium, logIn, startProduct } from './harness';
import type { RunningProduct } from './harness';
import { CLOCK, POLL, screenshots, tableRows } from './office-harness';

// Setting up a plant from the product alone (reports-admin §2 "Administration screens"), in Chromium on
// SQLite, with ingest on: an admin adds a machine whose SHDR source points at an adapter this test plays on a
// real socket and sees it in cycle on the live dashboard within 10 s of saving; changes the Day shift's end
// as a pending version effective tomorrow; and the OEE report counts the new shift time from tomorrow on,
// the old one today. Screenshots at 1280×800 and 390×844 go to test-results/plant-setup/ (gitignored).

describe('plant setup in Chromium on sqlite', () => {
  let db: TestDb;
  let product: RunningProduct;
  let browser: Browser;
  let page: Page;
  let adapter: FakeAdapter;
  let company: Company;
  let login = { email: '', password: '' };
  let press = '';
  const today = shopDateOf(CLOCK, epochMs(Date.now()));
  const dayStart = (offset: number) => companyDayStart(CLOCK, addDays(today, offset));
  /** `hour` o'clock local time, `offset` days from today (a DST day keeps its wall times). */
  const local = (offset: number, hour: number) =>
    fromWall(CLOCK.timezone, addDays(today, offset), hour * HOUR);
  const shoot = (name: string) => screenshots(page, 'plant-setup', name);

  beforeAll(async () => {
    db = await freshDb('sqlite');
    // An SHDR adapter on a free port: in cycle from the first line, and answering PING (the link's heartbeat).
    adapter = await fakeAdapter(
      (socket) => {
        socket.write(`${new Date().toISOString()}|exec|ACTIVE|mode|AUTOMATIC|pc|12\n`);
      },
      (socket, line) => {
        if (line.startsWith('* PING')) socket.write('* PONG 10000\n');
      },
    );
    company = await aCompany(db.db, {
      name: 'Acme Machining',
      timezone: CLOCK.timezone,
      productTier: 'full',
    });
    const admin = await aUser(db.db, company, { role: 'admin', displayName: 'Ada Admin' });
    login = { email: admin.email, password: admin.password };
    const field = (name: string, dataItemType: string) => ({
      name,
      dataItemType,
      componentName: 'path',
      componentType: 'Path',
    });
    await createAdapter(
      companyScope(db.db, company.id),
      {
        name: 'Haas NGC',
        fields: [field('exec', 'EXECUTION'), field('mode', 'CONTROLLER_MODE'), field('pc', 'PART_COUNT')],
      },
      1,
    );
    await aShift(db.db, company, { name: 'Day', startoffsetminutes: 360, endoffsetminutes: 840 });
    // The Press ran 06:00–14:00 on the three days before today, idle otherwise: one part every 10 minutes
    // (ideal 8) of one job run over the three days. (Reports end at now: the days are past ones.)
    press = await aMachine(db.db, company, { name: 'Press', sortOrder: 1 });
    const states: Array<[number, number, 'ACTIVE' | 'INACTIVE']> = [];
    for (const d of [-3, -2, -1])
      states.push(
        [dayStart(d), local(d, 6), 'INACTIVE'],
        [local(d, 6), local(d, 14), 'ACTIVE'],
        [local(d, 14), dayStart(d + 1), 'INACTIVE'],
      );
    await someStates(db.db, company, press, states satisfies StateRows);
    const scope = companyScope(db.db, company.id);
    await aJobWithRun(scope, {
      machineId: press,
      name: 'Bracket',
      expected: 10 * MIN,
      ideal: 8 * MIN,
      jobCreatedAt: dayStart(-3),
      start: dayStart(-3),
      end: dayStart(0),
    });
    await someCycles(
      scope,
      press,
      [-3, -2, -1].flatMap((d) =>
        Array.from({ length: 48 }, (_, k) => ({
          start: local(d, 6) + k * 10 * MIN,
          end: local(d, 6) + (k + 1) * 10 * MIN,
        })),
      ),
    );
    [product, browser] = await Promise.all([
      startProduct({ DATABASE_URL: db.url, TAKT_DEMO: '0', TAKT_INGEST: '1' }),
      launchChromium(),
    ]);
    page = await browser.newPage({ viewport: { width: 1280, height: 800 }, locale: 'en-US' });
  }, 120_000);

  afterAll(async () => {
    await browser?.close();
    await product?.stop();
    await adapter?.close();
    await db?.cleanup();
  });

  it('adds a machine with an SHDR source and sees it in cycle on the live dashboard within 10 s', async () => {
    await page.goto(`${product.url}/app/admin/machines`);
    await logIn(page, login);
    await expect.poll(() => page.getByRole('heading', { level: 1 }).textContent(), POLL).toBe('Machines');
    await page.getByRole('button', { name: 'Add machine' }).click();
    const dialog = page.getByRole('dialog', { name: 'New machine' });
    await dialog.getByLabel('Name').fill('Mill 1');
    await dialog.getByLabel('Adapter').selectOption({ label: 'Haas NGC' });
    await dialog.getByLabel('Address').fill('127.0.0.1');
    await dialog.getByLabel('Port').fill(String(adapter.port));
    await dialog.getByRole('button', { name: 'Save' }).click();
    const savedAt = Date.now();
    await expect.poll(() => dialog.count(), POLL).toBe(0);
    await expect.poll(() => page.getByText(`SHDR 127.0.0.1:${adapter.port}`).count(), POLL).toBe(1);

    await page.goto(`${product.url}/dashboards/live/utilization`);
    const tile = page.locator('article[aria-label="Mill 1"]');
    await expect
      .poll(() => tile.getAttribute('data-status'), {
        timeout: Math.max(0, savedAt + 10_000 - Date.now()),
        interval: 100,
      })
      .toBe('success');
    expect(Date.now() - savedAt).toBeLessThan(10_000);
    expect(adapter.sockets.length).toBeGreaterThan(0);
    await shoot('live-machine');
  }, 60_000);

  it('changes the Day shift as a pending version effective tomorrow', async () => {
    await page.goto(`${product.url}/app/admin/shifts`);
    await expect.poll(() => page.getByRole('heading', { level: 1 }).textContent(), POLL).toBe('Shifts');
    const table = page.getByRole('table', { name: 'Shifts' });
    await expect
      .poll(() => tableRows(table).then((r) => r[0]?.slice(0, 2)), POLL)
      .toEqual(['Day', '06:00–14:00']);
    await page.getByRole('button', { name: 'Edit Day' }).click();
    const dialog = page.getByRole('dialog', { name: 'Edit shift' });
    await dialog.getByLabel('End').fill('15:00');
    const tomorrow = formatDay(addDays(today, 1));
    expect(await dialog.getByLabel('Effective Date').inputValue()).toBe(tomorrow);
    await dialog.getByRole('button', { name: 'Save' }).click();
    await expect.poll(() => dialog.count(), POLL).toBe(0);
    await expect
      .poll(() => tableRows(table).then((r) => r[0]?.slice(0, 5)), POLL)
      .toEqual(['Day', '06:00–14:00', expect.any(String), '2020-01-01', `Changes on ${tomorrow}`]);
    await page.getByLabel('Latest and future').check();
    await expect
      .poll(() => tableRows(table).then((r) => r[0]?.slice(0, 4)), POLL)
      .toEqual(['Day', '06:00–15:00', expect.any(String), tomorrow]);
  }, 30_000);

  it('counts the new shift in the OEE report from its effective date on, and the old one before', async () => {
    // As if the change had been made three days ago: its version takes effect on the second of the Press's
    // three days (a report never reads past now, so the days with data are past ones).
    const effective = formatDay(addDays(today, -2));
    const tomorrow = formatDay(addDays(today, 1));
    await db.db
      .updateTable('shift_versions')
      .set({ effectivedate: effective })
      .where('company_id', '=', company.id)
      .where('effectivedate', '=', tomorrow)
      .execute();
    await db.db
      .updateTable('shift_versions')
      .set({ terminationdate: effective })
      .where('company_id', '=', company.id)
      .where('terminationdate', '=', tomorrow)
      .execute();
    // The rollups of the three days as the rollup worker writes them, with the shifts as they now stand.
    await recomputeMachines(db.db, company, [press], {
      from: dayStart(-3),
      to: dayStart(0),
      now: Date.now(),
    });
    const report = async (from: number, to: number) => {
      await page.goto(`${product.url}/dashboard/oee?interval=day&start=${from}&end=${to}&machine=${press}`);
      await expect
        .poll(() => page.getByRole('heading', { level: 1 }).textContent(), POLL)
        .toBe('OEE Report for Press');
      const losses = page.getByRole('region', { name: 'Where the time went', exact: true });
      await expect.poll(() => losses.getByRole('table').count(), POLL).toBe(1);
      return async () => new Map((await tableRows(losses.getByRole('table'))).map((r) => [r[0]!, r[1]!]));
    };
    /** The tiles as label → value. */
    const tiles = () =>
      page
        .getByRole('region', { name: 'OEE and its factors for the range' })
        .locator('.tile')
        .evaluateAll((els) =>
          Object.fromEntries(
            els.map((e) => [
              e.querySelector('.tile__label')?.textContent?.trim() ?? '',
              e.querySelector('.tile__value')?.textContent?.trim() ?? '',
            ]),
          ),
        );
    const oeeFactors = async () => {
      const t = await tiles();
      return [t.OEE, t.Availability, t.Performance, t.Quality];
    };

    // From the effective date: 06:00–15:00, 9 h a day, of which the Press ran 8 (run time over shift time).
    const after = await report(dayStart(-2), dayStart(0));
    await expect.poll(async () => (await after()).get('Shift time'), POLL).toBe('18.0');
    // The rest of the two days (48 h, one more or less over a DST change) lies outside the shift.
    expect((await after()).get('Outside shifts')).toBe(((dayStart(0) - dayStart(-2)) / HOUR - 18).toFixed(1));
    // OEE = ideal time of the good parts ÷ planned production time: 2 × 48 × 8 min ÷ 18 h.
    await expect.poll(oeeFactors, POLL).toEqual(['71.1%', '88.9%', '80.0%', '100.0%']);
    await shoot('oee-after-change');

    // The day before: still 06:00–14:00, all of it run.
    const before = await report(dayStart(-3), dayStart(-2));
    await expect.poll(async () => (await before()).get('Shift time'), POLL).toBe('8.0');
    // The part counted at 14:00 falls just after the shift's end: 47 × 8 min ÷ 8 h.
    await expect.poll(oeeFactors, POLL).toEqual(['78.3%', '100.0%', '78.3%', '100.0%']);
  }, 60_000);
});
