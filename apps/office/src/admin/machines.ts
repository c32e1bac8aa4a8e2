import type { AdapterStatus, AdminMachine, MachineSaveRequest } from '@takt/domain';
import { billingDateProblem } from '@takt/domain';
import { t } from '@takt/ui';
import { parseWallInput, wallInput } from '../quality/scrap-form';
import { missingField, nameError, setErrors } from './form';

// Machines admin (reports-admin §2 "Machines admin: create and edit with panels …; reorder by drag; show or
// hide decommissioned; decommission", §3 Machine, §5 "Decommission prompt must match machine name").

export type SourceKind = 'none' | 'shdr' | 'agent' | 'mqtt';

export interface MachineForm {
  name: string;
  workcenterType: AdminMachine['workcenterType'];
  autostartBehavior: AdminMachine['autostartBehavior'];
  /** '' for none. */
  adapterId: string;
  /** Minutes, as typed. */
  downtimeDelay: string;
  sourceKind: SourceKind;
  host: string;
  port: string;
  baseUrl: string;
  agentDevice: string;
  machineRef: string;
  /** A gateway binding is kept as it is (root users change it on the gateway). */
  gatewayBound: boolean;
  /**
   * Fed by the test screen's simulation (decision 1100): kept while Source stays None, replaced by a source chosen.
   */
  simulated: boolean;
  // Software panel (decision 0892): '' is unset (Undecided for benchmarking).
  dispatchKey: string;
  excludeFromBenchmarking: '' | '0' | '1';
  // Root users only (decisions 1111, 1112): billing date 'YYYY-MM-DD', integration time as company wall time
  // (datetime-local), '' for none (the integration time is then the machine's first data).
  pingMonitor: '' | '0' | '1';
  billingDate: string;
  integratedAt: string;
  // Utilization panel: whole percents as typed; '' follows the company's.
  utilizationWarningPercent: string;
  utilizationFailurePercent: string;
}

/** A new machine's downtime delay (minutes), the one machines provisioned by the API start with. */
export const DEFAULT_DOWNTIME_DELAY = 5;
export const SHDR_DEFAULT_PORT = '7878';

export const newMachineForm = (): MachineForm => ({
  name: '',
  workcenterType: 'machine',
  autostartBehavior: 'disabled',
  adapterId: '',
  downtimeDelay: String(DEFAULT_DOWNTIME_DELAY),
  sourceKind: 'shdr',
  host: '',
  port: SHDR_DEFAULT_PORT,
  baseUrl: '',
  agentDevice: '',
  machineRef: '',
  gatewayBound: false,
  simulated: false,
  dispatchKey: '',
  excludeFromBenchmarking: '',
  pingMonitor: '',
  billingDate: '',
  integratedAt: '',
  utilizationWarningPercent: '',
  utilizationFailurePercent: '',
});

const choice = (v: 0 | 1 | null): '' | '0' | '1' => (v === null ? '' : v === 0 ? '0' : '1');
const fromChoice = (v: '' | '0' | '1'): 0 | 1 | null => (v === '' ? null : v === '0' ? 0 : 1);

/** The form of a saved machine; `timezone` is the company's (the integration time is typed as its wall time). */
export function machineFormOf(m: AdminMachine, timezone = 'UTC'): MachineForm {
  const s = m.source;
  return {
    name: m.name,
    workcenterType: m.workcenterType,
    autostartBehavior: m.autostartBehavior,
    adapterId: m.adapterId ?? '',
    downtimeDelay: String(m.downtimeFailureDelay),
    sourceKind: !s || s.kind === 'gateway' || s.kind === 'simulator' ? 'none' : s.kind,
    host: s?.kind === 'shdr' ? s.host : '',
    port: s?.kind === 'shdr' ? String(s.port) : SHDR_DEFAULT_PORT,
    baseUrl: s?.baseUrl ?? '',
    agentDevice: s?.agentDevice ?? '',
    machineRef: s?.kind === 'mqtt' ? (s.machineRef ?? '') : '',
    gatewayBound: s?.kind === 'gateway',
    simulated: s?.kind === 'simulator',
    dispatchKey: m.dispatchKey ?? '',
    excludeFromBenchmarking: choice(m.excludeFromBenchmarking),
    pingMonitor: choice(m.pingMonitor ?? null),
    billingDate: m.billingDate ?? '',
    integratedAt: m.integratedAtSet && m.integratedAt != null ? wallInput(timezone, m.integratedAt) : '',
    utilizationWarningPercent:
      m.utilizationWarningPercent === null ? '' : String(m.utilizationWarningPercent),
    utilizationFailurePercent:
      m.utilizationFailurePercent === null ? '' : String(m.utilizationFailurePercent),
  };
}

const wholeIn = (v: string, min: number, max: number) => {
  const n = Number(v);
  return v.trim() !== '' && Number.isInteger(n) && n >= min && n <= max;
};

/** The form's errors in the API's words (reports-admin §5 MissingField labels: Name, Address, …). */
export const machineErrors = (f: MachineForm, now = Date.now()) =>
  setErrors({
    billingDate: f.billingDate === '' ? null : billingDateProblem(f.billingDate, now),
    integratedAt:
      f.integratedAt === '' || parseWallInput('UTC', f.integratedAt) !== null
        ? null
        : t('admin.machines.integratedAtError'),
    name: nameError(f.name),
    downtimeDelay: wholeIn(f.downtimeDelay, 0, 1440) ? null : t('admin.machines.downtimeDelayError'),
    host: f.sourceKind === 'shdr' && f.host.trim() === '' ? missingField(t('admin.machines.host')) : null,
    port: f.sourceKind === 'shdr' && !wholeIn(f.port, 1, 65535) ? t('admin.machines.portError') : null,
    baseUrl:
      f.sourceKind !== 'agent'
        ? null
        : f.baseUrl.trim() === ''
          ? missingField(t('admin.machines.host'))
          : /^https?:\/\/\S+$/.test(f.baseUrl.trim())
            ? null
            : t('admin.machines.agentUrlError'),
    machineRef:
      f.sourceKind === 'mqtt' && f.machineRef.trim() === ''
        ? missingField(t('admin.machines.machineRef'))
        : null,
    dispatchKey: f.dispatchKey.trim().length > 250 ? t('admin.tooLong', { max: 250 }) : null,
    utilizationWarningPercent: percentError(f.utilizationWarningPercent, 'admin.machines.utilWarningError'),
    utilizationFailurePercent:
      percentError(f.utilizationFailurePercent, 'admin.machines.utilFailureError') ??
      (f.utilizationWarningPercent.trim() !== '' &&
      f.utilizationFailurePercent.trim() !== '' &&
      Number(f.utilizationFailurePercent) > Number(f.utilizationWarningPercent)
        ? t('admin.machines.utilOrderError')
        : null),
  });

/** A whole percent from 0 to 100, or empty (the company's). */
function percentError(v: string, key: 'admin.machines.utilWarningError' | 'admin.machines.utilFailureError') {
  return v.trim() === '' || wholeIn(v, 0, 100) ? null : t(key);
}

const percentOf = (v: string): number | null => (v.trim() === '' ? null : Number(v));

function sourceOf(f: MachineForm): MachineSaveRequest['source'] {
  switch (f.sourceKind) {
    case 'shdr':
      return { kind: 'shdr', host: f.host.trim(), port: Number(f.port) };
    case 'agent':
      return { kind: 'agent', baseUrl: f.baseUrl.trim(), agentDevice: f.agentDevice.trim() || null };
    case 'mqtt':
      return { kind: 'mqtt', machineRef: f.machineRef.trim() };
    case 'none':
      return null;
  }
}

/**
 * The save body; a gateway-bound machine's source is left out, so the API keeps the binding, and so is a simulated
 * machine's while Source stays None (decision 1100). The root-only fields go only when `root` is given (the API
 * refuses them from anyone else, decision 1112).
 */
export const machineBody = (f: MachineForm, root?: { timezone: string }): MachineSaveRequest => ({
  name: f.name.trim(),
  workcenterType: f.workcenterType,
  autostartBehavior: f.autostartBehavior,
  adapterId: f.adapterId === '' ? null : f.adapterId,
  downtimeFailureDelay: Number(f.downtimeDelay),
  ...(f.gatewayBound || (f.simulated && f.sourceKind === 'none') ? {} : { source: sourceOf(f) }),
  dispatchKey: f.dispatchKey.trim() || null,
  excludeFromBenchmarking: fromChoice(f.excludeFromBenchmarking),
  utilizationWarningPercent: percentOf(f.utilizationWarningPercent),
  utilizationFailurePercent: percentOf(f.utilizationFailurePercent),
  ...(root
    ? {
        pingMonitor: fromChoice(f.pingMonitor),
        billingDate: f.billingDate === '' ? null : f.billingDate,
        integratedAt: f.integratedAt === '' ? null : parseWallInput(root.timezone, f.integratedAt),
      }
    : {}),
});

// ---------- Adapter reset (reports-admin §4, §7, §8; decision 0891) ----------

/** reports-admin §7 "Machine form polls adapter status every 3 s". */
export const ADAPTER_POLL_MS = 3000;

/** What the form shows before the first answer, then the status the API derives. */
export type AdapterStatusView = { status: 'checking' } | AdapterStatus;

/**
 * reports-admin §4 "Status text: Checking status, Waiting for workcenter, Gathering info, Problem configuring
 * machine"; §8 "Machine adapter status shows the server problem message" (`detail`).
 */
export function adapterStatusText(v: AdapterStatusView): { text: string; detail: string | null } {
  switch (v.status) {
    case 'checking':
    case 'waiting':
    case 'gathering':
      return { text: t(`admin.machines.adapterStatus.${v.status}`), detail: null };
    case 'problem':
      return { text: t('admin.machines.adapterStatus.problem'), detail: v.message };
    case 'mapped':
      return { text: t('admin.machines.adapterStatus.mapped', { name: v.adapterName ?? '' }), detail: null };
  }
}

/** How the list shows where a machine's data comes from. */
export function sourceSummary(m: Pick<AdminMachine, 'source'>): string {
  const s = m.source;
  if (!s) return t('admin.machines.noSource');
  switch (s.kind) {
    case 'shdr':
      return t('admin.machines.sourceShdr', { host: s.host, port: s.port });
    case 'agent':
      return t('admin.machines.sourceAgent', { url: s.baseUrl ?? '' });
    case 'mqtt':
      return t('admin.machines.sourceMqtt', { ref: s.machineRef ?? '' });
    case 'gateway':
      return t('admin.machines.sourceGateway');
    case 'simulator':
      return t('simulate.sourceSummary');
  }
}

export const workcenterTypeText = (type: AdminMachine['workcenterType']) => t(`admin.machines.type.${type}`);

/** In service in workcenter order; decommissioned ones apart, latest first. */
export function splitMachines(all: readonly AdminMachine[]) {
  const inService = all
    .filter((m) => m.decommissionedAt === null)
    .sort((a, b) => a.sortOrder - b.sortOrder || a.name.localeCompare(b.name));
  const decommissioned = all
    .filter((m) => m.decommissionedAt !== null)
    .sort((a, b) => (b.decommissionedAt ?? 0) - (a.decommissionedAt ?? 0));
  return { inService, decommissioned };
}

/** reports-admin §5 "Decommission prompt must match machine name". */
export const decommissionMatches = (typed: string, name: string) => typed.trim() === name;

/**
 * `machines` in the order `ids` gives (a reorder not yet reloaded); machines `ids` does not name keep their
 * place after the named ones.
 */
export function inOrder<T extends { id: string }>(
  machines: readonly T[],
  ids: readonly string[] | null,
): T[] {
  if (!ids) return [...machines];
  const at = new Map(ids.map((id, i) => [id, i]));
  const rank = (m: T) => at.get(m.id) ?? ids.length + machines.indexOf(m);
  return [...machines].sort((a, b) => rank(a) - rank(b));
}
