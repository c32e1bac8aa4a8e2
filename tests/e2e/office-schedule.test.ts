import { describe, expect, it } from 'vitest';
import { companyScope } from '@takt/db';
import type { Database } from '@takt/db';
import type { Kysely } from 'kysely';
import { insertSetupStage } from '../../services/api/src/repositories/setup-stages';
import { aUser } from '../../services/api/src/testing/builders';
import { logIn } from './harness';
import { aJobPlant } from './job-plant';
import { officeSession, ON_SQLITE, POLL } from './office-harness';

// The schedule (job runs) timeline (reports-admin §2 "Schedule (job runs) timeline with zoom, create, edit,
// duplicate, delete"; §5 "Schedule form: at least one shift unless labor activities"; §9 zoom 1 to 31 days;
// decision 0910) in Chromium on SQLite (decision 0871): last week's lanes with Flange on the Lathe and Bracket
// on the Mill (job-plant.ts); a run created on the Press, edited, duplicated and deleted; then one planned with
// the second form as the company's setup stages (decision 0940). Screenshots at desk and phone widths, zoom 1,
// 7 and 31 days, go to test-results/office-schedule/ (gitignored).

interface Plant {
  email: string;
  password: string;
}

async function seedPlant(db: Kysely<Database>, range: { start: number; end: number }, now: number) {
  const { company } = await aJobPlant(db, range, now);
  // Changing the schedule is for administrators.
  const admin = await aUser(db, company, { role: 'admin', displayName: 'Ada Admin' });
  // The company uses setup stages (reports-admin §2 Settings): Fixture 25 %, then First article 75 %.
  await db.updateTable('companies').set({ enable_setup_stages: 1 }).where('id', '=', company.id).execute();
  const scope = companyScope(db, company.id);
  await insertSetupStage(scope, { name: 'First article', stageOrder: 2, setupPercentage: 75 });
  await insertSetupStage(scope, { name: 'Fixture', stageOrder: 1, setupPercentage: 25 });
  return { email: admin.email, password: admin.password } satisfies Plant;
}

/** The company day (America/Chicago) of an instant as YYYY-MM-DD. */
const dayOf = (t: number) => new Intl.DateTimeFormat('en-CA', { timeZone: 'America/Chicago' }).format(t);

describe.each(ON_SQLITE)('the schedule in Chromium on %s', (dialect) => {
  const office = officeSession(dialect, 'office-schedule', seedPlant);

  it('shows the week by machine, and creates, edits, duplicates and deletes a run', async () => {
    const { page } = office;
    const monday = dayOf(office.week.start + 12 * 3600 * 1000);
    const thursday = dayOf(office.week.start + (3 * 24 + 12) * 3600 * 1000);
    await logIn(page, office.plant, `${office.product.url}/app/production/schedule?start=${monday}&days=7`);
    await expect.poll(() => office.heading().textContent(), POLL).toBe('Schedule');
    await office.settled();
    const lane = (name: string) => page.getByRole('listitem', { name, exact: true });
    const bars = (name: string) => lane(name).getByRole('button');
    await expect.poll(() => bars('Lathe').count(), POLL).toBe(1);
    await expect.poll(() => bars('Lathe').first().getAttribute('aria-label'), POLL).toMatch(/^Flange, /);
    await expect.poll(() => bars('Mill').first().getAttribute('aria-label'), POLL).toMatch(/^Bracket, /);
    await expect.poll(() => bars('Press').count(), POLL).toBe(0);
    // Zoom (§9): one day from Monday shows neither run (Tuesday and Wednesday).
    await page.getByLabel('Zoom').selectOption({ label: '1 day' });
    await expect.poll(() => new URL(page.url()).searchParams.get('days')).toBe('1');
    await office.settled();
    await expect.poll(() => page.getByText('No job runs in this window.').count(), POLL).toBe(1);
    await page.getByLabel('Zoom').selectOption({ label: '7 days' });
    await office.settled();
    await expect.poll(() => bars('Lathe').count(), POLL).toBe(1);
    await office.screenshots('schedule');

    // Create: Bracket on the Press, Thursday 06:00–08:00, in the Day shift (checked by default).
    await page.getByRole('button', { name: 'New job run' }).click();
    const form = page.getByRole('dialog', { name: 'New job run' });
    await form.getByLabel('Job', { exact: true }).selectOption({ label: 'Bracket' });
    await form.getByLabel('Machine', { exact: true }).selectOption({ label: 'Press' });
    await form.getByLabel('Start', { exact: true }).fill(`${thursday}T06:00`);
    await form.getByRole('radio', { name: 'On a date' }).first().check();
    await form.getByLabel('End', { exact: true }).fill(`${thursday}T08:00`);
    await expect.poll(() => form.getByRole('checkbox', { name: 'Day' }).isChecked(), POLL).toBe(true);
    await form.getByLabel('Part changeover time (s)').fill('45');
    await office.screenshots('schedule-new');
    await page.getByRole('button', { name: 'Save', exact: true }).click();
    await expect.poll(() => page.getByText('The job run is saved.').count(), POLL).toBeGreaterThan(0);
    await office.settled();
    await expect.poll(() => bars('Press').count(), POLL).toBe(1);
    await expect.poll(() => bars('Press').first().getAttribute('aria-label'), POLL).toMatch(/^Bracket, /);

    // Edit: §5 at least one shift (Save disabled without), then a 5-minute expected cycle.
    await bars('Press').first().click();
    const edit = page.getByRole('dialog', { name: 'Edit job run' });
    await expect.poll(() => edit.getByLabel('Part changeover time (s)').inputValue(), POLL).toBe('45');
    const save = page.getByRole('button', { name: 'Save', exact: true });
    await edit.getByRole('checkbox', { name: 'Day' }).uncheck();
    await expect.poll(() => edit.getByText('Choose at least one shift').count(), POLL).toBe(1);
    await expect.poll(() => save.isDisabled(), POLL).toBe(true);
    await edit.getByRole('checkbox', { name: 'Day' }).check();
    await edit.getByLabel('Expected cycle time (s)').fill('300');
    await expect.poll(() => save.isDisabled(), POLL).toBe(false);
    await save.click();
    await office.settled();
    await expect.poll(() => page.getByRole('dialog').count(), POLL).toBe(0);
    await bars('Press').first().click();
    await expect
      .poll(
        () =>
          page
            .getByRole('dialog', { name: 'Edit job run' })
            .getByLabel('Expected cycle time (s)')
            .inputValue(),
        POLL,
      )
      .toBe('300');

    // Duplicate: right after the run, as long.
    await page.getByRole('button', { name: 'Duplicate', exact: true }).click();
    const copy = page.getByRole('dialog', { name: 'Duplicate job run' });
    await expect
      .poll(() => copy.getByLabel('Start', { exact: true }).inputValue(), POLL)
      .toBe(`${thursday}T08:00`);
    await page.getByRole('button', { name: 'Save', exact: true }).click();
    await office.settled();
    await expect.poll(() => bars('Press').count(), POLL).toBe(2);

    // Delete the copy, after "Are you sure?" (UI.md: destructive actions confirm).
    await bars('Press').nth(1).click();
    await page.getByRole('button', { name: 'Delete', exact: true }).click();
    await expect.poll(() => page.getByText(/^Are you sure\?/).count(), POLL).toBe(1);
    await page.getByRole('button', { name: 'Yes, delete' }).click();
    await office.settled();
    await expect.poll(() => bars('Press').count(), POLL).toBe(1);
    await expect.poll(() => bars('Lathe').count(), POLL).toBe(1);

    // The form with setup stages (§2 "two forms"; §5): Flange on the Press on Friday 06:00–10:00, a planned
    // setup of 20 min as Fixture (25 %, 5 min) then First article (75 %, 15 min), production from 06:20.
    const friday = dayOf(office.week.start + (4 * 24 + 12) * 3600 * 1000);
    await page.getByRole('button', { name: 'New job run' }).click();
    const staged = page.getByRole('dialog', { name: 'New job run' });
    await staged.getByRole('radio', { name: 'Setup stages' }).check();
    await expect.poll(() => staged.getByRole('checkbox', { name: 'Day' }).count(), POLL).toBe(0);
    await staged.getByLabel('Job', { exact: true }).selectOption({ label: 'Flange' });
    await staged.getByLabel('Machine', { exact: true }).selectOption({ label: 'Press' });
    await staged.getByLabel('Start', { exact: true }).fill(`${friday}T06:00`);
    await staged.getByRole('radio', { name: 'On a date' }).check();
    await staged.getByLabel('End', { exact: true }).fill(`${friday}T10:00`);
    await staged.getByRole('radio', { name: 'Planned', exact: true }).check();
    await staged.getByLabel('Setup time (min)').fill('20');
    const plan = staged.getByRole('table', { name: 'Setup stages' });
    await expect
      .poll(() => plan.getByRole('row').allInnerTexts(), POLL)
      .toEqual([
        expect.stringMatching(/^Stage/),
        'Fixture\t25\u00a0%\t5\t06:00–06:05',
        'First article\t75\u00a0%\t15\t06:05–06:20',
        'Production\t\t\tfrom 06:20',
      ]);
    if (dialect === 'sqlite') {
      await plan.scrollIntoViewIfNeeded();
      await office.screenshots('schedule-stages');
    }
    await page.getByRole('button', { name: 'Save', exact: true }).click();
    await expect.poll(() => page.getByRole('dialog').count(), POLL).toBe(0);
    await office.settled();
    await expect.poll(() => bars('Press').count(), POLL).toBe(2);
    await expect.poll(() => bars('Press').nth(1).getAttribute('aria-label'), POLL).toMatch(/^Flange, /);
    // It opens again in the form it was planned with, its stages as saved.
    await bars('Press').nth(1).click();
    const again = page.getByRole('dialog', { name: 'Edit job run' });
    await expect.poll(() => again.getByRole('radio', { name: 'Setup stages' }).isChecked(), POLL).toBe(true);
    await expect.poll(() => again.getByLabel('Setup time (min)').inputValue(), POLL).toBe('20');
    await again.getByRole('button', { name: 'Cancel' }).click();

    // Labels at wide zooms (§9 1 to 31 days): the job names read under their bars.
    if (dialect === 'sqlite') {
      await page.getByLabel('Zoom').selectOption({ label: '31 days' });
      await office.settled();
      await expect
        .poll(() => lane('Press').locator('.schedule__label').allInnerTexts(), POLL)
        .toEqual(['Bracket', 'Flange']);
      await office.screenshots('schedule-31-days');
      await page.getByLabel('From').fill(friday);
      await page.getByLabel('Zoom').selectOption({ label: '1 day' });
      await office.settled();
      await office.screenshots('schedule-1-day');
    }
  }, 180_000);
});
