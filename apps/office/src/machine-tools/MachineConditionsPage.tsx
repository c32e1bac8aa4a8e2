import { formatTimeOfDay, localeZone, Progress, t, useLiveChannel, useSession } from '@takt/ui';
import type { ChartData, ChartOptions } from 'chart.js';
import { useEffect, useMemo, useState } from 'react';
import { Line } from 'react-chartjs-2';
import { useParams, useSearchParams } from 'react-router';
import { cssVar } from '../components/ReportParts';
import {
  channelWindow,
  chartPoints,
  CONDITIONS_VIEW_MS,
  needsRejoin,
  parseSamples,
  scalarFields,
  summarize,
  timeTicks,
} from './conditions';
import type { Sample } from './conditions';
import { formatFieldValue } from './diagnostics';
import { MachineToolsFrame } from './MachineToolsFrame';
import { useMachineDiagnostics } from './useMachineDiagnostics';
import { CHART_BASE, colorAt, registerBarLineCharts } from '../reports/charts';

registerBarLineCharts();

/** The chart moves on this often (the samples themselves arrive with the channel's updates). */
const CHART_TICK_MS = 5_000;

/**
 * /machine/{id}/conditions?key (reports-admin §2 "a machine conditions page (live charts of scalar fields)";
 * §7 "join temp_timeline (config start, end, key)"; decision 0810): one scalar field of the machine over the
 * last hour, live; `key` in the URL says which.
 */
export function MachineConditionsPage() {
  const { id: machineId = '' } = useParams();
  const [query, setQuery] = useSearchParams();
  const { me } = useSession();
  const lz = localeZone(me);
  const d = useMachineDiagnostics(machineId, false);
  const scalars = useMemo(() => (d.answer ? scalarFields(d.answer.fields) : []), [d.answer]);
  const asked = query.get('key');
  const key = asked ?? scalars[0]?.key ?? null;
  const field = d.answer?.fields.find((f) => f.key === key) ?? null;

  // The page's clock (the server's), moved on every few seconds.
  const [now, setNow] = useState(() => Date.now() + d.offsetMs);
  useEffect(() => {
    setNow(Date.now() + d.offsetMs);
    const timer = setInterval(() => setNow(Date.now() + d.offsetMs), CHART_TICK_MS);
    return () => clearInterval(timer);
  }, [d.offsetMs]);

  // The window the channel is joined for: fixed at join by the server, so joined again before it runs out.
  const [window, setWindow] = useState(() => channelWindow(now));
  useEffect(() => {
    if (needsRejoin(window, now)) setWindow(channelWindow(now));
  }, [now, window]);

  const [samples, setSamples] = useState<Sample[] | null>(null);
  const [channelError, setChannelError] = useState<string | null>(null);
  useEffect(() => {
    setSamples(null);
    setChannelError(null);
  }, [key]);
  const live = useLiveChannel(
    key
      ? {
          machineId,
          name: 'temp_timeline',
          config: { start: window.start, end: window.end, key },
          onState: (payload) => {
            const s = parseSamples(payload, key);
            if (s) setSamples(s);
          },
          onError: (_code, message) => setChannelError(message),
        }
      : null,
    `${key ?? ''}|${String(window.start)}`,
  );

  const from = now - CONDITIONS_VIEW_MS;
  const points = useMemo(() => (samples ? chartPoints(samples, from, now) : []), [samples, from, now]);
  const summary = useMemo(() => (samples ? summarize(samples, from, now) : null), [samples, from, now]);
  const unit = field?.dataItemType ?? t('machineTools.notMapped');

  const chooseKey = (k: string) =>
    setQuery(
      (q) => {
        const next = new URLSearchParams(q);
        next.set('key', k);
        return next;
      },
      { replace: true },
    );

  const color = colorAt(0);
  const data: ChartData<'line', Array<{ x: number; y: number | null }>> = {
    datasets: [
      {
        label: key ?? '',
        data: points,
        borderColor: color,
        backgroundColor: color,
        stepped: 'before',
        pointRadius: 0,
        borderWidth: 2,
        spanGaps: false,
      },
    ],
  };
  const text = cssVar('--text-muted', '#555');
  const options: ChartOptions<'line'> = {
    ...CHART_BASE,
    parsing: false,
    plugins: {
      legend: { display: false },
      tooltip: {
        callbacks: {
          title: (items) => formatTimeOfDay(items[0]?.parsed.x ?? null, lz),
          label: (item) =>
            `${key ?? ''}: ${formatFieldValue(item.parsed.y == null ? null : String(item.parsed.y), lz.locale)}`,
        },
      },
    },
    scales: {
      x: {
        type: 'linear',
        min: from,
        max: now,
        // Every 10 minutes on the clock (14:10, 14:20, …), not counted from the window's start.
        afterBuildTicks: (axis) => {
          axis.ticks = timeTicks(from, now, 10 * 60_000).map((value) => ({ value }));
        },
        ticks: {
          color: text,
          callback: (v) => formatTimeOfDay(Number(v), lz).slice(0, 5),
        },
        title: {
          display: true,
          text: t('machineTools.conditions.timeAxis', { zone: lz.timeZone }),
          color: text,
        },
      },
      y: { ticks: { color: text }, title: { display: true, text: `${key ?? ''} (${unit})`, color: text } },
    },
  };

  return (
    <MachineToolsFrame
      machineId={machineId}
      tool="conditions"
      live={key ? live : null}
      busy={d.loading && !d.answer}
    >
      <p className="machine-tools__intro">{t('machineTools.conditions.intro')}</p>
      {d.error && (
        <p className="notice notice--error" role="alert">
          {d.error}
        </p>
      )}
      {!d.answer && d.loading && <Progress />}
      {d.answer && scalars.length === 0 && !asked && (
        <p className="notice" role="status">
          {t('machineTools.conditions.noScalars')}
        </p>
      )}
      {d.answer && key && (
        <>
          <div className="machine-tools__toolbar">
            <div className="field">
              <label htmlFor="conditions-field">{t('machineTools.conditions.field')}</label>
              <select id="conditions-field" value={key} onChange={(e) => chooseKey(e.target.value)}>
                {!scalars.some((f) => f.key === key) && <option value={key}>{key}</option>}
                {scalars.map((f) => (
                  <option key={f.key} value={f.key}>
                    {f.dataItemType ? `${f.key} (${f.dataItemType})` : f.key}
                  </option>
                ))}
              </select>
            </div>
          </div>
          {channelError && (
            <p className="notice notice--error" role="alert">
              {channelError}
            </p>
          )}
          <section className="machine-tools__section" aria-labelledby="conditions-chart">
            <h2 id="conditions-chart">{t('machineTools.conditions.chartTitle', { key, type: unit })}</h2>
            {summary && (
              <div
                className="tiles tiles--wrap"
                role="group"
                aria-label={t('machineTools.conditions.summary')}
              >
                {(
                  [
                    ['latest', summary.latest],
                    ['min', summary.min],
                    ['max', summary.max],
                    ['mean', summary.mean],
                  ] as const
                ).map(([k, v]) => (
                  <div className="tile" key={k}>
                    <span className="tile__label">{t(`machineTools.conditions.${k}`)}</span>
                    <span className="tile__value num" data-stat={k}>
                      {formatFieldValue(v == null ? null : String(v), lz.locale, k === 'mean' ? 2 : 4)}
                    </span>
                    {k === 'latest' && (
                      <span className="tile__hint">
                        {summary.latestAt == null
                          ? t('machineTools.conditions.noneInHour')
                          : t('machineTools.conditions.at', { time: formatTimeOfDay(summary.latestAt, lz) })}
                      </span>
                    )}
                  </div>
                ))}
              </div>
            )}
            <figure className="report__chart">
              <div className="report__chart-box">
                {samples === null ? (
                  <Progress />
                ) : (
                  <Line
                    data={data}
                    options={options}
                    aria-label={t('machineTools.conditions.chartLabel', { key })}
                    role="img"
                  />
                )}
              </div>
              <figcaption className="machine-tools__caption">
                {samples !== null && points.length === 0
                  ? t('machineTools.conditions.empty', { key })
                  : t('machineTools.conditions.caption', { count: summary?.count ?? 0 })}
              </figcaption>
            </figure>
          </section>
        </>
      )}
    </MachineToolsFrame>
  );
}
