import { DASHBOARD_TYPES, tileView } from '@takt/domain';
import type { EpochMs } from '@takt/domain';
import { ApiError, Link, navigate, Progress, StatusBadge, t, useDashboard, useSession } from '@takt/ui';
import { useEffect } from 'react';
import { api } from '../api';
import { FeedNotice } from '../components/FeedNotice';
import { KV, kvGet } from '../offline/db';
import { useFloorSync } from '../offline/SyncProvider';
import { dashboardPath, workcenterPath } from '../routes';
import './home.css';

/** "/": pick a machine for the workcenter view, or open a live dashboard. */
export function HomePage() {
  const { me, logout } = useSession();
  const poll = useDashboard(api, null);
  const data = poll.data;
  const sync = useFloorSync();
  const offline =
    !data && (!navigator.onLine || (poll.error instanceof ApiError && poll.error.isNetworkError));

  // A cold start with no network (the service worker served this shell) opens the last
  // machine, whose data and outbox are on the tablet; with none stored the list waits for the network.
  useEffect(() => {
    if (!offline) return;
    let cancelled = false;
    void kvGet<string>(sync.db, KV.lastMachine).then((id) => {
      if (id && !cancelled) navigate(workcenterPath(id), { replace: true });
    });
    return () => {
      cancelled = true;
    };
  }, [offline, sync]);

  useEffect(() => {
    document.title = t('app.floorName');
  }, []);

  return (
    <div className="page">
      <header className="topbar">
        <span className="topbar__brand">{t('app.floorName')}</span>
        <span className="topbar__company">{me.company.name}</span>
        <span className="topbar__spacer" />
        <span className="topbar__user">{me.displayName}</span>
        <button type="button" className="button touch" onClick={() => void logout()}>
          {t('logout')}
        </button>
      </header>
      <main className="page__main" aria-labelledby="home-heading" aria-busy={poll.loading || undefined}>
        <h1 id="home-heading">{t('home.heading')}</h1>
        <p className="page__lead">{t('home.pick')}</p>
        <FeedNotice poll={poll} />
        {poll.loading && !data && <Progress />}
        {data && (
          <ul className="machine-list">
            {data.machines.map((m) => {
              const view = tileView(m, 'utilization', data.now as EpochMs);
              return (
                <li key={m.id} className="machine-row">
                  {/* The link's name is the machine name alone; the whole row is its click target (CSS). */}
                  <Link to={workcenterPath(m.id)} className="machine-row__link">
                    {m.name}
                  </Link>
                  <StatusBadge status={view.status} variant="ink">
                    {view.description}
                  </StatusBadge>
                </li>
              );
            })}
          </ul>
        )}
        <nav className="dash-links" aria-labelledby="dash-links-heading">
          <h2 id="dash-links-heading">{t('dashboard.liveDashboards')}</h2>
          <ul>
            {DASHBOARD_TYPES.map((tp) => (
              <li key={tp}>
                <Link to={dashboardPath(tp)} className="button touch">
                  {t(`dashboard.${tp}`)}
                </Link>
              </li>
            ))}
          </ul>
        </nav>
      </main>
    </div>
  );
}
