import type { DiagnosticsField } from './diagnostics';

// The machine conditions page (reports-admin §2 "a machine conditions page (live charts of scalar fields)";
// §7 "join temp_timeline (config start, end, key)"): which fields can be charted, the window the channel is
// joined for, and the chart's points from the channel's `samples`. Pure.

/**
 * MTConnect types that report numbers but are not conditions to watch over time: counters, program lines
 * and the link's own words. Everything else with a numeric latest value is a scalar field.
 */
const NOT_CHARTED: ReadonlySet<string> = new Set([
  'PART_COUNT',
  'LINE',
  'LINE_NUMBER',
  'BLOCK',
  'PROGRAM',
  'PROGRAM_COMMENT',
  'EXECUTION',
  'CONTROLLER_MODE',
  'AVAILABILITY',
  'EMERGENCY_STOP',
  'MESSAGE',
  'TOOL_NUMBER',
  'TOOL_ID',
  'PALLET_ID',
  'OPERATOR_ID',
  'PART_ID',
  'WORKHOLDING_ID',
]);

const NUMBER = /^[-+]?(\d+\.?\d*|\.\d+)([eE][-+]?\d+)?$/;

/** A reported value as a number, or null (UNAVAILABLE, text, none). */
export function sampleValue(value: string | null): number | null {
  if (value === null) return null;
  const v = value.trim();
  return NUMBER.test(v) ? Number(v) : null;
}

/**
 * The fields a chart can show, by key: those whose latest value is a number, except counters, ids and
 * program lines (NOT_CHARTED). Mapped fields first (their type is known), then unmapped ones.
 */
export function scalarFields(fields: readonly DiagnosticsField[]): DiagnosticsField[] {
  return fields
    .filter((f) => sampleValue(f.value) !== null && !NOT_CHARTED.has((f.dataItemType ?? '').toUpperCase()))
    .sort(
      (a, b) =>
        Number(a.dataItemType === null) - Number(b.dataItemType === null) || a.key.localeCompare(b.key),
    );
}

/** The chart shows the last hour. */
export const CONDITIONS_VIEW_MS = 60 * 60_000;
/**
 * The channel is joined for [now − 1 h, now + 1 h]: the server's window is fixed at join, so it reaches an
 * hour ahead and the page joins again before it runs out (CONDITIONS_REJOIN_MS before its end).
 */
export const CONDITIONS_AHEAD_MS = 60 * 60_000;
export const CONDITIONS_REJOIN_MS = 5 * 60_000;

export interface ChannelWindow {
  start: number;
  end: number;
}

/** The window a join asks for at `now`, on whole minutes so a rejoin's config is stable within a minute. */
export function channelWindow(now: number): ChannelWindow {
  const minute = Math.floor(now / 60_000) * 60_000;
  return { start: minute - CONDITIONS_VIEW_MS, end: minute + CONDITIONS_AHEAD_MS };
}

/** Must the page join again (the joined window ends within CONDITIONS_REJOIN_MS)? */
export const needsRejoin = (w: ChannelWindow, now: number): boolean => now >= w.end - CONDITIONS_REJOIN_MS;

export interface Sample {
  ts: number;
  value: string | null;
}

/** The `temp_timeline` payload's samples for `key`, checked; null when the payload is for another key. */
export function parseSamples(payload: unknown, key: string): Sample[] | null {
  const p = payload as { key?: unknown; samples?: unknown } | null;
  if (!p || p.key !== key || !Array.isArray(p.samples)) return null;
  return (p.samples as Array<Record<string, unknown>>).flatMap((s) =>
    typeof s.ts === 'number' && (s.value === null || typeof s.value === 'string')
      ? [{ ts: s.ts, value: s.value }]
      : [],
  );
}

export interface Point {
  x: number;
  /** null: no number reported (UNAVAILABLE): the line breaks there. */
  y: number | null;
}

/**
 * Step points for the chart in [from, to]: a value holds until the next one (a control reports changes,
 * not a clock), so the last value before the window starts it and the last value runs on to `to`.
 */
export function chartPoints(samples: readonly Sample[], from: number, to: number): Point[] {
  const sorted = [...samples].sort((a, b) => a.ts - b.ts);
  const before = sorted.filter((s) => s.ts < from).at(-1);
  const inside = sorted.filter((s) => s.ts >= from && s.ts <= to);
  const points: Point[] = [];
  if (before) points.push({ x: from, y: sampleValue(before.value) });
  for (const s of inside) points.push({ x: s.ts, y: sampleValue(s.value) });
  const last = points.at(-1);
  if (last && last.x < to) points.push({ x: to, y: last.y });
  return points;
}

export interface SampleSummary {
  latest: number | null;
  latestAt: number | null;
  min: number | null;
  max: number | null;
  /** Time-weighted: a value counts for as long as it held (chartPoints), gaps not at all. */
  mean: number | null;
  /** Values reported in the window. */
  count: number;
}

/**
 * The numbers beside the chart for [from, to]: the latest value reported, the lowest and highest value that
 * held in the window (the one carried in from before it included), and the time-weighted average.
 */
export function summarize(samples: readonly Sample[], from: number, to: number): SampleSummary {
  const inside = samples.filter((s) => s.ts >= from && s.ts <= to).sort((a, b) => a.ts - b.ts);
  const points = chartPoints(samples, from, to);
  const nums = points.map((p) => p.y).filter((n): n is number => n !== null);
  let area = 0;
  let held = 0;
  for (let i = 0; i + 1 < points.length; i++) {
    const { x, y } = points[i]!;
    const dt = points[i + 1]!.x - x;
    if (y === null || dt <= 0) continue;
    area += y * dt;
    held += dt;
  }
  const last = inside.at(-1);
  return {
    latest: last ? sampleValue(last.value) : null,
    latestAt: last?.ts ?? null,
    min: nums.length ? Math.min(...nums) : null,
    max: nums.length ? Math.max(...nums) : null,
    mean: held > 0 ? area / held : nums.length ? nums[nums.length - 1]! : null,
    count: inside.length,
  };
}

/** Tick marks on whole multiples of `step` (local minutes of an hour: every 10 minutes) within [from, to]. */
export function timeTicks(from: number, to: number, step: number): number[] {
  const ticks: number[] = [];
  for (let t = Math.ceil(from / step) * step; t <= to; t += step) ticks.push(t);
  return ticks;
}
