import { tr } from '@takt/ui';
import { useId } from 'react';
import { Link, useLocation } from 'react-router';
import { PlainTh, ReportFrame, ReportPage } from '../components/ReportParts';
import type { ClockProps } from '../components/ReportParts';
import type { OeeSelection } from '../oee/report';
import { useMachineGroups, useShiftFilteredReport } from '../reports/hooks';
import type { ReportCall } from '../reports/hooks';
import type { LZ } from '../reports/shared';
import { machineUtilizationHref, PATHS } from '../routes';
import { oldGrid, unitOf, writeUnit } from './deprecated';
import type { UtilizationUnit } from './deprecated';
import {
  DEFAULT_UTILIZATION_HORIZON,
  isEmpty,
  parseUtilization,
  UTILIZATION_HORIZONS,
  utilizationQuery,
} from './report';
import type { UtilizationAnswer } from './report';

// /dashboard/utilizationdeprecated?{query} (reports-admin §2: the older utilization dashboard; decision 1098):
// the same answer as the Utilization report, shown as one grid of machines by intervals in percent or hours.

const utilizationCall = (s: OeeSelection): ReportCall<UtilizationAnswer> => ({
  path: '/api/reports/utilization',
  query: utilizationQuery(s),
  parse: parseUtilization,
});

export function UtilizationDeprecatedPage() {
  return <ReportPage title={tr('utilizationOld.pageTitle')} report={OldUtilization} />;
}

function OldUtilization({ clock, offsetMs }: ClockProps) {
  const { frame, results, answer } = useShiftFilteredReport(
    { clock, offsetMs, horizonPreference: 'utilizationHorizon', defaultHorizon: DEFAULT_UTILIZATION_HORIZON },
    utilizationCall,
  );
  const { group } = frame.report;
  const groups = useMachineGroups();
  const { search } = useLocation();
  const unit = unitOf(new URLSearchParams(search));
  const groupName = groups.find((g) => g.id === group)?.name;
  const title = tr('utilizationOld.title', {
    name: group ? (groupName ?? '…') : tr('utilization.allMachines'),
  });

  return (
    <ReportFrame
      {...frame}
      horizons={UTILIZATION_HORIZONS}
      title={title}
      returnText={tr('utilizationOld.returnToAll')}
      groups={groups}
      empty={answer && isEmpty(answer) ? tr('utilization.empty') : null}
      recomputing={answer?.recomputing}
      tools={<UnitSelect unit={unit} onChange={(u) => frame.report.setParams((q) => writeUnit(q, u))} />}
    >
      <p>
        <Link to={`${PATHS.utilization}${search}`}>{tr('utilizationOld.newer')}</Link>
      </p>
      {answer && results && <Grid answer={answer} unit={unit} lz={results.lz} search={search} />}
    </ReportFrame>
  );
}

function UnitSelect({ unit, onChange }: { unit: UtilizationUnit; onChange: (u: UtilizationUnit) => void }) {
  const id = useId();
  return (
    <label className="shift-filter__option" htmlFor={id}>
      {tr('utilizationOld.unit')}{' '}
      <select id={id} value={unit} onChange={(e) => onChange(e.target.value === 'hour' ? 'hour' : 'percent')}>
        <option value="percent">{tr('utilizationOld.unit.percent')}</option>
        <option value="hour">{tr('utilizationOld.unit.hour')}</option>
      </select>
    </label>
  );
}

function Grid({
  answer,
  unit,
  lz,
  search,
}: {
  answer: UtilizationAnswer;
  unit: UtilizationUnit;
  lz: LZ;
  search: string;
}) {
  const grid = oldGrid(answer, unit, lz);
  return (
    <section className="report__list" aria-labelledby="old-grid-heading">
      <h2 id="old-grid-heading">{tr('utilizationOld.caption')}</h2>
      <div className="table-wrap">
        <table className="table">
          <thead>
            <tr>
              <PlainTh label={tr('utilizationOld.machine')} />
              {grid.columns.map((c, i) => (
                <PlainTh key={`${c}-${String(i)}`} label={c} className="num-col" />
              ))}
              <PlainTh label={tr('utilizationOld.total')} className="num-col" />
            </tr>
          </thead>
          <tbody>
            {[...grid.rows, grid.aggregate].map((r) => (
              <tr key={r.machineId ?? ''}>
                <th scope="row">
                  {r.machineId ? (
                    <Link
                      to={machineUtilizationHref(r.machineId, search)}
                      title={tr('utilizationOld.rowHint', { name: r.name })}
                    >
                      {r.name}
                    </Link>
                  ) : (
                    r.name
                  )}
                </th>
                {r.cells.map((c, i) => (
                  <td key={i} className="num-col num">
                    {c}
                  </td>
                ))}
                <td className="num-col num">{r.total}</td>
              </tr>
            ))}
          </tbody>
        </table>
      </div>
    </section>
  );
}
