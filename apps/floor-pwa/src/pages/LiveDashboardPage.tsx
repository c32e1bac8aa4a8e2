import { DASHBOARD_TYPES } from '@takt/domain';
import type { DashboardType } from '@takt/domain';
import {
  formatTimeOfDay,
  GroupSelect,
  Link,
  localeZone,
  machinesInGroup,
  navigate,
  Progress,
  t,
  useLocation,
  useSession,
  withSearchParam,
} from '@takt/ui';
import { useCallback, useEffect, useMemo, useRef, useState } from 'react';
import { api } from '../api';
import { MachineTile } from '../dashboards/MachineTile';
import { CyclesDashboard } from '../dashboards/CyclesDashboard';
import { useDebouncedCallback, JOB_ACTION_DEBOUNCE_MS } from '../lib/debounce';
import { FAILED_AFTER, useDashboardFeeds } from '../dashboards/feeds';
import { TileActionModal } from '../dashboards/JobActions';
import type { TileAction, TileActionKind } from '../dashboards/JobActions';
import { dt } from '../dashboards/messages';
import { useStatusFeeds } from '../dashboards/status';
import { boardStandardsWarning, tileModel } from '../dashboards/tileModel';
import { boardGridStyle, useBoardGrid } from '../dashboards/useBoardGrid';
import type { TileSize } from '../dashboards/useBoardGrid';
import type { TileMachine } from '../dashboards/tileModel';
import '../dashboards/dashboards.css';
import { useLiveQuery } from '../offline/liveQuery';
import { useFloorSync } from '../offline/SyncProvider';
import { isTvMode } from '../routes';

/** A live dashboard's type: the domain's four, and Cycles, limited to one company (decision 0600). */
export type LiveDashboardType = DashboardType | 'cycles';

/** live-operations §6: the OEE and Parts Goal dashboards need the FullProduct permission. */
export const needsFullProduct = (type: LiveDashboardType) => type === 'oee' || type === 'partsgoal';

/**
 * A tile's designed size in rem (decision 1042): what it shows at zoom 1 without cutting anything, a name on two
 * lines included (decision 1081). Downtime tiles are half width (live-operations §2); job actions add a row of
 * touch buttons; one machine's dashboard has one large tile.
 */
export const tileSizeOf = (type: LiveDashboardType, actions: boolean, large = false): TileSize => {
  const base = large
    ? { width: 60, height: 25 }
    : type === 'downtime'
      ? { width: 11, height: 15.5 }
      : { width: 19, height: 14 };
  return actions ? { width: base.width, height: base.height + 4 } : base;
};

const titleOf = (type: LiveDashboardType) => (type === 'cycles' ? dt('dash.cycles') : t(`dashboard.${type}`));

/**
 * /dashboards/live/:type (one tile per machine, optional ?group) and /dashboards/machine/:id/:type (one machine,
 * ?tablet=1, ?switcher=false when the tablet is bound to it). Machines and statuses every 5 s, utilization
 * and parts every 15 s, unmapped status every 10 s, gateway status every 15 s (live-operations §2); offline
 * the last data stays, marked stale. /dashboards/live/cycles shows the Cycles dashboard to the one configured
 * company and "not available" to any other.
 */
export function LiveDashboardPage({ type, machineId }: { type: LiveDashboardType; machineId?: string }) {
  const { me } = useSession();
  const sync = useFloorSync();
  const { pathname, search, query } = useLocation();
  const group = machineId ? null : query.get('group');
  // A TV (decision 1041) is in TV mode whatever its URL says: view only.
  const tv = isTvMode(query) || me.board != null;
  const switcher = query.get('switcher') !== 'false';
  const fullProduct = me.permissions.includes('FullProduct');
  const allowed = fullProduct || !needsFullProduct(type);
  const tileType = type === 'cycles' ? null : type;
  const feeds = useDashboardFeeds(api, group, {
    // The Downtime board reads the tiles' No data from it too (decision 1061).
    utilization: allowed && (type === 'utilization' || type === 'oee' || type === 'downtime'),
    parts: allowed && fullProduct && type !== 'downtime' && type !== 'cycles',
  });
  const { data, freshness } = feeds;
  const status = useStatusFeeds(api);
  const title = titleOf(type);

  useEffect(() => {
    document.title = `${title} · ${t('app.floorName')}`;
  }, [title]);

  // A queued job action shows a pending mark on its tile; when the outbox empties the tiles are fetched again.
  const pendingIds = useLiveQuery(
    () =>
      sync.db.outbox.toArray().then((es) =>
        es
          .map((e) => e.machineId)
          .sort()
          .join('\n'),
      ),
    'dash-outbox',
    '',
  );
  const pending = useMemo(() => new Set(pendingIds ? pendingIds.split('\n') : []), [pendingIds]);
  const refresh = feeds.machines.refresh;
  const hadPending = useRef(false);
  useEffect(() => {
    if (hadPending.current && pending.size === 0) refresh();
    hadPending.current = pending.size > 0;
  }, [pending, refresh]);

  const [action, setAction] = useState<TileAction | null>(null);
  // live-operations §9: dashboard job-action debounce 200 ms.
  const openAction = useDebouncedCallback(
    (kind: TileActionKind, machine: TileMachine) => setAction({ kind, machine }),
    JOB_ACTION_DEBOUNCE_MS,
  );
  const closeAction = useCallback(() => setAction(null), []);
  const actionsOn = allowed && fullProduct && !tv;

  // The API filters by ?group= too; filtering here as well keeps the screen right while the next answer loads.
  const machines = useMemo(() => {
    const all = data ? machinesInGroup(data.machines, group) : [];
    return machineId ? all.filter((m) => m.id === machineId) : all;
  }, [data, group, machineId]);
  const groupName = data?.groups.find((g) => g.id === group)?.name;
  // Every tile on the screen whatever the machine count (decision 1042); one machine's large tile fills it.
  const tilesRef = useRef<HTMLElement>(null);
  const grid = useBoardGrid(tilesRef, machines.length, tileSizeOf(type, actionsOn, machineId != null));
  const single = machineId ? machines[0] : undefined;
  const machineNames = useMemo(() => new Map(machines.map((m) => [m.id, m.name])), [machines]);
  const indicators = status.indicatorsFor(machineNames);
  const standardsWarning = boardStandardsWarning(
    tileType,
    machines.map((m) => m.id),
    feeds.utilization,
  );
  // Cycles is offered on the all-machines dashboards of the one company that has it.
  const types: LiveDashboardType[] =
    !machineId && (status.cyclesDashboard || type === 'cycles')
      ? [...DASHBOARD_TYPES, 'cycles']
      : [...DASHBOARD_TYPES];

  const typeHref = (tp: LiveDashboardType) =>
    machineId
      ? `/dashboards/machine/${encodeURIComponent(machineId)}/${tp}${search}`
      : `/dashboards/live/${tp}${search}`;

  return (
    <div className={`dash dash--${type}${machineId ? ' dash--machine' : ''}`} data-freshness={freshness}>
      <header className="dash__bar">
        <h1 className="dash__title">
          {single ? `${single.name} · ${title}` : title}
          {tv && groupName ? <span className="dash__group"> · {groupName}</span> : null}
        </h1>
        {!tv && (
          <>
            <nav className="dash__types" aria-label={t('dashboard.types')}>
              <ul>
                {types.map((tp) => (
                  <li key={tp}>
                    <Link
                      to={typeHref(tp)}
                      className="pill touch"
                      aria-current={tp === type ? 'page' : undefined}
                    >
                      {titleOf(tp)}
                    </Link>
                  </li>
                ))}
              </ul>
            </nav>
            {!machineId && (
              <GroupSelect
                className="touch-select"
                groups={data?.groups ?? []}
                value={group}
                onChange={(g) => navigate(pathname + withSearchParam(search, 'group', g), { replace: true })}
              />
            )}
            {machineId && switcher && (
              <Link to={`/dashboards/live/${type}`} className="button touch">
                {dt('dash.allMachines')}
              </Link>
            )}
            {(!machineId || switcher) && (
              <Link to="/" className="button touch dash__home">
                {t('workcenter.menuHome')}
              </Link>
            )}
          </>
        )}
        <ul
          className="dash__status"
          aria-label={dt('dash.status')}
          aria-live="polite"
          data-testid="dash-status"
        >
          {indicators.map((i) => (
            <li key={i.id} className={`dash__indicator tone--${i.tone}`} title={i.detail}>
              {i.text}
            </li>
          ))}
        </ul>
      </header>
      <main className="dash__main" aria-label={title} aria-busy={freshness === 'loading' || undefined}>
        {!allowed ? (
          <section className="dash-unavailable" role="alert">
            <h2>{dt('dash.notAvailable', { type: title })}</h2>
            <p>{dt('dash.notAvailableHint')}</p>
          </section>
        ) : (
          <>
            <FreshnessNotice
              freshness={freshness}
              at={feeds.dataAt}
              failures={feeds.machines.consecutiveFailures}
              zone={localeZone(me)}
            />
            {standardsWarning && (
              <p className="notice notice--warning" role="note">
                {standardsWarning}
              </p>
            )}
            {freshness === 'loading' && !data && <Progress />}
            {data && machines.length === 0 && (
              <p className="notice">{machineId ? dt('dash.machineNotFound') : t('dashboard.empty')}</p>
            )}
            {data && tileType === null && (
              <CyclesDashboard api={api} data={data} machines={machines} group={group} />
            )}
            {data && tileType !== null && (
              <section
                ref={tilesRef}
                className={`tiles${grid ? ' tiles--fit' : ''}${freshness === 'stale' || freshness === 'failed' ? ' tiles--stale' : ''}`}
                style={boardGridStyle(grid)}
                aria-label={t('home.heading')}
              >
                {machines.map((m) => {
                  const machine = m as unknown as TileMachine;
                  return (
                    <MachineTile
                      key={m.id}
                      machine={machine}
                      model={tileModel({
                        machine,
                        type: tileType,
                        now: data.now,
                        utilization: feeds.utilization.get(m.id),
                        parts: feeds.parts.get(m.id),
                        fullProduct,
                      })}
                      type={tileType}
                      offsetMs={data.offsetMs}
                      showParts={fullProduct}
                      onAction={actionsOn ? openAction : undefined}
                      pending={pending.has(m.id)}
                      large={machineId != null}
                    />
                  );
                })}
              </section>
            )}
          </>
        )}
      </main>
      {action && <TileActionModal sync={sync} action={action} onClose={closeAction} />}
    </div>
  );
}

/** Stale data stays on screen, marked with its time; after more than 10 failures the load is marked failed. */
function FreshnessNotice({
  freshness,
  at,
  failures,
  zone,
}: {
  freshness: ReturnType<typeof useDashboardFeeds>['freshness'];
  at: number | null;
  failures: number;
  zone: ReturnType<typeof localeZone>;
}) {
  if (freshness === 'failed') {
    return (
      <p className="notice notice--error" role="alert" data-testid="feed-failed">
        {failures > FAILED_AFTER ? dt('dash.failed', { count: failures }) : t('common.loadFailed')}
        {at != null ? ` ${dt('dash.stale', { time: formatTimeOfDay(at, zone) })}` : ''}
      </p>
    );
  }
  if (freshness === 'stale') {
    return (
      <p className="notice" role="status" data-testid="feed-stale">
        {dt('dash.stale', { time: formatTimeOfDay(at, zone) })}
      </p>
    );
  }
  return null;
}
