import { SETUP_REASON_NAME } from '../live/rules';
import type { DowntimeMs } from '../rollup/rollup';
import { NO_DATA_REASON, NO_DATA_REASON_NAME, SETUP_REASON, UNCATEGORIZED_REASON } from '../rollup/rollup';
import type { WaterfallStep } from '../schemas/production-report';
import type { EfficiencyTotals } from './oee';
import { plannedProductionTime } from './oee';

// Explainable OEE (decision 0803, reports-admin §2 OEE report): where a range's time went, top to bottom,
// from the same totals as the tiles (METRICS.md §2–§3) plus the downtime by reason of the shift time. Pure.
// Levels are derived from the losses by subtraction, so the steps add up exactly (contract in
// schemas/production-report.ts WaterfallStep) and fullyProductive / plannedProductionTime is the OEE:
//   fullyProductive = T_run − (T_run − Σideal) − Σideal·rejected/total = Σideal·good/total
//   OEE = (T_run/T_ppt)·(Σideal/T_run)·(good/total) = Σideal·good/total / T_ppt.

export const UNCATEGORIZED_REASON_NAME = 'Uncategorized';

export interface WaterfallInput {
  totals: Pick<
    EfficiencyTotals,
    | 'allTimeMs'
    | 'shiftTimeMs'
    | 'plannedDowntimeMs'
    | 'runTimeMs'
    | 'idealTimeMs'
    | 'standardRunTimeMs'
    | 'totalParts'
    | 'rejectedParts'
  >;
  /** Downtime in shift time by reason (RollupMeasures.downtimeByReason of the in-shift sum). */
  downtimeByReason: Readonly<Record<string, DowntimeMs>>;
  /** Display names of annotation type ids; 'setup', 'uncategorized' and 'nodata' are named here. */
  reasonNames?: ReadonlyMap<string, string>;
}

const reasonName = (id: string, names: ReadonlyMap<string, string> | undefined): string =>
  id === SETUP_REASON
    ? SETUP_REASON_NAME
    : id === UNCATEGORIZED_REASON
      ? UNCATEGORIZED_REASON_NAME
      : id === NO_DATA_REASON
        ? NO_DATA_REASON_NAME
        : (names?.get(id) ?? UNCATEGORIZED_REASON_NAME);

/**
 * Per-reason loss steps, longest first (ties by id, so the order is stable), with `total − Σ reasons` (time
 * the reasons do not explain: shift time in monitored life without any machine state, i.e. no data; rows
 * built since METRICS.md §1 monitored life have none) added to 'nodata'. Zero steps are left out.
 */
function reasonSteps(
  key: 'plannedDowntime' | 'availabilityLoss',
  total: number,
  byReason: ReadonlyArray<readonly [string, number]>,
  names: ReadonlyMap<string, string> | undefined,
): WaterfallStep[] {
  const ms = new Map<string, number>();
  for (const [id, v] of byReason) if (v !== 0) ms.set(id, (ms.get(id) ?? 0) + v);
  const explained = [...ms.values()].reduce((t, v) => t + v, 0);
  const rest = total - explained;
  if (rest !== 0) ms.set(NO_DATA_REASON, (ms.get(NO_DATA_REASON) ?? 0) + rest);
  return [...ms]
    .filter(([, v]) => v !== 0)
    .sort((a, b) => b[1] - a[1] || a[0].localeCompare(b[0]))
    .map(([id, v]) => ({
      key,
      kind: 'loss' as const,
      ms: v,
      reasonId: id,
      reasonName: reasonName(id, names),
      link: { report: 'downtime' as const, reasonId: id },
    }));
}

/**
 * The loss waterfall of a range: allTime, outsideShift, shiftTime, plannedDowntime (per reason),
 * plannedProductionTime, availabilityLoss (per reason), runTime, performanceLoss, qualityLoss,
 * fullyProductiveTime. Performance above 1 (ideal longer than run time) gives a negative performance loss:
 * shown, never clamped (METRICS.md §3). Without run time there is nothing to lose to performance or quality.
 */
export function oeeWaterfall(input: WaterfallInput): WaterfallStep[] {
  const t = input.totals;
  const entries = Object.entries(input.downtimeByReason);
  const planned = reasonSteps(
    'plannedDowntime',
    t.plannedDowntimeMs,
    entries.map(([id, d]) => [id, d.plannedMs] as const),
    input.reasonNames,
  );
  const ppt = plannedProductionTime(t);
  const unplanned = reasonSteps(
    'availabilityLoss',
    ppt - t.runTimeMs,
    entries.map(([id, d]) => [id, d.unplannedMs] as const),
    input.reasonNames,
  );
  const run = t.runTimeMs;
  // METRICS.md §3 (decision 1002): P is measured on the run time with a standard and applies to all run time,
  // so fullyProductive / T_ppt stays A·P·Q. Every run with a standard: produced = Σideal, as before. None:
  // P is unknown (OEE '-'), not slow: no performance loss.
  const std = t.standardRunTimeMs;
  const produced = run === 0 || std === 0 ? run : std === run ? t.idealTimeMs : (run * t.idealTimeMs) / std;
  const performanceLoss = run - produced;
  // Never more rejected than made (METRICS.md §3, rows stored before decision 0997): the loss stops at `produced`.
  const qualityLoss =
    run === 0 || t.totalParts <= 0 ? 0 : (produced * Math.min(t.rejectedParts, t.totalParts)) / t.totalParts;
  const total = (key: WaterfallStep['key'], ms: number): WaterfallStep => ({ key, kind: 'total', ms });
  return [
    total('allTime', t.allTimeMs),
    { key: 'outsideShift', kind: 'loss', ms: t.allTimeMs - t.shiftTimeMs },
    total('shiftTime', t.shiftTimeMs),
    ...planned,
    total('plannedProductionTime', ppt),
    ...unplanned,
    total('runTime', run),
    { key: 'performanceLoss', kind: 'loss', ms: performanceLoss, link: { report: 'cycles' } },
    { key: 'qualityLoss', kind: 'loss', ms: qualityLoss, link: { report: 'quality' } },
    // Level minus its losses as one sum, the way the contract adds them (fractional ms: the same float either way).
    total('fullyProductiveTime', run - (performanceLoss + qualityLoss)),
  ];
}
