import type { Context } from 'hono';
import { MAX_REPORT_SPAN_MS, REPORT_SPAN_TOO_LONG, timeProblem } from '@takt/domain';
import type { AppEnv } from './context';
import { invalidInput } from './errors';

// Decision 0980, the bounded-time rule, applied to every request the validate helpers parse: a time field is
// not before 2014-04-01 nor more than a year ahead, and a report range (GET start/end, the report POSTs) is at
// most MAX_REPORT_SPAN_MS long. Rules tighter than this one (things that happened may not be in the future; the
// spec's 31-day downtime and 7-day timeline ranges; the event export's two years) stay with their services.

/** Fields that carry an epoch-ms time wherever they appear in a request. */
export const TIME_FIELDS: ReadonlySet<string> = new Set([
  'start',
  'end',
  'startAt',
  'endAt',
  'adjustmenttime',
  'occurredAt',
  'timestamp',
  'resetdate',
  'pinnedStart',
  'pinnedEnd',
  // Production runs (startdate, enddate, setupend) and a job's repeating schedule (`schedule.ends`).
  'startdate',
  'enddate',
  'setupend',
  'ends',
]);
/** Range pairs whose span is bounded. */
const RANGES: ReadonlyArray<[string, string]> = [
  ['start', 'end'],
  ['startAt', 'endAt'],
];
/**
 * Routes whose range may be longer than MAX_REPORT_SPAN_MS: the jobs reports' "All Time" starts 2014-04-01
 * (reports-admin §7; their cost follows the jobs, not the span).
 */
const UNBOUNDED_SPAN = [/^\/api\/reports\/warehouse\/jobs(\/|$)/];
/**
 * Routes whose service refuses a range by the spec's own, tighter maximum before it reads anything (live-operations
 * §9: parts 7 days, downtime 31 days, timeline 7 days): the spec's text ('Select up to 7 days') speaks for them,
 * as the live channel's temp_timeline does, instead of this rule's two years.
 */
const SPEC_SPAN = [/^\/api\/reports\/(partGoals|downtime|operation)$/];

interface Issue {
  field: string;
  code: string;
  message: string;
}

/** Mutates `issues`: every time field in `value` (objects and arrays, a few levels deep) outside the window. */
function collect(value: unknown, path: string[], now: number, issues: Issue[], depth: number): void {
  if (depth > 4 || value === null || typeof value !== 'object') return;
  if (Array.isArray(value)) {
    value.slice(0, 1000).forEach((v, i) => collect(v, [...path, String(i)], now, issues, depth + 1));
    return;
  }
  for (const [key, v] of Object.entries(value)) {
    const field = [...path, key].join('.');
    if (TIME_FIELDS.has(key) && typeof v === 'number') {
      const problem = timeProblem(key, v, now, 'planned');
      if (problem) issues.push({ field, code: 'time_window', message: problem });
    } else collect(v, [...path, key], now, issues, depth + 1);
  }
}

/** Why a parsed request's times are outside the window of decision 0980 (empty: none). */
export function timeWindowIssues(data: unknown, now: number, opts: { span: boolean }): Issue[] {
  const issues: Issue[] = [];
  collect(data, [], now, issues, 0);
  if (issues.length > 0 || !opts.span || data === null || typeof data !== 'object') return issues;
  const record = data as Record<string, unknown>;
  for (const [s, e] of RANGES) {
    const start = record[s];
    const end = record[e];
    if (typeof start !== 'number' || typeof end !== 'number' || end <= start) continue;
    if (end - start > MAX_REPORT_SPAN_MS)
      issues.push({ field: e, code: 'time_window', message: REPORT_SPAN_TOO_LONG });
  }
  return issues;
}

/**
 * Throws 400 (VALIDATION_ERROR, each problem with code `time_window`) when a parsed request's times are out of
 * the window, and counts the refusal (`takt_times_refused_total{source="api"}`). Report ranges (GET queries and
 * the POSTs under /api/reports) are bounded in span too.
 */
export function checkTimeWindow(c: Context, data: unknown, from: 'query' | 'body'): void {
  const { deps, metrics } = (c as Context<AppEnv>).var;
  const path = c.req.path;
  // A sync batch is answered per command (services/sync.ts applies this rule to each command's time and payload).
  if (!deps || path === '/api/sync') return;
  const span =
    (from === 'query' || path.startsWith('/api/reports/')) &&
    ![...UNBOUNDED_SPAN, ...SPEC_SPAN].some((r) => r.test(path));
  const issues = timeWindowIssues(data, deps.now(), { span });
  if (issues.length === 0) return;
  metrics?.timesRefused('api');
  throw invalidInput(issues);
}
