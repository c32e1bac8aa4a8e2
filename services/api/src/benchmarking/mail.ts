import { formatPercent, peerQuartile } from '@takt/domain';
import type { BenchmarkWeek, PeerDistribution } from '@takt/domain';

// The text of a weekly benchmarking e-mail (decision 1110). Pure. It names the company's own opted-in machines and
// nothing of anyone else: the peers are three numbers and two counts.

export interface MachineFigures {
  id: string;
  name: string;
  /** In-cycle share of the week (METRICS.md §3 Utilization), as the utilization report gives it; null: no time. */
  utilization: number | null;
  /** OEE of the week (METRICS.md §3), as the reports give it; null without a standard or without time. */
  oee: number | null;
}

export const NOT_ENOUGH_PEERS = 'not enough peers yet';
const QUARTILE_WORDS = ['', 'bottom quarter', 'second quarter', 'third quarter', 'top quarter'] as const;

/** The week as the company reads it: "Nov 23 – Nov 29, 2026". */
function weekWords(week: BenchmarkWeek, timeZone: string): string {
  const day = (t: number, year: boolean) => {
    try {
      return new Date(t).toLocaleDateString('en-US', {
        timeZone,
        month: 'short',
        day: 'numeric',
        ...(year ? { year: 'numeric' } : {}),
      });
    } catch {
      return new Date(t).toISOString().slice(0, 10);
    }
  };
  return `${day(week.start, false)} – ${day(week.end - 1, true)}`;
}

/** reports-admin §9: utilization with 0 decimals, OEE with 1. */
const PERCENT = { utilization: 'utilization', oee: 'oeeTable' } as const;

function metricLines(
  label: string,
  metric: 'utilization' | 'oee',
  machines: readonly MachineFigures[],
  peers: PeerDistribution | null,
): string[] {
  const pct = (v: number | null) => {
    const s = formatPercent(v, PERCENT[metric]);
    return s === '-' ? '-' : `${s}%`;
  };
  const lines = [label];
  lines.push(
    peers
      ? `  Other plants: lower quartile ${pct(peers.q1)}, median ${pct(peers.median)}, upper quartile ${pct(peers.q3)} ` +
          `(${peers.machines} machines of ${peers.companies} companies)`
      : `  Other plants: ${NOT_ENOUGH_PEERS}`,
  );
  for (const m of machines) {
    const v = m[metric];
    const where = peers && v !== null ? ` (${QUARTILE_WORDS[peerQuartile(v, peers)]})` : '';
    lines.push(`  ${m.name}: ${pct(v)}${where}`);
  }
  return lines;
}

export function benchmarkMail(input: {
  companyName: string;
  timezone: string;
  week: BenchmarkWeek;
  machines: readonly MachineFigures[];
  utilization: PeerDistribution | null;
  oee: PeerDistribution | null;
  preferencesUrl: string;
}): { subject: string; text: string } {
  const when = weekWords(input.week, input.timezone);
  return {
    subject: `Benchmarking: your machines in the week of ${when}`,
    text: [
      `How the machines of ${input.companyName} that take part in benchmarking did in the week of ${when}, ` +
        'beside the machines of other plants that take part. Other plants are never named: you see only their ' +
        'quartiles, and only when at least 5 machines of at least 3 other companies are behind them.',
      '',
      ...metricLines(
        'Utilization (in-cycle share of the time)',
        'utilization',
        input.machines,
        input.utilization,
      ),
      '',
      ...metricLines('OEE', 'oee', input.machines, input.oee),
      '',
      "A '-' means the machine has no figure for that week (no data, or no job standards for OEE). The figures are " +
        'those of the Utilization and OEE reports for the week.',
      '',
      'You get this e-mail because benchmarking e-mails are on in your e-mail preferences. To stop them, turn ' +
        `benchmarking e-mails off there: ${input.preferencesUrl}`,
      '',
    ].join('\n'),
  };
}
