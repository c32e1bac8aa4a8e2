import { formatPartTime, formatParts, formatPercent, performanceRingText, ringDegrees } from '@takt/domain';
import type { TileStatus } from '@takt/domain';
import { t } from '@takt/ui';
import type { MessageKey } from '@takt/ui';
import type { CardLive } from './liveData';

// The workcenter card's live section as plain data (live-operations §2, §4, §9), so the rules are tested in
// node and the component only lays it out. Percents come 0–100 from the API; formatPercent takes fractions.

/** Words for each status the live section shows: status is colour plus words plus shape (UI.md). */
export const GOAL_WORDS: Record<string, MessageKey> = {
  success: 'liveCard.goal.success',
  warning: 'liveCard.goal.warning',
  danger: 'liveCard.goal.danger',
  setup: 'liveCard.goal.setup',
  noJobStandards: 'liveCard.goal.noJobStandards',
  unavailable: 'liveCard.goal.unavailable',
};

export interface RingView {
  kind: 'performance' | 'utilization';
  /** Percent the ring draws, already capped so it never passes 405°. */
  percent: number;
  degrees: number;
  status: TileStatus;
  /** Words for the status (next to its shape). */
  statusText: string;
  /** Big text in the ring: "In Setup", "At Goal", "3 Parts Behind", or the utilization percent. */
  main: string;
  /** "of N expected", the parts goal line, or null. */
  sub: string | null;
  /** Accessible name of the ring picture. */
  label: string;
}

export interface BarView {
  /** Bar fill 0–100. */
  fill: number;
  /** aria-valuenow: the real value (may pass 100 for the parts goal); null when unknown. */
  value: number | null;
  max: number;
  /** "87.5%" or '-'. */
  text: string;
  status: TileStatus;
}

export interface LabelledValue {
  label: string;
  text: string;
}

export interface CardView {
  ring: RingView;
  utilization: BarView;
  /** Null without FullProduct (live-operations §6: the goal belongs to the full product). */
  parts: (BarView & { partsText: string }) | null;
  /** Expected setup duration, shown while in setup. */
  expectedSetup: string | null;
  cycles: LabelledValue[] | null;
  oee: LabelledValue[] | null;
  /**
   * METRICS.md §3 (decision 1031): the spec's warning under the OEE figures when some run time in the window has
   * no standard (its P and OEE leave it out, or read '-'); null otherwise and without FullProduct.
   */
  oeeWarning: string | null;
  jobName: string | null;
}

/** Percent (0–100) with one decimal, as on tiles (§9); '-' when unknown. */
export const percentText = (p: number | null | undefined): string =>
  p == null || !Number.isFinite(p) ? '-' : `${formatPercent(p / 100, 'tile')}%`;

/** A duration in the part-time format (§9: under 1 hour m:ss, …); '-' when unknown. */
export const partTimeText = (ms: number | null | undefined): string =>
  ms == null || !Number.isFinite(ms) ? '-' : formatPartTime(ms);

const clamp = (x: number, lo: number, hi: number) => Math.min(hi, Math.max(lo, x));

/** The goal status of the live data as a status token (noJobStandards reads as unavailable in colour). */
export function goalTone(live: Pick<CardLive, 'cardStatus' | 'inSetup'>): {
  status: TileStatus;
  key: string;
} {
  if (live.inSetup) return { status: 'setup', key: 'setup' };
  switch (live.cardStatus) {
    case 'success':
    case 'warning':
    case 'danger':
      return { status: live.cardStatus, key: live.cardStatus };
    case 'noJobStandards':
      return { status: 'unavailable', key: 'noJobStandards' };
    default:
      return { status: 'unavailable', key: 'unavailable' };
  }
}

/** Utilization (§4): coloured by the company's limits when known, else neutral. */
function utilizationTone(
  percent: number | null,
  limits: { warningPercent: number; failurePercent: number } | null,
): TileStatus {
  if (percent == null) return 'unavailable';
  if (!limits) return 'inactive';
  if (percent < limits.failurePercent) return 'danger';
  if (percent < limits.warningPercent) return 'warning';
  return 'success';
}

export interface CardViewOptions {
  /** The user has the FullProduct permission. */
  full: boolean;
  /** Company warning/failure percents for the utilization colour, when the screen has them. */
  utilizationLimits?: { warningPercent: number; failurePercent: number } | null;
}

export function cardView(live: CardLive, { full, utilizationLimits = null }: CardViewOptions): CardView {
  const util = live.utilizationBar ?? live.utilization;
  const utilStatus = utilizationTone(util, utilizationLimits);
  const utilization: BarView = {
    fill: util == null ? 0 : clamp(util, 0, 100),
    value: util == null ? null : clamp(util, 0, 100),
    max: 100,
    text: percentText(util),
    status: utilStatus,
  };

  const running = live.scheduled || live.inSetup;
  const tone = goalTone(live);
  let ring: RingView;
  if (full && running) {
    const text =
      live.inSetup || live.expectedPartsNow == null
        ? live.inSetup
          ? performanceRingText({ inSetup: true, actualParts: 0, expectedParts: 0 })
          : { main: t('liveCard.noGoalYet'), sub: null }
        : performanceRingText({
            inSetup: false,
            actualParts: live.jobGoodParts,
            expectedParts: live.expectedPartsNow,
          });
    const degrees = live.inSetup ? 0 : ringDegrees(live.partPercent);
    ring = {
      kind: 'performance',
      percent: degrees / 3.6,
      degrees,
      status: tone.status,
      statusText: t(GOAL_WORDS[tone.key] ?? 'liveCard.goal.unavailable'),
      main: text.main,
      sub: text.sub,
      label: t('liveCard.partsGoalPercent', { percent: percentText(live.partPercent) }),
    };
  } else {
    const degrees = ringDegrees(util);
    ring = {
      kind: 'utilization',
      percent: degrees / 3.6,
      degrees,
      status: utilStatus,
      statusText: util == null ? t('liveCard.noData') : t('liveCard.utilization'),
      main: percentText(util),
      sub: running ? null : t('liveCard.noJobRunning'),
      label: t('liveCard.utilizationPercent', { percent: percentText(util) }),
    };
  }

  const parts = full
    ? {
        fill: live.partsBar == null ? 0 : clamp(live.partsBar, 0, 100),
        value: live.partPercent == null ? null : Math.max(0, live.partPercent),
        max: Math.max(100, Math.ceil(live.partPercent ?? 0)),
        text: percentText(live.partPercent),
        status: tone.status,
        partsText:
          live.expectedPartsNow == null
            ? formatParts(live.jobGoodParts)
            : `${formatParts(live.jobGoodParts)} / ${formatParts(live.expectedPartsNow)}`,
      }
    : null;

  const expectedSetupMs = live.currentLaborActivitySet?.expectedSetupDuration ?? null;
  const expectedSetup = live.inSetup && expectedSetupMs != null ? partTimeText(expectedSetupMs) : null;

  const cycles = full
    ? [
        { label: t('liveCard.current'), text: partTimeText(live.currentCycle) },
        { label: t('liveCard.expected'), text: partTimeText(live.cycletime) },
        { label: t('liveCard.last'), text: partTimeText(live.lastCycle) },
        { label: t('liveCard.average'), text: partTimeText(live.averageCycle) },
        {
          label: t('liveCard.lastFew'),
          text: live.lastFew.length ? live.lastFew.map((ms) => formatPartTime(ms)).join(' · ') : '-',
        },
      ]
    : null;

  const oee = full
    ? [
        { label: t('liveCard.oee'), text: percentText(live.oee) },
        { label: t('liveCard.availability'), text: percentText(live.availability) },
        { label: t('liveCard.performance'), text: percentText(live.performance) },
        { label: t('liveCard.quality'), text: percentText(live.quality) },
      ]
    : null;

  return {
    ring,
    utilization,
    parts,
    expectedSetup,
    cycles,
    oee,
    oeeWarning: full && live.missingStandards === true ? t('oee.noStandards') : null,
    jobName: full ? live.jobName : null,
  };
}
