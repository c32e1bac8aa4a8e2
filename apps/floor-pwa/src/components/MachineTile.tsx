import { tileView } from '@takt/domain';
import type { DashboardType, EpochMs } from '@takt/domain';
import { Elapsed, formatCount, formatPercent, ringPercent, RingChart, StatusIcon, t } from '@takt/ui';
import type { LiveMachine } from '@takt/ui';
import { memo } from 'react';

export interface MachineTileProps {
  machine: LiveMachine;
  type: DashboardType;
  /** Server time of the data, for the tile class (warning turns danger after downtimefailuredelay). */
  now: number;
  offsetMs: number;
  locale?: string;
}

/**
 * One machine on a live dashboard (live-operations §2, §4). The article's accessible name is the machine name
 * and data-status its tile class; end-to-end tests and TV styling read both.
 */
export const MachineTile = memo(function MachineTile({
  machine: m,
  type,
  now,
  offsetMs,
  locale,
}: MachineTileProps) {
  const view = tileView(m, type, now as EpochMs);
  const ring = ringPercent(m, type);
  return (
    <article className="tile" aria-label={m.name} data-status={view.status}>
      <h2 className="tile__name">{m.name}</h2>
      <p className="tile__status">
        <StatusIcon status={view.status} className="tile__icon" />
        <span className="tile__description">{view.description}</span>
      </p>
      {ring != null && (
        <div className="tile__ring">
          <RingChart
            percent={ring}
            label={`${t(`dashboard.${type}`)} ${formatPercent(ring)}`}
            status={view.status}
          >
            <span className="num">{formatPercent(ring)}</span>
          </RingChart>
        </div>
      )}
      <dl className="tile__facts">
        <div className="tile__fact tile__fact--elapsed">
          <dt>{t('field.timeInState')}</dt>
          <dd>
            <Elapsed since={m.statusSince} offsetMs={offsetMs} />
          </dd>
        </div>
        <div className="tile__fact">
          <dt>{t('field.program')}</dt>
          <dd className="tile__program">{m.program ?? t('common.none')}</dd>
        </div>
        <div className="tile__fact">
          <dt>{t('field.partCount')}</dt>
          <dd className="num">{formatCount(m.partCount, locale)}</dd>
        </div>
      </dl>
    </article>
  );
});
