import { NOTE_MAX_LENGTH } from '@takt/domain';
import { t } from '@takt/ui';

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
      <div className="field">
        <label className="field__label" htmlFor={`${props.id}-desc`}>
          {t('downtime.description')}
        </label>
        <textarea
          id={`${props.id}-desc`}
          className="touch-input"
          rows={2}
          maxLength={NOTE_MAX_LENGTH}
          value={props.description}
          onChange={(e) => props.onDescription(e.target.value)}
        />
      </div>
    </>
  );
}
