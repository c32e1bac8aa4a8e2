import { tr } from '@takt/ui';
import { PlainTable } from '../components/ReportParts';
import { downtimeRows, rejectRows, shiftRows } from './report';
import type { JobByMachineAnswer } from './report';

// reports-admin §2 Jobs report: "Each job has detail with quality, downtime and OEE by machine and by shift".
// OEE by machine is the job report's By machine table; these are the rest, from the same runs' time (decision
// 0820), so they add up to the job's tiles.

/** One table of the detail: a name, then figures, per row; the empty text instead when it has none. */
function DetailSection({
  id,
  heading,
  empty,
  columns,
  rows,
}: {
  id: string;
  heading: string;
  empty: string;
  columns: readonly { label: string; num?: boolean }[];
  rows: readonly { key: string; name: string; cells: readonly string[] }[];
}) {
  return (
    <section className="report__list job-detail__section" aria-labelledby={id}>
      <h3 id={id}>{heading}</h3>
      {rows.length === 0 ? (
        <p className="notice">{empty}</p>
      ) : (
        <PlainTable label={heading} columns={columns}>
          {rows.map((r) => (
            <tr key={r.key}>
              <td>{r.name}</td>
              {r.cells.map((v, i) => (
                <td key={columns[i + 1]?.label ?? i} className="num-col num">
                  {v}
                </td>
              ))}
            </tr>
          ))}
        </PlainTable>
      )}
    </section>
  );
}

/** The job's detail: rejects by reason, downtime by reason, OEE by shift. */
export function JobDetail({ answer }: { answer: JobByMachineAnswer }) {
  return (
    <section className="job-detail" aria-labelledby="job-detail-heading">
      <h2 id="job-detail-heading">{tr('jobDetail.heading')}</h2>
      <div className="job-detail__grid">
        <DetailSection
          id="job-rejects-heading"
          heading={tr('jobDetail.rejects')}
          empty={tr('jobDetail.noRejects')}
          columns={[
            { label: tr('jobDetail.col.reason') },
            { label: tr('jobDetail.col.rejected'), num: true },
            { label: tr('jobDetail.col.share'), num: true },
          ]}
          rows={rejectRows(answer).map((r) => ({ key: r.key, name: r.name, cells: [r.parts, r.share] }))}
        />
        <DetailSection
          id="job-downtime-heading"
          heading={tr('jobDetail.downtime')}
          empty={tr('jobDetail.noDowntime')}
          columns={[
            // The total and its share first: what a phone shows without scrolling the table.
            { label: tr('jobDetail.col.reason') },
            { label: tr('jobDetail.col.total'), num: true },
            { label: tr('jobDetail.col.share'), num: true },
            { label: tr('jobDetail.col.planned'), num: true },
            { label: tr('jobDetail.col.unplanned'), num: true },
          ]}
          rows={downtimeRows(answer).map((d) => ({
            key: d.key,
            name: d.name,
            cells: [d.total, d.share, d.planned, d.unplanned],
          }))}
        />
      </div>
      <DetailSection
        id="job-shifts-heading"
        heading={tr('jobDetail.byShift')}
        empty={tr('jobDetail.noShifts')}
        columns={[
          { label: tr('jobDetail.col.shift') },
          { label: tr('jobReport.col.oee'), num: true },
          { label: tr('jobReport.col.availability'), num: true },
          { label: tr('jobReport.col.performance'), num: true },
          { label: tr('jobReport.col.quality'), num: true },
        ]}
        rows={shiftRows(answer)}
      />
    </section>
  );
}
