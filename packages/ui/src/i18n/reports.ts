import { interpolate } from './index';
import type { MessageParams } from './index';

// The report tools' texts (reports-admin §2, §8). A catalogue of their own beside en.ts so they can move
// into it unchanged; same `{name}` placeholders, same fallback rule.
export const reportsEn = {
  'reports.title': 'Reports',
  'reports.nav': 'Reports',
  'reports.noneForPlan': 'Your plan does not include reports.',
  'reports.utilization': 'Utilization',
  'reports.utilizationBlurb': 'In-cycle share of time by machine, group and interval.',
  'reports.notPermitted': 'Your plan or role does not include this page.',
  'reports.backToReports': 'Back to Reports',
  'reports.requestError': 'There was an error with your request. Please try again.',
  'reports.stale': 'Changes not applied yet. Press Apply to update the report.',
  'range.label': 'Date range',
  'range.horizon': 'Horizon',
  'range.apply': 'Apply',
  'range.start': 'Start',
  'range.end': 'End',
  'range.startTime': 'Start time',
  'range.endTime': 'End time',
  'range.quickLinks': 'Quick links',
  'range.selectUpTo': 'Select up to {max}',
  'range.previous': 'Previous',
  'range.next': 'Next',
  'range.hours': 'Hours',
  'range.close': 'Close',
  'horizon.hour': 'Hour',
  'horizon.shift': 'Shift',
  'horizon.day': 'Day',
  'horizon.week': 'Week',
  'horizon.month': 'Month',
  'horizon.quarter': 'Quarter',
  'shifts.label': 'Shifts',
  'shifts.all': 'All shifts',
  'shifts.none': 'No shifts',
  'csv.download': 'Download CSV',
  'utilization.title': 'Utilization Report for {name}',
  'utilization.allMachines': 'All Machines',
  'utilization.returnToAll': 'Return to Utilization Report for All Machines',
  'utilization.empty': 'No utilization data in this range.',
  'utilization.inCycle': 'In-Cycle',
  'utilization.spindleRotating': 'Spindle-Rotating',
  'utilization.inCut': 'In-Cut',
  'utilization.name': 'Name',
  'utilization.overTime': 'Over Time',
  'utilization.machines': 'Machines',
  'utilization.byInterval': 'By interval',
  'utilization.date': 'Date',
  'utilization.weekOf': 'Week of {date}',
  'utilization.chartLabel': 'In-Cycle by interval. Select a bar to open that interval.',
  'utilization.machineRowHint': 'Open the report for {name}',
} as const;

export type ReportsMessageKey = keyof typeof reportsEn;

export const tr = (key: ReportsMessageKey, params?: MessageParams): string =>
  interpolate(reportsEn[key], params);
