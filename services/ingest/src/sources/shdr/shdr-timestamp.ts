// SHDR timestamps → epoch ms, read the way cppagent reads them (shared/data/mtconnect/README.md).
const TIMESTAMP =
  /^(\d{4})-(\d{2})-(\d{2})[T ](\d{2}):(\d{2}):(\d{2})(?:[.,](\d+))?\s*(Z|[+-]\d{2}(?::?\d{2})?)?$/i;

/**
 * ISO 8601 timestamp → epoch ms, or null. Written by hand because adapters send up to 7 (or more)
 * fractional digits (the Hurco log), and a missing zone means UTC in MTConnect, not local time.
 * A `@duration` suffix (sample durations) is ignored.
 */
export function parseTimestamp(text: string): number | null {
  const fast = parseUtcTimestamp(text);
  if (fast !== null) return fast;
  const m = TIMESTAMP.exec(text.trim().replace(/@[\d.]*$/, ''));
  if (!m) return null;
  const [, y, mo, d, h, mi, s, frac = '', zone = 'Z'] = m;
  const ms = Number((frac + '000').slice(0, 3));
  const utc = Date.UTC(Number(y), Number(mo) - 1, Number(d), Number(h), Number(mi), Number(s), ms);
  if (
    !Number.isFinite(utc) ||
    Number(mo) > 12 ||
    Number(d) > 31 ||
    Number(h) > 24 ||
    Number(mi) > 59 ||
    Number(s) > 60
  ) {
    return null;
  }
  return utc - zoneOffsetMs(zone);
}

/** The number in text[from, to) when every character there is a digit, else -1. */
function digits(text: string, from: number, to: number): number {
  let n = 0;
  for (let i = from; i < to; i++) {
    const d = text.charCodeAt(i) - 48;
    if (d < 0 || d > 9) return -1;
    n = n * 10 + d;
  }
  return n;
}

/**
 * Days from 1970-01-01 to a proleptic Gregorian date (H. Hinnant's days_from_civil). Linear in the day,
 * and month 0 is December of the year before, so out-of-range fields roll over exactly as in Date.UTC.
 */
function daysFromCivil(year: number, month: number, day: number): number {
  const y = month <= 2 ? year - 1 : year;
  const era = Math.floor(y / 400);
  const yoe = y - era * 400;
  const doy = Math.floor((153 * (month > 2 ? month - 3 : month + 9) + 2) / 5) + day - 1;
  return era * 146_097 + yoe * 365 + Math.floor(yoe / 4) - Math.floor(yoe / 100) + doy - 719_468;
}

/**
 * The form nearly every adapter sends, `YYYY-MM-DDTHH:MM:SS[.fraction]Z` with nothing around it, read
 * without a regex, substrings or Date (it runs once per line). Anything else returns null for the general
 * parser.
 */
export function parseUtcTimestamp(text: string, from = 0, to = text.length): number | null {
  // Character codes read in place (no closure: this runs once per line, and under tsx every closure made
  // here is also named at run time, which cost as much as the parse itself).
  const n = to - from;
  if (n < 20 || text.charCodeAt(to - 1) !== 90 /* Z */) return null;
  if (
    text.charCodeAt(from + 4) !== 45 /* - */ ||
    text.charCodeAt(from + 7) !== 45 ||
    text.charCodeAt(from + 10) !== 84 /* T */ ||
    text.charCodeAt(from + 13) !== 58 /* : */ ||
    text.charCodeAt(from + 16) !== 58
  )
    return null;
  const y = digits(text, from, from + 4);
  const mo = digits(text, from + 5, from + 7);
  const d = digits(text, from + 8, from + 10);
  const h = digits(text, from + 11, from + 13);
  const mi = digits(text, from + 14, from + 16);
  const sec = digits(text, from + 17, from + 19);
  let ms = 0;
  if (n > 20) {
    // `.` and 1+ fraction digits; the first three are milliseconds, the rest is finer than we keep.
    const sep = text.charCodeAt(from + 19);
    if ((sep !== 46 /* . */ && sep !== 44) /* , */ || n - 1 === 20) return null;
    if (digits(text, from + 20, to - 1) < 0) return null;
    for (let i = 20; i < 23; i++) ms = ms * 10 + (i < n - 1 ? text.charCodeAt(from + i) - 48 : 0);
  }
  // The general parser's range checks; -1 (a non-digit) fails them as well.
  if (!(
    mo >= 0 &&
    mo <= 12 &&
    d >= 0 &&
    d <= 31 &&
    h >= 0 &&
    h <= 24 &&
    mi >= 0 &&
    mi <= 59 &&
    sec >= 0 &&
    sec <= 60
  ))
    return null;
  if (y < 100) {
    // Date.UTC reads years 0–99 as 1900–1999; keep that (the general parser does the same).
    if (y < 0) return null;
    const utc = Date.UTC(y, mo - 1, d, h, mi, sec, ms);
    return Number.isFinite(utc) ? utc : null;
  }
  return ((daysFromCivil(y, mo, d) * 24 + h) * 60 + mi) * 60_000 + sec * 1000 + ms;
}

function zoneOffsetMs(zone: string): number {
  if (zone.toUpperCase() === 'Z') return 0;
  const sign = zone.startsWith('-') ? -1 : 1;
  const digits = zone.slice(1).replace(':', '');
  const hours = Number(digits.slice(0, 2));
  const minutes = Number(digits.slice(2, 4) || '0');
  return sign * (hours * 60 + minutes) * 60_000;
}
