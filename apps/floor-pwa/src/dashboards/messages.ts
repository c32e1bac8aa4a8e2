import { interpolate } from '@takt/ui';
import type { MessageParams } from '@takt/ui';

// The live dashboards' own texts, English only, with the {placeholder} rules of packages/ui's catalogue
// (i18n/en.ts).
const en = {
  'dash.ring.utilization': 'Utilization',
  'dash.ring.oee': 'OEE',
  'dash.ring.partsgoal': 'Parts Goal',
  'dash.progress': 'Progress',
  'dash.parts': 'Parts',
  'dash.noJob': 'No job',
  'dash.noJobStandards': 'No job standards',
  'dash.noData': 'No data',
  'dash.notAvailable': 'The {type} dashboard is not available for your product.',
  'dash.notAvailableHint': 'It needs the full product. Utilization and Downtime dashboards are available.',
  'dash.machineNotFound': 'This machine is not on the dashboard.',
  'dash.allMachines': 'All machines',
  'dash.stale': 'Offline. Showing data from {time}.',
  'dash.failed': 'The machine list could not be loaded after {count} tries. Retrying…',
  'dash.tileActions': 'Job actions for {machine}',
  'dash.startJob': 'Start Job',
  'dash.cancelJob': 'Cancel Job',
  'dash.startProduction': 'Start Production',
  'dash.jobPicker.title': 'Start Job on {machine}',
  'dash.jobCancel.title': 'Cancel Job',
  'dash.jobCancel.body': 'Stop {job} on {machine} and unschedule the machine?',
  'dash.jobSetup.title': 'Start Production on {machine}',
  'dash.jobSetup.body': 'Enter the parts kept after setup, then start production.',
  'dash.status': 'Data and gateway status',
  'dash.unmapped.one': '1 machine sends unmapped data',
  'dash.unmapped.many': '{count} machines send unmapped data',
  'dash.gateways.normal': 'Gateways Normal',
  'dash.gateway.one': 'Gateway {label}',
  'dash.gateway.many': '{count} Gateways {label}',
  'dash.cycles': 'Cycles',
  'dash.cycles.last': 'Last cycle',
  'dash.cycles.expected': 'Expected',
  'dash.cycles.under': '{delta} faster than expected',
  'dash.cycles.over': '{delta} slower than expected',
  'dash.cycles.noCycle': 'No cycle in the last 24 hours',
  'dash.cycles.notAvailable': 'The Cycles dashboard is not available for your company.',
  'dash.cycles.notAvailableHint':
    'It is enabled for one company only. Utilization and Downtime dashboards are available.',
} as const;

export type DashMessageKey = keyof typeof en;

export const dt = (key: DashMessageKey, params?: MessageParams): string => interpolate(en[key], params);
