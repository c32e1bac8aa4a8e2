import type { Permission } from '@takt/domain';
import { tr, useSession } from '@takt/ui';
import type { ReactNode } from 'react';
import { Link } from 'react-router';
import { hasPermission, PATHS } from '../routes';

/** reports-admin §6: a page the user's tier or role does not include says so instead of loading. */
export function RequirePermission({ permission, children }: { permission: Permission; children: ReactNode }) {
  const { me } = useSession();
  if (hasPermission(me, permission)) return <>{children}</>;
  return (
    <main className="page" aria-labelledby="forbidden-heading">
      <h1 id="forbidden-heading">{tr('reports.title')}</h1>
      <p className="notice" role="status">
        {tr('reports.notPermitted')}
      </p>
      <p>
        <Link to={PATHS.reports}>{tr('reports.backToReports')}</Link>
      </p>
    </main>
  );
}
