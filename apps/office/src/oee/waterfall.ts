import { tr } from '@takt/ui';
import { machineCyclesHref } from '../cycles/report';
import { qualityHref } from '../quality/report';
import { PATHS } from '../routes';
import type { DrillDown } from '../reports/shared';
import { pct } from './report';
import type { OeeStep } from './report';

// Explainable OEE: the loss waterfall of the OEE report (decision 0803): its rows and bars, the report behind
// each loss, the OEE it sums to and the sentence under it. Pure, tested without a browser (waterfall.test.ts).

export interface WaterfallRow {
  id: string;
  key: OeeStep['key'];
  label: string;
  kind: 'total' | 'loss';
  ms: number;
  /** Where the bar floats, in hours: totals stand on 0, a loss hangs below the level before it. */
  from: number;
  to: number;
  /** Hours with one decimal ('1,234.5'), in the company's locale. */
  hours: string;
  /** Share of planned production time, one decimal; '' above planned production time. */
  share: string;
  /** The records behind a loss; null for levels. */
  href: string | null;
}

const HOUR = 3_600_000;

function stepLabel(s: OeeStep): string {
  const reason =
    s.reasonId === 'setup'
      ? tr('oee.reason.setup')
      : s.reasonId === 'uncategorized'
        ? tr('oee.reason.uncategorized')
        : (s.reasonName ?? s.reasonId);
  if (reason && s.key === 'availabilityLoss') return tr('oee.step.availabilityLossReason', { reason });
  if (reason && s.key === 'plannedDowntime') return tr('oee.step.plannedDowntimeReason', { reason });
  return tr(`oee.step.${s.key}`);
}

/**
 * The report behind a loss (decisions 0803, 0806): downtime steps open the Downtime report (one machine's when
 * drilled into a machine), the quality step the Quality report for the same machine or group, and the
 * performance step a machine's Cycles report: the machine drilled into, else `performanceMachine` (the
 * machine of the Machines list with the lowest Performance); null while there is none. A planned-downtime
 * step opens only the reason's planned periods and an availability loss only its other ones (`hide`), so the
 * list adds up to the bar (issue 27 point 2: a plannedWithLimit reason is in both).
 */
export function stepHref(
  link: NonNullable<OeeStep['link']>,
  ctx: DrillDown & { start: number; end: number; performanceMachine?: string | null },
  key?: OeeStep['key'],
): string | null {
  if (link.report === 'quality')
    return qualityHref(ctx, ctx.machine ? { machine: ctx.machine } : { group: ctx.group });
  if (link.report === 'cycles') {
    const machine = ctx.machine ?? ctx.performanceMachine ?? null;
    return machine ? machineCyclesHref(machine, ctx) : null;
  }
  const q = new URLSearchParams({ start: String(ctx.start), end: String(ctx.end) });
  // The Downtime report opens on the step's reason. It leaves setup out (live-operations §5), so a setup
  // step opens it on every reason.
  // The waterfall's downtime is inside shift time (METRICS.md §2): the report opens on shift time only.
  q.set('shifttime', '1');
  if (link.reasonId && link.reasonId !== 'setup') {
    q.set('reason', link.reasonId);
    if (key === 'plannedDowntime') q.set('hide', 'unplanned,uncategorized,noData');
    else if (key === 'availabilityLoss') q.set('hide', 'planned');
  }
  if (ctx.machine)
    return `${PATHS.machineDowntime.replace(':id', encodeURIComponent(ctx.machine))}?${q.toString()}`;
  if (ctx.group) q.set('group', ctx.group);
  return `${PATHS.downtime}?${q.toString()}`;
}

/**
 * The machine whose Cycles report the performance step opens when no machine is chosen: the lowest
 * Performance of the Machines list (ties by name); null without figures (decision 0806).
 */
export function lowestPerformanceMachine(
  p: {
    items: readonly { machine?: string | undefined; performance?: number | null | undefined }[];
    entities: { machines: readonly { id: string; name: string }[] };
  } | null,
): string | null {
  if (!p) return null;
  const name = (id: string) => p.entities.machines.find((m) => m.id === id)?.name ?? id;
  const scored = p.items.flatMap((i) =>
    i.machine != null && i.performance != null ? [{ id: i.machine, performance: i.performance }] : [],
  );
  scored.sort((a, b) => a.performance - b.performance || name(a.id).localeCompare(name(b.id)));
  return scored[0]?.id ?? null;
}

/** Planned production time: its own step, else shift time less planned downtime. */
export function plannedProductionMs(steps: readonly OeeStep[]): number {
  const own = steps.find((s) => s.key === 'plannedProductionTime');
  if (own) return own.ms;
  const shift = steps.find((s) => s.key === 'shiftTime')?.ms ?? 0;
  return shift - steps.filter((s) => s.key === 'plannedDowntime').reduce((a, s) => a + s.ms, 0);
}

/** The OEE the waterfall sums to: fully productive time / planned production time; null without the latter. */
export function waterfallOee(steps: readonly OeeStep[]): number | null {
  const ppt = plannedProductionMs(steps);
  const fp = steps.find((s) => s.key === 'fullyProductiveTime');
  return ppt > 0 && fp ? fp.ms / ppt : null;
}

const ABOVE_PPT = new Set<OeeStep['key']>(['allTime', 'outsideShift', 'shiftTime', 'plannedDowntime']);

export function waterfallRows(
  steps: readonly OeeStep[],
  ctx: DrillDown & { start: number; end: number; performanceMachine?: string | null },
  locale?: string,
): WaterfallRow[] {
  const ppt = plannedProductionMs(steps);
  const hoursFormat = new Intl.NumberFormat(locale, { minimumFractionDigits: 1, maximumFractionDigits: 1 });
  let level = 0;
  return steps.map((s, i) => {
    const h = s.ms / HOUR;
    let from: number;
    let to: number;
    if (s.kind === 'total') {
      level = h;
      from = 0;
      to = h;
    } else {
      from = Math.max(0, level - h);
      to = level;
      level = from;
    }
    return {
      id: `${String(i)}-${s.key}-${s.reasonId ?? ''}`,
      key: s.key,
      label: stepLabel(s),
      kind: s.kind,
      ms: s.ms,
      from,
      to,
      hours: hoursFormat.format(h),
      share: ABOVE_PPT.has(s.key) || ppt <= 0 ? '' : pct(s.ms / ppt),
      href: s.kind === 'loss' && s.link ? stepHref(s.link, ctx, s.key) : null,
    };
  });
}

/** A chart label as lines of at most `width` characters, broken at spaces (chart.js draws an array as lines). */
export function wrapLabel(text: string, width: number): string | string[] {
  if (text.length <= width) return text;
  const lines: string[] = [];
  let line = '';
  for (const word of text.split(' ')) {
    if (line && line.length + 1 + word.length > width) {
      lines.push(line);
      line = word;
    } else line = line ? `${line} ${word}` : word;
  }
  if (line) lines.push(line);
  return lines;
}

/**
 * The sentence under the waterfall: the OEE the bars sum to, as fully productive ÷ planned production time;
 * `oee` null (the tile's '-') says why there is none.
 */
export function waterfallCaption(rows: readonly WaterfallRow[], oee: number | null): string {
  const planned = rows.find((r) => r.key === 'plannedProductionTime');
  const productive = rows.find((r) => r.key === 'fullyProductiveTime');
  // Planned time but no run time (no performance), or run time but no parts (no quality): OEE is '-' on
  // the tile, not 0 % (decision 0803); the caption says which.
  if (oee == null && planned && planned.ms > 0) {
    const run = rows.find((r) => r.key === 'runTime');
    return tr(run && run.ms > 0 ? 'oee.losses.captionNoParts' : 'oee.losses.captionNoRun');
  }
  if (oee == null || !planned || !productive) return tr('oee.losses.captionNone');
  return tr('oee.losses.caption', {
    oee: pct(oee),
    productive: tr('oee.losses.hoursValue', { hours: productive.hours }),
    planned: tr('oee.losses.hoursValue', { hours: planned.hours }),
  });
}
