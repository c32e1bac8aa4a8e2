import { t, tr, useSession } from '@takt/ui';
import { useEffect } from 'react';
import { Link } from 'react-router';
import { reportsFor } from '../routes';

/** /app/reports and /reports/downtime: the reports this user's plan includes (reports-admin §2, §6). */
export function ReportsIndexPage() {
  const { me } = useSession();
  const reports = reportsFor(me);
  useEffect(() => {
    document.title = `${tr('reports.title')} · ${t('app.officeName')}`;
  }, []);
  return (
    <main className="page" aria-labelledby="reports-heading">
      <h1 id="reports-heading">{tr('reports.title')}</h1>
      {reports.length === 0 ? (
        <p className="notice" role="status">
          {tr('reports.noneForPlan')}
        </p>
      ) : (
        <ul className="report-list">
          {reports.map((r) => (
            <li key={r.id}>
              <Link to={r.path} className="report-list__link">
                <span className="report-list__title">{r.title}</span>
                <span className="report-list__blurb">{r.blurb}</span>
              </Link>
            </li>
          ))}
        </ul>
      )}
    </main>
  );
}
