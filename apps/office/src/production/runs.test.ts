import { describe, expect, it } from 'vitest';
import {
  checkDraft,
  draftOf,
  productionRunEditHref,
  productionRunsHref,
  runsOfMachine,
  seconds,
} from './runs';
import type { ProductionRun, RunDraft } from './runs';

// Production runs (reports-admin §2, §3 Job schedule group, §4 start-in-setup; decision 0850): links, the
// list's filter and the editor's draft, in America/Chicago (CST = UTC−6 in December).

const TZ = 'America/Chicago';
const MIN = 60_000;
/** Local time on Tuesday 2025-12-02. */
const at = (h: number, m = 0) => Date.UTC(2025, 11, 2, h + 6, m);

const aRun = (over: Partial<ProductionRun> = {}): ProductionRun => ({
  id: 'r1',
  job_id: 'j1',
  job_name: 'Flange',
  machine_id: 'm1',
  machine_name: 'Lathe',
  startdate: at(6),
  enddate: at(8),
  startInSetup: 'none',
  setuptime: null,
  setupend: at(6),
  cycletime: 10 * MIN,
  idealcycletime: 8 * MIN,
  partcount_multiplier: 1,
  actualParts: 1,
  parts: { total: 0, rejected: 0, good: 0 },
  ...over,
});

describe('production run links (reports-admin §2)', () => {
  it('lists a range, pointing at a run with jsg and at a machine', () => {
    expect(productionRunsHref({ start: 1, end: 2 })).toBe('/reports/production-runs?start=1&end=2');
    expect(productionRunsHref({ start: 1, end: 2 }, 'r1', 'm 1')).toBe(
      '/reports/production-runs?start=1&end=2&jsg=r1&machine_id=m+1',
    );
  });
  it('opens a run in its editor', () => {
    expect(productionRunEditHref('r/1')).toBe('/app/production/production-runs/r%2F1/edit');
  });
});

describe('the list', () => {
  it('keeps one machine when chosen, by start', () => {
    const runs = [
      aRun({ id: 'b', startdate: at(9), machine_id: 'm2', machine_name: 'Mill' }),
      aRun({ id: 'a' }),
    ];
    expect(runsOfMachine(runs, null).map((r) => r.id)).toEqual(['a', 'b']);
    expect(runsOfMachine(runs, 'm2').map((r) => r.id)).toEqual(['b']);
  });
  it.each([
    [600_000, '600'],
    [1_500, '1.5'],
    [0, '0'],
  ])('shows %i ms as %s s', (ms, s) => {
    expect(seconds(ms)).toBe(s);
  });
});

describe('the editor draft', () => {
  const draft = (over: Partial<RunDraft> = {}): RunDraft => ({ ...draftOf(aRun(), TZ), ...over });

  it('reads a run in the company zone, and sends it back unchanged', () => {
    expect(draft()).toMatchObject({
      start: '2025-12-02T06:00',
      ends: 'date',
      end: '2025-12-02T08:00',
      startInSetup: 'none',
      cycleSeconds: '600',
      idealSeconds: '480',
    });
    expect(checkDraft(draft(), TZ)).toEqual({
      errors: {},
      body: {
        job_id: 'j1',
        machine_id: 'm1',
        startdate: at(6),
        enddate: at(8),
        startInSetup: 'none',
        setupend: null,
        cycletime: 10 * MIN,
        idealcycletime: 8 * MIN,
        partcount_multiplier: 1,
        actualParts: 1,
      },
    });
  });

  it('reads §4 states: ends never, still in setup, setup ending at a date', () => {
    expect(draftOf(aRun({ enddate: null, startInSetup: 'planned', setupend: null }), TZ)).toMatchObject({
      ends: 'never',
      end: '',
      setupEnds: 'still',
      setupEnd: '',
    });
    expect(draftOf(aRun({ startInSetup: 'unplanned', setupend: at(6, 30) }), TZ)).toMatchObject({
      setupEnds: 'date',
      setupEnd: '2025-12-02T06:30',
    });
  });

  it.each<[string, Partial<RunDraft>, Record<string, string>]>([
    ['an end before the start', { end: '2025-12-02T05:00' }, { end: 'End must be after start' }],
    ['a missing end date', { end: '' }, { end: 'Missing required field: End' }],
    ['a missing start', { start: '' }, { start: 'Missing required field: Start' }],
    [
      'a setup end after the end',
      { startInSetup: 'planned', setupEnds: 'date', setupEnd: '2025-12-02T09:00' },
      { setupEnd: 'Setup end must be between start and end' },
    ],
    [
      'a setup end without a date',
      { startInSetup: 'unplanned', setupEnds: 'date', setupEnd: '' },
      { setupEnd: 'Missing required field: Setup end' },
    ],
    [
      'bad standards',
      { cycleSeconds: '0', idealSeconds: '-1', multiplier: '0', actualParts: '1.5' },
      {
        cycle: 'Expected cycle time must be more than 0',
        ideal: 'Ideal cycle time must be a number, 0 or more',
        multiplier: 'Parts multiplier must be more than 0',
        actualParts: 'Actual parts must be at least 1',
      },
    ],
  ])('refuses %s', (_name, over, errors) => {
    expect(checkDraft(draft(over), TZ)).toEqual({ errors, body: null });
  });

  it('sends never, still in setup, and drops the setup end without setup', () => {
    const still = checkDraft(draft({ ends: 'never', startInSetup: 'planned', setupEnds: 'still' }), TZ).body;
    expect(still).toMatchObject({ enddate: null, startInSetup: 'planned', setupend: null });
    const dated = checkDraft(
      draft({ startInSetup: 'unplanned', setupEnds: 'date', setupEnd: '2025-12-02T06:45' }),
      TZ,
    ).body;
    expect(dated).toMatchObject({ startInSetup: 'unplanned', setupend: at(6, 45) });
    const none = checkDraft(draft({ setupEnds: 'date', setupEnd: 'nonsense' }), TZ).body;
    expect(none).toMatchObject({ startInSetup: 'none', setupend: null });
    expect(checkDraft(draft({ cycleSeconds: '1.5', multiplier: '2.5' }), TZ).body).toMatchObject({
      cycletime: 1500,
      partcount_multiplier: 2.5,
    });
  });
});
