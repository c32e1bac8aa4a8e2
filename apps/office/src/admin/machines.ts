import type { AdminMachine, MachineSaveRequest } from '@takt/domain';
import { t } from '@takt/ui';
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
});

export function machineFormOf(m: AdminMachine): MachineForm {
  const s = m.source;
  return {
    name: m.name,
    workcenterType: m.workcenterType,
    autostartBehavior: m.autostartBehavior,
    adapterId: m.adapterId ?? '',
    downtimeDelay: String(m.downtimeFailureDelay),
    sourceKind: !s || s.kind === 'gateway' ? 'none' : s.kind,
    host: s?.kind === 'shdr' ? s.host : '',
    port: s?.kind === 'shdr' ? String(s.port) : SHDR_DEFAULT_PORT,
    baseUrl: s?.baseUrl ?? '',
    agentDevice: s?.agentDevice ?? '',
    machineRef: s?.kind === 'mqtt' ? (s.machineRef ?? '') : '',
    gatewayBound: s?.kind === 'gateway',
  };
}

const wholeIn = (v: string, min: number, max: number) => {
  const n = Number(v);
  return v.trim() !== '' && Number.isInteger(n) && n >= min && n <= max;
};

/** The form's errors in the API's words (reports-admin §5 MissingField labels: Name, Address, …). */
export const machineErrors = (f: MachineForm) =>
  setErrors({
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
  });

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

/** The save body; a gateway-bound machine's source is left out, so the API keeps the binding. */
export const machineBody = (f: MachineForm): MachineSaveRequest => ({
  name: f.name.trim(),
  workcenterType: f.workcenterType,
  autostartBehavior: f.autostartBehavior,
  adapterId: f.adapterId === '' ? null : f.adapterId,
  downtimeFailureDelay: Number(f.downtimeDelay),
  ...(f.gatewayBound ? {} : { source: sourceOf(f) }),
});

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
