import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { TILE_STATUSES } from '@takt/domain';
import { AA_TEXT, contrastRatio } from './contrast';

const css = readFileSync(new URL('./tokens.css', import.meta.url), 'utf8');

/** Custom properties of one block (`:root` or the dark theme), dark inheriting from light like the cascade. */
function block(selector: string): Record<string, string> {
  const start = css.indexOf(`${selector} {`);
  const body = css.slice(start, css.indexOf('}', start));
  const vars: Record<string, string> = {};
  for (const m of body.matchAll(/(--[\w-]+):\s*(#[0-9a-f]{6})\s*;/gi)) vars[m[1] as string] = m[2] as string;
  return vars;
}

const light = block(':root');
const dark = { ...light, ...block("[data-theme='dark']") };

describe('contrastRatio', () => {
  it.each([
    ['#000000', '#ffffff', 21],
    ['#ffffff', '#ffffff', 1],
    ['#777777', '#ffffff', 4.48],
  ])('%s on %s is %d', (a, b, expected) => {
    expect(contrastRatio(a, b)).toBeCloseTo(expected, 1);
  });
});

describe.each([
  ['light', light],
  ['dark', dark],
])('status tokens meet WCAG AA (%s theme)', (_theme, vars) => {
  it.each(TILE_STATUSES.map((s) => [s]))('%s', (status) => {
    const bg = vars[`--status-${status}-bg`];
    const fg = vars[`--status-${status}-fg`];
    const ink = vars[`--status-${status}-ink`];
    expect(bg && fg && ink, `tokens for ${status}`).toBeTruthy();
    expect(contrastRatio(bg!, fg!)).toBeGreaterThanOrEqual(AA_TEXT);
    expect(contrastRatio(ink!, vars['--surface']!)).toBeGreaterThanOrEqual(AA_TEXT);
    expect(contrastRatio(ink!, vars['--surface-2']!)).toBeGreaterThanOrEqual(AA_TEXT);
  });

  it('body and muted text', () => {
    for (const s of ['--surface', '--surface-2', '--surface-3']) {
      expect(contrastRatio(vars['--text']!, vars[s]!)).toBeGreaterThanOrEqual(AA_TEXT);
      expect(contrastRatio(vars['--text-muted']!, vars[s]!)).toBeGreaterThanOrEqual(AA_TEXT);
    }
    expect(contrastRatio(vars['--accent']!, vars['--surface']!)).toBeGreaterThanOrEqual(AA_TEXT);
    expect(contrastRatio(vars['--accent-fg']!, vars['--accent']!)).toBeGreaterThanOrEqual(AA_TEXT);
  });
});

it('defines nine chart colours (live-operations §9)', () => {
  expect(Object.keys(light).filter((k) => /^--chart-\d$/.test(k))).toHaveLength(9);
});
