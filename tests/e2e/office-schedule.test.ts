import { describe, expect, it } from 'vitest';
import type { Database } from '@takt/db';
import { DIALECTS } from '@takt/db/testing';
import type { Kysely } from 'kysely';
import { aUser } from '../../services/api/src/testing/builders';
import { logIn } from './harness';
import { aJobPlant } from './job-plant';
import { officeSession, POLL } from './office-harness';

// The schedule (job runs) timeline (reports-admin §2 "Schedule (job runs) timeline with zoom, create, edit,
// duplicate, delete"; §5 "Schedule form: at least one shift unless labor activities"; §9 zoom 1 to 31 days;
// decision 0910) in Chromium on SQLite and PostgreSQL: last week's lanes with Flange on the Lathe and Bracket
// on the Mill (job-plant.ts); a run created on the Press, edited, duplicated and deleted. Screenshots at desk
// and phone widths go to test-results/office-schedule/ (gitignored).

interface Plant {
  email: string;
  password: string;
}

async function seedPlant(db: Kysely<Database>, range: { start: number; end: number }, now: number) {
  const { company } = await aJobPlant(db, range, now);
  // Changing the schedule is for administrators.
  const admin = await aUser(db, company, { role: 'admin', displayName: 'Ada Admin' });
  return { email: admin.email, password: admin.password } satisfies Plant;
}

/** The company day (America/Chicago) of an instant as YYYY-MM-DD. */
const dayOf = (t: number) => new Intl.DateTimeFormat('en-CA', { timeZone: 'America/Chicago' }).format(t);

describe.each(DIALECTS)('the schedule in Chromium on %s', (dialect) => {
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
    if (dialect === 'sqlite') await office.screenshots('schedule');

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
    if (dialect === 'sqlite') await office.screenshots('schedule-new');
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
  }, 180_000);
});
