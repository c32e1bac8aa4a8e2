import { CountInput, formatCount, Link, localeZone, Progress, t, useSession } from '@takt/ui';
import { useEffect, useId, useState } from 'react';
import { FeedNotice } from '../components/FeedNotice';
import { SyncIndicator } from '../connection/ConnectionUi';
import { useFloorSync } from '../offline/SyncProvider';
import { workcenterPath } from '../routes';
import { useCardLive } from './card/useCardLive';
import { ManualPartButtons } from './ManualPartButtons';
import { addParts } from './manualParts';
import { countedParts, countEntry } from './partCount';
import { useMachineWorkcenter } from './useMachineWorkcenter';
import { hasFullProduct, multiplierOf, workcenterTypeOf } from './view';
import { WorkcenterErrors } from './WorkcenterErrors';

/**
 * /machine/{id}/home/partCount (live-operations §2 "operator host part count"; decision 1099): the parts of
 * the running job of a manual work center in large type, a count to add with Add Parts, Add Part (the multiplier) and Undo,
 * all through the workcenter's offline outbox (manual_add_part, manual_undo).
 */
export function PartCountScreen({ machineId }: { machineId: string }) {
  const { me } = useSession();
  const sync = useFloorSync();
  const { poll, data } = useMachineWorkcenter(machineId);
  const cardLive = useCardLive(machineId);
  const [text, setText] = useState('1');
  const [error, setError] = useState<string | null>(null);
  const [added, setAdded] = useState<number | null>(null);
  const inputId = useId();
  const errorId = useId();

  const tile = data.tile;
  useEffect(() => {
    document.title = `${t('partCount.title', { name: tile?.name ?? machineId })} · ${t('app.floorName')}`;
  }, [tile?.name, machineId]);

  if (!tile) {
    const missing = poll.data && !poll.data.machines.some((m) => m.id === machineId);
    return (
      <main className="center-screen" aria-busy={missing ? undefined : true}>
        {missing ? (
          <>
            <h1>{t('workcenter.notFound')}</h1>
            <p>{t('workcenter.notFoundBody', { id: machineId })}</p>
          </>
        ) : (
          <>
            <FeedNotice poll={poll} />
            <Progress />
          </>
        )}
      </main>
    );
  }

  const live = cardLive.stored?.live;
  const liveAnswer = live as Record<string, unknown> | undefined;
  const manual = workcenterTypeOf(tile, liveAnswer) === 'manual';
  // manual_add_part needs FullProduct (services/api http/permissions.ts), as the workcenter's Add Part.
  const full = hasFullProduct(me, data.flags);
  const multiplier = multiplierOf(tile, data.run, liveAnswer);
  // The running job's parts (live actualParts); no job, no figure: the count belongs to a run.
  const good = data.view.job ? countedParts(live?.actualParts, data.view.partsAdded) : null;
  const lz = localeZone(me);
  const run = (action: () => Promise<void>) =>
    void action().catch((e: unknown) => console.error('[floor] part count', e));
  const submit = () => {
    const entry = countEntry(text);
    if ('error' in entry) {
      setError(entry.error);
      return;
    }
    setError(null);
    setAdded(entry.count);
    run(() => addParts(sync, machineId, entry.count));
  };

  return (
    <main className="page__main part-count" aria-labelledby="part-count-title">
      <WorkcenterErrors machineId={machineId} machines={data.machines} tv={false} />
      <header className="part-count__head">
        <h1 id="part-count-title">{t('partCount.title', { name: tile.name })}</h1>
        <SyncIndicator />
      </header>
      <p className="part-count__figure" role="status" aria-live="polite">
        <span className="part-count__label">{t('partCount.good')}</span>{' '}
        <output className="part-count__value num">{formatCount(good, lz.locale)}</output>
      </p>
      {added != null && <p className="visually-hidden">{t('partCount.added', { count: added })}</p>}
      {!full ? (
        <p className="notice">{t('partCount.notFull')}</p>
      ) : manual ? (
        <form
          className="part-count__form"
          noValidate
          onSubmit={(e) => {
            e.preventDefault();
            submit();
          }}
        >
          <label htmlFor={inputId}>{t('partCount.count')}</label>
          <CountInput
            id={inputId}
            className="touch-input"
            min={1}
            value={text}
            aria-invalid={error ? true : undefined}
            aria-describedby={error ? errorId : undefined}
            onChange={(e) => setText(e.target.value)}
          />
          {error && (
            <p id={errorId} className="notice notice--error" role="alert">
              {error}
            </p>
          )}
          <div className="part-count__actions">
            <button type="submit" className="button button--primary touch">
              {t('partCount.add')}
            </button>
            <ManualPartButtons
              machineId={machineId}
              view={data.view}
              multiplier={multiplier}
              addPartPrimary={false}
            />
          </div>
        </form>
      ) : (
        <p className="notice">{t('partCount.notManual')}</p>
      )}
      <p>
        <Link to={workcenterPath(machineId)}>{t('partCount.toWorkcenter')}</Link>
      </p>
    </main>
  );
}
