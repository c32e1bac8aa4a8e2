import type { CompanyClock } from '@takt/domain';
import { formatPartTime } from '@takt/domain';
import { Progress, tr } from '@takt/ui';
import { useId, useMemo } from 'react';
import { Link } from 'react-router';
import { ErrorBox, ReportClockGate } from '../components/ReportParts';
import { machineTimelinePath } from '../routes';
import { clampWindow } from './draw';
import { usePartMarks, useTimelineBasics, useTimelineData, useTimelineView } from './hooks';
import { useCompanyFlags, useMachine } from '../reports/hooks';
import { recomputingNotice } from '../reports/shared';
import {
  buildLanes,
  readStandardTimeline,
  STANDARD_LANES,
  standardLanes,
  writeStandardTimeline,
} from './model';
import type { StandardLane } from './model';
import { formatters, Legend, TimelineCanvas, TimelinePage, useLaneColors, ZoomBar } from './TimelineCanvas';

// /app/machines/{id}/standard-timeline?start&end&startTime&endTime&include (reports-admin §2; decision 0811):
// the machine timeline's canvas with the state lane and the lanes `include` picks (Downtime, Parts,
// Production), the event of startTime–endTime marked across them, and a link back to the machine timeline.
// Read-only: categorizing stays on the machine timeline.

export function StandardTimelinePage() {
  return (
    <ReportClockGate title={tr('standardTimeline.docTitle')}>
      {(clock, offsetMs) => <StandardTimeline clock={clock} offsetMs={offsetMs} />}
    </ReportClockGate>
  );
}

const LANE_TEXT = {
  downtime: 'standardTimeline.lane.downtime',
  parts: 'standardTimeline.lane.parts',
  production: 'standardTimeline.lane.production',
} as const;

function StandardTimeline({ clock, offsetMs }: { clock: CompanyClock; offsetMs: number }) {
  const { machineId, lz, fullProduct, now, setQuery, search } = useTimelineBasics(offsetMs);
  const t = useMemo(
    () => readStandardTimeline(new URLSearchParams(search), clock, now),
    [search, clock, now],
  );
  const { range, event, include } = t;
  const load = useTimelineData(machineId, range, 0);
  const name = useMachine(machineId)?.name ?? '';
  const flags = useCompanyFlags();
  const [view, setView] = useTimelineView(`${machineId}|${range.start}|${range.end}`, range);

  const colors = useLaneColors();
  const operation = load.kind === 'ready' ? load.operation : null;
  const downtime = load.kind === 'ready' ? load.downtime : null;
  // reports-admin §6: with the areActivitiesEnabled flag, activities replace runs.
  const activities = flags?.areActivitiesEnabled ?? false;
  const lanes = useMemo(
    () =>
      operation && downtime
        ? standardLanes(
            buildLanes({ operation, downtime, subprograms: null, now, colors, activities }),
            include,
          )
        : null,
    [operation, downtime, now, colors, include, activities],
  );
  const marks = usePartMarks(operation, view, fullProduct);

  const f = useMemo(() => formatters(lz), [lz]);
  const eventText = event
    ? tr('standardTimeline.event', {
        from: f.full.format(event.start),
        to: f.full.format(event.end),
        duration: formatPartTime(event.end - event.start),
      })
    : tr('standardTimeline.noEvent');
  const setInclude = (next: readonly StandardLane[]) =>
    setQuery(writeStandardTimeline({ range, event, include: next.length ? next : STANDARD_LANES }));
  const title = tr('standardTimeline.title', { name: name || '…' });
  // Decision 1004: the machine's figures in the range are still being recomputed (late data, an edit).
  const unsettled = recomputingNotice(operation?.recomputing);

  return (
    <TimelinePage
      title={title}
      busy={load.kind === 'loading'}
      links={
        <Link to={machineTimelinePath(machineId, range)}>{tr('standardTimeline.toMachineTimeline')}</Link>
      }
    >
      <div className="report__toolbar">
        <LanePicker include={include} onChange={setInclude} />
      </div>
      {t.cut && (
        <p className="notice notice--warning" role="status">
          {tr('timeline.rangeCut')}
        </p>
      )}
      {unsettled != null && (
        <p className="notice report__recomputing" role="status">
          {unsettled}
        </p>
      )}
      <p className="report__intro timeline__event">
        {eventText}{' '}
        {event && (
          <button
            type="button"
            className="link-button"
            onClick={() => {
              const pad = Math.max((event.end - event.start) * 0.5, 5 * 60_000);
              setView(clampWindow({ start: event.start - pad, end: event.end + pad }, range));
            }}
          >
            {tr('standardTimeline.showEvent')}
          </button>
        )}
      </p>
      <div className="report__body">
        {load.kind === 'loading' && <Progress />}
        {load.kind === 'error' && <ErrorBox message={load.message} />}
        {lanes && (
          <section className="report__list timeline__chart" aria-labelledby="timeline-heading">
            <h2 id="timeline-heading" className="visually-hidden">
              {tr('standardTimeline.docTitle')}
            </h2>
            <ZoomBar view={view} bounds={range} setView={setView} lz={lz} />
            <p className="report__intro">{tr('timeline.helpReadOnly')}</p>
            <TimelineCanvas
              lanes={lanes}
              view={view}
              bounds={range}
              setView={setView}
              marks={marks}
              selected={null}
              onPick={() => undefined}
              lz={lz}
              label={tr('standardTimeline.chartLabel', {
                name: name || machineId,
                lanes: include.map((l) => tr(LANE_TEXT[l])).join(', '),
                event: eventText,
              })}
              colors={colors}
              highlight={event}
            />
            <Legend colors={colors} fullProduct={fullProduct} marks={marks} />
          </section>
        )}
      </div>
    </TimelinePage>
  );
}

/** reports-admin §2 include: which of the Downtime, Parts and Production lanes show (at least one). */
function LanePicker({
  include,
  onChange,
}: {
  include: readonly StandardLane[];
  onChange: (next: readonly StandardLane[]) => void;
}) {
  const id = useId();
  return (
    <fieldset className="shift-filter">
      <legend>{tr('standardTimeline.lanes')}</legend>
      {STANDARD_LANES.map((l) => {
        const on = include.includes(l);
        return (
          <label key={l} className="shift-filter__option" htmlFor={`${id}-${l}`}>
            <input
              id={`${id}-${l}`}
              type="checkbox"
              checked={on}
              // The last lane shown cannot be turned off: a timeline of states only says little.
              disabled={on && include.length === 1}
              onChange={() => onChange(on ? include.filter((x) => x !== l) : [...include, l])}
            />
            {tr(LANE_TEXT[l])}
          </label>
        );
      })}
    </fieldset>
  );
}
