import type { CompanyClock, QuickLinkOptions } from '@takt/domain';
import { DateRangePicker, GroupSelect, Progress, ShiftFilter, t, tr, useSession } from '@takt/ui';
import type { Horizon, MessageKey } from '@takt/ui';
import { useEffect, useState } from 'react';
import type { ComponentType, ReactNode } from 'react';
import { Link } from 'react-router';
import { useCompanyClock } from '../company-clock';
import { NO_SHIFTS } from '../reports/hooks';
import type { ReportPageState, useShiftSelection } from '../reports/hooks';
import { recomputingNotice, returnToAll } from '../reports/shared';
import type { Recomputing } from '../reports/shared';
import { PATHS } from '../routes';
import type { SortDirection } from '../reports/shared';

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

/** What a report reads once its page knows the company calendar: the calendar and the server clock's offset. */
export interface ClockProps {
  clock: CompanyClock;
  offsetMs: number;
}

/** A report page: `report` once the company calendar is known (ReportClockGate), `title` in the tab. */
export function ReportPage({ title, report: Report }: { title: string; report: ComponentType<ClockProps> }) {
  return (
    <ReportClockGate title={title}>
      {(clock, offsetMs) => <Report clock={clock} offsetMs={offsetMs} />}
    </ReportClockGate>
  );
}

/**
 * The two pages of a report shown for the company and for one machine (reports-admin §2: the Job and Jobs
 * reports and their machine variants): one view, told which of the two it is.
 */
export function reportPagePair(
  View: ComponentType<ClockProps & { onMachine: boolean }>,
  titles: { all: MessageKey; machine: MessageKey },
) {
  const All = (props: ClockProps) => <View {...props} onMachine={false} />;
  const OneMachine = (props: ClockProps) => <View {...props} onMachine />;
  return {
    all: () => <ReportPage title={tr(titles.all)} report={All} />,
    machine: () => <ReportPage title={tr(titles.machine)} report={OneMachine} />,
  };
}

/**
 * The frame of a report page: back to the report index, the title with the "Return to … for All Machines"
 * link when drilled in, the date range, group and shift filters, the stale note while a change is not
 * applied, and the results, dimmed while stale, under the load state.
 */
export function ReportFrame({
  report,
  horizons,
  title,
  returnText,
  groups,
  shifts,
  loading,
  error,
  empty,
  maxDays,
  onReturn,
  tools,
  quickLinkOptions,
  recomputing,
  children,
}: {
  /** The page's URL state (useReportPage). */
  report: ReportPageState;
  horizons: readonly Horizon[];
  title: string;
  /** 'Return to … for All Machines', shown when drilled into a group or machine; it keeps the dates. */
  returnText: string;
  /** The group filter's choices (hidden while a machine is open); null: the report has no group filter. */
  groups: readonly { id: string; name: string }[] | null;
  /** The shift filter (reports-admin §2), shown once its shifts are known. */
  shifts: Pick<ReturnType<typeof useShiftSelection>, 'options' | 'selected' | 'setSelected'>;
  /** The results on screen are not those of the applied range yet. */
  loading: boolean;
  error: string | null;
  /** The empty-state text (reports-admin §2, §8) when the answer has no data; null otherwise. */
  empty: string | null;
  /** The report's maximum range in days (reports-admin §5), passed to the picker. */
  maxDays?: number;
  /** What the return link does; by default it clears the group and machine and keeps the dates. */
  onReturn?: () => void;
  /** More filters after the group and shift filters. */
  tools?: ReactNode;
  /** Machine reports offer quick links of one week or less (reports-admin §2). */
  quickLinkOptions?: QuickLinkOptions;
  /** The answer's machines whose figures are still being recomputed (decision 1004): a notice above them. */
  recomputing?: Recomputing | undefined;
  children: ReactNode;
}) {
  const { clock, now, lz, applied, apply, setParams, group, machine, openDrill } = report;
  const [stale, setStale] = useState(false);
  const unsettled = loading ? null : recomputingNotice(recomputing);
  return (
    <main className="page report" aria-labelledby="report-heading" aria-busy={loading || undefined}>
      <p className="report__back">
        <Link to={PATHS.reports}>← {tr('reports.backToReports')}</Link>
      </p>
      <div className="page__head">
        <h1 id="report-heading">{title}</h1>
        {(group || machine) && (
          <button type="button" className="link-button" onClick={onReturn ?? (() => setParams(returnToAll))}>
            {returnText}
          </button>
        )}
      </div>
      <div className="report__toolbar">
        <DateRangePicker
          clock={clock}
          now={now}
          locale={lz.locale}
          applied={applied}
          horizons={horizons}
          onApply={apply}
          onStaleChange={setStale}
          {...(maxDays != null ? { maxDays } : {})}
          {...(quickLinkOptions ? { quickLinkOptions } : {})}
        />
        {!machine && groups && (
          <GroupSelect groups={groups} value={group} onChange={(g) => openDrill('group', g)} />
        )}
        {shifts.options && (
          <ShiftFilter shifts={shifts.options} selected={shifts.selected} onChange={shifts.setSelected} />
        )}
        {tools}
      </div>
      {stale && (
        <p className="notice report__stale-note" role="status">
          {tr('reports.stale')}
        </p>
      )}
      {unsettled != null && error == null && (
        <p className="notice report__recomputing" role="status">
          {unsettled}
        </p>
      )}
      <div className={stale ? 'report__body report__body--stale' : 'report__body'}>
        {loading && error == null && <Progress />}
        {error != null && <ErrorBox message={error} />}
        {error == null && empty != null && <p className="notice">{empty}</p>}
        {error == null && empty == null && children}
      </div>
    </main>
  );
}

/** reports-admin §8: a report call that failed says so where its figures would be. */
export function ErrorBox({ message }: { message: string }) {
  return (
    <p className="notice notice--error" role="alert">
      {message}
    </p>
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

/** reports-admin §2 "Quick links for machine reports are limited to ranges of one week or less." */
export const MACHINE_QUICK_LINKS = { machineReport: true } as const;

/**
 * The frame of a one-machine report (/machine/{id}/…): week-or-shorter quick links, no group filter, and no
 * shift filter (the machine calls take none, reports-admin §7).
 */
export function MachineReportFrame(
  props: Omit<Parameters<typeof ReportFrame>[0], 'groups' | 'shifts' | 'quickLinkOptions'>,
) {
  return <ReportFrame {...props} groups={[]} shifts={NO_SHIFTS} quickLinkOptions={MACHINE_QUICK_LINKS} />;
}

/**
 * A report's chart under its heading (and an optional intro line): the chart (a react-chartjs-2 element)
 * in the sized box, named `label` for screen readers.
 */
export function ChartSection({
  id,
  heading,
  intro,
  label,
  children,
}: {
  id: string;
  heading: string;
  intro?: string;
  label: string;
  children: ReactNode;
}) {
  return (
    <section className="report__list" aria-labelledby={id}>
      <h2 id={id}>{heading}</h2>
      {intro && <p className="report__intro">{intro}</p>}
      <figure className="report__chart">
        <div className="report__chart-box">{children}</div>
        <figcaption className="visually-hidden">{label}</figcaption>
      </figure>
    </section>
  );
}

/** The tiles of a report's totals for the range, wrapping on a phone. */
export function SummaryTiles({ label, children }: { label: string; children: ReactNode }) {
  return (
    <section className="report__summary report__summary--oee" aria-label={label}>
      <div className="tiles tiles--wrap">{children}</div>
    </section>
  );
}

/** A plain report table: headings that do not sort (label, and `num` for a right-aligned number column). */
export function PlainTable({
  label,
  columns,
  children,
}: {
  label: string;
  columns: readonly { label: string; num?: boolean }[];
  children: ReactNode;
}) {
  return (
    <div className="table-wrap">
      <table className="table" aria-label={label}>
        <thead>
          <tr>
            {columns.map((c) => (
              <PlainTh key={c.label} label={c.label} {...(c.num ? { className: 'num-col' } : {})} />
            ))}
          </tr>
        </thead>
        <tbody>{children}</tbody>
      </table>
    </div>
  );
}

/** A column heading that does not sort. */
export function PlainTh({ label, className }: { label: string; className?: string }) {
  return (
    <th scope="col" className={className}>
      <span className="th-text">{label}</span>
    </th>
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

/** A section's heading (`id` for its aria-labelledby) with its tools beside it: view choices, the CSV link. */
export function SectionHead({
  id,
  heading,
  children,
}: {
  id: string;
  heading: ReactNode;
  children: ReactNode;
}) {
  return (
    <div className="page__head">
      <h2 id={id}>{heading}</h2>
      <div className="page__tools">{children}</div>
    </div>
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

/**
 * chart.js `onHover`: a pointer over chart elements that open something (`opens`, by default every element),
 * the arrow elsewhere.
 */
export const pointerOnHover =
  (opens: (index: number) => boolean = () => true) =>
  (e: { native: Event | null }, elements: readonly { index: number }[]): void => {
    const target = e.native?.target;
    const i = elements[0]?.index;
    if (target instanceof HTMLElement) target.style.cursor = i != null && opens(i) ? 'pointer' : 'default';
  };

/** A design token's value for chart.js, which draws on a canvas and cannot read CSS variables itself. */
export function cssVar(name: string, fallback: string): string {
  const v = getComputedStyle(document.documentElement).getPropertyValue(name).trim();
  return v || fallback;
}
