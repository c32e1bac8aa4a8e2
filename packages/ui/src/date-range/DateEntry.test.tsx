import { epochMs } from '@takt/domain';
import { renderToStaticMarkup } from 'react-dom/server';
import { beforeAll, describe, expect, it } from 'vitest';
import { addTexts } from '../i18n';
import { officeTexts } from '../i18n/office-texts';
import { MonthCalendar } from './Calendar';
import { dateFormatMessage, DateTimeInput, timeProblemMessage } from './DateEntry';
import { rangeMarks } from './DateRangePicker';

// Date and time entry (live-operations §5, reports-admin §5, decision 1092), markup without a browser; typing is
// checked in Chromium (tests/e2e/office-operator-runs.test.ts).

beforeAll(() => addTexts(officeTexts));

const clock = { timezone: 'UTC' };
const now = epochMs(Date.UTC(2026, 10, 25, 12));
const bounds = { min: epochMs(Date.UTC(2025, 10, 25, 12)), max: now };

describe('the calendar between min and max', () => {
  it('disables and marks the days after now and before one year back; the days between can be picked', () => {
    const draft = {
      interval: 'day' as const,
      start: epochMs(Date.UTC(2026, 10, 1)),
      end: now,
      quicklink: null,
    };
    const html = renderToStaticMarkup(
      <MonthCalendar clock={clock} draft={draft} onPick={() => {}} bounds={bounds} locale="en-US" />,
    );
    const day = (label: string) =>
      new RegExp(`<button[^>]*aria-label="${label}"[^>]*>`).exec(html)?.[0] ?? '';
    expect(day('Wednesday, November 25, 2026')).not.toContain('disabled');
    expect(day('Thursday, November 26, 2026')).toContain('disabled=""');
    expect(day('Thursday, November 26, 2026')).toContain('data-mark="invalid-max"');
    expect(html.match(/data-mark="invalid-max"/g)).toHaveLength(5 + 6); // Nov 26–30 and Dec 1–6 of the grid

    const lastYear = { ...draft, start: epochMs(Date.UTC(2025, 10, 1)) };
    const old = renderToStaticMarkup(
      <MonthCalendar clock={clock} draft={lastYear} onPick={() => {}} bounds={bounds} locale="en-US" />,
    );
    const oldDay = (label: string) =>
      new RegExp(`<button[^>]*aria-label="${label}"[^>]*>`).exec(old)?.[0] ?? '';
    expect(oldDay('Monday, November 24, 2025')).toContain('data-mark="invalid-min"');
    expect(oldDay('Tuesday, November 25, 2025')).not.toContain('disabled');
  });

  it('marks a range reaching before the first day or past the last day (the end is exclusive)', () => {
    const today = Date.UTC(2026, 10, 25);
    expect(rangeMarks(clock, { start: today - 7 * 86_400_000, end: today + 86_400_000 }, bounds)).toEqual({
      start: null,
      end: null,
    });
    expect(rangeMarks(clock, { start: Date.UTC(2025, 10, 24), end: today + 2 * 86_400_000 }, bounds)).toEqual(
      {
        start: 'invalid-min',
        end: 'invalid-max',
      },
    );
  });

  it('lets a week or month selection end with the week or month holding the last day, and no later', () => {
    // bounds.max falls on Wednesday 25 November 2026: its ISO week ends Monday 30, its month on 1 December.
    const day = 86_400_000;
    const thisWeek = { start: Date.UTC(2026, 10, 23), end: Date.UTC(2026, 10, 30) };
    expect(rangeMarks(clock, thisWeek, bounds, 'week').end).toBeNull();
    expect(rangeMarks(clock, thisWeek, bounds, 'day').end).toBe('invalid-max');
    expect(rangeMarks(clock, { ...thisWeek, end: thisWeek.end + 7 * day }, bounds, 'week').end).toBe(
      'invalid-max',
    );
    const thisMonth = { start: Date.UTC(2026, 10, 1), end: Date.UTC(2026, 11, 1) };
    expect(rangeMarks(clock, thisMonth, bounds, 'month').end).toBeNull();
    expect(rangeMarks(clock, { ...thisMonth, end: Date.UTC(2027, 0, 1) }, bounds, 'month').end).toBe(
      'invalid-max',
    );
  });
});

describe('DateTimeInput', () => {
  it('shows the date in format L and the time on the company clock', () => {
    const html = renderToStaticMarkup(
      <DateTimeInput
        label="Start"
        value={epochMs(Date.UTC(2026, 10, 3, 14, 5))}
        timeZone="America/Chicago"
        locale="en-US"
        onChange={() => {}}
      />,
    );
    expect(html).toContain('value="11/03/2026"');
    expect(html).toContain('value="08:05"');
    expect(html).toContain('placeholder="MM/DD/YYYY"');
    expect(html).not.toContain('data-mark');
  });

  it('marks a value after max invalid-max and one before min invalid-min, saying the bound', () => {
    const late = renderToStaticMarkup(
      <DateTimeInput
        label="End"
        value={epochMs(now + 3_600_000)}
        timeZone="UTC"
        locale="en-US"
        bounds={bounds}
        onChange={() => {}}
      />,
    );
    expect(late).toContain('data-mark="invalid-max"');
    expect(late).toContain('Not after 11/25/26, 12:00.');
    const early = renderToStaticMarkup(
      <DateTimeInput
        label="Start"
        value={epochMs(Date.UTC(2025, 0, 1))}
        timeZone="UTC"
        locale="en-US"
        bounds={bounds}
        onChange={() => {}}
      />,
    );
    expect(early).toContain('data-mark="invalid-min"');
    expect(early).toContain('Not before 11/25/25, 12:00.');
  });

  it('says what is wrong with a typed value', () => {
    expect(dateFormatMessage('en-US')).toBe('Enter the date as MM/DD/YYYY or M/D/YYYY.');
    expect(dateFormatMessage('de-DE')).toBe('Enter the date as DD.MM.YYYY or D.M.YYYY.');
    expect(timeProblemMessage('hours')).toBe('Hours go up to 23.');
    expect(timeProblemMessage('hours', true)).toBe('Hours go from 1 to 12.');
    expect(timeProblemMessage('minutes')).toBe('Minutes go up to 59.');
    expect(timeProblemMessage('milliseconds')).toBe('Milliseconds go up to 999.');
    expect(timeProblemMessage('format')).toBe('Enter the time as HH:mm, HH:mm:ss or HH:mm:ss.SSS.');
  });
});
