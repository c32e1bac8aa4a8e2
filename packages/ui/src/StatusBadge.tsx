import type { TileStatus } from '@takt/domain';
import type { ReactNode } from 'react';
import { t } from './i18n';
import { StatusIcon } from './StatusIcon';

export interface StatusBadgeProps {
  status: TileStatus;
  /** Words for the status; defaults to the catalogue's name of the status class. */
  children?: ReactNode;
  /** `filled` is a coloured pill; `ink` is coloured text and icon on the page surface. */
  variant?: 'filled' | 'ink';
  className?: string;
}

/** Status as colour plus shape plus words. */
export function StatusBadge({ status, children, variant = 'filled', className }: StatusBadgeProps) {
  return (
    <span
      className={`status-badge status-badge--${variant}${className ? ` ${className}` : ''}`}
      data-status={status}
    >
      <StatusIcon status={status} />
      <span className="status-badge__text">{children ?? t(`status.${status}`)}</span>
    </span>
  );
}
