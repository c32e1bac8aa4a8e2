import { epochMs } from '@takt/domain';
import { renderToStaticMarkup } from 'react-dom/server';
import { describe, expect, it } from 'vitest';
import { ShiftFilter } from '../report-tools/ShiftFilter';
import { DateRangePicker } from './DateRangePicker';
import type { AppliedRange } from './model';

// Markup checks without a browser: what the tools render before any interaction.

const applied: AppliedRange = {
  interval: 'day',
  start: epochMs(Date.UTC(2026, 10, 1)),
  end: epochMs(Date.UTC(2026, 10, 8)),
  quicklink: null,
};

describe('DateRangePicker markup', () => {
  const html = renderToStaticMarkup(
    <DateRangePicker
      clock={{ timezone: 'UTC' }}
      now={epochMs(Date.UTC(2026, 10, 25, 12))}
      locale="en-GB"
      applied={applied}
      horizons={['hour', 'day', 'week', 'month', 'quarter']}
      onApply={() => {}}
    />,
  );

  it('offers the report horizons with the applied one selected', () => {
    const options = [...html.matchAll(/<option value="(\w+)"( selected="")?>/g)].map((m) => [m[1], !!m[2]]);
    expect(options).toEqual([
      ['hour', false],
      ['day', true],
      ['week', false],
      ['month', false],
      ['quarter', false],
    ]);
  });

  it('shows the applied range and keeps Apply disabled until something changes', () => {
    // Whole days read as days, the last one included.
    expect(html.replace(/\s/g, ' ')).toContain('1 – 7 Nov 2026');
    expect(html).toMatch(/<button type="button" class="button button--primary" disabled="">Apply<\/button>/);
    expect(html).toContain('aria-expanded="false"');
  });
});

describe('ShiftFilter markup', () => {
  const shifts = [
    { id: 's1', name: 'First', terminated: false },
    { id: 's2', name: 'Second', terminated: false },
  ];

  it('has a select-all box and one box per shift, all checked when every shift is chosen', () => {
    const html = renderToStaticMarkup(
      <ShiftFilter shifts={shifts} selected={['s1', 's2']} onChange={() => {}} />,
    );
    expect(html).toContain('All shifts');
    expect(html.match(/type="checkbox"/g)).toHaveLength(3);
    expect(html.match(/checked=""/g)).toHaveLength(3);
  });

  it('marks select-all mixed when some shifts are chosen', () => {
    const html = renderToStaticMarkup(<ShiftFilter shifts={shifts} selected={['s2']} onChange={() => {}} />);
    expect(html).toContain('aria-checked="mixed"');
    expect(html.match(/checked=""/g)).toHaveLength(1);
  });
});
