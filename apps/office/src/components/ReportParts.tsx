import type { CompanyClock } from '@takt/domain';
import { Progress, t, tr } from '@takt/ui';
import { useEffect } from 'react';
import type { ReactNode } from 'react';
import { Link } from 'react-router';
import { useCompanyClock } from '../company-clock';
import { PATHS } from '../routes';
import type { SortDirection } from '../reports/shared';
import { useSession } from '../session';

// The pieces the OEE and utilization reports share (reports-admin §2 "Utilization report: Same layout").

/** A report page waits for the company calendar (zone, day start, server time) before it can read its URL. */
export function ReportClockGate({
  title,
  children,
}: {
  title: string;
  children: (clock: CompanyClock, offsetMs: number) => ReactNode;
}) {
  const { me } = useSession();
  const clockState = useCompanyClock(me);
  useEffect(() => {
    document.title = `${title} · ${t('app.officeName')}`;
  }, [title]);
  if (clockState.kind === 'loading')
    return (
      <main className="page">
        <Progress />
      </main>
    );
  if (clockState.kind === 'failed')
    return (
      <main className="page">
        <p className="notice notice--error" role="alert">
          {tr('reports.requestError')}
        </p>
      </main>
    );
  return <>{children(clockState.clock, clockState.offsetMs)}</>;
}

/** Back to the report index, the title, and the "Return to … for All Machines" link when drilled in. */
export function ReportHeader({
  title,
  returnText,
  onReturn,
}: {
  title: string;
  /** Shown when drilled into a group or machine. */
  returnText: string | null;
  onReturn: () => void;
}) {
  return (
    <>
      <p className="report__back">
        <Link to={PATHS.reports}>← {tr('reports.backToReports')}</Link>
      </p>
      <div className="page__head">
        <h1 id="report-heading">{title}</h1>
        {returnText && (
          <button type="button" className="link-button" onClick={onReturn}>
            {returnText}
          </button>
        )}
      </div>
    </>
  );
}

export function Tile({ label, value, hint }: { label: string; value: string; hint?: string }) {
  return (
    <div className="tile">
      <span className="tile__label">{label}</span>
      <span className="tile__value num">{value}</span>
      {hint && <span className="tile__hint">{hint}</span>}
    </div>
  );
}

/** A sortable column heading: the button sorts, aria-sort says how. */
export function SortableTh({
  label,
  active,
  direction,
  numeric,
  onSort,
}: {
  label: string;
  active: boolean;
  direction: SortDirection;
  numeric: boolean;
  onSort: () => void;
}) {
  return (
    <th scope="col" aria-sort={active ? direction : 'none'} className={numeric ? 'num-col' : undefined}>
      <button type="button" className="th-button" onClick={onSort}>
        {label}
        <span aria-hidden="true">{active ? (direction === 'ascending' ? ' ▲' : ' ▼') : ''}</span>
      </button>
    </th>
  );
}

/** Percent values (0..100) per interval as a small line; gaps where there is no value. */
export function Sparkline({ values }: { values: readonly (number | null)[] }) {
  const w = 120;
  const h = 28;
  const step = values.length > 1 ? w / (values.length - 1) : 0;
  const top = Math.max(100, ...values.map((v) => v ?? 0));
  const segments: string[] = [];
  let current = '';
  values.forEach((v, i) => {
    if (v == null) {
      if (current) segments.push(current);
      current = '';
      return;
    }
    const x = (values.length > 1 ? i * step : w / 2).toFixed(1);
    const y = (h - 2 - (v / top) * (h - 4)).toFixed(1);
    current += `${current ? ' L' : 'M'}${x} ${y}`;
  });
  if (current) segments.push(current);
  return (
    <svg
      className="sparkline"
      width={w}
      height={h}
      viewBox={`0 0 ${w} ${h}`}
      aria-hidden="true"
      focusable="false"
    >
      <line x1="0" x2={w} y1={h - 2} y2={h - 2} className="sparkline__base" />
      {segments.map((d) => (
        <path key={d} d={d} className="sparkline__line" />
      ))}
    </svg>
  );
}

/** A CSV download link (reports-admin §7: the URL carries the user token); a placeholder until it is ready. */
export function CsvLink({ href, filename }: { href: string | null; filename?: string }) {
  if (!href)
    return (
      <span className="button button--disabled" aria-disabled="true">
        {tr('csv.download')}
      </span>
    );
  return (
    <a className="button" href={href} download={filename ?? true}>
      {tr('csv.download')}
    </a>
  );
}

/** A design token's value for chart.js, which draws on a canvas and cannot read CSS variables itself. */
export function cssVar(name: string, fallback: string): string {
  const v = getComputedStyle(document.documentElement).getPropertyValue(name).trim();
  return v || fallback;
}
