import { t, useSession } from '@takt/ui';
import type { MessageKey } from '@takt/ui';
import { useEffect, useId } from 'react';
import type { ReactNode } from 'react';
import { Link } from 'react-router';
import { INTERNAL_PATHS, isRootUser } from './paths';
import '../admin/admin.css';
import './internal.css';

// The frame of the internal screens and their gate (reports-admin §6: root users only).

/** Everyone but root users is told the screen is not for them; the API would answer 403 anyway. */
export function RootGate({ children }: { children: ReactNode }) {
  const { me } = useSession();
  if (isRootUser(me)) return <>{children}</>;
  return (
    <main className="page" aria-labelledby="internal-forbidden">
      <h1 id="internal-forbidden">{t('internal.title')}</h1>
      <p className="notice" role="status">
        {t('internal.notPermitted')}
      </p>
    </main>
  );
}

/** Back link to the internal index, heading with the header's actions, intro, then the body. */
export function InternalPage({
  title,
  intro,
  actions,
  busy,
  children,
}: {
  title: MessageKey;
  intro?: string;
  actions?: ReactNode;
  busy?: boolean;
  children: ReactNode;
}) {
  const id = useId();
  useEffect(() => {
    document.title = `${t(title)} · ${t('internal.title')} · ${t('app.officeName')}`;
  }, [title]);
  return (
    <main className="page admin internal" aria-labelledby={id} aria-busy={busy ? 'true' : undefined}>
      <p className="admin__back">
        <Link to={INTERNAL_PATHS.index}>{t('internal.back')}</Link>
      </p>
      <div className="page__head">
        <h1 id={id}>{t(title)}</h1>
        {actions && <div className="page__tools">{actions}</div>}
      </div>
      {intro && <p className="admin__intro">{intro}</p>}
      {children}
    </main>
  );
}
