import { t } from '@takt/ui';
import { useState } from 'react';
import { usePreferences } from './preferences';

/**
 * The anonymize option in the header (reports-admin §6 "The anonymize option is for root or non-demo
 * accounts"; decision 1116): only where it is offered. The server replaces the names in the answers, so the
 * page reloads to read them again.
 */
export function AnonymizeSwitch() {
  const { anonymize, anonymizeOffered, update } = usePreferences();
  // The choice being saved (the box shows it at once); null: none, the stored value shows.
  const [saving, setSaving] = useState<boolean | null>(null);
  const [failed, setFailed] = useState(false);
  if (!anonymizeOffered) return null;
  const change = async (on: boolean) => {
    setSaving(on);
    setFailed(false);
    if (await update({ anonymize: on })) globalThis.location.reload();
    else {
      setSaving(null);
      setFailed(true);
    }
  };
  return (
    <label className="shell__anonymize" title={t('anonymize.hint')}>
      <input
        type="checkbox"
        checked={saving ?? anonymize}
        disabled={saving !== null}
        onChange={(e) => void change(e.target.checked)}
      />{' '}
      {t('anonymize.label')}
      {failed && (
        <span role="alert" className="shell__anonymize-error">
          {' '}
          {t('anonymize.failed')}
        </span>
      )}
    </label>
  );
}
