import { describe, expect, it } from 'vitest';
import { isOwnOrigin } from './origin';

// Decision 0995: which browser origins may open /live and /tablet-auth.
describe('isOwnOrigin', () => {
  it.each([
    ['http://plant.example:8080', 'plant.example:8080', undefined, true],
    ['https://plant.example:8080', 'plant.example:8080', undefined, true], // TLS ended at a proxy
    ['http://PLANT.example', 'plant.example:80', undefined, true], // default port, any case
    ['https://plant.example', 'plant.example:443', undefined, true],
    ['http://plant.example:8081', 'plant.example:8080', undefined, false],
    ['https://evil.example', 'plant.example', undefined, false],
    ['http://plant.example.evil.example', 'plant.example', undefined, false],
    ['null', 'plant.example', undefined, false],
    ['file://', 'plant.example', undefined, false],
    ['not a url', 'plant.example', undefined, false],
    ['https://takt.example.com', 'internal:8080', 'https://takt.example.com', true], // a proxy rewrote Host
    ['https://takt.example.com', 'internal:8080', 'https://takt.example.com/takt', true],
    ['http://takt.example.com', 'internal:8080', 'https://takt.example.com', false],
    ['https://evil.example', undefined, undefined, false],
  ] as const)('%s to Host %s (public %s): %s', (origin, host, publicUrl, own) => {
    expect(isOwnOrigin(origin, host, publicUrl)).toBe(own);
  });
});
