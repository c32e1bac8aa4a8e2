import {
  ApiError,
  downloadText,
  Elapsed,
  formatCount,
  formatTimeOfDay,
  GroupSelect,
  localeZone,
  machinesInGroup,
  Progress,
  StatusBadge,
  t,
  useDashboard,
  useSession,
} from '@takt/ui';
import { useEffect, useMemo, useState } from 'react';
import { Link, useSearchParams } from 'react-router';
import { api } from '../api';
import '../machine-tools/machine-links.css';
import './machines.css';
import { machineToolPath } from '../routes';
import {
  COLUMN_LABEL,
  COLUMN_TITLE,
  COLUMNS,
  machineRows,
  machinesCsv,
  nextSort,
  sortRows,
} from './machines-table';
import type { ColumnKey, MachineRow, Sort } from './machines-table';

const NUMERIC: ReadonlySet<ColumnKey> = new Set(['timeInState', 'partCount', 'lastHeartbeat']);

/** A column's classes: numeric alignment, and its name, by which a phone hides the less important ones. */
const colClass = (c: ColumnKey): string => `machines-col--${c}${NUMERIC.has(c) ? ' num-col' : ''}`;

function SortIcon({ direction }: { direction: Sort['direction'] | null }) {
  return (
    <svg
      className="sort-icon"
      viewBox="0 0 12 16"
      width="10"
      height="14"
      aria-hidden="true"
      focusable="false"
    >
      <path d="M6 1l4.5 5.5h-9z" opacity={direction === 'ascending' ? 1 : 0.3} fill="currentColor" />
      <path d="M6 15l4.5-5.5h-9z" opacity={direction === 'descending' ? 1 : 0.3} fill="currentColor" />
    </svg>
  );
}

/**
 * reports-admin §2: the machine's diagnostics, conditions and event export pages (decision 0810), under its
 * name at every width (decision 1081: a column of their own made the table scroll sideways).
 */
function MachineLinks({ id, name }: { id: string; name: string }) {
  return (
    <ul className="machine-links" aria-label={t('machineTools.linksFor', { name })}>
      <li>
        <Link to={machineToolPath('diagnostics', id)}>{t('machineTools.tab.diagnostics')}</Link>
      </li>
      <li>
        <Link to={machineToolPath('conditions', id)}>{t('machineTools.tab.conditions')}</Link>
      </li>
      <li>
        <Link to={machineToolPath('export', id)}>{t('machineTools.tab.export')}</Link>
      </li>
    </ul>
  );
}

/** /app and /app/machines: every machine with its live status, polled every 5 s. */
export function MachinesPage() {
  const { me } = useSession();
  const lz = localeZone(me);
  const [query, setQuery] = useSearchParams();
  const group = query.get('group');
  const poll = useDashboard(api, group);
  const data = poll.data;
  const [sort, setSort] = useState<Sort>({ key: 'name', direction: 'ascending' });

  useEffect(() => {
    document.title = `${t('office.machines')} · ${t('app.officeName')}`;
  }, []);

  const rows: MachineRow[] = useMemo(
    () =>
      data ? sortRows(machineRows(machinesInGroup(data.machines, group), data.groups, data.now), sort) : [],
    [data, group, sort],
  );

  const downloadCsv = () => {
    if (!data) return;
    const now = Date.now() + data.offsetMs;
    const groupName = data.groups.find((g) => g.id === group)?.name;
    const name = `machines${groupName ? `-${groupName.replace(/[^\w-]+/g, '_')}` : ''}.csv`;
    downloadText(name, machinesCsv(rows, now, lz.timeZone));
  };

  const failed = poll.error != null && (!data || poll.consecutiveFailures > 10);

  return (
    <main className="page" aria-labelledby="machines-heading" aria-busy={poll.loading || undefined}>
      <div className="page__head">
        <h1 id="machines-heading">{t('office.machines')}</h1>
        <div className="page__tools">
          <GroupSelect
            groups={data?.groups ?? []}
            value={group}
            onChange={(g) =>
              setQuery(
                (q) => {
                  const next = new URLSearchParams(q);
                  if (g) next.set('group', g);
                  else next.delete('group');
                  return next;
                },
                { replace: true },
              )
            }
          />
          <button type="button" className="button" onClick={downloadCsv} disabled={!data}>
            {t('office.downloadCsv')}
          </button>
        </div>
      </div>

      {failed && (
        <p className="notice notice--error" role="alert">
          {poll.error instanceof ApiError && !poll.error.isNetworkError
            ? poll.error.message
            : t('common.loadFailed')}
        </p>
      )}
      {!failed && poll.error != null && (
        <p className="notice" role="status">
          {t('common.staleData', { time: formatTimeOfDay(poll.lastSuccessAt, lz) })}
        </p>
      )}
      {poll.loading && !data && <Progress />}

      {data && (
        <div className="table-wrap">
          <table className="table machines-table">
            <caption className="visually-hidden">{t('office.machinesCaption')}</caption>
            <thead>
              <tr>
                {COLUMNS.map((c) => {
                  const active = sort.key === c;
                  return (
                    <th
                      key={c}
                      scope="col"
                      aria-sort={active ? sort.direction : 'none'}
                      className={colClass(c)}
                      title={COLUMN_TITLE[c]}
                    >
                      <button
                        type="button"
                        className="th-button"
                        onClick={() => setSort((s) => nextSort(s, c))}
                      >
                        {COLUMN_LABEL[c]}
                        <SortIcon direction={active ? sort.direction : null} />
                      </button>
                    </th>
                  );
                })}
              </tr>
            </thead>
            <tbody>
              {rows.length === 0 && (
                <tr>
                  <td colSpan={COLUMNS.length} className="table__empty">
                    {t('dashboard.empty')}
                  </td>
                </tr>
              )}
              {rows.map((r) => (
                <tr key={r.id}>
                  <th scope="row">
                    {r.name}
                    <MachineLinks id={r.id} name={r.name} />
                  </th>
                  <td className={colClass('groups')}>{r.groups || t('common.none')}</td>
                  <td className={colClass('status')}>
                    <StatusBadge status={r.status}>{r.statusText}</StatusBadge>
                  </td>
                  <td className={colClass('timeInState')}>
                    <Elapsed since={r.statusSince} offsetMs={data.offsetMs} />
                  </td>
                  <td className={`mono ${colClass('program')}`}>{r.program ?? t('common.none')}</td>
                  <td className={colClass('partCount')}>{formatCount(r.partCount, lz.locale)}</td>
                  <td className={colClass('lastHeartbeat')}>{formatTimeOfDay(r.lastHeartbeat, lz)}</td>
                </tr>
              ))}
            </tbody>
          </table>
          <p className="table__count">{t('office.rowCount', { count: rows.length })}</p>
        </div>
      )}
    </main>
  );
}
