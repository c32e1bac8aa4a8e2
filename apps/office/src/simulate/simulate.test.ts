import { describe, expect, it } from 'vitest';
import { t } from '@takt/ui';
import {
  codeError,
  cyclesErrors,
  faultAction,
  lineTextError,
  newForms,
  simulatePath,
  wholeError,
} from './simulate';

describe('simulation screen checks', () => {
  it.each([
    ['1', 1, 1000, null],
    ['1000', 1, 1000, null],
    ['0', 1, 1000, 'Enter a whole number from 1 to 1000'],
    ['1001', 1, 1000, 'Enter a whole number from 1 to 1000'],
    ['2.5', 1, 1000, 'Enter a whole number from 1 to 1000'],
    ['', 5, 600, 'Enter a whole number from 5 to 600'],
  ])('whole %j in [%i, %i] → %s', (v, min, max, error) => {
    expect(wholeError(v, min, max)).toBe(error);
  });

  it.each([
    ['O1234', null],
    ['  ', t('simulate.textRule', { max: 100 })],
    ['a|b', t('simulate.textRule', { max: 100 })],
    ['a\nb', t('simulate.textRule', { max: 100 })],
    ['x'.repeat(101), t('simulate.textRule', { max: 100 })],
  ])('line text %j → %s', (v, error) => {
    expect(lineTextError(v, 100)).toBe(error);
  });

  it('sends a fault with its code only when one is typed, and checks the cycle bounds', () => {
    const f = { ...newForms(), faultMessage: ' Door open ', faultCode: '' };
    expect(faultAction(f)).toEqual({ type: 'fault', message: 'Door open' });
    expect(faultAction({ ...f, faultCode: 'E7' })).toEqual({
      type: 'fault',
      message: 'Door open',
      nativeCode: 'E7',
    });
    expect(codeError(f)).toBeNull();
    expect(cyclesErrors({ ...f, everySeconds: '4', minutes: '61' })).toEqual({
      everySeconds: 'Enter a whole number from 5 to 600',
      minutes: 'Enter a whole number from 1 to 60',
    });
    expect(simulatePath('a b')).toBe('/app/admin/machines/a%20b/simulate');
  });
});
