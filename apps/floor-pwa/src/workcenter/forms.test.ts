import { describe, expect, it } from 'vitest';
import type { JobState } from '../offline/optimistic';
import type { RejectReason } from './forms';
import {
  categorizePayload,
  NEW_REJECT,
  oneTapReason,
  rejectFormView,
  rejectPayload,
  startOptions,
  startProductionErrors,
  startProductionPayload,
  stopJobPayload,
} from './forms';

const reason = (o: Partial<RejectReason> = {}): RejectReason => ({
  id: 'r1',
  name: 'Burr',
  color: null,
  scrap: true,
  reject_behavior: 'scrap',
  ...o,
});
const job = (o: Partial<JobState> = {}): JobState => ({
  jobId: 'j1',
  jobName: 'Bracket',
  runId: null,
  runRef: 'cmd-1',
  setup: true,
  setupSince: 0,
  stageId: null,
  expectedSetupMs: null,
  startedAt: 0,
  ...o,
});

describe('Start Job', () => {
  const stages = [
    { id: 's2', name: 'Tooling', stageOrder: 2, archivedAt: null },
    { id: 's1', name: 'Fixture', stageOrder: 1, archivedAt: null },
    { id: 's3', name: 'Old', stageOrder: 3, archivedAt: 5 },
  ];
  it.each([
    ['no setup time', null, stages, true, { setup: false }],
    [
      'stages in order, archived hidden',
      600,
      stages,
      true,
      { setup: true, stages: ['s1', 's2'], noStages: false },
    ],
    ['stages enabled, none', 600, [], true, { setup: true, stages: [], noStages: true }],
    ['stages disabled', 600, stages, false, { setup: true, stages: [], noStages: false }],
    ['flag unknown, stages exist', 600, stages, null, { setup: true, stages: ['s1', 's2'] }],
  ] as const)('%s', (_, setuptime, st, enabled, expected) => {
    const o = startOptions({ setuptime }, st, enabled);
    expect({ ...o, stages: o.stages.map((s) => s.id) }).toMatchObject(expected);
  });

  it('stops a job whose start is still queued by reference', () => {
    expect(stopJobPayload('m1', job())).toEqual({
      id: 'm1',
      jobId: 'j1',
      laborActivitySetId: { $ref: 'cmd-1', path: 'id' },
    });
  });
});

describe('Start Production', () => {
  it.each([
    ['3', 5, []],
    ['0', 5, []],
    ['6', 5, ['Parts to keep must be at most 5.']],
    ['-1', 5, ['Parts to keep must be 0 or more.']],
    ['', 5, ['Parts to keep must be 0 or more.']],
    ['9', null, []],
  ] as const)('kept %j of %s', (kept, made, errors) => {
    expect(startProductionErrors({ keptParts: kept, notes: '' }, made)).toEqual(
      errors.map((message) => ({ field: 'keptParts', message })),
    );
  });

  it('rejects notes over 250 characters', () => {
    expect(startProductionErrors({ keptParts: '1', notes: 'x'.repeat(251) }, 5)).toEqual([
      { field: 'notes', message: 'Notes: at most 250 characters.' },
    ]);
  });

  it('clamps kept parts to the parts made in setup', () => {
    expect(
      startProductionPayload('m1', job({ runId: 'run-1' }), { keptParts: '9', notes: ' ok ' }, 4),
    ).toEqual({
      jsgId: 'run-1',
      machineId: 'm1',
      message: 'ok',
      keptParts: 4,
    });
  });
});

describe('Reject Part (live-operations §5)', () => {
  const opts = { hideRemoveFlag: false, manual: false };
  it.each([
    ['1', 'r1', true],
    ['0', 'r1', false],
    ['', 'r1', false],
    ['1.5', 'r1', false],
    ['2', null, false],
  ] as const)('count %j reason %s valid %s', (count, reasonId, valid) => {
    expect(rejectFormView({ ...NEW_REJECT, count, reasonId }, [reason()], opts).valid).toBe(valid);
  });

  it.each([
    ['operator', true],
    ['scrap', false],
    ['nonconform', false],
  ] as const)('type choice for reason behaviour %s: %s', (b, editable) => {
    const v = rejectFormView({ ...NEW_REJECT, reasonId: 'r1' }, [reason({ reject_behavior: b })], opts);
    expect(v.typeEditable).toBe(editable);
  });

  it.each([
    [{ hideRemoveFlag: false, manual: false }, true],
    [{ hideRemoveFlag: true, manual: false }, false],
    [{ hideRemoveFlag: false, manual: true }, false],
  ])('remove-from-good-parts shown for %j: %s', (o, shown) => {
    expect(rejectFormView(NEW_REJECT, [], o).showRemoveFromGood).toBe(shown);
  });

  it.each([
    [true, 0],
    [false, 3],
  ])('removeFromGoodParts %s sends count %i', (remove, count) => {
    const p = rejectPayload(
      'm1',
      { ...NEW_REJECT, count: '3', reasonId: 'r1', removeFromGoodParts: remove },
      reason(),
      99,
      {
        manual: false,
        showRemoveFromGood: true,
      },
    );
    expect(p).toMatchObject({
      scrapcount: 3,
      count,
      deductFromGoodParts: remove,
      scrap: true,
      adjustmenttime: 99,
      reject_behavior: 'scrap',
    });
  });

  it('takes the operator choice only for operator reasons', () => {
    const d = { ...NEW_REJECT, reasonId: 'r1', behavior: 'nonconform' as const };
    const o = { manual: false, showRemoveFromGood: true };
    expect(rejectPayload('m1', d, reason({ reject_behavior: 'operator' }), 1, o).reject_behavior).toBe(
      'nonconform',
    );
    expect(rejectPayload('m1', d, reason({ reject_behavior: 'scrap' }), 1, o).reject_behavior).toBe('scrap');
  });
});

describe('categorize payload', () => {
  const d = { reasonId: 'a', planned: true, description: ' belt ' };
  it('sends planned only for operator reasons, and end null', () => {
    expect(
      categorizePayload('m1', 5, d, { id: 'a', name: 'A', color: '#828282', plannedBehavior: 'operator' }),
    ).toEqual({
      machineId: 'm1',
      start: 5,
      end: null,
      category_id: 'a',
      message: 'belt',
      planned: true,
    });
    expect(
      categorizePayload('m1', 5, d, { id: 'a', name: 'A', color: '#828282', plannedBehavior: 'planned' }),
    ).not.toHaveProperty('planned');
  });

  it.each([
    ['operator', false],
    ['planned', true],
    ['unplanned', true],
    ['plannedWithLimit', true],
  ])('the underlay grid saves a %s reason on one tap: %s', (plannedBehavior, oneTap) =>
    expect(oneTapReason({ id: 'a', name: 'A', color: '#828282', plannedBehavior })).toBe(oneTap),
  );
});
