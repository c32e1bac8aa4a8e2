import type { SyncOutcome } from '@takt/domain';
import { describe, expect, it } from 'vitest';
import type { OutboxEntry } from './commands';
import { buildBatch, classifyOutcomes, dependentsOf, refsIn, refTo, resolveRefs } from './commands';

let seq = 0;
/** A queued command with defaults (STYLE.md: builders with defaults for test data). */
const entry = (o: Partial<OutboxEntry> & { id: string }): OutboxEntry => ({
  seq: ++seq,
  type: 'reject_part',
  machineId: 'm1',
  payload: {},
  occurredAt: 1000,
  display: {},
  attempts: 0,
  lastError: null,
  ...o,
});

describe('references between queued commands', () => {
  it('finds and resolves references', () => {
    const payload = { id: 'm1', jobId: 'j1', laborActivitySetId: refTo('c1') };
    expect(refsIn(payload)).toEqual(['c1']);
    expect(resolveRefs(payload, 'c1', { id: 'run-9' })).toEqual({
      id: 'm1',
      jobId: 'j1',
      laborActivitySetId: 'run-9',
    });
    expect(resolveRefs(payload, 'c2', { id: 'x' })).toBe(payload);
    // An answer without the field leaves the reference (and the command waits).
    expect(resolveRefs(payload, 'c1', {})).toBe(payload);
    expect(resolveRefs({ a: refTo('c1', 'jobRun.id') }, 'c1', { jobRun: { id: 'r' } })).toEqual({ a: 'r' });
  });

  it('cascades refusals to everything that waited for the refused command', () => {
    const entries = [
      entry({ id: 'b', payload: { x: refTo('a') } }),
      entry({ id: 'c', payload: { x: refTo('b') } }),
      entry({ id: 'd' }),
    ];
    expect(dependentsOf(entries, ['a']).sort()).toEqual(['b', 'c']);
    expect(dependentsOf(entries, ['d'])).toEqual([]);
  });
});

describe('buildBatch', () => {
  it('keeps the order and holds a machine back behind a command that waits', () => {
    const entries = [
      entry({ id: 'start', type: 'start_job', machineId: 'm1' }),
      entry({
        id: 'stage',
        type: 'setup_stage',
        machineId: 'm1',
        payload: { laborActivitySetId: refTo('start') },
      }),
      entry({ id: 'reject', machineId: 'm1' }),
      entry({ id: 'other', machineId: 'm2' }),
    ];
    expect(buildBatch(entries).map((c) => c.id)).toEqual(['start', 'other']);
  });

  it('caps a batch', () => {
    const entries = Array.from({ length: 5 }, (_, i) => entry({ id: `e${i}` }));
    expect(buildBatch(entries, 3).map((c) => c.id)).toEqual(['e0', 'e1', 'e2']);
  });

  it('sends only the sync command fields', () => {
    const [c] = buildBatch([entry({ id: 'a', payload: { n: 1 }, display: { reasonName: 'x' } })]);
    expect(Object.keys(c!).sort()).toEqual(['id', 'machineId', 'occurredAt', 'payload', 'type']);
  });
});

describe('classifyOutcomes', () => {
  const err = { code: 'X', message: 'Parts could not be rejected.' };
  it.each<[string, SyncOutcome | undefined, 'confirmed' | 'rejected' | 'retry']>([
    ['applied', { id: 'a', status: 'applied', result: 1 }, 'confirmed'],
    ['duplicate of applied', { id: 'a', status: 'duplicate', first: 'applied', result: 1 }, 'confirmed'],
    ['rejected', { id: 'a', status: 'rejected', error: err }, 'rejected'],
    ['duplicate of rejected', { id: 'a', status: 'duplicate', first: 'rejected', error: err }, 'rejected'],
    ['error', { id: 'a', status: 'error', error: err }, 'retry'],
    ['no answer', undefined, 'retry'],
  ])('%s → %s', (_, outcome, bucket) => {
    const c = classifyOutcomes(['a'], outcome ? [outcome] : []);
    expect(c[bucket].map((x) => x.id)).toEqual(['a']);
  });

  it('ignores answers for ids it did not send', () => {
    const c = classifyOutcomes([], [{ id: 'z', status: 'applied', result: null }]);
    expect(c.confirmed).toEqual([]);
  });
});
