import { describe, expect, it } from 'vitest';
import { parseEnv } from '../env';
import { isAddressOrRange } from './client-address';

// TAKT_TRUSTED_PROXIES entries (decision 0988) and TAKT_PUBLIC_URL (decision 0989) as env.ts reads them.

describe('trusted proxy entries', () => {
  it.each([
    ['127.0.0.1', true],
    ['10.0.0.0/8', true],
    ['::1', true],
    ['fd00::/8', true],
    ['10.0.0.0/33', false],
    ['fd00::/129', false],
    ['proxy.local', false],
    ['10.0.0.1/8/1', false],
    ['', false],
  ])('%s → %s', (entry, ok) => {
    expect(isAddressOrRange(entry)).toBe(ok);
  });
});

describe('configuration', () => {
  it('defaults the public URL to localhost on the port and drops a trailing slash', () => {
    expect(parseEnv({ PORT: '9000' }).TAKT_PUBLIC_URL).toBe('http://localhost:9000');
    expect(parseEnv({ TAKT_PUBLIC_URL: 'https://takt.example.com/' }).TAKT_PUBLIC_URL).toBe(
      'https://takt.example.com',
    );
    expect(() => parseEnv({ TAKT_PUBLIC_URL: 'takt.example.com' })).toThrow(/TAKT_PUBLIC_URL/);
  });

  it('reads trusted proxies separated by spaces or commas, and refuses names', () => {
    expect(parseEnv({ TAKT_TRUSTED_PROXIES: '127.0.0.1, 10.0.0.0/8' }).TAKT_TRUSTED_PROXIES).toEqual([
      '127.0.0.1',
      '10.0.0.0/8',
    ]);
    expect(parseEnv({}).TAKT_TRUSTED_PROXIES).toEqual([]);
    expect(() => parseEnv({ TAKT_TRUSTED_PROXIES: 'proxy.local' })).toThrow(/TAKT_TRUSTED_PROXIES/);
  });
});
