import type { Horizon } from '@takt/ui';
import type { CallCache, ReportCall } from '../reports/hooks';
import type { LZ } from '../reports/shared';
import {
  byShiftRequest,
  listRequest,
  parseByShift,
  parseOeeSummary,
  parseProduction,
  summaryQuery,
} from './report';
import type { ByShift, ListKind, OeeSelection, OeeSummary, Production, ShiftMetric } from './report';

// The OEE report's calls (reports-admin §2, §7), shared by the page and its charts.

/** What every part of the results reads: the summary answer, the settled selection, the shared calls. */
export interface ViewProps {
  summary: OeeSummary;
  selection: OeeSelection;
  cache: CallCache;
  lz: LZ;
}

const PRODUCTION = '/api/reports/warehouse/production';
const BY_SHIFT = '/api/oee/byabstractshift';
const SUMMARY = '/api/reports/oee';

export const summaryCall = (s: OeeSelection, interval?: Horizon): ReportCall<OeeSummary> => ({
  path: SUMMARY,
  query: summaryQuery(s, interval),
  parse: parseOeeSummary,
});
export const listCall = (s: OeeSelection, kind: ListKind, overTime: boolean): ReportCall<Production> => ({
  path: PRODUCTION,
  method: 'POST',
  body: listRequest(s, kind, overTime),
  parse: parseProduction,
});
export const byShiftCall = (
  s: OeeSelection,
  metric: ShiftMetric,
  interval: Horizon,
): ReportCall<ByShift> => ({
  path: BY_SHIFT,
  method: 'POST',
  body: byShiftRequest(s, metric, interval),
  parse: parseByShift,
});
