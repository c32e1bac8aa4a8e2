import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { MAX_MQTT_PAYLOAD_BYTES, parseMqttMessage, parseMqttTopic } from './mqtt-payload';

const AT = Date.UTC(2024, 0, 1);

describe('parseMqttTopic', () => {
  it.each([
    ['takt/acme/lathe-1/shdr', 'takt', { companyRef: 'acme', machineRef: 'lathe-1', format: 'shdr' }],
    ['takt/acme/M.2:a/json', 'takt', { companyRef: 'acme', machineRef: 'M.2:a', format: 'json' }],
    ['plant/a/b/acme/m1/status', 'plant/a/b', { companyRef: 'acme', machineRef: 'm1', format: 'status' }],
    ['takt/acme/m1/xml', 'takt', null],
    ['takt/acme/m1', 'takt', null],
    ['takt/acme/m1/shdr/extra', 'takt', null],
    ['other/acme/m1/shdr', 'takt', null],
    ['takt//m1/shdr', 'takt', null],
    ['takt/acme/-m1/shdr', 'takt', null],
  ])('%s (prefix %s) → %j', (topic, prefix, expected) => {
    expect(parseMqttTopic(topic, prefix)).toEqual(expected);
  });
});

describe('parseMqttMessage', () => {
  const read = (format: string, payload: string) => parseMqttMessage(`takt/acme/m1/${format}`, payload, AT);
  const summary = (format: string, payload: string) => {
    const m = read(format, payload);
    return m.ok
      ? { values: m.observations.map((o) => [o.key, o.value, o.ts]), rejected: m.rejected }
      : { error: m.reason, rejected: m.rejected };
  };

  it.each([
    [
      'shdr',
      '2024-01-01T00:00:05Z|a|1|b|2',
      {
        values: [
          ['a', '1', AT + 5000],
          ['b', '2', AT + 5000],
        ],
        rejected: 0,
      },
    ],
    ['shdr', '|a|UNAVAILABLE', { values: [['a', null, AT]], rejected: 0 }],
    ['shdr', 'x|a|1\r\n* PONG 1000\r\n2017', { values: [['a', '1', AT]], rejected: 1 }],
    ['shdr', '   ', { values: [], rejected: 0 }],
    [
      'json',
      '{"values":{"a":"1","b":2,"c":true,"d":null,"e":"unavailable"}}',
      {
        values: [
          ['a', '1', AT],
          ['b', '2', AT],
          ['c', 'true', AT],
          ['d', null, AT],
          ['e', null, AT],
        ],
        rejected: 0,
      },
    ],
    [
      'json',
      '{"ts":"2024-01-01T00:00:01.5Z","values":{"a":1}}',
      { values: [['a', '1', AT + 1500]], rejected: 0 },
    ],
    ['json', `{"ts":${AT + 7},"values":{"a":1}}`, { values: [['a', '1', AT + 7]], rejected: 0 }],
    ['json', '{"ts":"yesterday","values":{"a":1}}', { values: [], rejected: 1 }],
    ['json', '{"ts":-5,"values":{"a":1}}', { values: [], rejected: 1 }],
    ['json', '{"values":{"a":[1],"b":{},"":"x","ok":"y"}}', { values: [['ok', 'y', AT]], rejected: 3 }],
    [
      'json',
      '[{"values":{"a":1}}, 7, null, {"values":{"b":2}}]',
      {
        values: [
          ['a', '1', AT],
          ['b', '2', AT],
        ],
        rejected: 2,
      },
    ],
    ['json', '{}', { values: [], rejected: 1 }],
    ['json', '{"values":"a=1"}', { values: [], rejected: 1 }],
    [
      'json',
      '{"conditions":[{"key":"s","level":"Fault","nativeCode":"7"},{"key":"s","level":"BAD"},{"level":"NORMAL"}]}',
      {
        values: [['s', 'FAULT', AT]],
        rejected: 2,
      },
    ],
    [
      'json',
      '{"messages":[{"key":"m","nativeCode":"1","text":"Door open"},{"key":"m"}]}',
      {
        values: [['m', 'Door open', AT]],
        rejected: 1,
      },
    ],
    ['json', '{"values":{"a":1}', { values: [], rejected: 1 }],
    ['json', 'null', { values: [], rejected: 1 }],
    ['status', 'online', { values: [], rejected: 0 }],
    ['status', 'maybe', { error: 'status payload must be ONLINE or OFFLINE', rejected: 1 }],
  ])('%s %s', (format, payload, expected) => {
    expect(summary(format, payload)).toEqual(expected);
  });

  it('reads a condition with every part from JSON', () => {
    const m = read(
      'json',
      '{"conditions":[{"key":"system","level":"warning","nativeCode":"W1","nativeSeverity":"2","qualifier":"HIGH","message":"Hot"}]}',
    );
    expect(m.ok && m.observations[0]).toEqual({
      ts: AT,
      key: 'system',
      value: 'WARNING',
      kind: 'condition',
      condition: {
        level: 'WARNING',
        nativeCode: 'W1',
        nativeSeverity: '2',
        qualifier: 'HIGH',
        message: 'Hot',
      },
    });
  });

  it('consumes a multiline asset in an SHDR payload without leaking its body as data', () => {
    const m = read(
      'shdr',
      'x|@ASSET@|T1|CuttingTool|--multiline--AB\n<CuttingTool>\n|bad|line|\n</CuttingTool>\n--multiline--AB\nx|a|1',
    );
    expect(m.ok && m.observations.map((o) => [o.kind, o.key, o.value])).toEqual([
      ['asset', '@ASSET@', 'T1'],
      ['value', 'a', '1'],
    ]);
  });

  it('refuses an oversized payload whole', () => {
    const m = parseMqttMessage('takt/acme/m1/shdr', Buffer.alloc(MAX_MQTT_PAYLOAD_BYTES + 1, 0x41), AT);
    expect(m).toMatchObject({ ok: false, rejected: 1 });
  });
});

// Ingest never crashes on input (ARCHITECTURE.md "Ingest contract"): random and malformed input on the
// MQTT path.
describe('parseMqttMessage under random input', () => {
  const topic = fc.oneof(
    fc.constantFrom('takt/acme/m1/shdr', 'takt/acme/m1/json', 'takt/acme/m1/status'),
    fc.string(),
    fc
      .array(fc.constantFrom('takt', 'acme', 'm1', 'shdr', 'json', '', '+', '#'), { maxLength: 6 })
      .map((p) => p.join('/')),
  );
  const payload = fc.oneof(
    fc.string(),
    fc.uint8Array({ maxLength: 300 }),
    fc.json(),
    fc.jsonValue().map((v) => JSON.stringify(v)),
  );

  it('never throws, and counts something for every message it cannot use', () => {
    fc.assert(
      fc.property(topic, payload, (t, p) => {
        const m = parseMqttMessage(t, p, AT);
        expect(m.rejected).toBeGreaterThanOrEqual(0);
        if (!m.ok) expect(m.rejected).toBeGreaterThan(0);
        else for (const o of m.observations) expect(Number.isFinite(o.ts)).toBe(true);
      }),
      { numRuns: 2_000 },
    );
  });

  const goodKey = fc.stringMatching(/^[A-Za-z][A-Za-z0-9_]{0,11}$/);
  const goodValue = fc.oneof(fc.stringMatching(/^[A-Za-z0-9.]{1,10}$/), fc.integer());
  const junk = fc.oneof(fc.array(fc.integer()), fc.object(), fc.constant(undefined));

  it('keeps every good value of a JSON record next to junk, and counts each piece of junk', () => {
    fc.assert(
      fc.property(
        fc.dictionary(goodKey, goodValue, { minKeys: 1 }),
        fc.dictionary(goodKey, junk),
        (good, bad) => {
          const badOnly = Object.fromEntries(Object.entries(bad).filter(([k]) => !(k in good)));
          const values = { ...good, ...badOnly };
          const m = parseMqttMessage('takt/acme/m1/json', JSON.stringify({ values }), AT);
          if (!m.ok) throw new Error(m.reason);
          const kept = Object.fromEntries(m.observations.map((o) => [o.key, o.value]));
          for (const [k, v] of Object.entries(good))
            expect(kept[k]).toBe(String(v).toUpperCase() === 'UNAVAILABLE' ? null : String(v));
          // JSON.stringify drops undefined values: they never reach us, so they are not counted.
          const sent = Object.values(badOnly).filter((v) => v !== undefined).length;
          expect(m.rejected).toBe(sent);
        },
      ),
      { numRuns: 200 },
    );
  });

  it('keeps the good SHDR lines of a payload with random lines mixed in', () => {
    fc.assert(
      fc.property(
        fc.array(fc.tuple(goodKey, fc.stringMatching(/^[A-Z0-9]{1,8}$/))),
        fc.array(fc.string()),
        (good, noise) => {
          const lines = good.map(([k, v]) => `2024-01-01T00:00:00Z|${k}|${v}`);
          const payload = [
            ...lines,
            ...noise.map((n) => n.replace(/[\r\n]/g, ' ').replace(/--multiline--/g, '')),
          ].join('\n');
          const m = parseMqttMessage('takt/acme/m1/shdr', payload, AT);
          if (!m.ok) throw new Error(m.reason);
          const seen = m.observations.map((o) => `${o.key}=${o.value}`);
          for (const [k, v] of good) expect(seen).toContain(`${k}=${v === 'UNAVAILABLE' ? null : v}`);
        },
      ),
      { numRuns: 300 },
    );
  });
});
