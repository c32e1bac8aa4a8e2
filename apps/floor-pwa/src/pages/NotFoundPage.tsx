import { Link, t, useLocation } from '@takt/ui';
import { useEffect } from 'react';

export function NotFoundPage() {
  const { pathname } = useLocation();
  useEffect(() => {
    document.title = `${t('common.notFound')} · ${t('app.floorName')}`;
  }, []);
  return (
    <main className="center-screen" aria-labelledby="not-found-heading">
      <h1 id="not-found-heading">{t('common.notFound')}</h1>
      <p>{t('common.notFoundBody', { path: pathname })}</p>
      <Link to="/" className="button button--primary touch">
        {t('common.backHome')}
      </Link>
    </main>
  );
}
