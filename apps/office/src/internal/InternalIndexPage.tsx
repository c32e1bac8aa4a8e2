import { t, useSession } from '@takt/ui';
import { useEffect } from 'react';
import { ScreenList } from '../admin/AdminParts';
import { INTERNAL_SCREENS } from './paths';
import { RootGate } from './InternalParts';

/** /app/internal: the internal screens (reports-admin §2 "Internal screens"), for root users. */
export function InternalIndexPage() {
  const { me } = useSession();
  useEffect(() => {
    document.title = `${t('internal.title')} · ${t('app.officeName')}`;
  }, []);
  return (
    <RootGate>
      <main className="page" aria-labelledby="internal-heading">
        <h1 id="internal-heading">{t('internal.title')}</h1>
        <p className="admin__intro">{t('internal.intro', { company: me.company.name })}</p>
        <ScreenList screens={INTERNAL_SCREENS} />
      </main>
    </RootGate>
  );
}
