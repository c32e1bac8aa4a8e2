import { useEffect, useState } from 'react';
import { t } from './i18n';

/** UI.md: every wait longer than 300 ms shows progress — and shorter ones show nothing, so no flicker. */
export function Progress({
  label = t('common.loading'),
  delayMs = 300,
}: {
  label?: string;
  delayMs?: number;
}) {
  const [visible, setVisible] = useState(delayMs <= 0);
  useEffect(() => {
    if (delayMs <= 0) return;
    const id = setTimeout(() => setVisible(true), delayMs);
    return () => clearTimeout(id);
  }, [delayMs]);
  if (!visible) return null;
  return (
    <div className="progress" role="progressbar" aria-label={label}>
      <span className="progress__bar" />
      <span className="progress__label">{label}</span>
    </div>
  );
}
