import { tr, useUserToken } from '@takt/ui';
import { useId, useMemo } from 'react';
import { Link, useNavigate } from 'react-router';
import { api } from '../api';
import {
  PlainTable,
  ReportFrame,
  ReportPage,
  SectionHead,
  SummaryTiles,
  Tile,
} from '../components/ReportParts';
import type { ClockProps } from '../components/ReportParts';
import {
  companyDowntimeHref,
  DEFAULT_DOWNTIME_HORIZON,
  DOWNTIME_HORIZONS,
  DOWNTIME_MAX_DAYS,
  downtimeCsvHref,
  downtimeErrorText,
  downtimeQuery,
  gridRows,
  KIND_KEYS,
  machineDowntimeHref,
  minutes,
  paretoBars,
  parseDowntime,
  readKinds,
  readShiftTime,
  shiftsToAsk,
  readReason,
  stackedByMachine,
  totalMinutes,
  writeKinds,
  writeReason,
} from './report';
import type { DowntimeAnswer, DowntimeSelection, GridRow, Kinds, ParetoBar } from './report';
import {
  reportGet,
  useMachineNames,
  useReportOfPathMachine,
  useSettledCall,
  useShiftSelection,
} from '../reports/hooks';
import { MachineStackSection } from '../reports/MachineStackSection';
import { ParetoSection, paretoTexts, ReasonTools } from '../reports/ParetoSection';
import { reportSubject, unsavedHorizons } from '../reports/shared';
import type { LZ } from '../reports/shared';
import { standardTimelineAround } from '../timeline/model';

const downtimeCall = reportGet('/api/reports/downtime', downtimeQuery, parseDowntime, downtimeErrorText);

/** reports-admin §2: the downtime report's horizons; §9 remembers the OEE and utilization ones only. */
const HORIZONS = unsavedHorizons(DEFAULT_DOWNTIME_HORIZON, DOWNTIME_HORIZONS);

/** A stop's start on the company clock, to the minute: seconds only add noise to a list of stops. */
const startFormat = (lz: LZ) =>
  new Intl.DateTimeFormat(lz.locale, {
    dateStyle: 'medium',
    timeStyle: 'short',
    timeZone: lz.timeZone,
  });

/**
 * /dashboard/downtime?group&interval&start&end&reason&hide (the company Downtime report) and
 * /machine/{id}/downtime?start&end (one machine's), reports-admin §2; decision 0805.
 */
export function DowntimeReportPage() {
  return <ReportPage title={tr('reports.downtime')} report={DowntimeReport} />;
}

function DowntimeReport({ clock, offsetMs }: ClockProps) {
  const { report, machineId } = useReportOfPathMachine({ clock, offsetMs, ...HORIZONS });
  const navigate = useNavigate();
  const { applied, setParams, lz, query, group } = report;
  const names = useMachineNames();
  const shiftFilter = useShiftSelection();
  const kinds = readKinds(query);
  const reason = readReason(query);
  // Opened from an OEE waterfall step: shift time only, as the step counts it (issue 27 point 2).
  const shiftTime = readShiftTime(query);
  const shifts = useMemo(
    () => shiftsToAsk(shiftFilter.filter, shiftFilter.options, shiftTime),
    [shiftFilter.filter, shiftFilter.options, shiftTime],
  );
  const kindsKey = JSON.stringify(kinds);

  const selection: DowntimeSelection | null = useMemo(
    () =>
      shifts
        ? { range: applied, group, machine: machineId, shifts, kinds: JSON.parse(kindsKey) as Kinds }
        : null,
    [applied, group, machineId, shifts, kindsKey],
  );
  // reports-admin §9: re-queries wait 500 ms after the last change (shift and kind toggles in a row).
  const { settled, answer, status } = useSettledCall(selection, downtimeCall);

  const subject = reportSubject(
    names,
    { group, machine: machineId },
    tr('downtimeReport.allMachines'),
    answer?.byMachine.find((m) => m.machineId === machineId)?.machine,
  );
  const allKinds = KIND_KEYS.every((k) => kinds[k]);
  const empty =
    answer && answer.summary.count === 0
      ? allKinds
        ? tr('downtimeReport.empty')
        : tr('downtimeReport.emptyFiltered')
      : null;

  return (
    <ReportFrame
      report={report}
      horizons={DOWNTIME_HORIZONS}
      maxDays={DOWNTIME_MAX_DAYS}
      title={tr('downtimeReport.title', { name: subject })}
      returnText={tr('downtimeReport.returnToAll')}
      // A machine's page goes back to the company report with the same dates; a group clears the group.
      {...(machineId ? { onReturn: () => void navigate(companyDowntimeHref(query.toString())) } : {})}
      groups={names.groups}
      shifts={shiftFilter}
      {...status}
      empty={empty}
      recomputing={answer?.recomputing}
      tools={<KindFilter kinds={kinds} onChange={(k) => setParams((q) => writeKinds(q, k))} />}
    >
      {answer && settled && (
        <Results
          answer={answer}
          selection={settled}
          reason={reason}
          lz={lz}
          onReason={(r) => setParams((q) => writeReason(q, r))}
          onMachine={(id) => void navigate(machineDowntimeHref(id, settled.range, reason))}
        />
      )}
    </ReportFrame>
  );
}

/** GET /api/reports/downtime showPlanned, showUnplanned, showUncategorized (reports-admin §7). */
function KindFilter({ kinds, onChange }: { kinds: Kinds; onChange: (k: Kinds) => void }) {
  const id = useId();
  return (
    <fieldset className="shift-filter">
      <legend>{tr('downtimeReport.kinds')}</legend>
      {KIND_KEYS.map((k) => (
        <label key={k} className="shift-filter__option" htmlFor={`${id}-${k}`}>
          <input
            id={`${id}-${k}`}
            type="checkbox"
            checked={kinds[k]}
            onChange={() => onChange({ ...kinds, [k]: !kinds[k] })}
          />
          {tr(`downtimeReport.kind.${k}`)}
        </label>
      ))}
    </fieldset>
  );
}

function Results({
  answer,
  selection,
  reason,
  lz,
  onReason,
  onMachine,
}: {
  answer: DowntimeAnswer;
  selection: DowntimeSelection;
  reason: string | null;
  lz: LZ;
  onReason: (reason: string | null) => void;
  onMachine: (id: string) => void;
}) {
  const bars = useMemo(() => paretoBars(answer), [answer]);
  const picked = reason ? (bars.find((b) => b.key === reason) ?? null) : null;
  const s = answer.summary;
  return (
    <>
      <SummaryTiles label={tr('downtimeReport.summaryLabel')}>
        <Tile label={tr('downtimeReport.total')} value={minutes(s.duration)} />
        <Tile label={tr('downtimeReport.stops')} value={String(s.count)} />
        <Tile label={tr('downtimeReport.planned')} value={minutes(s.plannedDuration)} />
        <Tile label={tr('downtimeReport.unplanned')} value={minutes(s.unplannedDuration)} />
        <Tile label={tr('downtimeReport.uncategorized')} value={minutes(s.uncategorizedDuration)} />
        <Tile label={tr('downtimeReport.noData')} value={minutes(s.noDataDuration)} />
      </SummaryTiles>
      <ParetoSection
        bars={bars}
        reason={reason}
        onReason={onReason}
        value={(b) => b.minutes}
        columns={[
          { label: tr('downtimeReport.reasonMinutes'), cell: (b) => b.minutes.toFixed(2) },
          { label: tr('downtimeReport.reasonCount'), cell: (b) => b.count },
        ]}
        shareHidesNarrow
        texts={paretoTexts('downtimeReport', tr('downtimeReport.minutesAxis'), minutesValue)}
      />
      {!selection.machine && <ByMachine answer={answer} bars={bars} reason={reason} onMachine={onMachine} />}
      <Grid
        answer={answer}
        selection={selection}
        reason={reason}
        picked={picked}
        lz={lz}
        onReason={onReason}
      />
    </>
  );
}

/** A bar's minutes in a tooltip, with 2 decimals (reports-admin §9). */
const minutesValue = (raw: number) => tr('downtimeReport.minutesValue', { minutes: minutes(raw * 60_000) });

// ---- Stacked by machine

function ByMachine({
  answer,
  bars,
  reason,
  onMachine,
}: {
  answer: DowntimeAnswer;
  bars: ParetoBar[];
  reason: string | null;
  onMachine: (id: string) => void;
}) {
  const chart = useMemo(() => stackedByMachine(answer, reason), [answer, reason]);
  return (
    <MachineStackSection
      chart={chart}
      bars={bars}
      onMachine={onMachine}
      texts={{
        heading: tr('downtimeReport.byMachine'),
        intro: tr('downtimeReport.byMachineIntro'),
        chartLabel: tr('downtimeReport.byMachineLabel'),
        axis: tr('downtimeReport.minutesAxis'),
        value: minutesValue,
      }}
    />
  );
}

// ---- The grid

function Grid({
  answer,
  selection,
  reason,
  picked,
  lz,
  onReason,
}: {
  answer: DowntimeAnswer;
  selection: DowntimeSelection;
  reason: string | null;
  picked: ParetoBar | null;
  lz: LZ;
  onReason: (reason: string | null) => void;
}) {
  const token = useUserToken(api);
  const items = useMemo(() => answer.items ?? [], [answer]);
  const rows = useMemo(() => gridRows(items, reason), [items, reason]);
  const heading = picked
    ? tr('downtimeReport.stopsFor', { reason: picked.name })
    : tr('downtimeReport.stops.title');
  return (
    <section className="report__list" aria-labelledby="grid-heading">
      <SectionHead id="grid-heading" heading={heading}>
        <ReasonTools
          reason={reason}
          onReason={onReason}
          allReasons={tr('downtimeReport.allReasons')}
          csvHref={downtimeCsvHref(selection, reason, token)}
          filename="downtime.csv"
        />
      </SectionHead>
      {rows.length === 0 ? (
        <p className="notice">{tr('downtimeReport.reasonEmpty')}</p>
      ) : (
        <>
          <p className="report__intro" role="status">
            {tr('downtimeReport.rowsTotal', { count: rows.length, minutes: totalMinutes(items, reason) })}
          </p>
          <PlainTable
            label={heading}
            columns={[
              { label: tr('downtimeReport.col.start') },
              { label: tr('downtimeReport.col.duration'), num: true },
              { label: tr('downtimeReport.col.machine') },
              { label: tr('downtimeReport.col.reason') },
              { label: tr('downtimeReport.col.message') },
              { label: tr('downtimeReport.col.planned') },
              // reports-admin §6: with areActivitiesEnabled, "activity columns show in downtime".
              ...(answer.activities
                ? [{ label: tr('downtimeReport.col.job') }, { label: tr('downtimeReport.col.activity') }]
                : []),
            ]}
          >
            {rows.map((r) => (
              <tr key={r.id}>
                <td className="num">
                  <StartCell row={r} text={startFormat(lz).format(r.start)} />
                </td>
                <td className="num-col num">{r.minutes}</td>
                <td>
                  {selection.machine ? (
                    r.machine
                  ) : (
                    <Link
                      to={machineDowntimeHref(r.machineId, selection.range, reason)}
                      title={tr('downtimeReport.openMachine', { name: r.machine })}
                    >
                      {r.machine}
                    </Link>
                  )}
                </td>
                <td>{r.reason}</td>
                <td>{r.message}</td>
                <td>{r.planned}</td>
                {answer.activities && (
                  <>
                    <td>{r.job}</td>
                    <td>{r.activity}</td>
                  </>
                )}
              </tr>
            ))}
          </PlainTable>
        </>
      )}
    </section>
  );
}

/**
 * reports-admin §2 Downtime report: "Selecting a row opens the standard timeline around the event": the
 * stop's start links to it (from there the machine timeline splits and categorizes); past the 1-year link
 * horizon (§5) it is text.
 */
function StartCell({ row, text }: { row: GridRow; text: string }) {
  const href = standardTimelineAround(row.machineId, { start: row.start, end: row.end }, Date.now());
  if (!href) return <>{text}</>;
  return (
    <Link to={href} title={tr('downtimeReport.openTimeline', { machine: row.machine })}>
      {text}
    </Link>
  );
}
