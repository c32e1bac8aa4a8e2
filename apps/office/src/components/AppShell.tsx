import { Link, t, useLocation } from '@takt/ui';
import type { ReactNode } from 'react';
import { MACHINES_PATH, resolveOfficeRoute } from '../routes';
import { useSession } from '../session';

/** Header (company, user, Log out), main navigation and the page. */
export function AppShell({ children }: { children: ReactNode }) {
  const { me, logout } = useSession();
  const { pathname } = useLocation();
  const onMachines = resolveOfficeRoute(pathname).name === 'machines';

  return (
    <div className="shell">
      <a className="skip-link" href="#content">
        {t('common.skipToContent')}
      </a>
      <header className="shell__header">
        <div className="shell__brand">
          <span className="shell__product">{t('app.name')}</span>
          <span className="shell__company">{me.company.name}</span>
        </div>
        <nav className="shell__nav" aria-label={t('office.nav')}>
          <ul>
            <li>
              <Link to={MACHINES_PATH} aria-current={onMachines ? 'page' : undefined}>
                {t('office.machines')}
              </Link>
            </li>
            <li>
              {/* The live dashboards belong to the floor app: a full page load, not an in-app link. */}
              <a href="/dashboards/live/utilization">{t('office.liveDashboards')}</a>
            </li>
          </ul>
        </nav>
        <div className="shell__user">
          <span>{t('office.signedInAs', { name: me.displayName })}</span>
          <button type="button" className="button" onClick={() => void logout()}>
            {t('logout')}
          </button>
        </div>
      </header>
      <div className="shell__content" id="content" tabIndex={-1}>
        {children}
      </div>
    </div>
  );
}
