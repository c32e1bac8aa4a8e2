import { describe, expect, it } from 'vitest';
import type { Locator, Page } from 'playwright-core';
import type { Database } from '@takt/db';
import type { Kysely } from 'kysely';
import {
  aDowntimeReason,
  aJobRun,
  anAnnotation,
  someStates,
} from '../../services/api/src/testing/downtime-builders';
import type { StateRows } from '../../services/api/src/testing/downtime-builders';
import { recomputeMachines, someCycles } from '../../services/api/src/testing/report-plant';
import { anOfficePlant, clickChart, officeSession, ON_SQLITE, POLL, tableRows } from './office-harness';
import type { Span } from './office-harness';

// From the Downtime report to the timeline and back (reports-admin §2 "Downtime report", "Machine timeline"
// and the standard timeline, §4 split, §5, §9 minutes with 2 decimals), in Chromium on SQLite (decision 0871).
// A manager finds last week's top downtime reason on /dashboard/downtime, opens the standard timeline at one
// of its stops from the grid's Start cell and from there the machine's timeline, splits the stop in half,
// gives one half another reason and sees the pareto change; then reads the standard timeline's lanes.
// Screenshots at desk and phone widths go to test-results/office-downtime-timeline/ (gitignored).

// The plant, America/Chicago, last week (local times, weekday 0 = Monday); machines run all week except:
// - Lathe (group Cell): Tool change (unplanned) 10:00–10:40 Monday to Friday: 5 × 40 = 200 min; job Bracket
//   with a part a minute on Monday 08:00–12:00 while it runs.
// - Mill (group Cell): Tool change 09:00–09:30 on Wednesday (30 min); Break (planned) 12:00–12:30 Monday to
//   Friday (150 min).
// - Press (no group): Material (unplanned) Thursday 14:00–14:20 (20 min).
// Pareto before: Tool change 230.00 (6 stops), Break 150.00 (5), Material 20.00 (1); 400 minutes in all.
// The Lathe's Monday stop split in half and its second half given Material: Tool change 230 − 20 = 210.00
// (6 stops: the first half stays), Break 150.00 (5), Material 20 + 20 = 40.00 (2).
const TOOL_MIN = 5 * 40 + 30;
const BREAK_MIN = 5 * 30;
const MATERIAL_MIN = 20;
const TOTAL_MIN = TOOL_MIN + BREAK_MIN + MATERIAL_MIN;
const HALF_MIN = 40 / 2;

interface Plant {
  email: string;
  password: string;
  lathe: string;
  tool: string;
  /** The Lathe's Monday stop [start, end). */
  stop: Span;
}

async function seedPlant(db: Kysely<Database>, week: Span, now: number): Promise<Plant> {
  const { company, user, lathe, mill, press, at, scope } = await anOfficePlant(db, week);
  const tool = await aDowntimeReason(db, company, { name: 'Tool change', plannedBehavior: 'unplanned' });
  const brk = await aDowntimeReason(db, company, { name: 'Break', plannedBehavior: 'planned' });
  const material = await aDowntimeReason(db, company, { name: 'Material', plannedBehavior: 'unplanned' });

  /** Running all week except the stops [start, end). */
  const runningExcept = (stops: ReadonlyArray<readonly [number, number]>): StateRows => {
    const rows: Array<[number, number, 'ACTIVE' | 'INACTIVE']> = [];
    let t = week.start;
    for (const [s, e] of [...stops].sort((a, b) => a[0] - b[0])) {
      rows.push([t, s, 'ACTIVE'], [s, e, 'INACTIVE']);
      t = e;
    }
    rows.push([t, week.end, 'ACTIVE']);
    return rows;
  };
  const weekdays = [0, 1, 2, 3, 4];
  const latheStops = weekdays.map((i) => [at(i, 10), at(i, 10, 40)] as const);
  const millTool = [at(2, 9), at(2, 9, 30)] as const;
  const millBreak = weekdays.map((i) => [at(i, 12), at(i, 12, 30)] as const);
  const pressStop = [at(3, 14), at(3, 14, 20)] as const;
  await someStates(db, company, lathe, runningExcept(latheStops));
  await someStates(db, company, mill, runningExcept([millTool, ...millBreak]));
  await someStates(db, company, press, runningExcept([pressStop]));
  for (const [start, end] of latheStops)
    await anAnnotation(db, company, { machineId: lathe, start, end, typeId: tool.id });
  await anAnnotation(db, company, { machineId: mill, start: millTool[0], end: millTool[1], typeId: tool.id });
  for (const [start, end] of millBreak)
    await anAnnotation(db, company, { machineId: mill, start, end, typeId: brk.id });
  await anAnnotation(db, company, {
    machineId: press,
    start: pressStop[0],
    end: pressStop[1],
    typeId: material.id,
  });
  // Monday morning's job and parts on the Lathe, so the timeline around the stop has its other lanes.
  await aJobRun(db, company, lathe, { start: at(0, 8), end: at(0, 12), jobName: 'Bracket' });
  const parts: Span[] = [];
  for (const [from, to] of [
    [at(0, 8), at(0, 10)],
    [at(0, 10, 40), at(0, 12)],
  ] as const)
    for (let t = from; t + 60_000 <= to; t += 60_000) parts.push({ start: t, end: t + 60_000 });
  await someCycles(scope, lathe, parts);
  await recomputeMachines(db, company, [lathe, mill, press], { from: week.start, to: week.end, now });
  const [start, end] = latheStops[0]!;
  return { email: user.email, password: user.password, lathe, tool: tool.id, stop: { start, end } };
}

/** The Downtime report's grid of stops, and the machine timeline's (by their headings and labels). */
const reportGrid = (page: Page) => page.locator('section:has(#grid-heading)').getByRole('table');
const timelineGrid = (page: Page) => page.getByRole('table', { name: 'Downtime periods' });

describe.each(ON_SQLITE)('from the Downtime report to the timeline in Chromium on %s', (dialect) => {
  const office = officeSession(dialect, 'office-downtime-timeline', seedPlant);
  const shots = (name: string) => office.screenshots(name);
  const pareto = () => office.section('Downtime by reason').getByRole('table');

  it("finds last week's top reason, opens the timeline at its stop, splits it and recategorizes a half", async () => {
    const { page, plant } = office;
    await office.openFromReports(/^Downtime/);
    await expect.poll(() => new URL(page.url()).pathname).toBe('/dashboard/downtime');
    await office.applyLastWeek();
    await office.settled();

    // Before: the top reason is Tool change, with minutes to 2 decimals (reports-admin §9).
    await expect
      .poll(() => tableRows(pareto()), POLL)
      .toEqual([
        ['Tool change', TOOL_MIN.toFixed(2), '6', `${((100 * TOOL_MIN) / TOTAL_MIN).toFixed(1)}%`],
        ['Break', BREAK_MIN.toFixed(2), '5', `${((100 * (TOOL_MIN + BREAK_MIN)) / TOTAL_MIN).toFixed(1)}%`],
        ['Material', MATERIAL_MIN.toFixed(2), '1', '100.0%'],
      ]);
    expect((await tableRows(pareto()))[0]!.slice(0, 2)).toEqual(['Tool change', '230.00']);
    await shots('1-downtime-report');

    // Drill into the top reason: its stops, first the Lathe's of Monday 10:00.
    await clickChart(office.section('Downtime by reason').locator('figure'), 0.2, 0.5);
    await expect.poll(() => new URL(page.url()).searchParams.get('reason')).toBe(plant.tool);
    await expect.poll(async () => (await tableRows(reportGrid(page))).length, POLL).toBe(6);
    const first = reportGrid(page).locator('tbody tr').first();
    expect((await tableRows(reportGrid(page)))[0]!.slice(1)).toEqual([
      '40.00',
      'Lathe',
      'Tool change',
      '',
      'Unplanned',
    ]);

    // reports-admin §2: the Start cell opens the standard timeline around the stop (an hour either side),
    // the stop marked; its link opens the machine timeline of the same range, where stops are categorized.
    await first.getByRole('link', { name: /\d/ }).first().click();
    await expect
      .poll(() => new URL(page.url()).pathname, POLL)
      .toBe(`/app/machines/${plant.lathe}/standard-timeline`);
    const marked = new URL(page.url()).searchParams;
    expect([Number(marked.get('startTime')), Number(marked.get('endTime'))]).toEqual([
      plant.stop.start,
      plant.stop.end,
    ]);
    await page.getByRole('link', { name: 'Open the machine timeline for this range' }).click();
    await expect.poll(() => new URL(page.url()).pathname, POLL).toBe(`/machine/${plant.lathe}/timeline`);
    const q = new URL(page.url()).searchParams;
    expect([Number(q.get('start')), Number(q.get('end'))]).toEqual([
      plant.stop.start - 3_600_000,
      plant.stop.end + 3_600_000,
    ]);
    await expect.poll(() => office.heading().textContent(), POLL).toBe('Timeline for Lathe');
    await expect
      .poll(() => tableRows(timelineGrid(page)), POLL)
      .toEqual([[expect.any(String), '40.00', 'Tool change', '', 'Unplanned', 'ShowCategorize']]);
    await shots('2-timeline-at-stop');

    // Split the stop in half (reports-admin §4, §9: each half over 10 s).
    await timelineGrid(page).getByRole('button', { name: 'Categorize' }).click();
    const dialog = page.getByRole('dialog', { name: 'Categorize Downtime' });
    await expect.poll(() => dialog.count(), POLL).toBe(1);
    await dialog.getByRole('button', { name: 'Split in half' }).click();
    await expect.poll(() => dialog.count(), POLL).toBe(0);
    const half = HALF_MIN.toFixed(2);
    await expect
      .poll(() => tableRows(timelineGrid(page)), POLL)
      .toEqual([
        [expect.any(String), half, 'Tool change', '', 'Unplanned', 'ShowCategorize'],
        [expect.any(String), half, 'Tool change', '', 'Unplanned', 'ShowCategorize'],
      ]);

    // The second half was Material.
    await timelineGrid(page).locator('tbody tr').nth(1).getByRole('button', { name: 'Categorize' }).click();
    await expect.poll(() => dialog.count(), POLL).toBe(1);
    await dialog.getByLabel('Downtime reason').selectOption({ label: 'Material' });
    await dialog.getByLabel('Message').fill('Bar stock late');
    await shots('3-categorize-half');
    await dialog.getByRole('button', { name: 'Save' }).click();
    await expect.poll(() => dialog.count(), POLL).toBe(0);
    await expect
      .poll(() => tableRows(timelineGrid(page)), POLL)
      .toEqual([
        [expect.any(String), half, 'Tool change', '', 'Unplanned', 'ShowCategorize'],
        [expect.any(String), half, 'Material', 'Bar stock late', 'Unplanned', 'ShowCategorize'],
      ]);
    await shots('4-timeline-split');

    // After: back on the report for the same week (through the standard timeline), 20 minutes moved from
    // Tool change to Material.
    await page.goBack();
    await page.goBack();
    await expect.poll(() => new URL(page.url()).pathname, POLL).toBe('/dashboard/downtime');
    await page.getByRole('button', { name: 'Show all reasons' }).click();
    await expect.poll(() => new URL(page.url()).searchParams.get('reason')).toBeNull();
    await office.settled();
    const tool = TOOL_MIN - HALF_MIN;
    const material = MATERIAL_MIN + HALF_MIN;
    await expect
      .poll(() => tableRows(pareto()), POLL)
      .toEqual([
        ['Tool change', tool.toFixed(2), '6', `${((100 * tool) / TOTAL_MIN).toFixed(1)}%`],
        ['Break', BREAK_MIN.toFixed(2), '5', `${((100 * (tool + BREAK_MIN)) / TOTAL_MIN).toFixed(1)}%`],
        ['Material', material.toFixed(2), '2', '100.0%'],
      ]);
    expect((await tableRows(pareto())).map((r) => r.slice(0, 3))).toEqual([
      ['Tool change', '210.00', '6'],
      ['Break', '150.00', '5'],
      ['Material', '40.00', '2'],
    ]);
    await shots('5-downtime-report-after');
  }, 180_000);

  it('opens the standard timeline of the stop with the stop highlighted and the included lanes', async () => {
    const { page, plant, product } = office;
    const { start, end } = plant.stop;
    await page.goto(
      `${product.url}/app/machines/${plant.lathe}/standard-timeline?start=${start - 3_600_000}&end=${end + 3_600_000}` +
        `&startTime=${start}&endTime=${end}&include=Downtime-Operational&include=Parts-Operational`,
    );
    await expect.poll(() => office.heading().textContent(), POLL).toBe('Standard timeline for Lathe');
    await office.settled();
    const canvas = page.getByRole('img', { name: /^Standard timeline of Lathe/ });
    await expect.poll(() => canvas.count(), POLL).toBe(1);
    // The lanes include picked (the state lane always shows), and the event marked on them.
    const label = (await canvas.getAttribute('aria-label'))!;
    expect(label).toContain('lanes for machine state and Downtime, Parts.');
    expect(label).toMatch(/Highlighted event: .* \(40:00\)/);
    expect(await page.getByText(/^Highlighted event: .* \(40:00\)/).count()).toBe(1);
    const lanes = page.getByRole('group', { name: 'Lanes' });
    expect(await lanes.getByRole('checkbox', { name: 'Downtime' }).isChecked()).toBe(true);
    expect(await lanes.getByRole('checkbox', { name: 'Parts' }).isChecked()).toBe(true);
    expect(await lanes.getByRole('checkbox', { name: 'Production (jobs)' }).isChecked()).toBe(false);
    // Three lanes under the 26-px axis (34 px each, 4 px apart): the canvas is no taller.
    await expect
      .poll(() => canvas.evaluate((el) => (el as HTMLCanvasElement).height / devicePixelRatio), POLL)
      .toBe(26 + 3 * 34 + 3 * 4);
    // The highlight is a band over the stop's span: the gap between the first two lanes (plain page colour
    // elsewhere) is tinted 7 minutes into the stop, not 53 minutes before it (neither on an axis tick).
    const span = { from: start - 3_600_000, to: end + 3_600_000 };
    const inBand = await pixelAt(canvas, { ...span, t: start + 7 * 60_000, y: 26 + 34 + 2 });
    const outside = await pixelAt(canvas, { ...span, t: start - 53 * 60_000, y: 26 + 34 + 2 });
    expect(inBand).not.toEqual(outside);
    await shots('6-standard-timeline');

    // Production added from the lane picker; the back link opens the machine timeline over the same range.
    await lanes.getByRole('checkbox', { name: 'Production (jobs)' }).click();
    await expect.poll(() => new URL(page.url()).searchParams.getAll('include'), POLL).toEqual([]);
    expect(new URL(page.url()).searchParams.get('startTime')).toBe(String(start));
    await page.getByRole('link', { name: 'Open the machine timeline for this range' }).click();
    await expect.poll(() => new URL(page.url()).pathname, POLL).toBe(`/machine/${plant.lathe}/timeline`);
    expect(Number(new URL(page.url()).searchParams.get('start'))).toBe(start - 3_600_000);
  }, 120_000);
});

/** The canvas colour at time t of the window [from, to), y CSS px down (the plot starts after 112 px). */
function pixelAt(canvas: Locator, a: { t: number; from: number; to: number; y: number }): Promise<number[]> {
  return canvas.evaluate((el, p) => {
    const c = el as HTMLCanvasElement;
    const dpr = c.width / c.clientWidth;
    const x = 112 + ((c.clientWidth - 112) * (p.t - p.from)) / (p.to - p.from);
    const d = c.getContext('2d')!.getImageData(Math.round(x * dpr), Math.round(p.y * dpr), 1, 1).data;
    return [d[0]!, d[1]!, d[2]!];
  }, a);
}
