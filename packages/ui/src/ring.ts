// Ring chart geometry. live-operations §2: "The ring caps at 405 degrees" — one full lap for 100 %,
// then an overflow lap that stops at 45° (112.5 %), so a machine far ahead of goal does not wrap forever.

export const RING_MAX_DEGREES = 405;

export interface RingSegments {
  /** Sweep in degrees, 0..405. */
  degrees: number;
  /** Fraction of the first lap drawn, 0..1. */
  lap: number;
  /** Fraction of a lap drawn as overflow beyond 100 %, 0..0.125. */
  overflow: number;
}

/** Degrees for a percentage (100 % = 360°), clamped to 0..405; anything not finite draws nothing. */
export function ringDegrees(percent: number): number {
  if (!Number.isFinite(percent) || percent <= 0) return 0;
  return Math.min((percent / 100) * 360, RING_MAX_DEGREES);
}

export function ringSegments(percent: number): RingSegments {
  const degrees = ringDegrees(percent);
  return {
    degrees,
    lap: Math.min(degrees, 360) / 360,
    overflow: Math.max(0, degrees - 360) / 360,
  };
}

/** stroke-dasharray for drawing `fraction` of a circle of radius r. */
export function dashArray(fraction: number, r: number): string {
  const c = 2 * Math.PI * r;
  const on = Math.max(0, Math.min(1, fraction)) * c;
  return `${on.toFixed(3)} ${c.toFixed(3)}`;
}
