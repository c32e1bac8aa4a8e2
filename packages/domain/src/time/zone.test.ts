import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { zoneOffset } from './zone';

/** The offset at t straight from ECMA-402, the way a reader would check it by hand. */
function intlOffset(tz: string, t: number): number {
  const at = Math.floor(t / 1000) * 1000;
  const parts = new Intl.DateTimeFormat('en-US', {
    timeZone: tz,
    hourCycle: 'h23',
    year: 'numeric',
    month: 'numeric',
    day: 'numeric',
    hour: 'numeric',
    minute: 'numeric',
    second: 'numeric',
  }).formatToParts(new Date(at));
  const get = (type: string) => Number(parts.find((p) => p.type === type)!.value);
  return Date.UTC(get('year'), get('month') - 1, get('day'), get('hour'), get('minute'), get('second')) - at;
}

// Zones with DST on either hemisphere, a half-hour DST shift (Lord Howe), quarter-hour offsets and none.
const ZONES = [
  'America/Chicago',
  'Europe/Berlin',
  'Australia/Sydney',
  'Australia/Lord_Howe',
  'Asia/Kathmandu',
  'Pacific/Chatham',
  'America/Sao_Paulo',
  'UTC',
];

describe('zoneOffset', () => {
  it('is the offset the zone has at that instant, around every transition too', () => {
    const t = (iso: string) => Date.parse(iso);
    // Chicago 2024: spring forward at 08:00Z on March 10, fall back at 07:00Z on November 3.
    expect(zoneOffset('America/Chicago', t('2024-03-10T07:59:59.999Z'))).toBe(-6 * 3_600_000);
    expect(zoneOffset('America/Chicago', t('2024-03-10T08:00:00Z'))).toBe(-5 * 3_600_000);
    expect(zoneOffset('America/Chicago', t('2024-11-03T06:59:59.999Z'))).toBe(-5 * 3_600_000);
    expect(zoneOffset('America/Chicago', t('2024-11-03T07:00:00Z'))).toBe(-6 * 3_600_000);
    // Lord Howe moves by 30 minutes: +10:30 to +11 at 02:00 local on 2024-10-06 (15:30Z the day before).
    expect(zoneOffset('Australia/Lord_Howe', t('2024-10-05T15:29:00Z'))).toBe(10.5 * 3_600_000);
    expect(zoneOffset('Australia/Lord_Howe', t('2024-10-05T15:30:00Z'))).toBe(11 * 3_600_000);
  });

  it('agrees with Intl at any instant of 2020–2030 in zones of every kind', () => {
    fc.assert(
      fc.property(
        fc.constantFrom(...ZONES),
        fc.integer({ min: Date.UTC(2020, 0, 1), max: Date.UTC(2030, 0, 1) }),
        (tz, t) => zoneOffset(tz, t) === intlOffset(tz, t),
      ),
      { numRuns: 3000 },
    );
  });

  it('rejects an unknown zone', () => {
    expect(() => zoneOffset('Mars/Olympus_Mons', 0)).toThrow(RangeError);
  });
});
