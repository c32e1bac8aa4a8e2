import { formatInCycleHours } from '@takt/domain';
import type { AppliedRange, Horizon } from '@takt/ui';
import { arrayOf, nullable, number, object, parseWith, string, tr } from '@takt/ui';

// reports-admin §2 "Overrides report: step charts" (/machine/{id}/overrides?start&end) over GET
// /api/reports/overrides (decision 0807). Pure: the page renders what these functions return.

/** reports-admin §2: machine quick links are one week or less; hours and days in the picker. */
export const OVERRIDES_HORIZONS: readonly Horizon[] = ['hour', 'day'];
export const DEFAULT_OVERRIDES_HORIZON: Horizon = 'day';

const summaryCheck = object({
  min: nullable(number),
  max: nullable(number),
  mean: nullable(number),
  belowMs: number,
  aboveMs: number,
  availableMs: number,
});
const answerCheck = object({
  range: object({ start: number, end: number }),
  until: number,
  series: arrayOf(
    object({
      key: string,
      label: string,
      dataItemType: string,
      dataItemSubtype: nullable(string),
      steps: arrayOf(object({ t: number, value: nullable(number) })),
      summary: summaryCheck,
    }),
  ),
});
export type OverridesAnswer = ReturnType<typeof answerCheck>;
export type OverrideSeries = OverridesAnswer['series'][number];
export const parseOverrides = parseWith(answerCheck);

export interface OverridesSelection {
  range: AppliedRange;
  machine: string;
}

export const overridesQuery = (s: OverridesSelection): Record<string, string | number> => ({
  machineId: s.machine,
  start: s.range.start,
  end: s.range.end,
});

/**
 * The chart's points of a step series: each value holds until the next step (a corner point at each change)
 * and the last one until `until`; an unavailable stretch is a gap (null).
 */
export function stepPoints(
  steps: OverrideSeries['steps'],
  until: number,
): Array<{ x: number; y: number | null }> {
  const points: Array<{ x: number; y: number | null }> = [];
  steps.forEach((s, i) => {
    const prev = steps[i - 1];
    if (prev && prev.value != null && s.value != null) points.push({ x: s.t, y: prev.value });
    points.push({ x: s.t, y: s.value });
  });
  const last = steps[steps.length - 1];
  if (last && last.value != null && last.t < until) points.push({ x: until, y: last.value });
  return points;
}

const percent = (v: number | null): string => (v == null ? '-' : `${v.toFixed(0)} %`);

export interface OverrideRow {
  key: string;
  label: string;
  mean: string;
  range: string;
  below: string;
  above: string;
}

/** The table under the chart: mean, lowest–highest, hours below and above 100 % ('-' for no value). */
export function overrideRows(series: readonly OverrideSeries[]): OverrideRow[] {
  return series.map((s) => ({
    key: s.key,
    label: s.label,
    mean: percent(s.summary.mean),
    range:
      s.summary.min == null
        ? '-'
        : s.summary.min === s.summary.max
          ? percent(s.summary.min)
          : `${percent(s.summary.min)} – ${percent(s.summary.max)}`,
    below: s.summary.availableMs > 0 ? formatInCycleHours(s.summary.belowMs) : '-',
    above: s.summary.availableMs > 0 ? formatInCycleHours(s.summary.aboveMs) : '-',
  }));
}

/** The page's empty text: no override fields mapped, or none reported in the range. */
export function overridesEmptyText(answer: OverridesAnswer): string | null {
  if (answer.series.length === 0) return tr('overrides.noFields');
  if (answer.series.every((s) => s.steps.length === 0)) return tr('overrides.empty');
  return null;
}
