import { Progress, tr } from '@takt/ui';
import { useId, useMemo, useState } from 'react';
import type { ReactNode } from 'react';
import { CsvLink, ErrorBox, PlainTh, SectionHead, SortableTh } from './ReportParts';
import { csvHref, LIST_TITLE, matrix, pct0, sortMatrix } from '../oee/report';
import type { ByShift, ListKind } from '../oee/report';
import { nextSort } from '../reports/shared';
import type { Sort } from '../reports/shared';
import { dataOf } from '../reports/hooks';
import type { CallState } from '../reports/hooks';

// The lists the OEE and utilization reports share (reports-admin §2 "Same layout"): a sortable table of
// figures per shift, machine group or machine, whose group and machine rows drill down.

/**
 * A list's table: sortable Name and figure columns, rows that open their group or machine (`onDrill`), and
 * an optional unsorted last column (the sparklines).
 */
export function FigureTable<R extends { id: string; name: string }>({
  columns,
  sort,
  onSort,
  rows,
  cells,
  trailing,
  onDrill,
  rowHint = (name) => tr('oee.rowHint', { name }),
}: {
  columns: { key: string; label: string; sortable?: boolean }[];
  sort: Sort<string>;
  onSort: (key: string) => void;
  rows: R[];
  cells: (r: R) => string[];
  trailing?: { label: string; cell: (r: R) => ReactNode };
  onDrill: ((id: string) => void) | null;
  rowHint?: (name: string) => string;
}) {
  return (
    <div className="table-wrap">
      <table className="table">
        <thead>
          <tr>
            <SortableTh
              label={tr('oee.name')}
              active={sort.key === 'name'}
              direction={sort.direction}
              numeric={false}
              onSort={() => onSort('name')}
            />
            {columns.map((c) =>
              c.sortable === false ? (
                <PlainTh key={c.key} label={c.label} className="num-col" />
              ) : (
                <SortableTh
                  key={c.key}
                  label={c.label}
                  active={sort.key === c.key}
                  direction={sort.direction}
                  numeric
                  onSort={() => onSort(c.key)}
                />
              ),
            )}
            {trailing && <PlainTh label={trailing.label} className="report__spark-col" />}
          </tr>
        </thead>
        <tbody>
          {rows.map((r) => (
            <tr key={r.id} className={onDrill ? 'row--link' : undefined}>
              <th scope="row">
                <RowName name={r.name} hint={rowHint(r.name)} onOpen={onDrill ? () => onDrill(r.id) : null} />
              </th>
              {cells(r).map((v, i) => (
                <td key={columns[i]?.key ?? i} className="num-col num">
                  {v}
                </td>
              ))}
              {trailing && <td className="report__spark-col">{trailing.cell(r)}</td>}
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}

function RowName({ name, hint, onOpen }: { name: string; hint: string; onOpen: (() => void) | null }) {
  if (!onOpen) return <>{name}</>;
  return (
    <button type="button" className="link-button" onClick={onOpen} title={hint}>
      {name}
    </button>
  );
}

/** A per-shift matrix: one row per machine (or group), one column per shift, zero decimals (reports-admin §9). */
export function MatrixTable({
  kind,
  byShift,
  onDrill,
  rowHint,
}: {
  kind: Exclude<ListKind, 'shift'>;
  byShift: ByShift;
  onDrill: ((id: string) => void) | null;
  rowHint?: (name: string) => string;
}) {
  const m = useMemo(() => matrix(kind, byShift), [kind, byShift]);
  const [sort, setSort] = useState<Sort<string>>({ key: 'name', direction: 'ascending' });
  const rows = useMemo(() => sortMatrix(m.rows, sort), [m.rows, sort]);
  return (
    <FigureTable
      columns={m.shifts.map((s) => ({ key: s.id, label: s.name }))}
      sort={sort}
      onSort={(key) => setSort((s) => nextSort(s, key))}
      rows={rows}
      cells={(r) => m.shifts.map((s) => pct0(r.values[s.id]))}
      onDrill={onDrill}
      {...(rowHint ? { rowHint } : {})}
    />
  );
}

/**
 * One list of the OEE and utilization reports (reports-admin §2 "List table"): its heading, the choice of
 * view where a matrix by shift is offered, the CSV of its figures (§7), and the summary table (`children`)
 * or the matrix. While a new answer loads the previous rows stay on screen (no jump), marked busy.
 */
export function ListFrame<V extends string>({
  kind,
  figures,
  token,
  views,
  view,
  onView,
  byShift,
  onDrill,
  rowHint,
  children,
}: {
  kind: ListKind;
  figures: CallState<{ csv?: { url: string } | undefined }>;
  /** The user token the CSV link carries (reports-admin §7). */
  token: string | null;
  /** The views offered, the summary first; null where no matrix is offered. */
  views: { value: V | 'summary'; label: string }[] | null;
  /** The view shown. */
  view: V | 'summary';
  onView: (view: V | 'summary') => void;
  /** The matrix's answer (idle while the summary shows). */
  byShift: CallState<ByShift>;
  onDrill: ((id: string) => void) | null;
  rowHint?: (name: string) => string;
  children: ReactNode;
}) {
  const id = useId();
  const data = dataOf(figures);
  const b = dataOf(byShift);
  return (
    <section
      className="report__list"
      aria-labelledby={`${id}-heading`}
      aria-busy={figures.kind === 'loading' || byShift.kind === 'loading' || undefined}
    >
      <SectionHead id={`${id}-heading`} heading={tr(LIST_TITLE[kind])}>
        {views && (
          <div className="field field--inline">
            <label htmlFor={`${id}-view`}>{tr('oee.listView')}</label>
            <select id={`${id}-view`} value={view} onChange={(e) => onView(e.target.value as V)}>
              {views.map((v) => (
                <option key={v.value} value={v.value}>
                  {v.label}
                </option>
              ))}
            </select>
          </div>
        )}
        <CsvLink href={csvHref(data?.csv?.url, token)} />
      </SectionHead>
      {figures.kind === 'error' && <ErrorBox message={figures.message} />}
      {!data && figures.kind !== 'error' && <Progress />}
      {data != null && view === 'summary' && children}
      {data != null && view !== 'summary' && kind !== 'shift' && (
        <>
          {byShift.kind === 'error' && <ErrorBox message={byShift.message} />}
          {byShift.kind !== 'error' && !b && <Progress />}
          {b && <MatrixTable kind={kind} byShift={b} onDrill={onDrill} {...(rowHint ? { rowHint } : {})} />}
        </>
      )}
    </section>
  );
}
