import { describe, expect, it } from 'vitest';
import { namesJob } from './auto-dispatch';

describe('namesJob (decision 1094)', () => {
  const program = { type: 'PROGRAM', subType: null };
  it('mes: the main program names the job, not the running sub-program nor another item', () => {
    expect(namesJob('mes', null, 'Program_Name_Running', program)).toBe(true);
    expect(namesJob('mes', null, 'program', { type: 'program', subType: 'MAIN' })).toBe(true);
    expect(namesJob('mes', null, 'sub', { type: 'PROGRAM', subType: 'ACTIVE' })).toBe(false);
    expect(namesJob('mes', 'wo', 'wo', { type: 'WORK_ORDER', subType: null })).toBe(false);
    expect(namesJob('mes', null, 'unmapped', undefined)).toBe(false);
  });
  it('key: only the adapter key the dispatchKey names', () => {
    expect(namesJob('key', 'wo', 'wo', undefined)).toBe(true);
    expect(namesJob('key', ' wo ', 'wo', undefined)).toBe(true);
    expect(namesJob('key', 'wo', 'program', program)).toBe(false);
    expect(namesJob('key', null, 'wo', undefined)).toBe(false);
    expect(namesJob('key', '', '', undefined)).toBe(false);
  });
});
