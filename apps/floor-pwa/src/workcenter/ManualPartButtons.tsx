import { t } from '@takt/ui';
import type { WorkcenterView } from '../offline/optimistic';
import { useFloorSync } from '../offline/SyncProvider';
import { addParts, undoParts } from './manualParts';

/**
 * live-operations §2 "Manual work centers show Add Part (by the multiplier), Add 1 Part (only if multiplier > 1)
 * and Undo": the workcenter's toolbar and the operator host part count (decision 1099). They are counters, not
 * form submits: every tap is a part and goes to the outbox (decision 0711), so they are not gated like the
 * overlays' Save.
 */
export function ManualPartButtons({
  machineId,
  view,
  multiplier,
  addPartPrimary,
}: {
  machineId: string;
  view: Pick<WorkcenterView, 'manualAdds'>;
  multiplier: number;
  /** Add Part is the screen's main action (the workcenter), not beside another (the part count). */
  addPartPrimary: boolean;
}) {
  const sync = useFloorSync();
  const tap = (run: () => Promise<void>) =>
    void run().catch((e: unknown) => console.error('[floor] manual parts', e));
  return (
    <>
      <button
        type="button"
        className="button touch"
        onClick={() => tap(() => undoParts(sync, machineId, view, multiplier))}
      >
        {t('toolbar.undo')}
      </button>
      {multiplier > 1 && (
        <button
          type="button"
          className="button touch"
          onClick={() => tap(() => addParts(sync, machineId, 1))}
        >
          {t('toolbar.addOnePart')}
        </button>
      )}
      <button
        type="button"
        className={addPartPrimary ? 'button button--primary touch' : 'button touch'}
        onClick={() => tap(() => addParts(sync, machineId, multiplier))}
      >
        {t('toolbar.addPart')}
      </button>
    </>
  );
}
