import { describe, expect, it } from 'vitest';
import type { JobMachine } from '@takt/domain';
import type { JobView, StandardsForm } from './planning';
import {
  cycleFieldsOf,
  cycleMsOf,
  jobBody,
  jobErrors,
  jobsQuery,
  mayPlan,
  newJobForm,
  newStandardsForm,
  standardsBody,
  standardsErrors,
  standardsFormOf,
} from './planning';

// The job screens' forms (decision 1084): what they check as the planner types and what they send, with the
// domain's conversions (cycleinputoption, h/m/s, parts per hour).

const TZ = 'America/Chicago';
const job: JobView = {
  id: 'j1',
  displayName: 'Shaft',
  job_name: 'Shaft',
  job_id: 'WO-1',
  expectedCycleTime: 90_500,
  idealCycleTime: 0,
  setuptime: 2700,
  partCountMultiplier: 1,
  actualParts: 1,
  job_machines: [],
  hidden: false,
};

describe('job screens', () => {
  it('plans for admins, root and managers with FullProduct; not operators', () => {
    const me = { permissions: ['FullProduct'], isAdmin: false, isRoot: false };
    expect(mayPlan({ ...me, role: 'manager' })).toBe(true);
    expect(mayPlan({ ...me, role: 'admin', isAdmin: true })).toBe(true);
    expect(mayPlan({ ...me, role: 'operator' })).toBe(false);
    expect(mayPlan({ ...me, permissions: [], role: 'manager' })).toBe(false);
  });

  it('asks the API for active, retired or all jobs, at most 100 at a time', () => {
    expect(jobsQuery(' sh ', 'active', 25)).toEqual({ filter: 'sh', limit: 25, offset: 0 });
    expect(jobsQuery('', 'retired', 200)).toMatchObject({ retired: true, limit: 100 });
    expect(jobsQuery('', 'all', 25)).toMatchObject({ includeHidden: true });
  });

  it('sends a job typed in h/m/s as ms, the setup in seconds, an all-zero ideal as no standard', () => {
    const form = {
      ...newJobForm('timepercycle'),
      name: ' Shaft ',
      setup: '45',
      expected: { hours: '0', minutes: '1', seconds: '30.5', partsPerHour: '' },
      ideal: cycleFieldsOf('timepercycle', 0, 1),
    };
    expect(jobErrors('timepercycle', form)).toEqual({});
    expect(jobBody('timepercycle', form)).toEqual({
      name: 'Shaft',
      job_id: null,
      setuptime: 2700,
      expectedCycleTime: 90_500,
      idealCycleTime: 0,
    });
    const bad = { ...form, name: '', expected: { ...form.expected, seconds: '61' } };
    expect(jobErrors('timepercycle', bad)).toEqual({
      name: 'Missing required field: Name',
      expected: 'Seconds must be between 0 and 60 (step 0.001)',
    });
  });

  it('takes parts per hour when the company enters cycle times so', () => {
    const form = {
      ...newJobForm('partsperhour'),
      name: 'Pin',
      expected: { hours: '', minutes: '', seconds: '', partsPerHour: '120' },
    };
    expect(jobBody('partsperhour', form)).toMatchObject({ expectedCycleTime: 30_000 });
    expect(jobErrors('partsperhour', { ...form, expected: { ...form.expected, partsPerHour: '0' } })).toEqual(
      {
        expected: 'Parts per hour must be more than 0',
      },
    );
    expect(cycleMsOf('partsperhour', cycleFieldsOf('partsperhour', 30_000, 1), 1)).toEqual({
      ok: true,
      ms: 30_000,
    });
  });

  it('requires the part behavior counts (min 1) and sends a machine’s standards with the schedule end', () => {
    const form: StandardsForm = {
      ...newStandardsForm('timeperpart', job, 'm1'),
      partBehavior: 'manycycles',
      reportedParts: '3',
      requiredCycles: '',
      expected: { hours: '0', minutes: '0', seconds: '20', partsPerHour: '' },
      startInSetup: 'planned',
      setup: '30',
      ends: '2026-12-31',
    };
    expect(standardsErrors('timeperpart', form)).toEqual({
      requiredCycles: 'Missing required field: Required Cycles',
    });
    const ok = { ...form, requiredCycles: '2' };
    expect(standardsErrors('timeperpart', ok)).toEqual({});
    const body = standardsBody('timeperpart', 'j1', ok, TZ);
    // 20 s per part, 3 parts per 2 cycles: 30 s per cycle.
    expect(body.job_machine).toMatchObject({
      machine_id: 'm1',
      partBehavior: 'manycycles',
      reportedParts: 3,
      requiredCycles: 2,
      expectedCycleTime: 30_000,
      setuptime: 1800,
      startInSetup: 'planned',
      // The end of 31 December in Chicago (CST, UTC−6).
      schedule: { ends: Date.UTC(2027, 0, 1, 6) },
    });
    const jm: JobMachine = {
      id: 'x',
      name: 'Shaft',
      machine_id: 'm1',
      job_id: 'j1',
      expectedCycleTime: 30_000,
      idealCycleTime: 0,
      partCountMultiplier: 1.5,
      actualParts: 1,
      reportedParts: 3,
      requiredCycles: 2,
      setuptime: 1800,
      partBehavior: 'manycycles',
      startInSetup: 'planned',
      schedule: { ends: Date.UTC(2027, 0, 1, 6) },
    };
    expect(standardsFormOf('timeperpart', jm, TZ)).toMatchObject({
      expected: { hours: '0', minutes: '0', seconds: '20' },
      setup: '30',
      ends: '2026-12-31',
    });
    expect(
      standardsBody('timeperpart', 'j1', { ...ok, startInSetup: 'none' }, TZ).job_machine.setuptime,
    ).toBeNull();
  });
});
