import { localeZone, Progress, t, tr, useSession } from '@takt/ui';
import { Fragment, useCallback, useEffect, useMemo, useState } from 'react';
import { useSearchParams } from 'react-router';
import { api } from '../api';
import { isAdminUser } from '../admin/screens';
import { useCompanyFlags, useMachineNames } from '../reports/hooks';
import {
  barLabelsOf,
  barOf,
  duplicateDraft,
  hourAt,
  lanesOf,
  newDraft,
  parseScheduleRuns,
  scheduleHref,
  setupShareOf,
  shiftDay,
  windowOf,
  zoomOf,
  ZOOM_CHOICES,
} from './schedule';
import type { ScheduleRun } from './schedule';
import { useSetupStages, useShifts } from './schedule-hooks';
import { opensWithStages, setupMinutesOf } from './schedule-stages';
import type { Editing } from './ScheduleForm';
import { ScheduleForm } from './ScheduleForm';
import { useWallTime } from './time';
import './production.css';
import './schedule.css';

type Load = { kind: 'loading' } | { kind: 'failed' } | { kind: 'ready'; runs: ScheduleRun[] };
/**
 * /app/production/schedule?start=YYYY-MM-DD&days=N (reports-admin §2 "Schedule (job runs) timeline with zoom,
 * create, edit, duplicate, delete"; §9 zoom 1 to 31 days; decision 0910): one lane per machine with its job runs
 * as bars over the window. Admins create a run from a lane or the New button, and edit, duplicate or delete one
 * from its bar; each save marks the machine's figures for recompute (the OEE report follows).
 */
export function SchedulePage() {
  const { me } = useSession();
  const { timeZone } = localeZone(me);
  const admin = isAdminUser(me);
  const [params, setParams] = useSearchParams();
  const days = zoomOf(params.get('days'));
  const [now] = useState(() => Date.now());
  const win = useMemo(
    () => windowOf(timeZone, params.get('start'), days, now),
    [timeZone, params, days, now],
  );
  const machines = useMachineNames().machines;
  const shifts = useShifts();
  const stages = useSetupStages();
  const stagesOn = useCompanyFlags()?.enable_setup_stages ?? false;
  const wall = useWallTime();
  const [load, setLoad] = useState<Load>({ kind: 'loading' });
  const [editing, setEditing] = useState<Editing | null>(null);
  const [version, setVersion] = useState(0);
  useEffect(() => {
    document.title = `${tr('schedule.title')} · ${t('app.officeName')}`;
  }, []);
  useEffect(() => {
    const controller = new AbortController();
    setLoad({ kind: 'loading' });
    api
      .request('/api/productionruns', {
        query: { start: win.start, end: win.end },
        signal: controller.signal,
        parse: parseScheduleRuns,
      })
      .then((runs) => setLoad({ kind: 'ready', runs }))
      .catch(() => {
        if (!controller.signal.aborted) setLoad({ kind: 'failed' });
      });
    return () => controller.abort();
  }, [win.start, win.end, version]);

  const go = (day: string, d = days) => setParams(new URLSearchParams(scheduleHref(day, d).split('?')[1]));
  const lanes = lanesOf(machines, load.kind === 'ready' ? load.runs : []);
  const activeShifts = shifts.filter((s) => !s.terminated).map((s) => s.id);
  const startNew = (machineId: string, start: number) =>
    setEditing({
      mode: 'new',
      draft: newDraft(machineId, '', start, timeZone, activeShifts),
      kind: 'shifts',
    });
  const saved = useCallback(() => {
    setEditing(null);
    setVersion((v) => v + 1);
  }, []);
  const dayTicks = Array.from({ length: days }, (_, k) => {
    const day = shiftDay(win.day, k);
    return { day, left: (k / days) * 100 };
  });
  const dayLabel = (day: string) =>
    new Intl.DateTimeFormat(localeZone(me).locale, {
      weekday: days > 14 ? undefined : 'short',
      month: 'short',
      day: 'numeric',
      timeZone: 'UTC',
    }).format(Date.parse(`${day}T12:00:00Z`));
  const labelEvery = days > 14 ? 7 : 1;

  return (
    <main
      className="page report schedule"
      aria-labelledby="schedule-heading"
      aria-busy={load.kind === 'loading' || undefined}
    >
      <div className="page__head">
        <h1 id="schedule-heading">{tr('schedule.title')}</h1>
      </div>
      <div className="schedule__tools" role="group" aria-label={tr('schedule.title')}>
        <label className="schedule__tool">
          {tr('schedule.zoom')}
          <select value={days} onChange={(e) => go(win.day, Number(e.target.value))}>
            {[...new Set([...ZOOM_CHOICES, days])]
              .sort((a, b) => a - b)
              .map((d) => (
                <option key={d} value={d}>
                  {d === 1 ? tr('schedule.zoomDay') : tr('schedule.zoomDays', { days: d })}
                </option>
              ))}
          </select>
        </label>
        <label className="schedule__tool">
          {tr('schedule.from')}
          <input type="date" value={win.day} onChange={(e) => e.target.value && go(e.target.value)} />
        </label>
        <div className="schedule__nav">
          <button type="button" className="button" onClick={() => go(shiftDay(win.day, -days))}>
            ← {tr('schedule.previous')}
          </button>
          <button
            type="button"
            className="button"
            onClick={() => go(windowOf(timeZone, null, days, Date.now()).day)}
          >
            {tr('schedule.today')}
          </button>
          <button type="button" className="button" onClick={() => go(shiftDay(win.day, days))}>
            {tr('schedule.next')} →
          </button>
        </div>
        {admin && (
          <button
            type="button"
            className="button button--primary schedule__new"
            disabled={lanes.length === 0}
            onClick={() => startNew(lanes[0]?.id ?? '', hourAt(win, 0) + 6 * 3600 * 1000)}
          >
            {tr('schedule.new')}
          </button>
        )}
      </div>
      {!admin && (
        <p className="notice" role="status">
          {tr('schedule.form.notPermitted')}
        </p>
      )}
      {load.kind === 'loading' && <Progress />}
      {load.kind === 'failed' && (
        <p className="notice notice--error" role="alert">
          {tr('reports.requestError')}
        </p>
      )}
      {load.kind === 'ready' && lanes.length === 0 && <p className="notice">{tr('schedule.noMachines')}</p>}
      {lanes.length > 0 && (
        <div className="schedule__scroll">
          <section className="schedule__grid" aria-label={tr('schedule.lanes')}>
            <div className="schedule__lane schedule__lane--head" aria-hidden="true">
              <div className="schedule__name" />
              <div className="schedule__track schedule__track--head">
                {dayTicks.map((d, k) => (
                  <span key={d.day} className="schedule__tick" style={{ left: `${d.left}%` }}>
                    {k % labelEvery === 0 ? dayLabel(d.day) : ''}
                  </span>
                ))}
              </div>
            </div>
            <ul className="schedule__lanes">
              {lanes.map((lane) => {
                const bars = lane.runs.map((run) => barOf(run, win));
                const { labels, rows } = barLabelsOf(bars);
                return (
                  <li
                    key={lane.id}
                    className={`schedule__lane${rows === 2 ? ' schedule__lane--stagger' : ''}`}
                    aria-label={lane.name}
                  >
                    <div className="schedule__name">{lane.name}</div>
                    <div
                      className="schedule__track"
                      onClick={(e) => {
                        if (!admin || e.target !== e.currentTarget) return;
                        const box = e.currentTarget.getBoundingClientRect();
                        startNew(lane.id, hourAt(win, (e.clientX - box.left) / box.width));
                      }}
                    >
                      {dayTicks.map((d) => (
                        <span
                          key={d.day}
                          className="schedule__gridline"
                          style={{ left: `${d.left}%` }}
                          aria-hidden="true"
                        />
                      ))}
                      {lane.runs.map((run, k) => {
                        const bar = bars[k];
                        const place = labels[k];
                        if (!bar || !place) return null;
                        const times = {
                          job: run.job_name,
                          from: wall(run.startdate),
                          to: run.enddate === null ? tr('schedule.never') : wall(run.enddate),
                        };
                        const label = tr('schedule.bar', times);
                        // The lane names the machine; the tooltip names it too, for a lane scrolled aside.
                        const title = tr('scheduleMore.bar.title', { ...times, machine: run.machine_name });
                        const open = () => setEditing({ mode: 'edit', run });
                        return (
                          <Fragment key={run.id}>
                            <button
                              type="button"
                              className={`schedule__bar${run.startInSetup !== 'none' ? ' schedule__bar--setup' : ''}${run.enddate === null ? ' schedule__bar--open' : ''}`}
                              style={{
                                left: `${bar.left}%`,
                                width: `${bar.width}%`,
                                backgroundSize: `${setupShareOf(run, win)}% 100%`,
                              }}
                              title={title}
                              aria-label={label}
                              onClick={open}
                            />
                            {/* The job name under the bar, readable at any zoom; the bar is the control. */}
                            <span
                              className={`schedule__label schedule__label--row${place.row}`}
                              style={{ left: `${place.left}%`, maxWidth: `${place.maxWidth}%` }}
                              title={title}
                              aria-hidden="true"
                              onClick={open}
                            >
                              {run.job_name}
                            </span>
                          </Fragment>
                        );
                      })}
                    </div>
                  </li>
                );
              })}
            </ul>
          </section>
        </div>
      )}
      {load.kind === 'ready' && lanes.length > 0 && load.runs.length === 0 && (
        <p className="schedule__empty">{tr('schedule.noRuns')}</p>
      )}
      {editing && (
        <ScheduleForm
          key={editing.mode === 'edit' ? editing.run.id : `${editing.mode}-${editing.draft.start}`}
          editing={editing}
          admin={admin}
          timeZone={timeZone}
          shifts={shifts}
          stages={stages}
          stagesOn={stagesOn}
          machines={machines}
          onClose={() => setEditing(null)}
          onSaved={saved}
          onDuplicate={(run) =>
            setEditing({
              mode: 'duplicate',
              draft: {
                ...duplicateDraft(run, timeZone, Date.now()),
                ...(opensWithStages(run) ? { setupMinutes: setupMinutesOf(run) } : {}),
              },
              kind: opensWithStages(run) ? 'stages' : 'shifts',
            })
          }
        />
      )}
    </main>
  );
}
