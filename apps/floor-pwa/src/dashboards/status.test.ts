import { describe, expect, it } from 'vitest';
import { cycleVerdict, formatCycle, parseCycles, parseStatus, statusIndicators } from './status';
import type { GatewayStatusEntry } from './status';

const gw = (name: string, label: string, tone: GatewayStatusEntry['health']['tone']): GatewayStatusEntry => ({
  id: name,
  name,
  health: { status: label.replace(/ /g, ''), label, tone },
});

describe('statusIndicators', () => {
  const names = new Map([
    ['m1', 'Mill 1'],
    ['m2', 'Lathe 2'],
  ]);

  it('says how many shown machines send unmapped data, and the gateways worst first, in words', () => {
    const out = statusIndicators(
      [
        { machineId: 'm1', keys: ['temp'] },
        { machineId: 'm2', keys: ['a', 'b'] },
        { machineId: 'elsewhere', keys: ['x'] },
      ],
      [
        gw('E1', 'Degraded', 'warning'),
        gw('E2', 'Normal', 'success'),
        gw('E3', 'Not Reporting', 'danger'),
        gw('E4', 'Not Reporting', 'danger'),
      ],
      names,
    );
    expect(out.map((i) => [i.tone, i.text])).toEqual([
      ['warning', '2 machines send unmapped data'],
      ['danger', '2 Gateways Not Reporting'],
      ['warning', 'Gateway Degraded'],
    ]);
    expect(out[0]!.detail).toBe('Mill 1: temp\nLathe 2: a, b');
    // Grouped by the health value; its id names the value, not the words.
    expect(out.map((i) => i.id)).toEqual(['unmapped', 'gateways:NotReporting', 'gateways:Degraded']);
  });

  it('is quiet when all is well and empty without gateways', () => {
    expect(statusIndicators([], [gw('E1', 'Normal', 'success')], names)).toEqual([
      { id: 'gateways', tone: 'success', text: 'Gateways Normal', detail: 'E1: Normal' },
    ]);
    expect(statusIndicators(undefined, undefined, names)).toEqual([]);
    expect(statusIndicators([{ machineId: 'm1', keys: ['k'] }], [], names)[0]!.text).toBe(
      '1 machine sends unmapped data',
    );
  });
});

describe('parsing', () => {
  it('accepts the documented status and refuses anything else', () => {
    const ok = {
      unmapped: [{ machineId: 'm', keys: ['k'] }],
      gateways: [gw('E', 'Normal', 'success')],
      cyclesDashboard: false,
    };
    expect(parseStatus(ok)).toBe(ok);
    expect(() => parseStatus({ unmapped: [], gateways: [] })).toThrow();
    expect(() => parseStatus({ ...ok, gateways: [gw('E', 'Normal', 'blue' as 'success')] })).toThrow();
    expect(() => parseCycles([{ machineId: 'm', lastCycleMs: 'x' }])).toThrow();
  });
});

describe('cycles', () => {
  const entry = { machineId: 'm', lastCycleAt: 1 };
  it('formats cycle times and compares the last with expected', () => {
    expect(formatCycle(null)).toBe('—');
    expect(formatCycle(12_345)).toBe('12.3 s');
    expect(formatCycle(72_000)).toBe('1:12');
    expect(cycleVerdict({ ...entry, lastCycleMs: 72_000, expectedCycleMs: 60_000, deltaMs: 12_000 })).toEqual(
      {
        tone: 'warning',
        text: '12.0 s slower than expected',
      },
    );
    expect(
      cycleVerdict({ ...entry, lastCycleMs: 55_000, expectedCycleMs: 60_000, deltaMs: -5000 }).tone,
    ).toBe('success');
    expect(cycleVerdict({ ...entry, lastCycleMs: 55_000, expectedCycleMs: null, deltaMs: null })).toEqual({
      tone: null,
      text: 'No job standards',
    });
    expect(cycleVerdict({ ...entry, lastCycleMs: null, expectedCycleMs: 60_000, deltaMs: null }).text).toBe(
      'No cycle in the last 24 hours',
    );
  });
});
