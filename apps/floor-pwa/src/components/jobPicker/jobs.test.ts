import { describe, expect, it } from 'vitest';
import { emptyJobsText, jobRowOf, startJobPayload } from './jobs';

describe('job rows and texts', () => {
  it.each([
    ['', false, 'No operations found.'],
    ['abc', false, 'No Operations that match your search.'],
    ['', true, 'No Operations in this range.'],
    [' x ', true, 'No Operations in this range that match your search.'],
  ])('empty text for %j (ranged %s)', (filter, ranged, text) =>
    expect(emptyJobsText(filter, ranged)).toBe(text),
  );

  it("prefers this machine's job machine setup time; a start in setup, planned or unplanned, is timed against it", () => {
    const on = (startInSetup: string, setuptime = 300) =>
      jobRowOf(
        {
          id: 'j',
          displayName: 'J',
          setuptime: null,
          job_machines: [{ machine_id: 'm1', setuptime, startInSetup }],
        },
        'm1',
      );
    // Decision 1083: the run starts with setup time 0 either way, on the device as on the server; the
    // Setup overlay's timer runs against the job's standard.
    expect(on('planned')).toMatchObject({ setuptime: 300, expectedSetupMs: 300_000 });
    expect(on('unplanned')).toMatchObject({ setuptime: 300, expectedSetupMs: 300_000 });
    expect(on('planned', 0)).toMatchObject({ setuptime: 0, expectedSetupMs: null });
  });

  it('knows a job that is not on the machine yet (job dispatch associates it first)', () => {
    expect(jobRowOf({ id: 'j', name: 'J', job_machines: [{ machine_id: 'm2' }] }, 'm1')).toMatchObject({
      onMachine: false,
      setuptime: null,
    });
  });

  it.each([
    [true, 's1', 's1'],
    [false, 's1', null],
  ])('start_job payload in setup %s keeps the stage only in setup', (setup, stage, sent) =>
    expect(startJobPayload('m1', 'j1', setup, stage)).toEqual({
      id: 'm1',
      jobId: 'j1',
      setup,
      setupStageId: sent,
    }),
  );
});
