import { t } from '@takt/ui';
import { NoteField } from './NoteField';

/**
 * The planned checkbox (only when the reason lets the operator choose: `showPlanned`) and the description of a
 * downtime reason, as the underlay and the Categorize Downtime form both ask them (live-operations §2).
 */
export function DowntimeFields(props: {
  id: string;
  showPlanned: boolean;
  planned: boolean;
  description: string;
  onPlanned: (planned: boolean) => void;
  onDescription: (description: string) => void;
}) {
  return (
    <>
      {props.showPlanned && (
        <label className="check touch">
          <input
            type="checkbox"
            checked={props.planned}
            onChange={(e) => props.onPlanned(e.target.checked)}
          />
          <span>{t('downtime.planned')}</span>
        </label>
      )}
      <NoteField
        id={`${props.id}-desc`}
        label={t('downtime.description')}
        value={props.description}
        onChange={props.onDescription}
      />
    </>
  );
}
