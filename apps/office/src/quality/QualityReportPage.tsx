import { tr, useUserToken } from '@takt/ui';
import { useMemo } from 'react';
import { api } from '../api';
import { reportErrorText } from '../cycles/report';
import {
  CsvLink,
  PlainTh,
  ReportFrame,
  ReportPage,
  SectionHead,
  SummaryTiles,
  Tile,
} from '../components/ReportParts';
import type { ClockProps } from '../components/ReportParts';
import {
  DEFAULT_QUALITY_HORIZON,
  machineTotals,
  pageCount,
  pageLabel,
  paretoBars,
  parseRejectPage,
  parseRejectTotals,
  QUALITY_HORIZONS,
  qualityCsvHref,
  readPage,
  readReason,
  rejectListCsvHref,
  rejectsQuery,
  rejectTypeLabel,
  rowsFor,
  stackedByMachine,
  totalsQuery,
  writePage,
  writeReason,
} from './report';
import type { ParetoBar, QualitySelection, RejectPage, RejectTotal } from './report';
import {
  dataOf,
  newCallCache,
  NO_SHIFTS,
  reportGet,
  useMachineNames,
  useReportCall,
  useReportPage,
  useSettledCall,
} from '../reports/hooks';
import type { ReportCall } from '../reports/hooks';
import { MachineStackSection } from '../reports/MachineStackSection';
import { ParetoSection, paretoTexts, ReasonTools } from '../reports/ParetoSection';
import { listTimeFormat, reportSubject, unsavedHorizons } from '../reports/shared';
import type { LZ } from '../reports/shared';

const totalsCall = reportGet(
  '/api/partadjustment/allRejectsByCategory',
  totalsQuery,
  parseRejectTotals,
  reportErrorText,
);

const rejectsCall = (s: QualitySelection, reason: string | null, page: number): ReportCall<RejectPage> => ({
  path: '/api/partadjustment/rejects',
  query: rejectsQuery(s, reason, page),
  parse: parseRejectPage,
  errorText: reportErrorText,
});

/** reports-admin §2: the quality report's horizons; §9 remembers the OEE and utilization ones only. */
const HORIZONS = unsavedHorizons(DEFAULT_QUALITY_HORIZON, QUALITY_HORIZONS);

/** A reject's time to the minute, without the year the range already names: short enough for a phone. */
const timeFormat = (lz: LZ) => listTimeFormat(lz, { weekday: true });

/** /dashboard/quality?group&machine&interval&start&end&reason&page (reports-admin §2; decision 0806). */
export function QualityReportPage() {
  return <ReportPage title={tr('reports.quality')} report={QualityReport} />;
}

function QualityReport({ clock, offsetMs }: ClockProps) {
  const report = useReportPage({ clock, offsetMs, ...HORIZONS });
  const { applied, setParams, lz, query, group, machine, openDrill } = report;
  const names = useMachineNames();
  const reason = readReason(query);
  const page = readPage(query);

  const selection: QualitySelection = useMemo(
    () => ({ range: applied, group, machine }),
    [applied, group, machine],
  );
  const { settled, answer, status } = useSettledCall(selection, totalsCall);
  const rows = useMemo(() => (answer ? rowsFor(answer, machine) : []), [answer, machine]);

  const subject = reportSubject(
    names,
    { group, machine },
    tr('quality.allMachines'),
    rows.find((r) => r.machine?.id === machine)?.machine?.name,
  );

  return (
    <ReportFrame
      report={report}
      horizons={QUALITY_HORIZONS}
      title={tr('quality.title', { name: subject })}
      returnText={tr('quality.returnToAll')}
      groups={names.groups}
      // The reject calls take no shift (reports-admin §7): the report has no shift filter.
      shifts={NO_SHIFTS}
      {...status}
      empty={answer && rows.every((r) => r.scrapCount === 0) ? tr('quality.empty') : null}
    >
      {answer && settled && (
        <Results
          rows={rows}
          selection={settled}
          reason={reason}
          page={page}
          lz={lz}
          onReason={(r) => setParams((q) => writeReason(q, r))}
          onPage={(p) => setParams((q) => writePage(q, p))}
          onMachine={(id) => openDrill('machine', id)}
        />
      )}
    </ReportFrame>
  );
}

function Results({
  rows,
  selection,
  reason,
  page,
  lz,
  onReason,
  onPage,
  onMachine,
}: {
  rows: RejectTotal[];
  selection: QualitySelection;
  reason: string | null;
  page: number;
  lz: LZ;
  onReason: (reason: string | null) => void;
  onPage: (page: number) => void;
  onMachine: (id: string) => void;
}) {
  const bars = useMemo(() => paretoBars(rows), [rows]);
  const picked = reason ? (bars.find((b) => b.key === reason) ?? null) : null;
  const total = bars.reduce((t, b) => t + b.count, 0);
  return (
    <>
      <SummaryTiles label={tr('quality.summaryLabel')}>
        <Tile label={tr('quality.total')} value={String(total)} />
        <Tile label={tr('quality.reasons')} value={String(bars.length)} />
        <Tile label={tr('quality.topReason')} value={bars[0]?.name ?? '-'} />
        {!selection.machine && (
          <Tile label={tr('quality.machines')} value={String(machineTotals(rows, null).length)} />
        )}
      </SummaryTiles>
      <ParetoSection
        bars={bars}
        reason={reason}
        onReason={onReason}
        value={(b) => b.count}
        wholeNumbers
        columns={[{ label: tr('quality.reasonCount'), cell: (b) => b.count }]}
        texts={paretoTexts('quality', tr('quality.countAxis'), countValue)}
      />
      {!selection.machine && (
        <ByMachine
          rows={rows}
          bars={bars}
          reason={reason}
          picked={picked}
          selection={selection}
          onReason={onReason}
          onMachine={onMachine}
        />
      )}
      <RejectList
        selection={selection}
        reason={reason}
        picked={picked}
        page={page}
        lz={lz}
        onPage={onPage}
        onMachine={selection.machine ? null : onMachine}
      />
    </>
  );
}

const countValue = (count: number) => tr('quality.countValue', { count });

// ---- Stacked by machine, and the drill-down of a reason to its machines

function ByMachine({
  rows,
  bars,
  reason,
  picked,
  selection,
  onReason,
  onMachine,
}: {
  rows: RejectTotal[];
  bars: ParetoBar[];
  reason: string | null;
  picked: ParetoBar | null;
  selection: QualitySelection;
  onReason: (reason: string | null) => void;
  onMachine: (id: string) => void;
}) {
  const token = useUserToken(api);
  const chart = useMemo(() => stackedByMachine(rows, reason), [rows, reason]);
  const heading = picked ? tr('quality.byMachineFor', { reason: picked.name }) : tr('quality.byMachine');
  return (
    <MachineStackSection
      chart={chart}
      bars={bars}
      onMachine={onMachine}
      wholeNumbers
      texts={{
        heading,
        intro: tr('quality.byMachineIntro'),
        chartLabel: tr('quality.byMachineLabel'),
        axis: tr('quality.countAxis'),
        value: countValue,
      }}
      tools={
        <ReasonTools
          reason={reason}
          onReason={onReason}
          allReasons={tr('quality.allReasons')}
          csvHref={qualityCsvHref(selection, reason, token)}
          filename="rejects-by-machine.csv"
        />
      }
      table={
        <div className="table-wrap">
          <table className="table table--fit" aria-label={heading}>
            <thead>
              <tr>
                <PlainTh label={tr('quality.machineRow')} />
                <PlainTh label={tr('quality.reasonCount')} className="num-col" />
              </tr>
            </thead>
            <tbody>
              {chart.machines.map((m) => (
                <tr key={m.id} className="row--link">
                  <th scope="row">
                    <button
                      type="button"
                      className="link-button"
                      title={tr('quality.openMachine', { name: m.name })}
                      onClick={() => onMachine(m.id)}
                    >
                      {m.name}
                    </button>
                  </th>
                  <td className="num-col num">{m.count}</td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      }
    />
  );
}

// ---- The paged list of rejects (reports-admin §7: limit 25, offset 25 × (page − 1))

function RejectList({
  selection,
  reason,
  picked,
  page,
  lz,
  onPage,
  onMachine,
}: {
  selection: QualitySelection;
  reason: string | null;
  picked: ParetoBar | null;
  page: number;
  lz: LZ;
  onPage: (page: number) => void;
  onMachine: ((id: string) => void) | null;
}) {
  const token = useUserToken(api);
  const cache = useMemo(() => newCallCache(JSON.stringify(selection)), [selection]);
  const call = useReportCall(rejectsCall(selection, reason, page), cache);
  const list = dataOf(call);
  const pages = list ? pageCount(list.count) : 1;
  const format = timeFormat(lz);
  return (
    <section
      className="report__list"
      aria-labelledby="rejects-heading"
      aria-busy={call.kind === 'loading' || undefined}
    >
      <SectionHead
        id="rejects-heading"
        heading={picked ? tr('quality.listFor', { reason: picked.name }) : tr('quality.list')}
      >
        {/* Every reject of the list's filter, all pages (decision 0812). */}
        <CsvLink href={rejectListCsvHref(selection, reason, token)} filename="rejects.csv" />
      </SectionHead>
      {call.kind === 'error' && (
        <p className="notice notice--error" role="alert">
          {call.message}
        </p>
      )}
      {list && list.rows.length === 0 && <p className="notice">{tr('quality.listEmpty')}</p>}
      {list && list.rows.length > 0 && (
        <>
          <p className="report__intro" role="status">
            {pageLabel({ count: list.count, offset: list.offset, shown: list.rows.length })}
          </p>
          <div className="table-wrap">
            <table className="table">
              <thead>
                <tr>
                  <PlainTh label={tr('quality.col.time')} />
                  <PlainTh label={tr('quality.col.machine')} />
                  <PlainTh label={tr('quality.col.reason')} />
                  <PlainTh label={tr('quality.col.count')} className="num-col" />
                  <PlainTh label={tr('quality.col.type')} />
                  <PlainTh label={tr('quality.col.operation')} />
                  <PlainTh label={tr('quality.col.message')} />
                </tr>
              </thead>
              <tbody>
                {list.rows.map((r) => (
                  <tr key={r.id}>
                    <td className="num">{format.format(r.adjustmenttime)}</td>
                    <td>
                      {onMachine ? (
                        <button
                          type="button"
                          className="link-button"
                          title={tr('quality.openMachine', { name: r.machine_name })}
                          onClick={() => onMachine(r.machine_id)}
                        >
                          {r.machine_name}
                        </button>
                      ) : (
                        r.machine_name
                      )}
                    </td>
                    <td>{r.partadjustmentType?.name ?? tr('quality.uncategorized')}</td>
                    <td className="num-col num">{r.scrapcount}</td>
                    <td>{rejectTypeLabel(r.reject_behavior)}</td>
                    <td>{r.jobName ?? ''}</td>
                    <td>{r.message ?? ''}</td>
                  </tr>
                ))}
              </tbody>
            </table>
          </div>
          {pages > 1 && (
            <nav className="pager" aria-label={tr('quality.pager')}>
              <button type="button" className="button" disabled={page <= 1} onClick={() => onPage(page - 1)}>
                {tr('quality.previous')}
              </button>
              <span className="pager__label num">{tr('quality.pageNumber', { page, pages })}</span>
              <button
                type="button"
                className="button"
                disabled={page >= pages}
                onClick={() => onPage(page + 1)}
              >
                {tr('quality.next')}
              </button>
            </nav>
          )}
        </>
      )}
    </section>
  );
}
