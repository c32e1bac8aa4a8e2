import { describe, expect, it } from 'vitest';
import type { DashboardData } from '@takt/ui';
import { entriesOf, FAILED_AFTER, freshnessOf, readCache, writeCache } from './feeds';

describe('freshnessOf', () => {
  const poll = (over: Partial<{ loading: boolean; error: unknown; consecutiveFailures: number }> = {}) => ({
    loading: false,
    error: undefined,
    consecutiveFailures: 0,
    ...over,
  });
  it.each([
    ['first load', poll({ loading: true }), false, 'loading'],
    ['answered', poll(), true, 'live'],
    ['a failure with data kept', poll({ error: new Error('x'), consecutiveFailures: 1 }), true, 'stale'],
    [
      '10 failures with data kept',
      poll({ error: new Error('x'), consecutiveFailures: FAILED_AFTER }),
      true,
      'stale',
    ],
    [
      'more than 10 failures',
      poll({ error: new Error('x'), consecutiveFailures: FAILED_AFTER + 1 }),
      true,
      'failed',
    ],
    [
      'a failure and nothing to show',
      poll({ error: new Error('x'), consecutiveFailures: 1 }),
      false,
      'failed',
    ],
  ] as const)('%s', (_n, p, hasData, expected) => {
    expect(freshnessOf(p, hasData)).toBe(expected);
  });
});

describe('entriesOf', () => {
  it('accepts entries with a machine id and numbers or nulls', () => {
    const rows = [
      { machineId: 'a', utilization: 12.5 },
      { machineId: 'b', utilization: null },
    ];
    expect(entriesOf<{ machineId: string; utilization: number | null }>(rows, ['utilization'])).toBe(rows);
  });
  it.each([[{}], [[{ utilization: 1 }]], [[{ machineId: 'a', utilization: '1' }]]])('refuses %j', (d) => {
    expect(() => entriesOf<{ machineId: string; utilization: number }>(d, ['utilization'])).toThrow();
  });
});

describe('offline copy', () => {
  it('keeps the last answer per group and reads nothing for a broken entry', () => {
    const store = new Map<string, string>();
    const storage = {
      getItem: (k: string) => store.get(k) ?? null,
      setItem: (k: string, v: string) => void store.set(k, v),
    };
    const data = { machines: [], groups: [], now: 1, offsetMs: 0 } as DashboardData;
    writeCache(storage, 'g1', { savedAt: 5, data, utilization: [], parts: [] });
    expect(readCache(storage, 'g1')).toMatchObject({ savedAt: 5, data });
    expect(readCache(storage, null)).toBeNull();
    store.set('takt.dashboard.all', '{broken');
    expect(readCache(storage, null)).toBeNull();
  });
});
