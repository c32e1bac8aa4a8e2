import { describe, expect, it } from 'vitest';
import type { Overlay, WorkcenterView } from '../offline/optimistic';
import { foldOverlays } from '../offline/optimistic';
import { undoCount } from './manualParts';

const base: WorkcenterView = {
  job: null,
  operator: null,
  downtime: [],
  rejectedParts: 0,
  partsAdded: 0,
  manualAdds: [],
  pending: new Set(),
};
const o = (
  seq: number,
  type: Overlay['type'],
  payload: Overlay['payload'] = {},
  count?: number,
): Overlay => ({
  commandId: `c${seq}`,
  seq,
  machineId: 'm1',
  type,
  payload,
  occurredAt: seq,
  display: count == null ? {} : { count },
  state: 'pending',
});

describe('Undo on a manual work center takes back the last add (server: last manual adjustment)', () => {
  it.each<[string, readonly number[], readonly number[], number]>([
    ['last queued add: Add 1 Part', [4, 1], [], 1],
    ['last queued add: Add Part', [1, 4], [1], 4],
    ['nothing queued: what this device last added', [], [4, 1], 1],
    ['nothing known: the multiplier', [], [], 4],
  ])('%s', (_, queued, remembered, expected) => {
    expect(undoCount({ manualAdds: queued }, remembered, 4)).toBe(expected);
  });

  it('subtracts what the last queued add added, not the multiplier', () => {
    const v = foldOverlays(base, [
      o(1, 'manual_add_part', { count: 4 }),
      o(2, 'manual_add_part', { count: 1 }),
      o(3, 'manual_undo', {}, 4), // display count: a stale guess, the queued add wins
    ]);
    expect(v.partsAdded).toBe(4);
    expect(v.manualAdds).toEqual([4]);
  });

  it('uses the count known when queued once the adds were pulled', () => {
    const v = foldOverlays(base, [o(1, 'manual_undo', {}, 1)]);
    expect(v.partsAdded).toBe(-1);
  });
});
