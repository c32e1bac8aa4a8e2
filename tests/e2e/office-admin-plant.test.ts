import { describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import { addDays, formatDay, parseDay } from '@takt/domain';
import type { AnnotationType, SetupStage } from '@takt/domain';
import type { Database } from '@takt/db';
import type { Kysely } from 'kysely';
import { aUser } from '../../services/api/src/testing/builders';
import { aDowntimeReason } from '../../services/api/src/testing/downtime-builders';
import { aSetupStage, aShift } from '../../services/api/src/testing/live-builders';
import { logIn } from './harness';
import { anOfficePlant, dragAbove, officeSession, ON_SQLITE, POLL, tableRows } from './office-harness';
import type { Span } from './office-harness';

// The plant administration screens (reports-admin §2 "Administration screens", §5, §6) in Chromium on SQLite
// and PostgreSQL: an admin adds a downtime reason with a planned limit (entered in minutes, stored in ms) and
// archives it; reorders the setup stages by keyboard and by dragging, meets the "total 100" rule and saves; and
// edits a shift as a pending version effective tomorrow. A manager gets no Administration entry. Screenshots at
// 1280×800 and 390×844 go to test-results/office-admin-plant/ (gitignored).

async function seedPlant(db: Kysely<Database>, week: Span) {
  const plant = await anOfficePlant(db, week);
  const admin = await aUser(db, plant.company, { role: 'admin', displayName: 'Ada Admin' });
  await aDowntimeReason(db, plant.company, { name: 'Tool change', color: '#1f5fbf' });
  await aDowntimeReason(db, plant.company, { name: 'Break', plannedBehavior: 'planned', color: '#1b7a3a' });
  await aSetupStage(db, plant.company, { name: 'Teardown', stageOrder: 0, setupPercentage: 30 });
  await aSetupStage(db, plant.company, { name: 'Tooling', stageOrder: 1, setupPercentage: 50 });
  await aSetupStage(db, plant.company, { name: 'First article', stageOrder: 2, setupPercentage: 20 });
  await aShift(db, plant.company, {
    name: 'Day',
    startoffsetminutes: 360,
    endoffsetminutes: 840,
    byweekday: [0, 1, 2, 3, 4],
  });
  await aShift(db, plant.company, {
    name: 'Night',
    startoffsetminutes: 1320,
    endoffsetminutes: 1800,
    byweekday: [0, 1, 2, 3],
  });
  return { email: admin.email, password: admin.password, manager: plant.user };
}

/** The setup stage names in the order the list shows them. */
const stageNames = (page: Page) =>
  page
    .getByRole('list')
    .filter({ has: page.getByRole('button', { name: /^Move / }) })
    .getByRole('textbox')
    .evaluateAll((inputs) => inputs.map((i) => (i as HTMLInputElement).value));

describe.each(ON_SQLITE)('plant administration in Chromium on %s', (dialect) => {
  const office = officeSession(dialect, 'office-admin-plant', seedPlant);

  it('opens Administration from the navigation and adds, then archives a downtime reason', async () => {
    const { page, plant, product } = office;
    await logIn(page, plant, `${product.url}/app/reports`);
    await page
      .getByRole('navigation', { name: 'Main' })
      .getByRole('link', { name: 'Administration' })
      .click();
    await expect.poll(() => office.heading().textContent(), POLL).toBe('Administration');
    const links = await page.locator('.report-list__title').allTextContents();
    expect(links).toEqual([
      'Machines',
      'Machine groups',
      'Downtime reasons',
      'Reject reasons',
      'Setup stages',
      'Settings',
      'Shifts',
      'Start of day',
      'Operators',
      'Operator Runs',
      'Tablets',
    ]);
    await office.screenshots('admin-index');

    await page.getByRole('link', { name: /^Downtime reasons/ }).click();
    await expect.poll(() => office.heading().textContent(), POLL).toBe('Downtime reasons');
    const table = page.getByRole('table', { name: 'Downtime reasons' });
    await expect.poll(() => tableRows(table), POLL).toHaveLength(2);

    await page.getByRole('button', { name: 'Add downtime reason' }).click();
    const dialog = page.getByRole('dialog', { name: 'New downtime reason' });
    const save = dialog.getByRole('button', { name: 'Save' });
    // reports-admin §5: submit disabled while invalid; the spec's MissingField text.
    await dialog.getByLabel('Name').fill(' ');
    expect(await dialog.getByText('Missing required field: Name').count()).toBe(1);
    expect(await save.isDisabled()).toBe(true);
    await dialog.getByLabel('Name').fill('Coolant refill');
    await dialog.getByLabel('Planned up to a limit').check();
    // reports-admin §5: default limit 5 minutes, entered in minutes.
    const limit = dialog.getByLabel('Limit (minutes)');
    expect(await limit.inputValue()).toBe('5');
    await limit.fill('0');
    expect(await dialog.getByText('The limit must be more than 0 minutes.').count()).toBe(1);
    await limit.fill('7.5');
    await office.screenshots('reason-form');
    await save.click();
    await expect.poll(() => dialog.count(), POLL).toBe(0);
    await expect
      .poll(() => tableRows(table), POLL)
      .toContainEqual(['Coolant refill', 'Planned up to 7.5 min', 'Active', 'EditArchive']);
    // Stored in ms.
    const stored = (await (
      await page.request.get(`${product.url}/api/annotationtypes?includeHidden=true`)
    ).json()) as AnnotationType[];
    expect(stored.find((r) => r.name === 'Coolant refill')?.plannedLimitMs).toBe(450_000);

    await page.getByRole('button', { name: 'Archive Coolant refill' }).click();
    await expect
      .poll(() => tableRows(table).then((rows) => rows.map((r) => r[0])), POLL)
      .toEqual(['Break', 'Tool change']);
    await page.getByLabel('Show archived').check();
    await expect
      .poll(() => tableRows(table), POLL)
      .toContainEqual(['Coolant refill', 'Planned up to 7.5 min', 'Archived', 'Restore']);
    await office.screenshots('downtime-reasons');
  }, 120_000);

  it('adds a non-conforming reject reason', async () => {
    const { page, product } = office;
    await page.goto(`${product.url}/app/admin/reject-reasons`);
    await expect.poll(() => page.getByText('No reject reasons configured.').count(), POLL).toBe(1);
    await page.getByRole('button', { name: 'Add reject reason' }).click();
    const dialog = page.getByRole('dialog', { name: 'New reject reason' });
    // A fresh form is incomplete, not wrong: no error yet, but Save waits for a name.
    expect(await dialog.getByText('Missing required field: Name').count()).toBe(0);
    expect(await dialog.getByRole('button', { name: 'Save' }).isDisabled()).toBe(true);
    await dialog.getByLabel('Name').fill('Burr');
    await dialog.getByLabel('Non-Conforming').check();
    await office.screenshots('reject-form');
    await dialog.getByRole('button', { name: 'Save' }).click();
    await expect
      .poll(() => tableRows(page.getByRole('table', { name: 'Reject reasons' })), POLL)
      .toEqual([['Burr', 'Non-Conforming', 'Offered', 'Active', 'EditArchive']]);
    await office.screenshots('reject-reasons');
  }, 60_000);

  it('reorders the setup stages by keyboard and by dragging, keeping the total at 100', async () => {
    const { page, product } = office;
    await page.goto(`${product.url}/app/admin/setup-stages`);
    await expect.poll(() => office.heading().textContent(), POLL).toBe('Setup stages');
    await expect.poll(() => stageNames(page), POLL).toEqual(['Teardown', 'Tooling', 'First article']);

    // Keyboard: focus the handle, arrow up.
    await page.getByRole('button', { name: 'Move Tooling' }).focus();
    await page.keyboard.press('ArrowUp');
    await expect.poll(() => stageNames(page)).toEqual(['Tooling', 'Teardown', 'First article']);
    await expect.poll(() => page.getByText('Tooling moved to position 1 of 3.').count()).toBe(1);
    // Focus stays on the moved row's handle, so a second press keeps moving it.
    await page.keyboard.press('ArrowDown');
    await page.keyboard.press('ArrowDown');
    await expect.poll(() => stageNames(page)).toEqual(['Teardown', 'First article', 'Tooling']);

    // Pointer: drag First article above Teardown.
    await dragAbove(
      page,
      page.getByRole('button', { name: 'Move First article' }),
      page.getByRole('button', { name: 'Move Teardown' }),
    );
    await expect.poll(() => stageNames(page)).toEqual(['First article', 'Teardown', 'Tooling']);

    // reports-admin §5: percentages total exactly 100.
    const save = page.getByRole('button', { name: 'Save', exact: true });
    const pct = page.getByLabel('Share of setup for Teardown (%)');
    await pct.fill('40');
    await expect.poll(() => page.getByText('Setup stage percentages must total 100').count()).toBe(1);
    expect(await page.getByText('Total: 110%').count()).toBe(1);
    expect(await save.isDisabled()).toBe(true);
    await office.screenshots('setup-stages-wrong-total');
    await pct.fill('30');
    expect(await page.getByText('Setup stage percentages must total 100').count()).toBe(0);
    await save.click();
    await expect.poll(() => page.getByText('Setup stages saved.').count(), POLL).toBe(1);

    const saved = (await (await page.request.get(`${product.url}/api/setup/stages`)).json()) as SetupStage[];
    expect(saved.map((s) => [s.name, s.stageOrder, s.setupPercentage])).toEqual([
      ['First article', 0, 20],
      ['Teardown', 1, 30],
      ['Tooling', 2, 50],
    ]);
    await page.reload();
    await expect.poll(() => stageNames(page), POLL).toEqual(['First article', 'Teardown', 'Tooling']);
    await office.screenshots('setup-stages');
  }, 120_000);

  it('edits a shift as a pending change effective tomorrow', async () => {
    const { page, product } = office;
    await page.goto(`${product.url}/app/admin/shifts`);
    await expect.poll(() => office.heading().textContent(), POLL).toBe('Shifts');
    const table = page.getByRole('table', { name: 'Shifts' });
    await expect
      .poll(() => tableRows(table), POLL)
      .toEqual([
        ['Day', '06:00–14:00', 'Mon, Tue, Wed, Thu, Fri', '2020-01-01', 'Running', 'EditTerminate'],
        ['Night', '22:00–06:00', 'Mon, Tue, Wed, Thu', '2020-01-01', 'Running', 'EditTerminate'],
      ]);

    await page.getByRole('button', { name: 'Edit Day' }).click();
    const dialog = page.getByRole('dialog', { name: 'Edit shift' });
    // A rename needs no date; new times do (reports-admin §5).
    expect(await dialog.getByLabel('Effective Date').count()).toBe(0);
    await dialog.getByLabel('End').fill('15:00');
    const date = dialog.getByLabel('Effective Date');
    const tomorrow = await date.inputValue();
    expect(tomorrow).toMatch(/^\d{4}-\d{2}-\d{2}$/);
    expect(await date.getAttribute('min')).toBe(tomorrow);
    await date.fill('2020-01-02');
    expect(
      await dialog.getByText('The effective date must be from tomorrow to one month ahead.').count(),
    ).toBe(1);
    await date.fill(tomorrow);
    await office.screenshots('shift-form');
    await dialog.getByRole('button', { name: 'Save' }).click();
    await expect.poll(() => dialog.count(), POLL).toBe(0);

    await expect
      .poll(() => tableRows(table).then((rows) => rows[0]), POLL)
      .toEqual([
        'Day',
        '06:00–14:00',
        'Mon, Tue, Wed, Thu, Fri',
        '2020-01-01',
        `Changes on ${tomorrow}`,
        'EditDelete pending changeTerminate',
      ]);
    await page.getByLabel('Latest and future').check();
    await expect
      .poll(() => tableRows(table).then((rows) => rows[0]!.slice(0, 4)))
      .toEqual(['Day', '06:00–15:00', 'Mon, Tue, Wed, Thu, Fri', tomorrow]);
    await office.screenshots('shifts');

    // Terminate Night from tomorrow, then undo it (reports-admin §4).
    await page.getByRole('button', { name: 'Terminate Night' }).click();
    const terminate = page.getByRole('dialog', { name: 'Terminate Night' });
    expect(await terminate.getByLabel('Termination date').inputValue()).toBe(tomorrow);
    await terminate.getByRole('button', { name: 'Terminate' }).click();
    await expect
      .poll(() => tableRows(table).then((rows) => rows[1]!.slice(4)), POLL)
      .toEqual([`Ends on ${tomorrow}`, 'Undo termination']);
    await page.getByRole('button', { name: 'Undo termination of Night' }).click();
    await expect
      .poll(() => tableRows(table).then((rows) => rows[1]!.slice(4)), POLL)
      .toEqual(['Running', 'EditTerminate']);

    // Delete the pending change of Day: back to 06:00–14:00.
    await page.getByRole('button', { name: 'Delete pending change of Day' }).click();
    await page
      .getByRole('dialog', { name: 'Delete pending change of Day' })
      .getByRole('button', { name: 'Delete pending change' })
      .click();
    await expect
      .poll(() => tableRows(table).then((rows) => rows[0]!.slice(1, 5)), POLL)
      .toEqual(['06:00–14:00', 'Mon, Tue, Wed, Thu, Fri', '2020-01-01', 'Running']);
  }, 120_000);

  it('enables setup stages with the company name, schedules a start-of-day change and adds an operator', async () => {
    const { page, product } = office;
    await page.goto(`${product.url}/app/admin/settings`);
    await expect.poll(() => office.heading().textContent(), POLL).toBe('Settings');
    await page.getByRole('button', { name: 'Enable setup stages' }).click();
    const dialog = page.getByRole('dialog', { name: 'Enable setup stages' });
    const confirm = dialog.getByRole('button', { name: 'Enable setup stages' });
    // reports-admin §5: enabling setup stages requires typing the company name.
    await dialog.getByLabel('Company name').fill('Acme');
    expect(await confirm.isDisabled()).toBe(true);
    await dialog.getByLabel('Company name').fill('Acme Machining');
    await office.screenshots('settings-confirm');
    await confirm.click();
    await expect.poll(() => page.getByText('Setup stages are on', { exact: false }).count(), POLL).toBe(1);
    await office.screenshots('settings');

    await page.goto(`${product.url}/app/admin/start-of-day`);
    await expect.poll(() => office.heading().textContent(), POLL).toBe('Start of day');
    await expect.poll(() => page.getByText('The day starts at 00:00.').count(), POLL).toBe(1);
    await page.getByLabel('Start of Day', { exact: true }).fill('22:00');
    // The day after tomorrow: from 22:00 on, tomorrow under the new start has already begun, and a change to a
    // day under way takes effect at once (decision 0703), which the API tests cover.
    const effective = page.getByLabel('Effective Date');
    const later = formatDay(addDays(parseDay(await effective.inputValue()), 1));
    await effective.fill(later);
    await page.getByRole('button', { name: 'Schedule change' }).click();
    await expect
      .poll(() => page.getByText(`From ${later} the day starts at 22:00 the evening before.`).count(), POLL)
      .toBe(1);
    await office.screenshots('start-of-day');

    await page.goto(`${product.url}/app/admin/operators`);
    await expect.poll(() => page.getByText('No Operators configured.').count(), POLL).toBe(1);
    await page.getByRole('button', { name: 'Add operator' }).click();
    const form = page.getByRole('dialog', { name: 'New operator' });
    await form.getByLabel('Name').fill('Olga Operator');
    await form.getByLabel('ERP ID').fill('E-17');
    await form.getByRole('button', { name: 'Save' }).click();
    const table = page.getByRole('table', { name: 'Operators' });
    await expect
      .poll(() => tableRows(table), POLL)
      .toEqual([['Olga Operator', 'E-17', '0', 'Active', 'EditArchiveDelete']]);
    await office.screenshots('operators');
    await page.getByRole('button', { name: 'Delete Olga Operator' }).click();
    await page
      .getByRole('dialog', { name: 'Delete Olga Operator' })
      .getByRole('button', { name: 'Delete' })
      .click();
    await expect.poll(() => page.getByText('No Operators configured.').count(), POLL).toBe(1);
  }, 120_000);

  it('gives a manager no Administration entry and the not-permitted notice', async () => {
    const { page, plant, product } = office;
    await page.context().clearCookies();
    await logIn(page, plant.manager, `${product.url}/app/admin/shifts`);
    await expect
      .poll(() => page.getByText('Your plan or role does not include this page.').count(), POLL)
      .toBe(1);
    expect(await page.getByRole('link', { name: 'Administration' }).count()).toBe(0);
  }, 60_000);
});
