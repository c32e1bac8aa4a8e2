import { describe, expect, it } from 'vitest';
import { confirmsName, regionOptions } from './settings';

describe('settings', () => {
  it('offers the 35 locales of the region list (reports-admin §9)', () => {
    const options = regionOptions('en-US');
    expect(options).toHaveLength(35);
    expect(options[0]).toEqual({ value: 'en-US', label: 'American English (en-US)' });
    expect(new Set(options.map((o) => o.value)).size).toBe(35);
  });

  it('enables setup stages only with the company name typed (reports-admin §5)', () => {
    expect(confirmsName(' Acme Machining ', 'Acme Machining')).toBe(true);
    expect(confirmsName('acme machining', 'Acme Machining')).toBe(false);
    expect(confirmsName('', 'Acme Machining')).toBe(false);
  });
});
