import { t, useSession } from '@takt/ui';
import { useEffect } from 'react';
import { ScreenList } from './AdminParts';
import { adminScreensFor, isAdminUser } from './screens';
import './admin.css';

/** /app/admin: the plant administration screens this admin's plan includes (reports-admin §2, §6). */
export function AdminIndexPage() {
  const { me } = useSession();
  const screens = adminScreensFor(me);
  useEffect(() => {
    document.title = `${t('admin.title')} · ${t('app.officeName')}`;
  }, []);
  return (
    <main className="page" aria-labelledby="admin-heading">
      <h1 id="admin-heading">{t('admin.title')}</h1>
      {!isAdminUser(me) ? (
        <p className="notice" role="status">
          {t('admin.notPermitted')}
        </p>
      ) : screens.length === 0 ? (
        <p className="notice" role="status">
          {t('admin.noneForPlan')}
        </p>
      ) : (
        <>
          <p className="admin__intro">{t('admin.intro')}</p>
          <ScreenList screens={screens} />
        </>
      )}
    </main>
  );
}
