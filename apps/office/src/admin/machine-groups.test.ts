import { describe, expect, it } from 'vitest';
import { groupBody, groupErrors, groupFormOf, namesOf, newGroupForm, toggled } from './machine-groups';

describe('machine groups form', () => {
  it('needs a name; an empty ERP group id is none', () => {
    expect(groupErrors(newGroupForm()).name).toBe('Missing required field: Name');
    const f = { ...newGroupForm(), name: ' Cell ', erpGroupId: ' ', machines: ['a'], annotationTypes: ['r'] };
    expect(groupErrors(f)).toEqual({});
    expect(groupBody(f, true)).toEqual({
      name: 'Cell',
      erpGroupId: null,
      machines: ['a'],
      annotationTypes: ['r'],
    });
  });

  it('sends downtime reasons only with FullProduct (reports-admin §6)', () => {
    const f = groupFormOf({ id: 'g', name: 'G', erpGroupId: 'E', machines: ['a'], annotationTypes: ['r'] });
    expect(groupBody(f, false)).toEqual({ name: 'G', erpGroupId: 'E', machines: ['a'] });
  });

  it('toggles ids and names them in list order', () => {
    expect(toggled(['a'], 'b', true)).toEqual(['a', 'b']);
    expect(toggled(['a', 'b'], 'a', false)).toEqual(['b']);
    expect(toggled(['a'], 'a', true)).toEqual(['a']);
    const named = [
      { id: 'b', name: 'Bravo' },
      { id: 'a', name: 'Alpha' },
    ];
    expect(namesOf(['a', 'b', 'gone'], named)).toBe('Bravo, Alpha');
  });
});
