import { RingChart, StatusIcon, t } from '@takt/ui';
import { useId } from 'react';
import type { BarView, LabelledValue } from './cardView';
import { cardView } from './cardView';
import type { CardLiveState } from './useCardLive';
import './card.css';

export interface LiveCardProps {
  state: CardLiveState;
  /** The user has the FullProduct permission: parts goal, cycle times and OEE. */
  full: boolean;
  /** "Saved data from …" time of the stored answer, already formatted for the company's locale. */
  savedAtText: string | null;
}

/**
 * The live part of the workcenter card (live-operations §2): performance ring (or utilization pie),
 * Utilization and Parts Goal bars, expected setup, cycle times and OEE, from GET /api/workcenter/:id.
 */
export function LiveCard({ state, full, savedAtText }: LiveCardProps) {
  const { stored, stale, failed } = state;
  if (!stored) {
    return failed ? (
      <p className="wc-live wc-live--empty notice">Live figures are not available yet.</p>
    ) : (
      <div className="wc-live wc-live--empty" aria-hidden="true" />
    );
  }
  const view = cardView(stored.live, { full });
  const ring = view.ring;

  return (
    <div className="wc-live" data-stale={stale || undefined}>
      <section
        className="wc-live__ring"
        aria-label={ring.kind === 'performance' ? t('liveCard.performance') : t('liveCard.shiftUtilization')}
        data-status={ring.status}
      >
        <div className="wc-live__ring-chart" data-degrees={Math.round(ring.degrees)}>
          <RingChart percent={ring.percent} label={ring.label} status={ring.status} />
          <p className="wc-live__ring-text">
            <span className="wc-live__ring-main num">{ring.main}</span>
            {ring.sub && <span className="wc-live__ring-sub num">{ring.sub}</span>}
          </p>
        </div>
        <p className="wc-live__ring-status status-badge--ink">
          <StatusIcon status={ring.status} className="wc-live__ring-icon" />
          <span>{ring.statusText}</span>
        </p>
        {view.expectedSetup && (
          <dl className="wc-live__pairs">
            <Pair item={{ label: t('liveCard.expectedSetup'), text: view.expectedSetup }} />
          </dl>
        )}
      </section>
      <div className="wc-live__bars">
        <Bar label={t('liveCard.utilization')} bar={view.utilization} />
        {view.parts && (
          <Bar
            label={t('liveCard.partsGoal')}
            bar={view.parts}
            detail={t('liveCard.parts', { parts: view.parts.partsText })}
          />
        )}
      </div>
      {view.cycles && (
        <Pairs title={t('liveCard.cycleTimes')} items={view.cycles} className="wc-live__section--cycles" />
      )}
      {view.oee && <Pairs title={t('liveCard.oee')} items={view.oee} />}
      {view.oeeWarning && (
        <p className="wc-live__note" role="note">
          {view.oeeWarning}
        </p>
      )}
      {stale && savedAtText && (
        <p className="wc-live__stale">
          <StatusIcon status="unavailable" />
          <span>{t('liveCard.savedFrom', { time: savedAtText })}</span>
        </p>
      )}
    </div>
  );
}

function Bar({ label, bar, detail }: { label: string; bar: BarView; detail?: string }) {
  const id = useId();
  return (
    <div className="wc-live__bar" data-status={bar.status}>
      <div className="wc-live__bar-head">
        <span id={id} className="wc-live__label">
          {label}
        </span>
        <span className="wc-live__bar-value num">{bar.text}</span>
      </div>
      <div
        className="wc-live__track"
        role="meter"
        aria-labelledby={id}
        aria-valuemin={0}
        aria-valuemax={bar.max}
        aria-valuenow={bar.value ?? undefined}
        aria-valuetext={detail ? `${bar.text}, ${detail}` : bar.text}
      >
        <span className="wc-live__fill" style={{ width: `${bar.fill}%` }} />
      </div>
      {detail && <span className="wc-live__bar-detail num">{detail}</span>}
    </div>
  );
}

function Pairs({ title, items, className }: { title: string; items: LabelledValue[]; className?: string }) {
  const id = useId();
  return (
    <section
      className={className ? `wc-live__section ${className}` : 'wc-live__section'}
      aria-labelledby={id}
    >
      <h2 id={id} className="wc-live__title">
        {title}
      </h2>
      <dl className="wc-live__pairs">
        {items.map((item) => (
          <Pair key={item.label} item={item} />
        ))}
      </dl>
    </section>
  );
}

function Pair({ item }: { item: LabelledValue }) {
  const id = useId();
  return (
    <div className="wc-live__pair">
      <dt id={id} className="wc-live__label">
        {item.label}
      </dt>
      <dd aria-labelledby={id} className="num">
        {item.text}
      </dd>
    </div>
  );
}
