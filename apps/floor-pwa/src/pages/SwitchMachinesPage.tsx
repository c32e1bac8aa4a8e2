import { Link, Progress, t, useDashboard, useLocation, withSearchParam } from '@takt/ui';
import { useEffect, useMemo } from 'react';
import { api } from '../api';
import { FeedNotice } from '../components/FeedNotice';
import { localStore } from '../workcenter/machineSwitch';
import { MachineSwitchList } from '../workcenter/MachineSwitcher';
import { storeDashboard } from '../offline/refdata';
import { useFloorSync } from '../offline/SyncProvider';
import { workcenterPath } from '../routes';
import { readTabletDevice, tabletModeOf } from '../tablet/device';
import { useWorkcenter } from '../workcenter/useWorkcenter';
import { switcherAllowed } from '../workcenter/view';
import { useTargetMachine } from './useTargetMachine';

/**
 * /switch-machines (live-operations §2 "Machine switch"): the machine switch as a page, for kiosks and links.
 * Machines and groups come from the store (offline too); the group filter is the same local-storage one as the
 * toolbar's dialog; choosing a machine opens its workcenter with the query kept (TV mode, tablet).
 */
export function SwitchMachinesPage() {
  const sync = useFloorSync();
  const { query, search } = useLocation();
  const target = useTargetMachine();
  const poll = useDashboard(api, null);
  const data = useWorkcenter(target.machineId ?? '');
  const device = useMemo(() => readTabletDevice(localStore()), []);
  const mode = tabletModeOf(query, device);

  useEffect(() => {
    if (poll.data) void storeDashboard(sync.db, poll.data.machines, poll.data.groups, poll.data.now);
  }, [poll.data, sync]);
  useEffect(() => {
    document.title = `${t('workcenter.switcherHeading')} · ${t('app.floorName')}`;
  }, []);

  const machines = data.machines.length > 0 ? data.machines : (poll.data?.machines ?? []);
  const groups = data.groups.length > 0 ? data.groups : (poll.data?.groups ?? []);
  const allowed = switcherAllowed(mode, data.flags);
  const back = target.machineId
    ? workcenterPath(target.machineId) + withSearchParam(search, 'machineId', null)
    : '/';

  return (
    <div className="page">
      <main className="page__main switcher switcher--page" aria-labelledby="switch-heading">
        <div className="switcher__head">
          <h1 id="switch-heading">{t('workcenter.switcherHeading')}</h1>
          <Link to={back} className="button touch">
            {t('common.close')}
          </Link>
        </div>
        {!allowed ? (
          <p className="notice">{t('workcenter.switchingOff')}</p>
        ) : machines.length === 0 ? (
          <>
            <FeedNotice poll={poll} />
            {poll.loading && <Progress />}
          </>
        ) : (
          <MachineSwitchList machines={machines} groups={groups} currentId={target.machineId} />
        )}
      </main>
    </div>
  );
}
