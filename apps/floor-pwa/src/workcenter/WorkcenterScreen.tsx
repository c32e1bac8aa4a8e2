import { formatPartTime, tileView } from '@takt/domain';
import type { EpochMs } from '@takt/domain';
import {
  Elapsed,
  formatCount,
  formatTimeOfDay,
  Link,
  localeZone,
  Progress,
  StatusIcon,
  t,
  useLocation,
  useServerNow,
  useSession,
  withSearchParam,
} from '@takt/ui';
import { lazy, Suspense, useCallback, useEffect, useMemo, useState } from 'react';
import { FeedNotice } from '../components/FeedNotice';
import { localStore } from './machineSwitch';
import { LoadBoundary } from '../components/LoadBoundary';
import { MachineSwitcher } from './MachineSwitcher';
import { WorkcenterMenu } from './WorkcenterMenu';
import { SyncIndicator } from '../connection/ConnectionUi';
import { useFloorSync, useSyncView } from '../offline/SyncProvider';
import { isDashboardType, isTvMode } from '../routes';
import { readTabletDevice, tabletModeOf } from '../tablet/device';
import { liveDowntime, totalDowntimeMs } from './downtimeList';
import { downtimeReasonsOf } from './forms';
import { ManualPartButtons } from './ManualPartButtons';
import { PendingMark } from '../components/PendingMark';
import { useMachineWorkcenter } from './useMachineWorkcenter';
import { WorkcenterErrors } from './WorkcenterErrors';
import { LiveCard } from './card/LiveCard';
import { useCardLive } from './card/useCardLive';
import { hasFullProduct, multiplierOf, switcherAllowed, workcenterTypeOf } from './view';

// Overlays load on first use: the workcenter route's initial JavaScript stays small.
const loadStartJob = () => import('./overlays/StartJobOverlay');
const loadStopJob = () => import('./overlays/StopJobOverlay');
const loadSetup = () => import('./overlays/SetupOverlay');
const loadReject = () => import('./overlays/RejectOverlay');
const loadOperator = () => import('./overlays/OperatorOverlay');
const loadDowntime = () => import('./overlays/DowntimeOverlay');
const loadUnderlay = () => import('./Underlay');
const loadLiveConnection = () => import('../connection/LiveConnection');
const StartJobOverlay = lazy(loadStartJob);
const StopJobOverlay = lazy(loadStopJob);
const SetupOverlay = lazy(loadSetup);
const RejectOverlay = lazy(loadReject);
const OperatorOverlay = lazy(loadOperator);
const DowntimeOverlay = lazy(loadDowntime);
// The downtime underlay shows after a configured delay anyway (live-operations §2): its machine can follow.
const Underlay = lazy(() => loadUnderlay().then((m) => ({ default: m.Underlay })));
// The live channel renders nothing but the offline toast: it connects right after the first paint.
const LiveConnection = lazy(() => loadLiveConnection().then((m) => ({ default: m.LiveConnection })));

/**
 * Once the card is up and the tablet idle, fetch every overlay, so a tap works when the network drops before
 * the service worker finished caching them (a module once loaded stays in the page's module map). Not before
 * the card is interactive: the first paint keeps the network and the CPU.
 */
function preloadOverlays(): () => void {
  const all = [loadStartJob, loadStopJob, loadSetup, loadReject, loadOperator, loadDowntime];
  const run = () => all.forEach((load) => void load().catch(() => {}));
  let idle: number | null = null;
  const timer = setTimeout(() => {
    if (typeof requestIdleCallback === 'function') idle = requestIdleCallback(run, { timeout: 5000 });
    else run();
  }, 3000);
  return () => {
    clearTimeout(timer);
    if (idle != null) cancelIdleCallback(idle);
  };
}

type Open =
  | { kind: 'none' }
  | { kind: 'startJob' | 'stopJob' | 'setup' | 'reject' | 'operator' | 'downtime' }
  | { kind: 'reason'; start: number };

export interface WorkcenterScreenProps {
  machineId: string;
  dashboardType: string | null;
}

/** The workcenter view (live-operations §2): the card, the underlay, the toolbar and its overlays. */
export function WorkcenterScreen({ machineId, dashboardType }: WorkcenterScreenProps) {
  const { me } = useSession();
  const sync = useFloorSync();
  const { status } = useSyncView();
  const { pathname, search, query } = useLocation();
  const tv = isTvMode(query);
  // Tablet mode: ?tablet=1 or a tablet registered on this device (hides Dashboard, TV Mode, and the switcher
  // when bound to one machine).
  const device = useMemo(() => readTabletDevice(localStore()), []);
  const mode = tabletModeOf(query, device);
  const { poll, data } = useMachineWorkcenter(machineId);
  const cardLive = useCardLive(machineId);
  const [open, setOpen] = useState<Open>({ kind: 'none' });
  const close = useCallback(() => setOpen({ kind: 'none' }), []);
  useServerNow(0);

  const shown = data.tile != null;
  useEffect(() => (shown ? preloadOverlays() : undefined), [shown]);

  const tile = data.tile;
  useEffect(() => {
    document.title = `${tile?.name ?? t('workcenter.menu')} · ${t('app.floorName')}`;
  }, [tile?.name]);

  const reasons = useMemo(() => downtimeReasonsOf(data.annotationTypes), [data.annotationTypes]);
  const lz = localeZone(me);
  const now = sync.now();

  if (!tile) {
    const missing = poll.data && !poll.data.machines.some((m) => m.id === machineId);
    if (missing) {
      return (
        <main className="center-screen" aria-labelledby="wc-missing">
          <h1 id="wc-missing">{t('workcenter.notFound')}</h1>
          <p>{t('workcenter.notFoundBody', { id: machineId })}</p>
          <Link to="/" className="button button--primary touch">
            {t('common.backHome')}
          </Link>
        </main>
      );
    }
    return (
      <main className="center-screen" aria-busy="true">
        <FeedNotice poll={poll} />
        {data.loaded && poll.error != null ? (
          <p className="notice">{t('card.offlineNoData')}</p>
        ) : (
          <Progress />
        )}
      </main>
    );
  }

  const view = data.view;
  const full = hasFullProduct(me, data.flags);
  const actions = full && !tv;
  const job = view.job;
  const tileStatus = tileView(
    tile,
    isDashboardType(dashboardType) ? dashboardType : 'utilization',
    (data.tileAt ?? now) as EpochMs,
  );
  // live-operations §4: setup comes first in the class precedence, also while the start is still queued.
  const status4 = job?.setup ? { ...tileStatus, status: 'setup' as const } : tileStatus;
  const liveAnswer = cardLive.stored?.live as Record<string, unknown> | undefined;
  const manual = workcenterTypeOf(tile, liveAnswer) === 'manual';
  const multiplier = multiplierOf(tile, data.run, liveAnswer);
  const live = liveDowntime(view.downtime);
  const setupElapsed = job?.setup && job.setupSince != null ? Math.max(0, now - job.setupSince) : null;
  const partCount = tile.partCount == null ? null : tile.partCount + view.partsAdded;
  const offsetMs = poll.data?.offsetMs ?? 0;

  const overlayProps = { machineId, machineName: tile.name, data, onClose: close, manual };

  return (
    <div className="wc" data-tv={tv || undefined}>
      {tv && (
        <Link to={pathname + withSearchParam(search, 'tv', null)} replace className="skip-link">
          {t('workcenter.exitTv')}
        </Link>
      )}
      {/* Refused actions first: nothing is dropped silently (ARCHITECTURE.md "Offline sync contract"). */}
      <WorkcenterErrors machineId={machineId} machines={data.machines} tv={tv} />
      <main
        className="wc__card"
        aria-label={t('workcenter.label', { name: tile.name })}
        data-status={status4.status}
      >
        <header className="wc__head status-band">
          <h1 className="wc__name">{tile.name}</h1>
          <p className="wc__status" role="status">
            <StatusIcon status={status4.status} className="wc__status-icon" />
            <span>{job?.setup ? t('card.inSetup') : status4.description}</span>
          </p>
        </header>
        <div className="wc__body">
          <div className="wc__elapsed">
            <span className="wc__label">{t('field.timeInState')}</span>
            <span className="wc__elapsed-value">
              <Elapsed since={tile.statusSince} offsetMs={offsetMs} />
            </span>
          </div>
          <dl className="wc__facts">
            {full && (
              <div>
                <dt>{t('card.job')}</dt>
                <dd>
                  {job
                    ? (job.jobName ?? cardLive.stored?.live.jobName ?? job.jobId)
                    : // The tile can lag behind the card's live data; a queued job change wins over both.
                      (!view.pending.has('job') && cardLive.stored?.live.jobName) || t('card.noJob')}
                  <PendingMark show={view.pending.has('job')} />
                </dd>
              </div>
            )}
            {job?.setup && (
              <div>
                <dt>{t('card.inSetup')}</dt>
                <dd className="num">
                  {setupElapsed != null ? formatPartTime(setupElapsed) : '-'}
                  {job.expectedSetupMs
                    ? ` ${t('setup.of', { expected: formatPartTime(job.expectedSetupMs) })}`
                    : ''}
                </dd>
              </div>
            )}
            {full && data.flags.operatorTracking && view.operator && (
              <div>
                <dt>{t('card.operator')}</dt>
                <dd>
                  {view.operator.name}
                  <PendingMark show={view.pending.has('operator')} />
                </dd>
              </div>
            )}
            <div>
              <dt>{t('field.program')}</dt>
              <dd>{tile.program ?? t('common.none')}</dd>
            </div>
            <div>
              <dt>{t('field.partCount')}</dt>
              <dd className="num">
                {formatCount(partCount, lz.locale)}
                <PendingMark show={view.pending.has('parts')} />
              </dd>
            </div>
            {view.rejectedParts > 0 && (
              <div>
                <dt>{t('card.rejected')}</dt>
                <dd className="num">
                  {formatCount(view.rejectedParts, lz.locale)}
                  <PendingMark show={view.pending.has('reject')} />
                </dd>
              </div>
            )}
            <div>
              <dt>{t('field.lastHeartbeat')}</dt>
              <dd className="num">{formatTimeOfDay(tile.lastHeartbeat, lz)}</dd>
            </div>
          </dl>
          {tv ? (
            <p className="wc__downtime wc__downtime--tv">
              <span>{t('card.downtime')}</span>
              <span className="num">{formatPartTime(totalDowntimeMs(view.downtime, now))}</span>
            </p>
          ) : (
            <button
              type="button"
              className="wc__downtime button touch"
              onClick={() => setOpen({ kind: 'downtime' })}
            >
              <span>{t('card.downtime')}</span>
              <span className="num">{formatPartTime(totalDowntimeMs(view.downtime, now))}</span>
            </button>
          )}
          <LiveCard
            state={cardLive}
            full={full}
            savedAtText={cardLive.stored ? formatTimeOfDay(cardLive.stored.at, lz) : null}
          />
        </div>
        {status === 'offline' && data.tileAt != null && (
          <p className="notice wc__stale">{t('card.stale', { time: formatTimeOfDay(data.tileAt, lz) })}</p>
        )}
      </main>
      {/* Offline is a normal state (UI.md): the card's saved-data line says it, not a red alert. */}
      {status !== 'offline' && <FeedNotice poll={poll} />}
      <LoadBoundary quiet>
        <Suspense fallback={null}>
          <LiveConnection key={machineId} machineId={machineId} />
        </Suspense>
      </LoadBoundary>
      {!tv && full && (
        <LoadBoundary quiet>
          <Suspense fallback={null}>
            <Underlay
              // New settings make a new underlay: its timing is read when it starts.
              key={`${data.flags.underlayDelayMs}-${data.flags.underlayAutoExpandMs}`}
              delayMs={data.flags.underlayDelayMs}
              autoExpandMs={data.flags.underlayAutoExpandMs}
              machineId={machineId}
              live={live}
              reasons={reasons}
              pending={live != null && view.pending.has(`downtime:${live.start}`)}
              onAddReason={(start) => setOpen({ kind: 'reason', start })}
            />
          </Suspense>
        </LoadBoundary>
      )}
      {!tv && (
        <section className="wc__toolbar" aria-label={t('workcenter.toolbar')}>
          <div className="wc__toolbar-group">
            <WorkcenterMenu tablet={mode.tablet} />
            {switcherAllowed(mode, data.flags) && (
              <MachineSwitcher machines={data.machines} groups={data.groups} currentId={machineId} />
            )}
            <SyncIndicator />
          </div>
          {actions && (
            <div className="wc__toolbar-group wc__toolbar-group--actions">
              {manual && (
                <ManualPartButtons machineId={machineId} view={view} multiplier={multiplier} addPartPrimary />
              )}
              {data.flags.operatorTracking && (
                <button type="button" className="button touch" onClick={() => setOpen({ kind: 'operator' })}>
                  {view.operator ? (
                    <>
                      <span className="visually-hidden">{t('toolbar.operatorPrefix')}</span>
                      {view.operator.name}
                    </>
                  ) : (
                    t('toolbar.operatorLogin')
                  )}
                </button>
              )}
              <button type="button" className="button touch" onClick={() => setOpen({ kind: 'reject' })}>
                {t('toolbar.rejectPart')}
              </button>
              {job?.setup && (
                <button type="button" className="button touch" onClick={() => setOpen({ kind: 'setup' })}>
                  {t('toolbar.setup')}
                </button>
              )}
              {job ? (
                <button
                  type="button"
                  className="button button--danger touch"
                  onClick={() => setOpen({ kind: 'stopJob' })}
                >
                  {t('toolbar.stopJob')}
                </button>
              ) : (
                <button
                  type="button"
                  className="button button--primary touch"
                  onClick={() => setOpen({ kind: 'startJob' })}
                >
                  {t('toolbar.startJob')}
                </button>
              )}
            </div>
          )}
        </section>
      )}
      <LoadBoundary onDismiss={close}>
        <Suspense fallback={null}>
          {open.kind === 'startJob' && <StartJobOverlay {...overlayProps} />}
          {open.kind === 'stopJob' && <StopJobOverlay {...overlayProps} />}
          {open.kind === 'setup' && <SetupOverlay {...overlayProps} />}
          {open.kind === 'reject' && <RejectOverlay {...overlayProps} />}
          {open.kind === 'operator' && <OperatorOverlay {...overlayProps} />}
          {open.kind === 'downtime' && <DowntimeOverlay {...overlayProps} canCategorize={full} />}
          {open.kind === 'reason' && <DowntimeOverlay {...overlayProps} focusStart={open.start} />}
        </Suspense>
      </LoadBoundary>
    </div>
  );
}
