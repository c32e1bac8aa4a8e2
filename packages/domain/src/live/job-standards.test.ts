import { describe, expect, it } from 'vitest';
import {
  CYCLE_ENTRY_MESSAGES,
  cycleEntryOf,
  cycleInputOf,
  cycleTimeOfEntry,
  expectedSetupMs,
  hmsOf,
  runSetupMode,
  runSetupTime,
  standardPartsPerHour,
  startSetupTime,
} from './job-standards';

const entry = (hours: number, minutes: number, seconds: number, partsPerHour = 0) => ({
  hours,
  minutes,
  seconds,
  partsPerHour,
});

describe('start in setup means one thing (decision 1083)', () => {
  it('every start: none clears the setup time, planned and unplanned set it to 0 (live-operations §4)', () => {
    expect(startSetupTime('none')).toBeNull();
    expect(startSetupTime('planned')).toBe(0);
    expect(startSetupTime('unplanned')).toBe(0);
  });

  it("a setup is timed against the run's own setup time, else the job's standard; production has none", () => {
    expect(expectedSetupMs('unplanned', 0, 1_800_000)).toBe(1_800_000);
    expect(expectedSetupMs('planned', null, 1_800_000)).toBe(1_800_000);
    expect(expectedSetupMs('planned', 1_200_000, 1_800_000)).toBe(1_200_000);
    expect(expectedSetupMs('planned', 0, 0)).toBeNull();
    expect(expectedSetupMs('unplanned', 0, null)).toBeNull();
    expect(expectedSetupMs('none', null, 1_800_000)).toBeNull();
  });

  it('the job-run editor: none has no setup time, unplanned 0 whatever the job says, planned the time planned (0 when none)', () => {
    expect(runSetupTime('none', 2700)).toBeNull();
    expect(runSetupTime('unplanned', 2700)).toBe(0);
    expect(runSetupTime('unplanned', null)).toBe(0);
    expect(runSetupTime('planned', 2700)).toBe(2700);
    expect(runSetupTime('planned', null)).toBe(0);
    expect(runSetupTime('planned', undefined)).toBe(0);
  });

  it('a run started in production is none; in setup it takes the job machine mode, unplanned for none', () => {
    expect(runSetupMode(false, 'planned')).toBe('none');
    expect(runSetupMode(true, 'planned')).toBe('planned');
    expect(runSetupMode(true, 'unplanned')).toBe('unplanned');
    expect(runSetupMode(true, 'none')).toBe('unplanned');
  });
});

describe('cycle time entry (live-operations §5)', () => {
  it('splits a cycle time into hours, minutes and seconds to the millisecond', () => {
    expect(hmsOf(3_723_456)).toEqual({ hours: 1, minutes: 2, seconds: 3.456 });
    expect(hmsOf(60_000)).toEqual({ hours: 0, minutes: 1, seconds: 0 });
    expect(hmsOf(-5)).toEqual({ hours: 0, minutes: 0, seconds: 0 });
  });

  it('turns an entry into ms per cycle per the cycleinputoption, and opens a stored time the same way', () => {
    expect(cycleTimeOfEntry('timepercycle', entry(0, 1, 30.5), 4)).toEqual({ ok: true, ms: 90_500 });
    // Time per part: a cycle of 4 parts at 30 s each.
    expect(cycleTimeOfEntry('timeperpart', entry(0, 0, 30), 4)).toEqual({ ok: true, ms: 120_000 });
    expect(cycleTimeOfEntry('partsperhour', entry(0, 0, 0, 120), 1)).toEqual({ ok: true, ms: 30_000 });
    expect(cycleEntryOf('timepercycle', 90_500, 4)).toEqual(entry(0, 1, 30.5));
    expect(cycleEntryOf('timeperpart', 120_000, 4)).toEqual(entry(0, 0, 30));
    expect(cycleEntryOf('partsperhour', 30_000, 1)).toEqual(entry(0, 0, 0, 120));
    expect(cycleInputOf('partsperhour', 0, 1)).toBe(0);
    for (const ms of [1, 999, 60_000, 3_723_456]) {
      const back = cycleTimeOfEntry('timepercycle', cycleEntryOf('timepercycle', ms, 1), 1);
      expect(back).toEqual({ ok: true, ms });
    }
  });

  it('refuses what the inputs do not take, in the rule’s words', () => {
    const no = (message: string) => ({ ok: false, message });
    expect(cycleTimeOfEntry('timepercycle', entry(0, 0, 60.5), 1)).toEqual(no(CYCLE_ENTRY_MESSAGES.seconds));
    expect(cycleTimeOfEntry('timepercycle', entry(0, 0, 1.0005), 1)).toEqual(
      no(CYCLE_ENTRY_MESSAGES.seconds),
    );
    expect(cycleTimeOfEntry('timepercycle', entry(-1, 0, 1), 1)).toEqual(no(CYCLE_ENTRY_MESSAGES.hours));
    expect(cycleTimeOfEntry('timepercycle', entry(0, -1, 1), 1)).toEqual(no(CYCLE_ENTRY_MESSAGES.minutes));
    expect(cycleTimeOfEntry('timepercycle', entry(0, 0, 0), 1)).toEqual(no(CYCLE_ENTRY_MESSAGES.zero));
    expect(cycleTimeOfEntry('partsperhour', entry(0, 0, 0, 0), 1)).toEqual(
      no(CYCLE_ENTRY_MESSAGES.partsPerHour),
    );
    // 60 s is the inputs' maximum, still valid.
    expect(cycleTimeOfEntry('timepercycle', entry(0, 0, 60), 1)).toEqual({ ok: true, ms: 60_000 });
  });

  it('shows parts per hour as 3,600,000 / time per part, one decimal', () => {
    expect(standardPartsPerHour(90_500, 1)).toBe('39.8');
    expect(standardPartsPerHour(60_000, 1)).toBe('60.0');
    expect(standardPartsPerHour(120_000, 4)).toBe('120.0');
    expect(standardPartsPerHour(0, 1)).toBe('-');
  });
});
