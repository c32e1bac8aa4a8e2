import type { TileStatus } from '@takt/domain';
import type { ReactElement } from 'react';

// Status is colour plus words plus shape, never colour alone (UI.md "Floor"). One distinct silhouette per
// status, drawn in currentColor so it takes the surrounding text colour.
const SHAPES: Record<TileStatus, ReactElement> = {
  // In cycle: a play triangle.
  success: <path d="M7 4.5v15l12.5-7.5z" fill="currentColor" />,
  // Idle: pause bars.
  inactive: <path d="M6 5h4.5v14H6zM13.5 5H18v14h-4.5z" fill="currentColor" />,
  // No data: a broken circle with a slash.
  unavailable: (
    <g fill="none" stroke="currentColor" strokeWidth="2.4" strokeLinecap="round">
      <circle cx="12" cy="12" r="8.5" strokeDasharray="4 3.2" />
      <path d="M6 18L18 6" />
    </g>
  ),
  // Warning: triangle with exclamation mark.
  warning: (
    <g>
      <path d="M12 2.8L1.8 20.6h20.4z" fill="currentColor" />
      <path
        d="M12 9v5.2M12 16.6v.6"
        stroke="var(--status-icon-cut, #fff)"
        strokeWidth="2.4"
        strokeLinecap="round"
      />
    </g>
  ),
  // Down too long / below goal: a stop octagon with a bar.
  danger: (
    <g>
      <path d="M8 2h8l6 6v8l-6 6H8l-6-6V8z" fill="currentColor" />
      <path d="M7 12h10" stroke="var(--status-icon-cut, #fff)" strokeWidth="2.8" strokeLinecap="round" />
    </g>
  ),
  // Fault: lightning bolt.
  fault: <path d="M13.5 1.5L4 13.5h6.5L9 22.5l11-13h-6.8z" fill="currentColor" />,
  // Setup: a wrench.
  setup: (
    <path
      d="M21.6 6.6a5.6 5.6 0 0 1-7.3 6.6l-7.6 7.6a2.3 2.3 0 0 1-3.3-3.3l7.6-7.6a5.6 5.6 0 0 1 6.6-7.3l-3.3 3.3.6 2.8 2.8.6z"
      fill="currentColor"
    />
  ),
};

export interface StatusIconProps {
  status: TileStatus;
  size?: number | string;
  className?: string;
}

/** Decorative shape for a status; always pair it with words (it is aria-hidden). */
export function StatusIcon({ status, size = '1em', className }: StatusIconProps) {
  return (
    <svg
      className={className ? `status-icon ${className}` : 'status-icon'}
      data-status={status}
      viewBox="0 0 24 24"
      width={size}
      height={size}
      aria-hidden="true"
      focusable="false"
    >
      {SHAPES[status]}
    </svg>
  );
}
