import { describe, expect, it } from 'vitest';
import { barLabelsOf, checkScheduleDraft, newDraft, setupShareOf } from './schedule';
import { checkStagesDraft, opensWithStages, planStages, setupMinutesOf } from './schedule-stages';

// The schedule's second form (reports-admin §2 "two forms: with shifts, and with setup-stage labor
// activities", §5; decision 0940) and the bar labels at wide zooms, in America/Chicago (CST = UTC−6).

const TZ = 'America/Chicago';
const MIN = 60_000;
/** Local time on Tuesday 2025-12-02. */
const at = (h: number, m = 0) => Date.UTC(2025, 11, 2, h + 6, m);
const STAGES = [
  { id: 'b', name: 'First article', stageOrder: 2, setupPercentage: 75 },
  { id: 'z', name: 'Paperwork', stageOrder: 3, setupPercentage: 0 },
  { id: 'a', name: 'Fixture', stageOrder: 1, setupPercentage: 25 },
];

describe('planStages: each stage its share of the setup time, in stage order', () => {
  it('splits 10 min as 2.5 + 7.5 min from the start and leaves out a stage of 0 %', () => {
    expect(planStages(STAGES, at(6), 10 * MIN).map((p) => [p.stage.id, p.start, p.end])).toEqual([
      ['a', at(6), at(6) + 150_000],
      ['b', at(6) + 150_000, at(6, 10)],
    ]);
  });
  it('gives the rounding remainder to the last stage, so the stages add up to the setup time', () => {
    const thirds = [1, 2, 3].map((k) => ({
      id: `s${k}`,
      name: `S${k}`,
      stageOrder: k,
      setupPercentage: 100 / 3,
    }));
    const plan = planStages(thirds, 0, 1000);
    expect(plan.map((p) => p.ms)).toEqual([333, 333, 334]);
    expect(plan.at(-1)!.end).toBe(1000);
  });
});

describe('checkStagesDraft: the form with setup stages', () => {
  const draft = {
    ...newDraft('m1', 'j1', at(6), TZ, []),
    ends: 'date' as const,
    end: '2025-12-02T08:00',
    startInSetup: 'planned' as const,
    setupMinutes: '10',
    changeoverSeconds: '30',
  };

  it('plans the stages then production, with no shifts; a planned setup time is the stages total', () => {
    expect(checkStagesDraft(draft, TZ, STAGES).body).toMatchObject({
      startdate: at(6),
      enddate: at(8),
      startInSetup: 'planned',
      setupend: at(6, 10),
      setuptime: 10 * MIN,
      partchangeovertime: 30_000,
      shifts: [],
      laborActivities: [
        { setupStageId: 'a', startAt: at(6), endAt: at(6) + 150_000 },
        { setupStageId: 'b', startAt: at(6) + 150_000, endAt: at(6, 10) },
      ],
    });
    // §4: an unplanned setup has setup time 0; its stages still take the minutes given.
    const unplanned = checkStagesDraft({ ...draft, startInSetup: 'unplanned' }, TZ, STAGES).body;
    expect(unplanned).toMatchObject({ setuptime: 0, setupend: at(6, 10) });
    expect(unplanned?.laborActivities).toHaveLength(2);
    // None: production from the start, no stages.
    expect(checkStagesDraft({ ...draft, startInSetup: 'none' }, TZ, STAGES).body).toMatchObject({
      setupend: null,
      setuptime: null,
      laborActivities: [],
    });
  });

  it('says what is wrong: no time, no stage (§5), a setup past the end', () => {
    const errors = (over: Partial<typeof draft>, stages = STAGES) => {
      const r = checkStagesDraft({ ...draft, ...over }, TZ, stages);
      expect(r.body).toBeNull();
      return r.errors;
    };
    expect(errors({ setupMinutes: '0' }).setupTime).toBe('Setup time must be more than 0 minutes');
    expect(errors({}, []).stages).toBe('A run that starts in setup needs at least one setup stage');
    expect(errors({ setupMinutes: '180' }).setupTime).toBe('The setup must end by the end of the run');
  });

  it('opens a run planned with ended stages in this form, with its setup minutes', () => {
    const run = {
      startdate: at(6),
      setupend: at(6, 10),
      startInSetup: 'planned' as const,
      laborActivities: [{ startAt: at(6), endAt: at(6, 10), setupStageId: 'a', setup: true }],
    };
    expect(opensWithStages(run)).toBe(true);
    expect(setupMinutesOf(run)).toBe('10');
    // Still in its stage: the floor moves it on; it opens with shifts.
    expect(opensWithStages({ ...run, setupend: null })).toBe(false);
    expect(opensWithStages({ ...run, laborActivities: [] })).toBe(false);
  });

  it('the form with shifts asks for a stage when the company uses them and the run has none (§5)', () => {
    const shifted = { ...draft, shifts: ['day'] };
    expect(checkScheduleDraft(shifted, TZ, false, true).errors.stages).toBe(
      'A run that starts in setup needs at least one setup stage',
    );
    expect(checkScheduleDraft({ ...shifted, startInSetup: 'none' }, TZ, false, true).body).not.toBeNull();
  });
});

describe('barLabelsOf: job names readable at wide zooms', () => {
  it('gives each label the room up to the next bar', () => {
    expect(barLabelsOf([{ left: 0 }, null, { left: 40 }])).toEqual({
      rows: 1,
      labels: [{ row: 0, left: 0, maxWidth: 40 }, null, { row: 0, left: 40, maxWidth: 60 }],
    });
  });
  it('staggers a crowded lane over two rows, each label up to the next in its row', () => {
    expect(barLabelsOf([{ left: 10 }, { left: 14 }, { left: 18 }, { left: 60 }])).toEqual({
      rows: 2,
      labels: [
        { row: 0, left: 10, maxWidth: 8 },
        { row: 1, left: 14, maxWidth: 46 },
        { row: 0, left: 18, maxWidth: 82 },
        { row: 1, left: 60, maxWidth: 40 },
      ],
    });
  });
});

describe('setupShareOf: the striped setup part of a bar', () => {
  const w = { start: at(0), end: at(24) };
  const run = { startdate: at(6), enddate: at(10), startInSetup: 'planned', setupend: at(6, 20) };
  it('is the setup share of the visible bar', () => {
    expect(setupShareOf(run, w)).toBeCloseTo((20 / 240) * 100, 12);
    expect(setupShareOf({ ...run, startInSetup: 'none' }, w)).toBe(0);
    expect(setupShareOf({ ...run, setupend: null }, w)).toBe(100);
    // Cut by the window: from 06:10, 10 of the 230 minutes shown are setup.
    expect(setupShareOf(run, { start: at(6, 10), end: at(24) })).toBeCloseTo((10 / 230) * 100, 12);
  });
});
