import { DASHBOARD_TYPES } from '@takt/domain';
import type { DashboardType } from '@takt/domain';
import {
  GroupSelect,
  Link,
  machinesInGroup,
  navigate,
  Progress,
  t,
  useDashboard,
  useLocation,
  withSearchParam,
} from '@takt/ui';
import { useEffect } from 'react';
import { api } from '../api';
import { FeedNotice } from '../components/FeedNotice';
import { MachineTile } from '../components/MachineTile';
import { isTvMode } from '../routes';
import { useSession } from '../session';

/** Keeps the other query parameters (tv, group) when switching dashboard type. */
const typeHref = (type: DashboardType, search: string) => `/dashboards/live/${type}${search}`;

/** /dashboards/live/:type — one tile per machine, polled every 5 s (live-operations §2). */
export function LiveDashboardPage({ type }: { type: DashboardType }) {
  const { me } = useSession();
  const { pathname, search, query } = useLocation();
  const group = query.get('group');
  const tv = isTvMode(query);
  const poll = useDashboard(api, group);
  const data = poll.data;
  const title = t(`dashboard.${type}`);

  useEffect(() => {
    document.title = `${title} · ${t('app.floorName')}`;
  }, [title]);

  // The API filters by ?group= too; filtering here as well keeps the screen right while the next answer loads.
  const machines = data ? machinesInGroup(data.machines, group) : [];
  const groupName = data?.groups.find((g) => g.id === group)?.name;

  return (
    <div className={`dash dash--${type}`}>
      <header className="dash__bar">
        <h1 className="dash__title">
          {title}
          {tv && groupName ? <span className="dash__group"> · {groupName}</span> : null}
        </h1>
        {!tv && (
          <>
            <nav className="dash__types" aria-label={t('dashboard.types')}>
              <ul>
                {DASHBOARD_TYPES.map((tp) => (
                  <li key={tp}>
                    <Link
                      to={typeHref(tp, search)}
                      className="pill touch"
                      aria-current={tp === type ? 'page' : undefined}
                    >
                      {t(`dashboard.${tp}`)}
                    </Link>
                  </li>
                ))}
              </ul>
            </nav>
            <GroupSelect
              className="touch-select"
              groups={data?.groups ?? []}
              value={group}
              onChange={(g) => navigate(pathname + withSearchParam(search, 'group', g), { replace: true })}
            />
            <Link to="/" className="button touch dash__home">
              {t('workcenter.menuHome')}
            </Link>
          </>
        )}
      </header>
      <main className="dash__main" aria-label={title} aria-busy={poll.loading || undefined}>
        <FeedNotice poll={poll} />
        {poll.loading && !data && <Progress />}
        {data && machines.length === 0 && <p className="notice">{t('dashboard.empty')}</p>}
        {data && (
          <section className="tiles" aria-label={t('home.heading')}>
            {machines.map((m) => (
              <MachineTile
                key={m.id}
                machine={m}
                type={type}
                now={data.now}
                offsetMs={data.offsetMs}
                locale={me.company.locale}
              />
            ))}
          </section>
        )}
      </main>
    </div>
  );
}
