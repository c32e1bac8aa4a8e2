import { describe, expect, it } from 'vitest';
import type { Locator, Page } from 'playwright-core';
import type { Database } from '@takt/db';
import type { Kysely } from 'kysely';
import {
  aDowntimeReason,
  aJobRun,
  anAnnotation,
  HOUR,
  MIN,
  someStates,
} from '../../services/api/src/testing/downtime-builders';
import { someCycles } from '../../services/api/src/testing/report-plant';
import { logIn } from './harness';
import { anOfficePlant, officeSession, ON_POSTGRES, POLL, tableRows } from './office-harness';
import type { Span } from './office-harness';

// The Machine timeline of the office app (reports-admin §2 "Machine timeline", §4 categorize form, §5 saving
// rules and period links, §9 zoom) in Chromium, on PostgreSQL (decision 0871). A manager opens a machine's
// timeline over four hours of yesterday, sees its lanes drawn on the canvas, zooms, clicks an uncategorized
// stop, gives it a reason and finds it in the annotation grid. Screenshots at desk and phone widths go to
// test-results/office-timeline/ (gitignored).

interface Plant {
  email: string;
  password: string;
  lathe: string;
  start: number;
  end: number;
}

/**
 * The office plant's Lathe (office-harness.ts; its week is not used here) over four hours [T, T + 4 h) ending
 * at least a day ago: runs job Bracket with a part a minute,
 * program O1000 then O2000, stops for a tool change (categorized) at T + 0:40–1:00, stops without a reason at
 * T + 2:00–2:25, and faults at T + 3:10–3:15 (a slow part after it).
 */
async function seedPlant(db: Kysely<Database>, week: Span, now: number): Promise<Plant> {
  const { company, user, lathe, scope } = await anOfficePlant(db, week);
  const T = Math.floor((now - 30 * HOUR) / HOUR) * HOUR;
  const at = (h: number, m = 0) => T + h * HOUR + m * MIN;
  await aDowntimeReason(db, company, { name: 'Break', plannedBehavior: 'planned', color: '#00838f' });
  const tool = await aDowntimeReason(db, company, {
    name: 'Tool change',
    plannedBehavior: 'unplanned',
    color: '#e07b00',
  });
  await someStates(db, company, lathe, [
    [at(0), at(0, 40), 'ACTIVE'],
    [at(0, 40), at(1), 'INACTIVE'],
    [at(1), at(2), 'ACTIVE'],
    [at(2), at(2, 25), 'INACTIVE'],
    [at(2, 25), at(3, 10), 'ACTIVE'],
    [at(3, 10), at(3, 15), 'FAULT'],
    [at(3, 15), at(4), 'ACTIVE'],
  ]);
  await anAnnotation(db, company, { machineId: lathe, start: at(0, 40), end: at(1), typeId: tool.id });
  await aJobRun(db, company, lathe, { start: at(0), end: at(4), jobName: 'Bracket' });
  await scope
    .insertInto('program_intervals', [
      { machine_id: lathe, sub: 0, start_at: at(0), end_at: at(2), name: 'O1000' },
      { machine_id: lathe, sub: 0, start_at: at(2), end_at: at(4), name: 'O2000' },
      { machine_id: lathe, sub: 1, start_at: at(1, 5), end_at: at(1, 20), name: 'SUB10' },
    ])
    .execute();
  await scope
    .insertInto('faults', {
      machine_id: lathe,
      item: 'system',
      start_at: at(3, 10),
      end_at: at(3, 15),
      value: 'Spindle overload',
      nativecode: 'E42',
      type: 'SYSTEM',
    })
    .execute();
  // A part a minute while active; the first after the fault took 7 minutes (slow).
  const cycles: { start: number; end: number }[] = [];
  for (const [from, to] of [
    [at(0), at(0, 40)],
    [at(1), at(2)],
    [at(2, 25), at(3, 10)],
    [at(3, 15), at(4)],
  ] as const) {
    for (let t = from; t + MIN <= to; t += MIN) cycles.push({ start: t, end: t + MIN });
  }
  cycles.push({ start: at(3, 8), end: at(3, 15) + 30_000 });
  await someCycles(scope, lathe, cycles);
  return { email: user.email, password: user.password, lathe, start: at(0), end: at(4) };
}

const heading = (page: Page) => page.getByRole('heading', { level: 1 });
const grid = (page: Page) => page.getByRole('table', { name: 'Downtime periods' });

/** How many distinct colours the canvas shows along a horizontal line through a lane (y in CSS px). */
function coloursAlong(canvas: Locator, y: number): Promise<number> {
  return canvas.evaluate((el, yCss) => {
    const c = el as HTMLCanvasElement;
    const ctx = c.getContext('2d')!;
    const dpr = c.width / c.clientWidth;
    const row = ctx.getImageData(0, Math.round(yCss * dpr), c.width, 1).data;
    const seen = new Set<string>();
    for (let i = 0; i < row.length; i += 4) seen.add(`${row[i]},${row[i + 1]},${row[i + 2]}`);
    return seen.size;
  }, y);
}

describe.each(ON_POSTGRES)('the Machine timeline in Chromium on %s', (dialect) => {
  const office = officeSession(dialect, 'office-timeline', seedPlant);
  const screenshots = async (name: string) => {
    await office.screenshots(name);
  };

  it('opens the timeline of a machine with its lanes, the grid and the period links', async () => {
    const { page, plant, product } = office;
    const url = `/machine/${plant.lathe}/timeline?interval=hour&start=${plant.start}&end=${plant.end}`;
    await page.goto(`${product.url}${url}`);
    await logIn(page, plant);
    await expect.poll(() => heading(page).textContent(), POLL).toBe('Timeline for Lathe');
    const canvas = page.getByRole('img', { name: /^Timeline of Lathe/ });
    await expect.poll(() => canvas.count(), POLL).toBe(1);
    await expect.poll(() => grid(page).count(), POLL).toBe(1);

    // The state lane (the first, under the 26-px axis) shows several colours: active, idle, unavailable.
    await expect.poll(() => coloursAlong(canvas, 26 + 17), POLL).toBeGreaterThanOrEqual(3);
    // The lanes' legend names the states in words, not colour alone.
    for (const name of ['Active', 'Idle', 'Setup', 'Unavailable', 'Uncategorized']) {
      expect(await page.locator('.timeline__legend').getByText(name, { exact: true }).count()).toBe(1);
    }

    expect(await tableRows(grid(page))).toEqual([
      [expect.any(String), '20.00', 'Tool change', '', 'Unplanned', 'ShowCategorize'],
      [expect.any(String), '25.00', 'Uncategorized', '', '', 'ShowCategorize'],
      // The fault is downtime too (a non-active state).
      [expect.any(String), '5.00', 'Uncategorized', '', '', 'ShowCategorize'],
    ]);
    // A past range: both period links work; the next one is a link, not a disabled button.
    const periods = page.getByRole('navigation', { name: 'Periods' });
    expect(await periods.getByRole('link', { name: '← Previous period' }).count()).toBe(1);
    expect(await periods.getByRole('link', { name: 'Next period →' }).count()).toBe(1);

    await screenshots('timeline');
  }, 120_000);

  it('zooms with the buttons and the wheel, never under 10 seconds', async () => {
    const { page } = office;
    const showing = page.locator('.timeline__showing');
    const before = await showing.textContent();
    await page.getByRole('button', { name: 'Zoom in', exact: true }).click();
    await expect.poll(() => showing.textContent()).not.toBe(before);
    expect(await showing.textContent()).toContain('(2:00:00)');
    const canvas = page.getByRole('img', { name: /^Timeline of Lathe/ });
    const box = (await canvas.boundingBox())!;
    await page.mouse.move(box.x + box.width * 0.6, box.y + 40);
    for (let i = 0; i < 40; i++) await page.mouse.wheel(0, -500);
    await expect.poll(() => showing.textContent(), POLL).toContain('(0:10)');
    await page.getByRole('button', { name: 'Whole range' }).click();
    await expect.poll(() => showing.textContent(), POLL).toContain('(4:00:00)');
  }, 60_000);

  it('categorizes the uncategorized stop from the timeline and shows it in the grid', async () => {
    const { page } = office;
    const canvas = page.getByRole('img', { name: /^Timeline of Lathe/ });
    const box = (await canvas.boundingBox())!;
    // The downtime lane is the second (26 + 34 + 4 px down); the stop spans 2:00–2:25 of the 4 hours.
    const labelWidth = 112;
    const x = labelWidth + (box.width - labelWidth) * ((2 * 60 + 12) / 240);
    await canvas.click({ position: { x, y: 26 + 34 + 4 + 17 } });
    const dialog = page.getByRole('dialog', { name: 'Categorize Downtime' });
    await expect.poll(() => dialog.count(), POLL).toBe(1);
    const save = dialog.getByRole('button', { name: 'Save' });
    // reports-admin §5: not saved without a reason.
    expect(await save.isDisabled()).toBe(true);
    await dialog.getByLabel('Downtime reason').selectOption({ label: 'Break' });
    await dialog.getByLabel('Message').fill('Lunch cover');
    await screenshots('timeline-categorize');
    await save.click();
    await expect.poll(() => dialog.count(), POLL).toBe(0);
    await expect
      .poll(() => tableRows(grid(page)), POLL)
      .toEqual([
        [expect.any(String), '20.00', 'Tool change', '', 'Unplanned', 'ShowCategorize'],
        [expect.any(String), '25.00', 'Break', 'Lunch cover', 'Planned', 'ShowCategorize'],
        [expect.any(String), '5.00', 'Uncategorized', '', '', 'ShowCategorize'],
      ]);
    await screenshots('timeline-categorized');
  }, 60_000);

  it('shows a stop from the grid: zoomed around it, with slow parts marked (reports-admin §9)', async () => {
    const { page } = office;
    await grid(page).getByRole('row').last().getByRole('button', { name: 'Show' }).click();
    // The 5-minute fault with 5 minutes either side: 15 minutes, under 75 × the 1-minute average cycle.
    await expect.poll(() => page.locator('.timeline__showing').textContent(), POLL).toContain('(15:00)');
    await expect
      .poll(() => page.locator('.timeline__legend').textContent(), POLL)
      .toContain('Slow parts are marked; zoom in further to mark fast parts.');
    await screenshots('timeline-zoomed');
  }, 60_000);

  it('disables the next period while the range ends in the future', async () => {
    const { page, plant, product } = office;
    const now = Date.now();
    await page.goto(
      `${product.url}/machine/${plant.lathe}/timeline?interval=hour&start=${now - 2 * HOUR}&end=${now + HOUR}`,
    );
    const periods = page.getByRole('navigation', { name: 'Periods' });
    await expect.poll(() => periods.getByText('Next period →').count(), POLL).toBe(1);
    expect(await periods.getByRole('link', { name: 'Next period →' }).count()).toBe(0);
    expect(await periods.getByText('Next period →').getAttribute('aria-disabled')).toBe('true');
  }, 60_000);
});
