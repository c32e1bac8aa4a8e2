import { describe, expect, it } from 'vitest';
import { createApiClient } from './api';
import { fetchDashboard, machinesInGroup, ringPercent } from './dashboard-data';
import { machine } from './test-builders';

describe('ringPercent', () => {
  it.each([
    [{}, 'utilization', null],
    [{ utilization: 87.5 }, 'utilization', 87.5],
    [{ utilization: '87' }, 'utilization', null],
    [{ oee: 61 }, 'oee', 61],
    [{ partPercent: 120 }, 'partsgoal', 120],
    [{ utilization: 50 }, 'downtime', null],
  ] as const)('%j on %s', (fields, type, expected) => {
    expect(ringPercent(machine(fields), type)).toBe(expected);
  });
});

describe('machinesInGroup', () => {
  const ms = [
    machine({ id: 'a', groupIds: ['g1'] }),
    machine({ id: 'b', groupIds: ['g2'] }),
    machine({ id: 'c', groupIds: [] }),
  ];
  it.each([
    [null, ['a', 'b', 'c']],
    ['g1', ['a']],
    ['nope', []],
  ] as const)('%s', (group, ids) => {
    expect(machinesInGroup(ms as { id: string; groupIds: string[] }[], group).map((m) => m.id)).toEqual(ids);
  });
});

describe('fetchDashboard', () => {
  it('validates, keeps extra fields and computes the clock offset', async () => {
    const now = Date.now() + 60_000;
    const fetch = async (url: string | URL | Request) => {
      expect(String(url)).toBe('/api/dashboard?group=g1');
      return new Response(
        JSON.stringify({
          machines: [machine({ utilization: 40 })],
          groups: [{ id: 'g1', name: 'Lathes' }],
          now,
        }),
      );
    };
    const data = await fetchDashboard(createApiClient({ fetch }), 'g1');
    expect(data.machines[0]?.['utilization']).toBe(40);
    expect(data.offsetMs).toBeGreaterThan(59_000);
    expect(data.offsetMs).toBeLessThanOrEqual(60_000);
  });

  it('rejects an answer that breaks the contract', async () => {
    const fetch = async () => new Response(JSON.stringify({ machines: [{ id: 1 }], groups: [], now: 0 }));
    await expect(fetchDashboard(createApiClient({ fetch }), null)).rejects.toThrow();
  });
});
