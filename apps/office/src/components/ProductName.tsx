import { t } from '@takt/ui';
import { usePreferences } from '../reports/preferences';

/** The product's name in the header: the user's brand (an invite's brand_override, decision 1117) or Takt. */
export function ProductName() {
  const { brand } = usePreferences();
  return <span className="shell__product">{brand ?? t('app.name')}</span>;
}
