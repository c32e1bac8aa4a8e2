import { Link, navigate, Progress, t, useLocation, useSession, withSearchParam } from '@takt/ui';
import { lazy, Suspense, useCallback, useEffect } from 'react';
import { useFloorSync } from '../offline/SyncProvider';
import { workcenterPath } from '../routes';
import { useWorkcenter } from '../workcenter/useWorkcenter';
import { hasFullProduct } from '../workcenter/view';
import { useTargetMachine } from './useTargetMachine';

const OperatorOverlay = lazy(() => import('../workcenter/overlays/OperatorOverlay'));

/**
 * /authorize/operator (live-operations §2 "operator authorization"): the operator login of one machine
 * (`?machineId=`, else the last machine opened here) as a page: log in now, at the start of the shift, or log
 * out, through the outbox like every operator action; closing it opens that machine's workcenter.
 */
export function AuthorizeOperatorPage() {
  const { me } = useSession();
  const sync = useFloorSync();
  const { search } = useLocation();
  const target = useTargetMachine();
  const machineId = target.machineId;
  const data = useWorkcenter(machineId ?? '');

  // Pull the machine's operators and operator run (offline: what the store already holds).
  useEffect(() => {
    if (machineId) sync.watch(machineId);
  }, [sync, machineId]);
  useEffect(() => {
    document.title = `${t('operator.title')} · ${t('app.floorName')}`;
  }, []);

  const close = useCallback(() => {
    const to = machineId ? workcenterPath(machineId) + withSearchParam(search, 'machineId', null) : '/';
    navigate(to, { replace: true });
  }, [machineId, search]);

  if (!target.resolved || (machineId && !data.loaded)) {
    return (
      <main className="center-screen" aria-busy="true">
        <Progress />
      </main>
    );
  }
  // Operator tracking off (decision 1087): no operator login here either, as there is no operator button.
  if (!machineId || !hasFullProduct(me, data.flags) || !data.flags.operatorTracking) {
    return (
      <main className="center-screen" aria-labelledby="authorize-heading">
        <h1 id="authorize-heading">{t('operator.title')}</h1>
        <p>
          {!machineId
            ? t('operator.noMachine')
            : hasFullProduct(me, data.flags)
              ? t('operator.trackingOff')
              : t('operator.notAllowed')}
        </p>
        <Link to="/" className="button button--primary touch">
          {t('common.backHome')}
        </Link>
      </main>
    );
  }
  return (
    <main className="center-screen" aria-label={t('operator.title')}>
      <Suspense fallback={<Progress />}>
        <OperatorOverlay
          machineId={machineId}
          machineName={data.tile?.name ?? machineId}
          data={data}
          onClose={close}
        />
      </Suspense>
    </main>
  );
}
