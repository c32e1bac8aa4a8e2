import { Progress, usePolling } from '@takt/ui';
import type { ApiClient, DashboardData } from '@takt/ui';
import { dt } from './messages';
import { cycleVerdict, CYCLES_POLL_MS, fetchCycles, formatCycle } from './status';

/**
 * The Cycles dashboard (live-operations §6, reports-admin §6: one configured company only; decision 0600):
 * per machine the last production cycle against the expected cycle time of the job it runs. Other
 * companies get a clear "not available" message (the API answers 403 DASHBOARD_NOT_AVAILABLE).
 */
export function CyclesDashboard({
  api,
  data,
  machines,
  group,
}: {
  api: ApiClient;
  data: DashboardData | undefined;
  machines: DashboardData['machines'];
  group: string | null;
}) {
  const cycles = usePolling((s) => fetchCycles(api, group, s), CYCLES_POLL_MS, `cycles:${group ?? ''}`);
  if (cycles.data === null) return <CyclesNotAvailable />;
  if (!cycles.data || !data) return cycles.error && !cycles.loading ? null : <Progress />;
  return (
    <section className="tiles cycles" aria-label={dt('dash.cycles')}>
      {machines.map((m) => {
        const e = cycles.data!.get(m.id);
        const verdict = e ? cycleVerdict(e) : { tone: null, text: dt('dash.cycles.noCycle') };
        return (
          <article
            key={m.id}
            className="tile cycle-tile"
            aria-label={m.name}
            data-tone={verdict.tone ?? undefined}
          >
            <h2 className="tile__name">{m.name}</h2>
            <dl className="cycle-tile__facts">
              <div>
                <dt>{dt('dash.cycles.last')}</dt>
                <dd className="num">{formatCycle(e?.lastCycleMs ?? null)}</dd>
              </div>
              <div>
                <dt>{dt('dash.cycles.expected')}</dt>
                <dd className="num">{formatCycle(e?.expectedCycleMs ?? null)}</dd>
              </div>
            </dl>
            <p className={`cycle-tile__verdict${verdict.tone ? ` tone--${verdict.tone}` : ''}`}>
              {verdict.text}
            </p>
          </article>
        );
      })}
    </section>
  );
}

export function CyclesNotAvailable() {
  return (
    <section className="dash-unavailable" role="alert" data-testid="cycles-not-available">
      <h2>{dt('dash.cycles.notAvailable')}</h2>
      <p>{dt('dash.cycles.notAvailableHint')}</p>
    </section>
  );
}
