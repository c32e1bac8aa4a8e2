import { tileView } from '@takt/domain';
import type { EpochMs } from '@takt/domain';
import {
  Elapsed,
  formatCount,
  formatTimeOfDay,
  Link,
  Progress,
  StatusIcon,
  t,
  useDashboard,
  useLocation,
  withSearchParam,
} from '@takt/ui';
import { useEffect } from 'react';
import { api } from '../api';
import { FeedNotice } from '../components/FeedNotice';
import { MachineSwitcher } from '../components/MachineSwitcher';
import { WorkcenterMenu } from '../components/WorkcenterMenu';
import { isDashboardType, isTvMode } from '../routes';
import { localeZone, useSession } from '../session';

export interface WorkcenterPageProps {
  machineId: string;
  /** Second path segment of /:machineId/:dashboardType; a live dashboard type picks the status rule. */
  dashboardType: string | null;
}

/**
 * The workcenter card (live-operations §2): "am I on pace, and what is wrong?" at a glance.
 * Job, rings, bars, cycle times and the operator actions arrive with issue 6; no dead buttons until then.
 */
export function WorkcenterPage({ machineId, dashboardType }: WorkcenterPageProps) {
  const { me } = useSession();
  const { pathname, search, query } = useLocation();
  const tv = isTvMode(query);
  // Every machine is needed anyway for the switcher; one poll serves both.
  const poll = useDashboard(api, null);
  const data = poll.data;
  const machine = data?.machines.find((m) => m.id === machineId);

  useEffect(() => {
    document.title = `${machine?.name ?? t('workcenter.menu')} · ${t('app.floorName')}`;
  }, [machine?.name]);

  if (!data) {
    return (
      <main className="center-screen" aria-busy="true">
        <FeedNotice poll={poll} />
        {poll.loading && <Progress />}
      </main>
    );
  }

  if (!machine) {
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

  const view = tileView(
    machine,
    isDashboardType(dashboardType) ? dashboardType : 'utilization',
    data.now as EpochMs,
  );
  const lz = localeZone(me);

  return (
    <div className="wc">
      {tv && (
        <Link to={pathname + withSearchParam(search, 'tv', null)} replace className="skip-link">
          {t('workcenter.exitTv')}
        </Link>
      )}
      <main
        className="wc__card"
        aria-label={t('workcenter.label', { name: machine.name })}
        data-status={view.status}
      >
        <header className="wc__head status-band">
          <h1 className="wc__name">{machine.name}</h1>
          {/* A polite live region: a status change is announced, the ticking clock below is not. */}
          <p className="wc__status" role="status">
            <StatusIcon status={view.status} className="wc__status-icon" />
            <span>{view.description}</span>
          </p>
        </header>
        <div className="wc__body">
          <div className="wc__elapsed">
            <span className="wc__label">{t('field.timeInState')}</span>
            <span className="wc__elapsed-value">
              <Elapsed since={machine.statusSince} offsetMs={data.offsetMs} />
            </span>
          </div>
          <dl className="wc__facts">
            <div>
              <dt>{t('field.program')}</dt>
              <dd>{machine.program ?? t('common.none')}</dd>
            </div>
            <div>
              <dt>{t('field.partCount')}</dt>
              <dd className="num">{formatCount(machine.partCount, lz.locale)}</dd>
            </div>
            <div>
              <dt>{t('field.lastHeartbeat')}</dt>
              <dd className="num">{formatTimeOfDay(machine.lastHeartbeat, lz)}</dd>
            </div>
          </dl>
        </div>
      </main>
      <FeedNotice poll={poll} />
      {!tv && (
        <section className="wc__toolbar" aria-label={t('workcenter.toolbar')}>
          <WorkcenterMenu />
          <span className="wc__toolbar-spacer" />
          <MachineSwitcher machines={data.machines} groups={data.groups} currentId={machine.id} />
        </section>
      )}
    </div>
  );
}
