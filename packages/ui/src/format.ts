// Locale- and time-zone-aware formatting (UI.md: dates, times and numbers in the company's locale and zone).

export interface LocaleZone {
  locale?: string;
  timeZone?: string;
}

const cache = new Map<string, Intl.DateTimeFormat | Intl.NumberFormat>();

function dateFormat(opts: LocaleZone, options: Intl.DateTimeFormatOptions): Intl.DateTimeFormat {
  const key = `d|${opts.locale}|${opts.timeZone}|${JSON.stringify(options)}`;
  let f = cache.get(key) as Intl.DateTimeFormat | undefined;
  if (!f) {
    try {
      f = new Intl.DateTimeFormat(opts.locale, { ...options, timeZone: opts.timeZone });
    } catch {
      // An unknown locale or zone from the server must not break the screen: fall back to the browser's.
      f = new Intl.DateTimeFormat(undefined, options);
    }
    cache.set(key, f);
  }
  return f;
}

/** "14:03:07" style time of day, or '-' when unknown. */
export function formatTimeOfDay(epochMs: number | null | undefined, opts: LocaleZone = {}): string {
  if (epochMs == null) return '-';
  return dateFormat(opts, { hour: '2-digit', minute: '2-digit', second: '2-digit' }).format(epochMs);
}

/** Date and time, or '-' when unknown. */
export function formatDateTime(epochMs: number | null | undefined, opts: LocaleZone = {}): string {
  if (epochMs == null) return '-';
  return dateFormat(opts, { dateStyle: 'medium', timeStyle: 'medium' }).format(epochMs);
}

/** ISO-like "2025-01-31 14:03:07" in the given zone, for CSV files that spreadsheets parse. */
export function formatSortableDateTime(epochMs: number | null | undefined, timeZone?: string): string {
  if (epochMs == null) return '';
  const parts = dateFormat(
    { locale: 'en-CA', ...(timeZone ? { timeZone } : {}) },
    {
      year: 'numeric',
      month: '2-digit',
      day: '2-digit',
      hour: '2-digit',
      minute: '2-digit',
      second: '2-digit',
      hourCycle: 'h23',
    },
  ).formatToParts(epochMs);
  const get = (type: Intl.DateTimeFormatPartTypes) => parts.find((p) => p.type === type)?.value ?? '';
  return `${get('year')}-${get('month')}-${get('day')} ${get('hour')}:${get('minute')}:${get('second')}`;
}

/** Whole-number part counts (live-operations §9: part counts round to whole numbers). */
export function formatCount(n: number | null | undefined, locale?: string): string {
  if (n == null || !Number.isFinite(n)) return '-';
  const key = `n|${locale}`;
  let f = cache.get(key) as Intl.NumberFormat | undefined;
  if (!f) {
    try {
      f = new Intl.NumberFormat(locale, { maximumFractionDigits: 0 });
    } catch {
      f = new Intl.NumberFormat(undefined, { maximumFractionDigits: 0 });
    }
    cache.set(key, f);
  }
  return f.format(Math.round(n));
}

/** A percentage with the given decimals (§9: one decimal on tiles, zero in utilization). */
export function formatPercent(value: number | null | undefined, decimals = 1): string {
  if (value == null || !Number.isFinite(value)) return '-';
  return `${value.toFixed(decimals)}%`;
}
