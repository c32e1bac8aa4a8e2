// The older utilization dashboard (reports-admin §2 /dashboard/utilizationdeprecated; decision 1098), spread
// into the office catalogue (office-texts.ts).

export const remainingScreens = {
  'utilizationOld.pageTitle': 'Utilization Dashboard',
  'utilizationOld.title': 'Utilization Dashboard for {name}',
  'utilizationOld.returnToAll': 'Return to Utilization Dashboard for All Machines',
  'utilizationOld.unit': 'Show',
  'utilizationOld.unit.percent': 'Percent',
  'utilizationOld.unit.hour': 'Hours',
  'utilizationOld.hours': '{hours} h',
  'utilizationOld.caption': 'In-Cycle by machine and interval',
  'utilizationOld.machine': 'Machine',
  'utilizationOld.total': 'Total',
  'utilizationOld.newer': 'Open the newer Utilization Report',
  'utilizationOld.rowHint': 'Open the utilization report for {name}',
} as const;
