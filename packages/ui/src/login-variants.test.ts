import { describe, expect, it } from 'vitest';
import { loginVariantsOf } from './login-variants';

// Decision 0935: which query parameters select which login variant.

describe('login variants', () => {
  it.each([
    ['', { device: false, machineId: null, code: false }],
    ['?device', { device: true, machineId: null, code: false }],
    ['?device=1&machine=m-1', { device: true, machineId: 'm-1', code: false }],
    ['?machine=m-1', { device: false, machineId: null, code: false }],
    ['?device=0', { device: false, machineId: null, code: false }],
    ['?device=false&code', { device: false, machineId: null, code: true }],
    ['?code=1&device=true', { device: true, machineId: null, code: true }],
    ['?tablet=1', { device: false, machineId: null, code: false }],
  ])('%s', (search, variants) => {
    expect(loginVariantsOf(search)).toEqual(variants);
  });
});
