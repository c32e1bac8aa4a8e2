import { t, tr, useSession } from '@takt/ui';
import { NavLink, Outlet, useLocation } from 'react-router';
import { ADMIN_PATHS, isAdminUser } from '../admin/screens';
import { ACCOUNTS_PATHS } from '../accounts/paths';
import { EMAIL_PREFERENCES_PATH } from '../accounts/email-preferences';
import { INTERNAL_PATHS, isRootUser } from '../internal/paths';
import { mayPlan } from '../jobs/planning';
import { navSection, PATHS } from '../routes';
import { AnonymizeSwitch } from '../reports/AnonymizeSwitch';
import { PreferencesProvider } from '../reports/preferences';
import { HeaderMenu } from './HeaderMenu';
import { ProductName } from './ProductName';

/** The sections whose entries are under More in the main navigation. */
const MORE_SECTIONS: readonly ReturnType<typeof navSection>[] = ['accounts', 'users', 'internal'];

/** Header (company, main navigation, the user's menu with Log out) and the page. */
export function AppShell() {
  const { me, logout } = useSession();
  const section = navSection(useLocation().pathname);

  // reports-admin §2 "API keys" (admins, decision 0840), "Users" and "Invites" (admins, decision 0880);
  // reports-admin §6: the internal screens are for root users only.
  const more = [
    isAdminUser(me) && (
      <li key="api-keys">
        <NavLink to={ACCOUNTS_PATHS.apiKeys} aria-current={section === 'accounts' ? 'page' : undefined}>
          {t('accounts.nav')}
        </NavLink>
      </li>
    ),
    isAdminUser(me) && (
      <li key="users">
        <NavLink to={ACCOUNTS_PATHS.users} aria-current={section === 'users' ? 'page' : undefined}>
          {t('users.nav')}
        </NavLink>
      </li>
    ),
    isRootUser(me) && (
      <li key="internal">
        <NavLink to={INTERNAL_PATHS.index} aria-current={section === 'internal' ? 'page' : undefined}>
          {t('internal.nav')}
        </NavLink>
      </li>
    ),
  ].filter(Boolean);

  const shell = (
    <div className="shell">
      <a className="skip-link" href="#content">
        {t('common.skipToContent')}
      </a>
      <header className="shell__header">
        <div className="shell__brand">
          <ProductName />
          <span className="shell__company">{me.company.name}</span>
        </div>
        <nav className="shell__nav" aria-label={t('office.nav')}>
          <ul>
            <li>
              {/* /app and /app/machines are one page: mark the entry on both. `end`: the machine pages under
                  /app/machines/{id}/… (part corrections, the standard timeline) are reports, not this page. */}
              <NavLink end to={PATHS.machines} aria-current={section === 'machines' ? 'page' : undefined}>
                {t('office.machines')}
              </NavLink>
            </li>
            <li>
              <NavLink to={PATHS.reports} aria-current={section === 'reports' ? 'page' : undefined}>
                {tr('reports.nav')}
              </NavLink>
            </li>
            {/* Jobs and their standards: for planners, admins and managers (decision 1084). */}
            {mayPlan(me) && (
              <li>
                <NavLink to={PATHS.jobsAdmin} aria-current={section === 'jobs' ? 'page' : undefined}>
                  {t('planning.nav')}
                </NavLink>
              </li>
            )}
            {/* reports-admin §6: administration is for admins; others get no entry. */}
            {isAdminUser(me) && (
              <li>
                <NavLink to={ADMIN_PATHS.index} aria-current={section === 'admin' ? 'page' : undefined}>
                  {t('admin.nav')}
                </NavLink>
              </li>
            )}
            <li>
              {/* The live dashboards belong to the floor app: a full page load, not an in-app link. */}
              <a href="/dashboards/live/utilization">{t('office.liveDashboards')}</a>
            </li>
            {/* The less used entries under More, so the header keeps one row at 1280 px (decision 1152). */}
            {more.length > 0 && (
              <li className="shell__more">
                <HeaderMenu label={t('office.more')} current={MORE_SECTIONS.includes(section)}>
                  <ul>{more}</ul>
                </HeaderMenu>
              </li>
            )}
          </ul>
        </nav>
        <div className="shell__user">
          {/* The user's own links and Log out under their name (decision 1152). */}
          <HeaderMenu
            label={<span className="shell__who-name">{me.displayName}</span>}
            ariaLabel={t('office.account', { name: me.displayName })}
            current={section === 'profile'}
            className="shell__menu--end"
          >
            {/* reports-admin §2 "Profile": the signed-in user's own account. */}
            <NavLink
              className="shell__who"
              to={ACCOUNTS_PATHS.profile}
              aria-current={section === 'profile' ? 'page' : undefined}
            >
              <span className="shell__who-full">{t('office.signedInAs', { name: me.displayName })}</span>
              {/* Phones (reports-admin §9, 736 px) have no room for the name: the link still leads to Profile. */}
              <span className="shell__who-short">{t('profile.nav')}</span>
            </NavLink>
            {/* reports-admin §2 "E-mail notification preferences": every user's own (decision 0904). */}
            <NavLink to={EMAIL_PREFERENCES_PATH}>{t('email.nav')}</NavLink>
            <AnonymizeSwitch />
            <button type="button" className="button" onClick={() => void logout()}>
              {t('logout')}
            </button>
          </HeaderMenu>
        </div>
      </header>
      <div className="shell__content" id="content" tabIndex={-1}>
        <Outlet />
      </div>
    </div>
  );
  // The report preferences and the anonymize option (decisions 1115, 1116), read once per session.
  return <PreferencesProvider>{shell}</PreferencesProvider>;
}
