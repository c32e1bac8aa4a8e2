import { describe, expect, it } from 'vitest';
import { createTranslator, interpolate, t } from './index';

describe('interpolate', () => {
  it.each([
    ['plain', undefined, 'plain'],
    ['Workcenter {name}', { name: 'Mazak 1' }, 'Workcenter Mazak 1'],
    ['{count} machines', { count: 12 }, '12 machines'],
    ['{a} and {missing}', { a: 'x' }, 'x and {missing}'],
  ])('%s', (template, params, expected) => {
    expect(interpolate(template, params)).toBe(expected);
  });
});

describe('t', () => {
  it('reads the English catalogue', () => {
    expect(t('login.submit')).toBe('Log in');
    expect(t('workcenter.label', { name: 'Lathe' })).toBe('Workcenter Lathe');
  });

  it('falls back to English for keys a locale lacks', () => {
    const de = createTranslator({ 'login.submit': 'Anmelden' });
    expect(de('login.submit')).toBe('Anmelden');
    expect(de('login.email')).toBe('Email');
  });
});
