import { t } from '@takt/ui';
import { useEffect } from 'react';
import { Link, useLocation } from 'react-router';
import { PATHS } from '../routes';

export function NotFoundPage() {
  const { pathname } = useLocation();
  useEffect(() => {
    document.title = `${t('common.notFound')} · ${t('app.officeName')}`;
  }, []);
  return (
    <main className="page" aria-labelledby="not-found-heading">
      <h1 id="not-found-heading">{t('common.notFound')}</h1>
      <p>{t('common.notFoundBody', { path: pathname })}</p>
      <p>
        <Link to={PATHS.machines} className="button button--primary">
          {t('office.backToMachines')}
        </Link>
      </p>
    </main>
  );
}
