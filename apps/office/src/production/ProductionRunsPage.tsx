import { tr } from '@takt/ui';
import { useEffect, useId, useMemo } from 'react';
import { Link } from 'react-router';
import { PlainTable, ReportFrame, ReportPage, SectionHead } from '../components/ReportParts';
import type { ClockProps } from '../components/ReportParts';
import { JOB_HORIZONS, JOB_PAGE_HORIZONS } from '../jobs/report';
import { NO_SHIFTS, useMachineNames, useReportPage, useSettledCall } from '../reports/hooks';
import type { Named, ReportCall } from '../reports/hooks';
import { productionRunEditHref, parseRuns, runsOfMachine, seconds } from './runs';
import type { ProductionRun, Range } from './runs';
import { PATHS } from '../routes';
import { useWallTime } from './time';
import './production.css';

interface Selection {
  range: Range;
  machineId: string | null;
}

const runsCall = (s: Selection): ReportCall<ProductionRun[]> => ({
  path: '/api/productionruns',
  query: {
    start: s.range.start,
    end: s.range.end,
    ...(s.machineId ? { machine_id: s.machineId } : {}),
  },
  parse: parseRuns,
});

/**
 * /reports/production-runs?start&end&jsg (reports-admin §2): the job runs of the range with their standards,
 * filterable by machine (machine_id), by start; each opens its editor. jsg marks the run the link came for.
 */
export function ProductionRunsPage() {
  return <ReportPage title={tr('production.runs.title')} report={ProductionRunsReport} />;
}

function ProductionRunsReport({ clock, offsetMs }: ClockProps) {
  const page = useReportPage({ clock, offsetMs, ...JOB_PAGE_HORIZONS });
  const names = useMachineNames();
  const machineId = page.query.get('machine_id');
  const jsg = page.query.get('jsg');
  const selection = useMemo(
    () => ({ range: { start: page.applied.start, end: page.applied.end }, machineId }),
    [page.applied.start, page.applied.end, machineId],
  );
  const { answer, status, settled } = useSettledCall(selection, runsCall);
  const runs = answer && settled ? runsOfMachine(answer, settled.machineId) : null;
  const setMachine = (id: string | null) =>
    page.setParams((q) => {
      if (id) q.set('machine_id', id);
      else q.delete('machine_id');
      return q;
    });
  return (
    <ReportFrame
      report={{ ...page, group: null, machine: null }}
      horizons={JOB_HORIZONS}
      title={tr('production.runs.title')}
      returnText=""
      groups={null}
      shifts={NO_SHIFTS}
      tools={
        <>
          <MachineSelect machines={names.machines} value={machineId} onChange={setMachine} />
          {/* The schedule timeline of the same runs (reports-admin §2 Schedule; decision 0910). */}
          <Link className="button" to={PATHS.schedule}>
            {tr('schedule.link')}
          </Link>
        </>
      }
      loading={status.loading}
      error={status.error}
      empty={runs && runs.length === 0 ? tr('production.runs.none') : null}
    >
      {runs && runs.length > 0 && <RunsTable runs={runs} jsg={jsg} />}
    </ReportFrame>
  );
}

function MachineSelect({
  machines,
  value,
  onChange,
}: {
  machines: readonly Named[];
  value: string | null;
  onChange: (id: string | null) => void;
}) {
  const id = useId();
  return (
    <div className="group-select">
      <label htmlFor={id}>{tr('production.runs.machine')}</label>
      <select id={id} value={value ?? ''} onChange={(e) => onChange(e.target.value || null)}>
        <option value="">{tr('production.runs.allMachines')}</option>
        {machines.map((m) => (
          <option key={m.id} value={m.id}>
            {m.name}
          </option>
        ))}
      </select>
    </div>
  );
}

function RunsTable({ runs, jsg }: { runs: readonly ProductionRun[]; jsg: string | null }) {
  const when = useWallTime();
  const columns = [
    { label: tr('production.col.machine') },
    { label: tr('production.col.job') },
    { label: tr('production.col.start') },
    { label: tr('production.col.end') },
    { label: tr('production.col.setup') },
    { label: tr('production.col.expected'), num: true },
    { label: tr('production.col.ideal'), num: true },
    { label: tr('production.col.multiplier'), num: true },
    { label: tr('production.col.actualParts'), num: true },
    { label: tr('production.col.totalParts'), num: true },
    { label: tr('production.col.goodParts'), num: true },
    { label: tr('production.col.actions') },
  ];
  // The run a "jsg" link points at is scrolled to once the rows are there.
  useEffect(() => {
    if (jsg) document.getElementById(`run-${jsg}`)?.scrollIntoView?.({ block: 'center' });
  }, [jsg, runs]);
  return (
    <section className="report__list" aria-labelledby="production-runs-heading">
      <SectionHead id="production-runs-heading" heading={tr('production.runs.caption')}>
        <span className="production__count">
          {tr('production.runs.count', { count: String(runs.length) })}
        </span>
      </SectionHead>
      <PlainTable label={tr('production.runs.caption')} columns={columns}>
        {runs.map((r) => (
          <tr
            key={r.id}
            id={`run-${r.id}`}
            className={r.id === jsg ? 'production__row--current' : undefined}
            aria-current={r.id === jsg || undefined}
          >
            <td>{r.machine_name}</td>
            <td>{r.job_name}</td>
            <td>{when(r.startdate)}</td>
            <td>{r.enddate === null ? tr('production.never') : when(r.enddate)}</td>
            <td>{setupText(r, when)}</td>
            <td className="num-col num">{seconds(r.cycletime)}</td>
            <td className="num-col num">{seconds(r.idealcycletime)}</td>
            <td className="num-col num">{r.partcount_multiplier}</td>
            <td className="num-col num">{r.actualParts}</td>
            <td className="num-col num">{r.parts.total}</td>
            <td className="num-col num" title={tr('production.col.goodPartsTitle')}>
              {r.parts.good}
            </td>
            <td>
              <Link
                to={productionRunEditHref(r.id)}
                aria-label={tr('production.runs.editRun', { job: r.job_name, machine: r.machine_name })}
              >
                {tr('production.runs.edit')}
              </Link>
            </td>
          </tr>
        ))}
      </PlainTable>
    </section>
  );
}

/** reports-admin §4: none, or planned / unplanned until its end or still in setup. */
export function setupText(r: ProductionRun, when: (t: number) => string): string {
  const mode = tr(`production.setup.${r.startInSetup}`);
  if (r.startInSetup === 'none') return mode;
  return tr('production.setupUntil', {
    mode,
    end: r.setupend === null ? tr('production.stillInSetup') : when(r.setupend),
  });
}
