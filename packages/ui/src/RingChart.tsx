import type { TileStatus } from '@takt/domain';
import type { ReactNode } from 'react';
import { dashArray, ringSegments } from './ring';

export interface RingChartProps {
  /** Percentage, 100 = one full lap; values above 100 draw an overflow lap capped at 405°. */
  percent: number;
  /** Accessible name, e.g. "Utilization 87.5%". */
  label: string;
  /** Colour family of the arc. */
  status?: TileStatus;
  /** Diameter in px (the ring scales with its container when `size` is omitted). */
  size?: number;
  /** Big text in the middle; short. */
  children?: ReactNode;
}

const R = 42;
const STROKE = 12;
// The overflow lap runs inside the first one, so "more than 100 %" reads as a second lap, not a thicker arc.
const R_OVER = 30;
const STROKE_OVER = 7;

/** SVG ring chart (live-operations §2 performance ring, dashboard rings). */
export function RingChart({ percent, label, status = 'success', size, children }: RingChartProps) {
  const { lap, overflow } = ringSegments(percent);
  return (
    <div className="ring-chart" data-status={status} style={size ? { width: size, height: size } : undefined}>
      <svg viewBox="0 0 100 100" role="img" aria-label={label}>
        <circle className="ring-chart__track" cx="50" cy="50" r={R} strokeWidth={STROKE} fill="none" />
        {lap > 0 && (
          <circle
            className="ring-chart__lap"
            cx="50"
            cy="50"
            r={R}
            strokeWidth={STROKE}
            fill="none"
            strokeDasharray={dashArray(lap, R)}
            transform="rotate(-90 50 50)"
          />
        )}
        {overflow > 0 && (
          <circle
            className="ring-chart__overflow"
            cx="50"
            cy="50"
            r={R_OVER}
            strokeWidth={STROKE_OVER}
            fill="none"
            strokeLinecap="round"
            strokeDasharray={dashArray(overflow, R_OVER)}
            transform="rotate(-90 50 50)"
          />
        )}
      </svg>
      {children != null && (
        <div className="ring-chart__center" aria-hidden="true">
          {children}
        </div>
      )}
    </div>
  );
}
