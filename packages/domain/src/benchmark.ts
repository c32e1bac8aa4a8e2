import type { EpochMs } from './brand';
import { HOUR_MS, epochMs } from './brand';
import type { CompanyClock } from './calendar/time-context';
import { companyDayStart, shopDateOf } from './calendar/time-context';
import { addDays, formatDay, startOfIsoWeek } from './time/civil';

// Weekly benchmarking e-mails (reports-admin §2 "E-mail notification preferences: toggle … benchmarking
// e-mails", §3 Email preferences receiveBenchmarkingEmail, Company exclude_from_benchmarking, Machine
// excludeFromBenchmarking, §9 "Benchmarking: Undecided (null), Opt In (0), Opt Out (1)"; decision 1110).
// Pure: the week a company compares at `now`, and the anonymous peer distribution.

/** A peer distribution is shown only with at least this many machines … */
export const BENCHMARK_MIN_PEER_MACHINES = 5;
/** … from at least this many other companies (k-anonymity: no figure can be traced to one plant). */
export const BENCHMARK_MIN_PEER_COMPANIES = 3;
/** "Monday morning": the e-mail goes out from this long after the compared week ends (Monday 06:00 at midnight). */
export const BENCHMARK_SEND_AFTER_MS = 6 * HOUR_MS;

/** reports-admin §9: machines and companies choose null (Undecided), 0 (Opt In) or 1 (Opt Out). */
export const BENCHMARK_OPT_IN = 0;
export const BENCHMARK_OPT_OUT = 1;

export interface BenchmarkWeek {
  /** 'YYYY-MM-DD': the Monday shop date the week starts on (the week's key, one e-mail per user and week). */
  week: string;
  /** [start, end) of the ISO week in the company's calendar (company days, so a report of the week matches). */
  start: EpochMs;
  end: EpochMs;
  /** From when the week's e-mail may go out. */
  sendFrom: EpochMs;
}

/**
 * The last complete ISO week (Monday to Monday, company days in the company's zone and start-of-day) at `now`:
 * the week a benchmarking e-mail sent at `now` compares. Its e-mail is due once `now` ≥ `sendFrom`.
 */
export function lastCompleteWeek(clock: CompanyClock, now: number): BenchmarkWeek {
  const thisMonday = startOfIsoWeek(shopDateOf(clock, epochMs(now)));
  const lastMonday = addDays(thisMonday, -7);
  const end = companyDayStart(clock, thisMonday);
  return {
    week: formatDay(lastMonday),
    start: companyDayStart(clock, lastMonday),
    end,
    sendFrom: epochMs(end + BENCHMARK_SEND_AFTER_MS),
  };
}

/** The p-quantile (0..1) of ascending `sorted` by linear interpolation between order statistics (R type 7). */
export function quantile(sorted: readonly number[], p: number): number {
  if (sorted.length === 0) throw new RangeError('quantile of nothing');
  const h = (sorted.length - 1) * p;
  const lo = Math.floor(h);
  const hi = Math.ceil(h);
  return sorted[lo]! + (h - lo) * (sorted[hi]! - sorted[lo]!);
}

export interface PeerFigure {
  companyId: string;
  /** A fraction (0.42 = 42 %). */
  value: number;
}

export interface PeerDistribution {
  machines: number;
  companies: number;
  q1: number;
  median: number;
  q3: number;
}

/**
 * The quartiles of the peers' figures, or null when there are fewer than BENCHMARK_MIN_PEER_MACHINES machines
 * or fewer than BENCHMARK_MIN_PEER_COMPANIES companies behind them ("not enough peers yet"). Only these three
 * numbers and the counts leave: never a company or a machine.
 */
export function peerDistribution(figures: readonly PeerFigure[]): PeerDistribution | null {
  const values = figures.map((f) => f.value).filter((v) => Number.isFinite(v));
  const companies = new Set(figures.filter((f) => Number.isFinite(f.value)).map((f) => f.companyId)).size;
  if (values.length < BENCHMARK_MIN_PEER_MACHINES || companies < BENCHMARK_MIN_PEER_COMPANIES) return null;
  const sorted = [...values].sort((a, b) => a - b);
  return {
    machines: sorted.length,
    companies,
    q1: quantile(sorted, 0.25),
    median: quantile(sorted, 0.5),
    q3: quantile(sorted, 0.75),
  };
}

/** Where a machine's figure stands against the peers: the quartile it falls in, 1 (lowest) to 4. */
export function peerQuartile(value: number, d: PeerDistribution): 1 | 2 | 3 | 4 {
  if (value < d.q1) return 1;
  if (value < d.median) return 2;
  if (value < d.q3) return 3;
  return 4;
}
