import type { DashboardType } from '@takt/domain';
import { Elapsed, RingChart, StatusIcon, t } from '@takt/ui';
import { memo } from 'react';
import { actionLabel, tileActions } from './JobActions';
import type { TileActionKind } from './JobActions';
import { dt } from './messages';
import { sameTile, tilePercent } from './tileModel';
import type { TileMachine, TileModel } from './tileModel';
import { PendingMark } from '../components/PendingMark';
import { FitText } from '../components/FitText';

export interface MachineTileProps {
  machine: TileMachine;
  model: TileModel;
  type: DashboardType;
  /** Server clock minus client clock, for the time in state. */
  offsetMs: number;
  /** Show progress and parts ahead/behind (FullProduct). */
  showParts: boolean;
  /** Job actions (not in TV mode, FullProduct); called with the tile's machine. */
  onAction?: ((kind: TileActionKind, machine: TileMachine) => void) | undefined;
  /** A queued action of this machine waits for the server. */
  pending?: boolean;
  /** The single-machine dashboard: one large tile. */
  large?: boolean;
}

/**
 * One machine on a live dashboard (live-operations §2, §3, §4). The article's accessible name is the machine
 * name and data-status its tile class (what the machine is doing); data-figure is the dashboard's status of
 * its figure (utilization or goal). Every value sits in a box of fixed size with tabular figures, so a
 * changing number never moves the grid (UI.md "Floor").
 */
function MachineTileView({
  machine: m,
  model,
  type,
  offsetMs,
  showParts,
  onAction,
  pending,
  large,
}: MachineTileProps) {
  const ring = model.ring;
  const kinds = onAction ? tileActions(m) : [];
  return (
    <article
      className={`tile${large ? ' tile--large' : ''}`}
      aria-label={m.name}
      data-status={model.status}
      data-figure={model.figureStatus ?? undefined}
    >
      <h2 className="tile__name">
        {m.name}
        {pending ? <PendingMark show /> : null}
      </h2>
      <p className="tile__status">
        <StatusIcon status={model.status} className="tile__icon" />
        <span className="tile__description">{model.description}</span>
      </p>
      {ring && (
        <div className="tile__ring">
          <RingChart
            percent={ring.percent}
            label={`${dt(`dash.ring.${type === 'downtime' ? 'utilization' : type}`)} ${ring.main}${ring.sub ? ` ${ring.sub}` : ''}`}
            status={ring.status}
          >
            {ring.main.length > 7 ? (
              <span className="num tile__ring-main tile__ring-main--words">{ring.main}</span>
            ) : (
              <FitText className="num tile__ring-main">{ring.main}</FitText>
            )}
            {ring.sub != null && <span className="num tile__ring-sub">{ring.sub}</span>}
          </RingChart>
        </div>
      )}
      <dl className="tile__facts">
        <div className="tile__fact tile__fact--elapsed">
          <dt>{t('field.timeInState')}</dt>
          <dd className="num">
            <FitText>
              <Elapsed since={m.statusSince} offsetMs={offsetMs} />
            </FitText>
          </dd>
        </div>
        {model.noData != null && (
          <div className="tile__fact tile__fact--nodata">
            <dt>{dt('dash.noData')}</dt>
            <dd className="num" data-testid="no-data">
              <FitText>{model.noData}</FitText>
            </dd>
          </div>
        )}
        {type !== 'downtime' && showParts && (
          <>
            <div className="tile__fact">
              <dt>{dt('dash.progress')}</dt>
              <dd className="num" data-testid="progress">
                <FitText>{model.scheduled ? tilePercent(model.progress) : dt('dash.noJob')}</FitText>
              </dd>
            </div>
            <div className="tile__fact">
              <dt>{dt('dash.parts')}</dt>
              <dd className="num" data-testid="ahead-behind">
                <FitText>
                  {model.inSetup ? t('setup.title') : (model.aheadBehindText ?? t('common.none'))}
                </FitText>
              </dd>
            </div>
          </>
        )}
      </dl>
      {kinds.length > 0 && (
        <div className="tile__actions" role="group" aria-label={dt('dash.tileActions', { machine: m.name })}>
          {kinds.map((k) => (
            <button
              key={k}
              type="button"
              className="button touch tile__action"
              onClick={() => onAction?.(k, m)}
            >
              {actionLabel(k)}
            </button>
          ))}
        </div>
      )}
    </article>
  );
}

/** Re-rendered only when what it shows changes: 200 tiles polled every 5 s stay cheap. */
export const MachineTile = memo(
  MachineTileView,
  (a, b) =>
    sameTile(a.model, b.model) &&
    a.machine.name === b.machine.name &&
    a.machine.statusSince === b.machine.statusSince &&
    a.machine.scheduled === b.machine.scheduled &&
    a.machine.jobScheduleGroupId === b.machine.jobScheduleGroupId &&
    a.machine.setupSince === b.machine.setupSince &&
    a.type === b.type &&
    a.offsetMs === b.offsetMs &&
    a.showParts === b.showParts &&
    a.onAction === b.onAction &&
    a.pending === b.pending &&
    a.large === b.large,
);
