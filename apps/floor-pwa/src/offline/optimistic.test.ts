import { describe, expect, it } from 'vitest';
import type { Overlay, WorkcenterView } from './optimistic';
import { applyOverlay, foldOverlays, runIdOrRef } from './optimistic';

const base = (o: Partial<WorkcenterView> = {}): WorkcenterView => ({
  job: null,
  operator: null,
  downtime: [],
  rejectedParts: 0,
  partsAdded: 0,
  manualAdds: [],
  pending: new Set(),
  ...o,
});
let seq = 0;
const overlay = (o: Partial<Overlay> & Pick<Overlay, 'type'>): Overlay => ({
  commandId: `c${++seq}`,
  seq,
  machineId: 'm1',
  payload: {},
  occurredAt: 10_000,
  display: {},
  state: 'pending',
  ...o,
});
const live = {
  start: 1000,
  end: null,
  reason: null,
  color: null,
  message: null,
  planned: null,
  short: false,
  setup: false,
  annotationTypeId: null,
};

describe('optimistic workcenter view', () => {
  it('a queued job start shows the job in setup with a pending mark, and a reference for the run', () => {
    const start = overlay({
      type: 'start_job',
      payload: { id: 'm1', jobId: 'j1', setup: true, setupStageId: 's1' },
      display: { jobName: 'Bracket', expectedSetupMs: 600_000 },
    });
    const v = applyOverlay(base(), start);
    expect(v.job).toMatchObject({
      jobId: 'j1',
      jobName: 'Bracket',
      setup: true,
      stageId: 's1',
      setupSince: 10_000,
      runId: null,
    });
    expect(v.pending.has('job')).toBe(true);
    expect(runIdOrRef(v.job!)).toEqual({ $ref: start.commandId, path: 'id' });
  });

  it('a confirmed start carries the run id and no mark', () => {
    const v = applyOverlay(
      base(),
      overlay({
        type: 'start_job',
        payload: { jobId: 'j1', setup: false },
        state: 'confirmed',
        result: { id: 'run-1' },
      }),
    );
    expect(v.job).toMatchObject({ runId: 'run-1', runRef: null, setup: false });
    expect(runIdOrRef(v.job!)).toBe('run-1');
    expect(v.pending.size).toBe(0);
  });

  it('folds in the order the operator acted', () => {
    const v = foldOverlays(base(), [
      overlay({ type: 'start_production', seq: 3 }),
      overlay({ type: 'start_job', seq: 1, payload: { jobId: 'j1', setup: true } }),
      overlay({ type: 'setup_stage', seq: 2, payload: { setupStageId: 's2' } }),
    ]);
    expect(v.job).toMatchObject({ setup: false, stageId: null });
  });

  it.each<[string, Overlay, Partial<WorkcenterView>]>([
    ['stop', overlay({ type: 'stop_job' }), { job: null }],
    ['reject', overlay({ type: 'reject_part', payload: { scrapcount: 3 } }), { rejectedParts: 3 }],
    ['add parts', overlay({ type: 'manual_add_part', payload: { count: 4 } }), { partsAdded: 4 }],
    ['undo', overlay({ type: 'manual_undo', display: { count: 4 } }), { partsAdded: -4 }],
    ['logout', overlay({ type: 'operator_logout' }), { operator: null }],
  ])('%s', (_, o, expected) => {
    const v = applyOverlay(base({ job: null, operator: { operatorId: 'o', name: 'Ana', startAt: 1 } }), o);
    expect(v).toMatchObject(expected);
  });

  it('logs an operator in by name', () => {
    const v = applyOverlay(
      base(),
      overlay({ type: 'operator_login', payload: { operatorId: 'o1' }, display: { operatorName: 'Ana' } }),
    );
    expect(v.operator).toEqual({ operatorId: 'o1', name: 'Ana', startAt: 10_000 });
    expect(v.pending.has('operator')).toBe(true);
  });

  it('categorizes the period that starts at the payload start', () => {
    const v = applyOverlay(
      base({
        downtime: [
          { ...live, end: 2000 },
          { ...live, start: 3000 },
        ],
      }),
      overlay({
        type: 'categorize_downtime',
        payload: { start: 3000, category_id: 'r1', message: 'belt' },
        display: { reasonName: 'Maintenance', reasonColor: '#123456' },
      }),
    );
    expect(v.downtime[1]).toMatchObject({
      reason: 'Maintenance',
      color: '#123456',
      message: 'belt',
      annotationTypeId: 'r1',
    });
    expect(v.downtime[0]!.reason).toBeNull();
    expect(v.pending.has('downtime:3000')).toBe(true);
  });

  it('split ends the live period and starts a new one', () => {
    const v = applyOverlay(base({ downtime: [live] }), overlay({ type: 'split_downtime', occurredAt: 5000 }));
    expect(v.downtime.map((d) => [d.start, d.end])).toEqual([
      [1000, 5000],
      [5000, null],
    ]);
  });

  it('never mutates its input', () => {
    const b = base({ downtime: [live] });
    applyOverlay(b, overlay({ type: 'split_downtime', occurredAt: 5000 }));
    expect(b.downtime).toHaveLength(1);
    expect(b.pending.size).toBe(0);
  });
});
