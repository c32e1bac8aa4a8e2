import { describe, expect, it } from 'vitest';
import { mayDelete, operatorBody, operatorErrors, sortOperators } from './operators';
import type { Operator } from '@takt/domain';

const op = (name: string, over: Partial<Operator> = {}): Operator => ({
  id: name,
  name,
  erpId: null,
  archivedAt: null,
  runCount: 0,
  ...over,
});

describe('operators', () => {
  it('needs a name; an empty ERP id is none', () => {
    expect(operatorErrors({ name: ' ', erpId: '' })).toEqual({ name: 'Missing required field: Name' });
    expect(operatorErrors({ name: 'Ann', erpId: 'x'.repeat(251) })).toEqual({
      erpId: 'At most 250 characters',
    });
    expect(operatorBody({ name: ' Ann ', erpId: ' ' })).toEqual({ name: 'Ann', erpId: null });
    expect(operatorBody({ name: 'Ann', erpId: ' E7 ' })).toEqual({ name: 'Ann', erpId: 'E7' });
  });

  it('deletes only operators without runs, lists archived last', () => {
    expect(mayDelete(op('a'))).toBe(true);
    expect(mayDelete(op('a', { runCount: 2 }))).toBe(false);
    expect(sortOperators([op('Zed'), op('Amy', { archivedAt: 1 }), op('Bob')]).map((o) => o.name)).toEqual([
      'Bob',
      'Zed',
      'Amy',
    ]);
  });
});
