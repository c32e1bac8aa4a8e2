// reports-admin §2 "Overrides report: step charts" (/machine/{id}/overrides): the operator's override
// settings (feed, rapid, spindle) over time, from the observations of the machine's override fields.
// MTConnect names them by data item type: PATH_FEEDRATE_OVERRIDE (subtype PROGRAMMED for feed, RAPID, JOG),
// ROTARY_VELOCITY_OVERRIDE (spindle) and AXIS_FEEDRATE_OVERRIDE, all in percent.

export const OVERRIDE_TYPES = [
  'PATH_FEEDRATE_OVERRIDE',
  'ROTARY_VELOCITY_OVERRIDE',
  'AXIS_FEEDRATE_OVERRIDE',
] as const;

/** Whether a data item type is an override the report charts. */
export const isOverrideType = (dataItemType: string): boolean =>
  (OVERRIDE_TYPES as readonly string[]).includes(dataItemType);

/** The chart's name for an override field: what an operator calls the knob, then the adapter's key. */
export function overrideLabel(dataItemType: string, subtype: string | null, key: string): string {
  const kind =
    dataItemType === 'ROTARY_VELOCITY_OVERRIDE'
      ? 'Spindle'
      : dataItemType === 'AXIS_FEEDRATE_OVERRIDE'
        ? 'Axis feed'
        : subtype === 'RAPID'
          ? 'Rapid'
          : subtype === 'JOG'
            ? 'Jog'
            : 'Feed';
  return `${kind} override (${key})`;
}

/** One step: the value holds from t until the next step's t (null: unavailable, no line drawn). */
export interface OverrideStep {
  t: number;
  value: number | null;
}

export interface OverrideSummary {
  /** Lowest and highest value shown in the range (null: never available). */
  min: number | null;
  max: number | null;
  /** Time-weighted mean over the available time, in percent. */
  mean: number | null;
  /** Time the override was below / above 100 % (the programmed speed), ms. */
  belowMs: number;
  aboveMs: number;
  /** Time with a value at all, ms. */
  availableMs: number;
}

/** A reported override value as a number; UNAVAILABLE, empty or non-numeric values are no value. */
export function overrideValue(raw: string | null): number | null {
  if (raw == null || raw.trim() === '') return null;
  const n = Number(raw);
  return Number.isFinite(n) ? n : null;
}

/**
 * The steps of one field over `range` (observations sorted by time): the value in force at the start (the
 * last one before it, if known), then each change inside the range; repeats of the same value are one
 * step. The last step runs to `range.end`.
 */
export function overrideSteps(
  before: { value: string | null } | null,
  inRange: ReadonlyArray<{ ts: number; value: string | null }>,
  range: { start: number; end: number },
): OverrideStep[] {
  const steps: OverrideStep[] = [];
  const push = (t: number, value: number | null) => {
    const last = steps[steps.length - 1];
    if (last && last.value === value) return;
    if (last && last.t === t) last.value = value;
    else steps.push({ t, value });
  };
  if (before) push(range.start, overrideValue(before.value));
  for (const o of inRange) {
    if (o.ts < range.start || o.ts >= range.end) continue;
    push(o.ts, overrideValue(o.value));
  }
  // Equal neighbours may remain after a same-instant replacement: merge them.
  return steps.filter((s, i) => i === 0 || steps[i - 1]!.value !== s.value);
}

/** Min, max, time-weighted mean and time off 100 % of the steps up to `end`. */
export function overrideSummary(steps: readonly OverrideStep[], end: number): OverrideSummary {
  let min: number | null = null;
  let max: number | null = null;
  let weighted = 0;
  let availableMs = 0;
  let belowMs = 0;
  let aboveMs = 0;
  steps.forEach((s, i) => {
    const until = Math.min(steps[i + 1]?.t ?? end, end);
    const ms = Math.max(0, until - s.t);
    if (s.value == null) return;
    min = min == null ? s.value : Math.min(min, s.value);
    max = max == null ? s.value : Math.max(max, s.value);
    weighted += s.value * ms;
    availableMs += ms;
    if (s.value < 100) belowMs += ms;
    else if (s.value > 100) aboveMs += ms;
  });
  return { min, max, mean: availableMs > 0 ? weighted / availableMs : null, belowMs, aboveMs, availableMs };
}
