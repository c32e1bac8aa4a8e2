import { describe, expect, it } from 'vitest';
import {
  applyObservations,
  connectionView,
  formatAge,
  formatFieldValue,
  isFresh,
  DIAGNOSTICS_REFRESH_MS,
  DIAGNOSTICS_WAIT_MS,
  mergeAnswers,
  nextRefreshMs,
  parseDiagnostics,
  parseObservations,
} from './diagnostics';
import type { DiagnosticsAnswer } from './diagnostics';

const MIN = 60_000;
const NOW = Date.UTC(2026, 10, 25, 14, 0);

/** An answer with defaults: the Mill's three mapped fields, one heard from. */
const anAnswer = (over: Partial<DiagnosticsAnswer> = {}): DiagnosticsAnswer => ({
  connection: NOW - MIN,
  lastHeartbeat: NOW - MIN,
  fields: [
    { key: 'exec', value: 'ACTIVE', ts: NOW - 2 * MIN, dataItemType: 'EXECUTION' },
    { key: 'Sload', value: '41.5', ts: NOW - 3 * MIN, dataItemType: 'LOAD' },
    { key: 'pc', value: null, ts: null, dataItemType: 'PART_COUNT' },
  ],
  unmapped: [],
  counters: { lines: 10, observations: 20, rejected: 0, lastLineAt: NOW - MIN },
  serverNow: NOW,
  sourceProblem: null,
  ...over,
});

describe('parseDiagnostics', () => {
  it('reads the answer of GET /api/machines/:id/diagnostics', () => {
    const a = parseDiagnostics({
      connection: 'DISCONNECTED',
      lastHeartbeat: null,
      fields: [{ key: 'x', value: '1', ts: 5, dataItemType: null }, { value: 'no key' }],
      unmapped: ['x', 3],
      counters: { lines: 1, observations: 2, rejected: 3, lastLineAt: null },
      window: { from: 0, to: 1 },
      sourceProblem: 'This address is not allowed for a machine source: loopback addresses are closed.',
    });
    expect(a).toEqual({
      connection: 'DISCONNECTED',
      lastHeartbeat: null,
      fields: [{ key: 'x', value: '1', ts: 5, dataItemType: null }],
      unmapped: ['x'],
      counters: { lines: 1, observations: 2, rejected: 3, lastLineAt: null },
      serverNow: 1,
      sourceProblem: 'This address is not allowed for a machine source: loopback addresses are closed.',
      connectionInput: null,
    });
  });
  it('refuses an answer of another shape', () => {
    expect(() => parseDiagnostics({ error: 'x' })).toThrow();
    expect(() => parseDiagnostics(null)).toThrow();
  });
});

describe('parseObservations', () => {
  it('keeps well-formed rows (pg may send ts as text) and drops the rest', () => {
    expect(
      parseObservations({
        observations: [
          { ts: 1, key: 'a', value: '1' },
          { ts: '2', key: 'b', value: null },
          { ts: 3, key: 4, value: 'x' },
          { ts: 'x', key: 'c', value: 'x' },
        ],
      }),
    ).toEqual([
      { ts: 1, key: 'a', value: '1' },
      { ts: 2, key: 'b', value: null },
    ]);
    expect(parseObservations(null)).toEqual([]);
    expect(parseObservations({ observations: 'no' })).toEqual([]);
  });
});

describe('applyObservations (latest value per field, live)', () => {
  it('replaces a value with a newer one, keeps its type and fills a field not heard from', () => {
    const a = applyObservations(anAnswer(), [
      { ts: NOW - 10_000, key: 'Sload', value: '55' },
      { ts: NOW - 5_000, key: 'pc', value: '12' },
    ]);
    expect(a.fields).toEqual([
      { key: 'exec', value: 'ACTIVE', ts: NOW - 2 * MIN, dataItemType: 'EXECUTION' },
      { key: 'pc', value: '12', ts: NOW - 5_000, dataItemType: 'PART_COUNT' },
      { key: 'Sload', value: '55', ts: NOW - 10_000, dataItemType: 'LOAD' },
    ]);
    expect(a.unmapped).toEqual([]);
  });
  it('keeps the newer value when an older one arrives late; the last of a burst wins', () => {
    const a = applyObservations(anAnswer(), [
      { ts: NOW - 10 * MIN, key: 'Sload', value: '1' },
      { ts: NOW - 2_000, key: 'exec', value: 'READY' },
      { ts: NOW - 1_000, key: 'exec', value: 'STOPPED' },
    ]);
    expect(a.fields.find((f) => f.key === 'Sload')?.value).toBe('41.5');
    expect(a.fields.find((f) => f.key === 'exec')?.value).toBe('STOPPED');
  });
  it('adds a key no adapter field maps to the fields and the unmapped list, not the link log', () => {
    const a = applyObservations(anAnswer({ unmapped: ['zz'] }), [
      { ts: NOW, key: 'Xtemp', value: '30.2' },
      { ts: NOW, key: '@connection', value: 'CONNECTED' },
    ]);
    expect(a.fields.map((f) => f.key)).toEqual(['exec', 'pc', 'Sload', 'Xtemp']);
    expect(a.unmapped).toEqual(['Xtemp', 'zz']);
  });
  it('returns the same answer for no observations', () => {
    const a = anAnswer();
    expect(applyObservations(a, [])).toBe(a);
  });
});

describe('connectionView (live-operations §4; §9 heartbeat timeout 5 minutes)', () => {
  const time = (ms: number) => `@${String((ms - NOW) / MIN)}min`;
  it.each([
    ['a heartbeat a minute ago', NOW - MIN, 'success', 'Connected', 'Last heartbeat @-1min'],
    ['a heartbeat exactly 5 minutes ago', NOW - 5 * MIN, 'success', 'Connected', expect.any(String)],
    [
      'no heartbeat for more than 5 minutes',
      NOW - 5 * MIN - 1_000,
      'danger',
      'Disconnected',
      expect.stringContaining('5 minutes'),
    ],
    ['no heartbeat yet', null, 'warning', 'Never Reported', expect.stringContaining('Connecting')],
  ])('%s', (_, heartbeat, status, label, detail) => {
    const v = connectionView(anAnswer({ lastHeartbeat: heartbeat }), NOW, time);
    expect(v).toEqual({ status, label, detail });
  });
  it('is NOT CONFIGURED without adapter fields, whatever the heartbeat', () => {
    const v = connectionView(
      { fields: [{ key: 'x', value: '1', ts: NOW, dataItemType: null }], lastHeartbeat: NOW },
      NOW,
      time,
    );
    expect(v.status).toBe('unavailable');
    expect(v.label).toBe('Not configured');
  });
  it('says why from the server’s facts (decision 1055), on the page’s clock', () => {
    const input = {
      sourceConfigured: true,
      fieldsMapped: true,
      everReported: false,
      link: 'DISCONNECTED',
      lastHeartbeat: NOW - 1_000,
    };
    const refused = connectionView(anAnswer({ connectionInput: input }), NOW, time);
    expect(refused).toMatchObject({ status: 'danger', label: 'Never Reported' });
    expect(refused.detail).toContain('cannot connect');
    const noSource = connectionView(
      anAnswer({ connectionInput: { ...input, sourceConfigured: false } }),
      NOW,
      time,
    );
    expect(noSource).toMatchObject({ status: 'unavailable', label: 'Not configured' });
    expect(noSource.detail).toContain('no data source');
    const up = { ...input, everReported: true, link: 'CONNECTED', lastHeartbeat: NOW - 4 * MIN };
    expect(connectionView(anAnswer({ connectionInput: up }), NOW, time).label).toBe('Connected');
    expect(connectionView(anAnswer({ connectionInput: up }), NOW + 2 * MIN, time).label).toBe('Disconnected');
  });
});

describe('nextRefreshMs (decision 1241)', () => {
  it('asks again soon until the link shows up, then every 30 s', () => {
    expect(DIAGNOSTICS_WAIT_MS).toBeLessThan(DIAGNOSTICS_REFRESH_MS);
    expect(nextRefreshMs(null, NOW)).toBe(DIAGNOSTICS_WAIT_MS);
    expect(nextRefreshMs(anAnswer({ lastHeartbeat: null }), NOW)).toBe(DIAGNOSTICS_WAIT_MS);
    const link = {
      sourceConfigured: true,
      fieldsMapped: true,
      everReported: true,
      link: 'DISCONNECTED',
      lastHeartbeat: NOW - 10 * MIN,
    };
    expect(nextRefreshMs(anAnswer({ connectionInput: link }), NOW)).toBe(DIAGNOSTICS_WAIT_MS);
    const up = { ...link, link: 'CONNECTED', lastHeartbeat: NOW - MIN };
    expect(nextRefreshMs(anAnswer({ connectionInput: up }), NOW)).toBe(DIAGNOSTICS_REFRESH_MS);
    // The heartbeat grows old on the page's clock: the link no longer shows up, so it asks sooner.
    expect(nextRefreshMs(anAnswer({ connectionInput: up }), NOW + 5 * MIN)).toBe(DIAGNOSTICS_WAIT_MS);
  });
});

describe('formatFieldValue and formatAge', () => {
  it.each([
    ['41.5', '41.5'],
    ['1200', '1,200'],
    ['0.123456', '0.1235'],
    ['-3', '-3'],
    ['ACTIVE', 'ACTIVE'],
    ['12 mm', '12 mm'],
    ['', 'No value'],
    [null, 'No value'],
  ])('%s → %s', (value, shown) => {
    expect(formatFieldValue(value, 'en-US')).toBe(shown);
  });
  it('rounds to fewer decimals when asked (an average)', () => {
    expect(formatFieldValue('44.34027', 'en-US', 2)).toBe('44.34');
  });
  it.each([
    [null, '-'],
    [NOW - 2_000, 'just now'],
    [NOW - 42_000, '42 s ago'],
    [NOW - 5 * MIN, '5 min ago'],
    [NOW - 3 * 60 * MIN, '3 h ago'],
    [NOW - 50 * 60 * MIN, '2 d ago'],
  ])('%s → %s', (ts, text) => {
    expect(formatAge(ts, NOW)).toBe(text);
  });
  it('marks values reported in the last 10 s as fresh', () => {
    expect(isFresh({ ts: NOW - 9_000 }, NOW)).toBe(true);
    expect(isFresh({ ts: NOW - 11_000 }, NOW)).toBe(false);
    expect(isFresh({ ts: null }, NOW)).toBe(false);
  });
});

describe('mergeAnswers', () => {
  it('keeps a live value newer than a fresh answer, and takes the answer otherwise', () => {
    const shown = applyObservations(anAnswer(), [{ ts: NOW, key: 'Sload', value: '60' }]);
    const fresh = anAnswer({ lastHeartbeat: NOW });
    const merged = mergeAnswers(fresh, shown);
    expect(merged.fields.find((f) => f.key === 'Sload')?.value).toBe('60');
    expect(merged.lastHeartbeat).toBe(NOW);
    expect(mergeAnswers(fresh, null)).toBe(fresh);
    const newer = anAnswer({ fields: [{ key: 'Sload', value: '70', ts: NOW + 1, dataItemType: 'LOAD' }] });
    expect(mergeAnswers(newer, shown).fields.find((f) => f.key === 'Sload')?.value).toBe('70');
  });
});
