import { gunzipSync } from 'node:zlib';
import { describe, expect, it } from 'vitest';
import { DIALECTS } from '@takt/db/testing';
import { PRODUCTION_METRICS } from '@takt/domain';
import { answerGzip, useSharedAnswers } from '../services/report-shared';
import { aMachine } from '../testing/builders';
import { someStates } from '../testing/downtime-builders';
import { apiPerTest, aReportTenant, machinesWithFacts } from '../testing/report-plant';
import { acceptsGzip } from '../http/shared-json';

// Decision 1185: the call that computes a shared answer sends the JSON text its size was measured on (one
// serialization); the bytes and headers are those of the answer serialized at each response. Decision 1248: a
// shared answer goes gzipped to a caller that accepts gzip (every browser), the same JSON once unpacked, the bytes
// made once per kept answer; as text to a caller that does not.

const HOUR = 3_600_000;
/** Monday 2025-10-06 00:00 CDT. */
const T0 = Date.UTC(2025, 9, 6, 5);
const NOW = T0 + 2 * 24 * HOUR;
const DAY = 24 * HOUR;

describe.each(DIALECTS)('shared report answers as JSON on %s', (dialect) => {
  const api = apiPerTest(dialect, NOW);

  it('sends the same bytes computed, given again and with sharing off', async () => {
    const tenant = await aReportTenant(api.h, [['Day', 360, 840]]);
    const machine = await aMachine(api.h.t.db, tenant.company, { name: 'Lathe' });
    await someStates(api.h.t.db, tenant.company, machine, [
      [T0, T0 + 9 * HOUR, 'ACTIVE'],
      [T0 + 9 * HOUR, null, 'INACTIVE'],
    ]);
    await tenant.recompute([machine], { from: T0, to: NOW, now: NOW });
    const range = { start: T0 + 7 * HOUR, end: T0 + 30 * HOUR };
    const q = `start=${range.start}&end=${range.end}&interval=day`;
    const calls = [
      () => api.h.get(`/api/reports/oee?${q}`, tenant.cookie),
      () => api.h.get(`/api/reports/utilization?${q}`, tenant.cookie),
      () => api.h.send('POST', '/api/oee/bymachine', tenant.cookie, { ...range, intervalType: 'day' }),
      () =>
        api.h.send('POST', '/api/reports/warehouse/production', tenant.cookie, {
          ...range,
          interval: 'day',
          data: [...PRODUCTION_METRICS],
          groupBy: ['machine', 'interval'],
        }),
    ];
    const send = async (call: () => Promise<Response>) => {
      const res = await call();
      expect(res.status).toBe(200);
      expect(res.headers.get('content-type')).toBe('application/json');
      return res.text();
    };
    for (const call of calls) {
      useSharedAnswers(api.h.t.db, true);
      const computed = await send(call);
      const again = await send(call);
      useSharedAnswers(api.h.t.db, false);
      const alone = await send(call);
      expect(computed).toBe(alone);
      expect(again).toBe(alone);
      expect(computed.length).toBeGreaterThan(100);
    }
    useSharedAnswers(api.h.t.db, true);
  });
});

/** `length` printable characters from a fixed-seed generator: text gzip cannot shrink to half. */
function randomText(length: number): string {
  const bytes = Buffer.alloc(length);
  let x = 12_345;
  for (let i = 0; i < length; i++) {
    x = (Math.imul(x, 1_103_515_245) + 12_345) >>> 0;
    bytes[i] = 33 + ((x >>> 24) % 94);
  }
  return bytes.toString('latin1');
}

describe('answerGzip', () => {
  // Decision 1258: up to 4 MiB gzipped on the event loop, larger in the thread pool in chunks of half the text's
  // length, so a text that shrinks less takes more chunks.
  it.each([
    ['shrinks far', JSON.stringify({ items: Array.from({ length: 40_000 }, (_, i) => ({ i, oee: i / 7 })) })],
    ['hardly shrinks', randomText(300_000)],
    ['is small', '{"a":1}'],
    ['is over 4 MiB and hardly shrinks', randomText(5 * 1024 * 1024)],
    ['is over 4 MiB', JSON.stringify(Array.from({ length: 150_000 }, (_, i) => ({ i, oee: i / 7 })))],
  ])('gives the bytes of a text that %s, unpacked to the text', async (what, text) => {
    const bytes = await answerGzip({}, text);
    expect(gunzipSync(bytes).toString('utf8')).toBe(text);
    if (text.length > 100_000) expect(bytes.length > text.length / 2).toBe(what.includes('hardly'));
  });
});

describe('Accept-Encoding', () => {
  it('accepts gzip by name or by *, unless its q is 0', () => {
    expect(acceptsGzip('gzip, deflate, br, zstd')).toBe(true);
    expect(acceptsGzip('br;q=1.0, GZIP;q=0.5')).toBe(true);
    expect(acceptsGzip('*')).toBe(true);
    expect(acceptsGzip('gzip;q=0, *')).toBe(false);
    expect(acceptsGzip('*;q=0')).toBe(false);
    expect(acceptsGzip('br, deflate')).toBe(false);
    expect(acceptsGzip('identity')).toBe(false);
    expect(acceptsGzip('')).toBe(false);
    expect(acceptsGzip(undefined)).toBe(false);
  });
});

describe.each(DIALECTS)('a shared report answer gzipped on %s', (dialect) => {
  const api = apiPerTest(dialect, T0 + 5 * DAY);

  it('sends the same JSON gzipped to a caller that accepts gzip, and as text to one that does not', async () => {
    const tenant = await aReportTenant(api.h, [['Day', 360, 840]]);
    await machinesWithFacts(api.h, tenant, ['Lathe', 'Mill'], {
      t0: T0,
      now: T0 + 5 * DAY,
      cuts: 20,
      cycles: 60,
      corrections: 5,
      seed: 31,
    });
    const path = `/api/reports/utilization?start=${T0}&end=${T0 + 4 * DAY}&interval=day`;
    const call = (encoding?: string) =>
      api.h.app.request(path, {
        headers: { cookie: tenant.cookie, ...(encoding ? { 'accept-encoding': encoding } : {}) },
      });
    const plain = await call();
    expect(plain.status).toBe(200);
    expect(plain.headers.get('content-encoding')).toBeNull();
    expect(plain.headers.get('vary')).toBe('Accept-Encoding');
    const text = await plain.text();
    expect(text.length).toBeGreaterThan(1_024);
    expect(JSON.parse(text)).toMatchObject({ machines: expect.any(Array) });

    const packed = await Promise.all([call('gzip, deflate, br'), call('gzip')]);
    const bytes: Buffer[] = [];
    for (const res of packed) {
      expect(res.status).toBe(200);
      expect(res.headers.get('content-encoding')).toBe('gzip');
      expect(res.headers.get('content-type')).toBe('application/json');
      bytes.push(Buffer.from(await res.arrayBuffer()));
    }
    expect(gunzipSync(bytes[0]!).toString('utf8')).toBe(text);
    expect(bytes[1]).toEqual(bytes[0]);
    expect(bytes[0]!.length).toBeLessThan(text.length / 2);

    const refused = await call('gzip;q=0, identity');
    expect(refused.headers.get('content-encoding')).toBeNull();
    expect(await refused.text()).toBe(text);
  });
});
