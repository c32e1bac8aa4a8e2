import { describe, expect, it } from 'vitest';
import {
  addDays,
  civilFromDay,
  epochMs,
  formatDateEntry,
  formatElapsed,
  formatTimeEntry,
  shopDateOf,
  toWall,
} from '@takt/domain';
import type { Database } from '@takt/db';
import type { Kysely } from 'kysely';
import { aUser } from '../../services/api/src/testing/builders';
import { anOperator, anOperatorRun } from '../../services/api/src/testing/live-builders';
import { logIn } from './harness';
import { anOfficePlant, CLOCK, officeSession, ON_SQLITE, POLL, tableRows } from './office-harness';
import type { Span } from './office-harness';

// The operator runs screen (live-operations §2, decision 1091) and typed date entry (live-operations §5,
// reports-admin §5, decision 1092) in Chromium: an admin opens Operator Runs from Administration, filters by
// operator and machine, meets the calendar's max (tomorrow is disabled) and a typed date in format l, corrects a
// run (a typed hour past 23 and an end before the start are refused in words, an overlap is refused by the
// server) and ends the open run. Screenshots at 1280×800 and 390×844 go to test-results/office-operator-runs/.

const MIN = 60_000;
const HOUR = 60 * MIN;

async function seedRuns(db: Kysely<Database>, week: Span, now: number) {
  const plant = await anOfficePlant(db, week);
  const admin = await aUser(db, plant.company, { role: 'admin', displayName: 'Ada Admin' });
  const T = Math.floor(now / MIN) * MIN;
  const ann = await anOperator(db, plant.company, { name: 'Ann' });
  const bob = await anOperator(db, plant.company, { name: 'Bob' });
  const { company, lathe, mill } = plant;
  await anOperatorRun(db, company, {
    machineId: mill,
    operatorId: ann,
    startAt: T - 26 * HOUR,
    endAt: T - 25 * HOUR,
  });
  await anOperatorRun(db, company, {
    machineId: lathe,
    operatorId: ann,
    startAt: T - 5 * HOUR,
    endAt: T - 3 * HOUR,
  });
  await anOperatorRun(db, company, { machineId: lathe, operatorId: bob, startAt: T - 2 * HOUR });
  return { email: admin.email, password: admin.password, T };
}

/** What the typed fields show for a time on the company's wall clock. */
const wallDate = (t: number) => formatDateEntry(toWall(CLOCK.timezone, epochMs(t)).day);
const wallTime = (t: number) => formatTimeEntry(toWall(CLOCK.timezone, epochMs(t)).msOfDay);

describe.each(ON_SQLITE)('operator runs in Chromium on %s', (dialect) => {
  const office = officeSession(dialect, 'office-operator-runs', seedRuns);

  it('lists, filters, corrects and ends operator runs with typed dates and times', async () => {
    const { page, plant, product } = office;
    const { T } = plant;
    // The page counts an open run to its minute clock, read when it mounts: somewhere from now to the list's check.
    const openFrom = Date.now();
    await logIn(page, plant, `${product.url}/app/admin`);
    await page.getByRole('link', { name: /^Operator Runs/ }).click();
    await expect.poll(() => office.heading().textContent(), POLL).toBe('Operator Runs');
    const table = page.getByRole('table', { name: 'Operator runs' });
    // The machines' names arrive with their own request ('-' until then): wait for the whole list.
    const summary = (rows: string[][]) => rows.map((r) => [r[0], r[1], r[0] === 'Bob' ? 'open' : r[4]]);
    await expect
      .poll(async () => summary(await tableRows(table)), POLL)
      .toEqual([
        ['Bob', 'Lathe', 'open'],
        ['Ann', 'Lathe', '2:00:00'],
        ['Ann', 'Mill', '1:00:00'],
      ]);
    const rows = await tableRows(table);
    const bobOpen = new Set<string>();
    for (let m = Math.floor(openFrom / MIN); m <= Math.floor(Date.now() / MIN); m++)
      bobOpen.add(formatElapsed(T - 2 * HOUR, m * MIN));
    expect(bobOpen).toContain(rows[0]![4]);
    expect(summary(rows)).toEqual([
      ['Bob', 'Lathe', 'open'],
      ['Ann', 'Lathe', '2:00:00'],
      ['Ann', 'Mill', '1:00:00'],
    ]);
    expect(rows[0]![3]).toBe('Open');
    await office.screenshots('operator-runs');

    // Filters: operator, then machine; both in the URL.
    await page.getByLabel('Operator', { exact: true }).selectOption({ label: 'Ann' });
    await expect.poll(async () => (await tableRows(table)).map((r) => r[1]), POLL).toEqual(['Lathe', 'Mill']);
    await page.getByLabel('Machine', { exact: true }).selectOption({ label: 'Lathe' });
    await expect.poll(async () => (await tableRows(table)).map((r) => r[0]), POLL).toEqual(['Ann']);
    await page.getByLabel('Operator', { exact: true }).selectOption({ label: 'All operators' });
    await expect.poll(async () => (await tableRows(table)).map((r) => r[0]), POLL).toEqual(['Bob', 'Ann']);
    const url = new URL(page.url());
    expect(url.searchParams.get('machine')).toBeTruthy();
    expect(url.searchParams.get('operator')).toBeNull();

    // The calendar stops at now: tomorrow is disabled and marked; a date typed in format l is taken.
    await page.getByRole('button', { name: /^Date range:/ }).click();
    const menu = page.getByRole('dialog', { name: 'Date range' });
    const today = shopDateOf(CLOCK, epochMs(T));
    const dayLabel = (d: number) =>
      new Intl.DateTimeFormat('en-US', { dateStyle: 'full', timeZone: 'UTC' }).format(
        new Date(d * 86_400_000),
      );
    const tomorrow = menu.getByRole('button', { name: dayLabel(addDays(today, 1)) });
    if ((await tomorrow.count()) === 0) await menu.getByRole('button', { name: 'Next' }).click();
    await expect.poll(() => tomorrow.first().getAttribute('data-mark'), POLL).toBe('invalid-max');
    expect(await tomorrow.first().isDisabled()).toBe(true);
    expect(
      await menu
        .getByRole('button', { name: dayLabel(today) })
        .first()
        .isDisabled(),
    ).toBe(false);
    const start = menu.getByLabel('Start', { exact: true });
    await start.fill('13/45/2026');
    await start.blur();
    await expect
      .poll(() => menu.getByText('Enter the date as MM/DD/YYYY or M/D/YYYY.').count(), POLL)
      .toBe(1);
    expect(await page.getByRole('button', { name: 'Apply', exact: true }).isDisabled()).toBe(true);
    const yesterday = addDays(today, -1);
    const c = civilFromDay(yesterday);
    await start.fill(`${c.month}/${c.day}/${c.year}`);
    await expect
      .poll(() => menu.getByText('Enter the date as MM/DD/YYYY or M/D/YYYY.').count(), POLL)
      .toBe(0);
    await office.screenshots('operator-runs-range-menu');
    await page.getByRole('button', { name: 'Apply', exact: true }).click();
    await expect
      .poll(() => shopDateOf(CLOCK, epochMs(Number(new URL(page.url()).searchParams.get('start')))), POLL)
      .toBe(yesterday);

    // Correct Ann's run on the Lathe: typed times within their limits, end after start.
    await page.getByRole('button', { name: /^Correct Ann, Lathe/ }).click();
    const dialog = page.getByRole('dialog', { name: /^Correct the run of Ann on Lathe/ });
    const endTime = dialog.getByLabel('End time', { exact: true });
    expect(await dialog.getByLabel('Start', { exact: true }).inputValue()).toBe(wallDate(T - 5 * HOUR));
    expect(await endTime.inputValue()).toBe(wallTime(T - 3 * HOUR));
    await endTime.fill('25:00');
    await endTime.blur();
    await expect.poll(() => dialog.getByText('Hours go up to 23.').count(), POLL).toBe(1);
    const save = dialog.getByRole('button', { name: 'Save' });
    expect(await save.isDisabled()).toBe(true);
    await endTime.fill(wallTime(T - 6 * HOUR));
    await dialog.getByLabel('End', { exact: true }).fill(wallDate(T - 6 * HOUR));
    await expect.poll(() => dialog.getByText('Start Date must be before End Date').count(), POLL).toBe(1);
    expect(await save.isDisabled()).toBe(true);
    // Into Bob's run: the server refuses the overlap in words.
    await dialog.getByLabel('End', { exact: true }).fill(wallDate(T - HOUR));
    await endTime.fill(wallTime(T - HOUR));
    await expect.poll(() => save.isDisabled(), POLL).toBe(false);
    await save.click();
    await expect
      .poll(() => dialog.getByText('That time overlaps the run of Bob on this machine.').count(), POLL)
      .toBe(1);
    await office.screenshots('operator-runs-correct');
    await dialog.getByLabel('End', { exact: true }).fill(wallDate(T - 150 * MIN));
    await endTime.fill(wallTime(T - 150 * MIN));
    await save.click();
    await expect.poll(() => page.getByText('The operator run has been updated.').count(), POLL).toBe(1);
    await expect
      .poll(async () => (await tableRows(table)).find((r) => r[0] === 'Ann')?.[4], POLL)
      .toBe('2:30:00');

    // End Bob's open run now.
    await page.getByRole('button', { name: 'End now: Bob, Lathe' }).click();
    const confirm = page.getByRole('dialog', { name: 'End now' });
    await expect.poll(() => confirm.getByText('End the run of Bob on Lathe now?').count(), POLL).toBe(1);
    await confirm.getByRole('button', { name: 'End now' }).click();
    await expect.poll(() => page.getByText('The operator run has been ended.').count(), POLL).toBe(1);
    await expect
      .poll(async () => (await tableRows(table)).find((r) => r[0] === 'Bob')?.[3], POLL)
      .not.toBe('Open');
    expect(await page.getByRole('button', { name: /^End now/ }).count()).toBe(0);
  }, 120_000);
});
