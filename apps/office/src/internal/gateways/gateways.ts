import { t } from '@takt/ui';
import type { MessageKey } from '@takt/ui';

// The internal gateway screens (reports-admin §2 "Internal screens": Gateway list, Gateway edit dialog results,
// Internal gateway modal; §3 Agent/gateway; §4 agent actions; §5 ingest multiplier; §9 thresholds). Pure:
// the list's URL state, the modal's form and its rules. Calls /api/gateways (services/api/src/routes/gateways.ts).

export type Tone = 'success' | 'warning' | 'danger';
export type SupervisorMode = 'Active' | 'Dry Run' | 'Standby';
export const SUPERVISOR_MODES: readonly SupervisorMode[] = ['Active', 'Dry Run', 'Standby'];

/** A gateway as GET /api/gateways lists it (reports-admin §3 Agent/gateway). */
export interface GatewayRow {
  id: string;
  name: string;
  assetSerial: string | null;
  edgeRef: string | null;
  company: { id: string; name: string } | null;
  nonRootMachineCount: number;
  rootMachineCount: number;
  resinUUID: string | null;
  ingestMultiplier: number;
  state: 'active' | 'inactive';
  activationStatus: 'pending' | 'activated' | 'deregistered';
  activationToken: string | null;
  pusher: {
    drainCount: number;
    drainInterval: number;
    packedRecordCount: number;
    pushInterval: number;
    version: string | null;
    requestedVersion: string | null;
  };
  supervisor: { mode: SupervisorMode; version: string | null };
  lastResponse: number | null;
  bufferedRecords: number | null;
  lastShdr: number | null;
  supervisorLastJoin: number | null;
  actions: ReadonlyArray<'enable' | 'disable' | 'reset' | 'deregister'>;
  health: { status: string; label: string; tone: Tone };
  bufferTone: Tone | null;
  lastResponseTone: Tone | null;
}

/** GET /api/gateways/:id adds the machines bound to it. */
export interface GatewayDetail extends GatewayRow {
  machines: Array<{ sourceId: string; machineId: string; machineName: string; machineRef: string | null }>;
}

/** Create and reset answer with the token, this once (the server keeps only its hash). */
export interface IssuedToken {
  gateway: GatewayRow;
  token: string;
}

export interface CompanyOption {
  id: string;
  name: string;
}

// ---------- The list: sort and filters kept in the URL (reports-admin §2) ----------

/** reports-admin §2 gateway list columns, in the spec's order; the keys are the API's sort names. */
export const COLUMNS = [
  'company',
  'name',
  'assetSerial',
  'id',
  'edgeRef',
  'machines',
  'rootMachines',
  'balena',
  'supervisorVersion',
  'bufferSize',
  'supervisorLastJoin',
  'lastShdr',
] as const;
export type Column = (typeof COLUMNS)[number];

export const columnLabel = (c: Column): string => t(`internal.gateways.col.${c}` as MessageKey);

export interface ListState {
  sort: Column;
  direction: 'asc' | 'desc';
  unactivated: boolean;
  inactiveCompanies: boolean;
  /** The gateway the dialog's Select marked (docs/decisions/0927). */
  selected: string | null;
  /** The gateway whose dialog is open: a link can open it directly. */
  open: string | null;
}

const DEFAULT_SORT: Column = 'company';

const isColumn = (v: string | null): v is Column => v !== null && (COLUMNS as readonly string[]).includes(v);

/** The list's state from the URL's query; anything unknown falls back to the default. */
export function readListState(q: URLSearchParams): ListState {
  const sort = q.get('sort');
  return {
    sort: isColumn(sort) ? sort : DEFAULT_SORT,
    direction: q.get('direction') === 'desc' ? 'desc' : 'asc',
    unactivated: q.get('unactivated') === 'true',
    inactiveCompanies: q.get('inactiveCompanies') === 'true',
    selected: q.get('selected') || null,
    open: q.get('gateway') || null,
  };
}

/** The URL query of a state; defaults are left out so a plain link shows the plain list. */
export function writeListState(s: ListState): URLSearchParams {
  const q = new URLSearchParams();
  if (s.sort !== DEFAULT_SORT) q.set('sort', s.sort);
  if (s.direction !== 'asc') q.set('direction', s.direction);
  if (s.unactivated) q.set('unactivated', 'true');
  if (s.inactiveCompanies) q.set('inactiveCompanies', 'true');
  if (s.selected) q.set('selected', s.selected);
  if (s.open) q.set('gateway', s.open);
  return q;
}

/** Clicking a column header: the same column flips its direction, another one sorts ascending. */
export const sortBy = (s: ListState, column: Column): ListState =>
  s.sort === column
    ? { ...s, direction: s.direction === 'asc' ? 'desc' : 'asc' }
    : { ...s, sort: column, direction: 'asc' };

/** The API's query for the list (sorting and filtering happen on the server). */
export function listQuery(s: ListState): string {
  const q = new URLSearchParams({ sort: s.sort, direction: s.direction });
  if (s.unactivated) q.set('unactivated', 'true');
  if (s.inactiveCompanies) q.set('inactiveCompanies', 'true');
  return q.toString();
}

// ---------- The modal's form (reports-admin §2 "Internal gateway modal", §5) ----------

export interface GatewayForm {
  name: string;
  /** '' for no company. */
  companyId: string;
  assetSerial: string;
  edgeRef: string;
  /** As typed, so "1." can be on its way to "1.5". */
  ingestMultiplier: string;
  drainCount: string;
  drainInterval: string;
  packedRecordCount: string;
  pushInterval: string;
  mode: SupervisorMode;
}

/** The pusher's settings when a gateway is created without any (the API's defaults). */
const DEFAULT_PUSHER = { drainCount: 1000, drainInterval: 1000, packedRecordCount: 100, pushInterval: 1000 };

export const newGatewayForm = (): GatewayForm => ({
  name: '',
  companyId: '',
  assetSerial: '',
  edgeRef: '',
  ingestMultiplier: '1',
  drainCount: String(DEFAULT_PUSHER.drainCount),
  drainInterval: String(DEFAULT_PUSHER.drainInterval),
  packedRecordCount: String(DEFAULT_PUSHER.packedRecordCount),
  pushInterval: String(DEFAULT_PUSHER.pushInterval),
  mode: 'Active',
});

export const gatewayFormOf = (g: GatewayRow): GatewayForm => ({
  name: g.name,
  companyId: g.company?.id ?? '',
  assetSerial: g.assetSerial ?? '',
  edgeRef: g.edgeRef ?? '',
  ingestMultiplier: String(g.ingestMultiplier),
  drainCount: String(g.pusher.drainCount),
  drainInterval: String(g.pusher.drainInterval),
  packedRecordCount: String(g.pusher.packedRecordCount),
  pushInterval: String(g.pusher.pushInterval),
  mode: g.supervisor.mode,
});

/**
 * Clone (docs/decisions/0927): a new gateway with this one's company and settings; serial number and edge ref
 * name one piece of hardware, so the copy starts without them.
 */
export const cloneForm = (g: GatewayRow): GatewayForm => ({
  ...gatewayFormOf(g),
  name: `${g.name} (copy)`,
  assetSerial: '',
  edgeRef: '',
});

/** reports-admin §5: ingest multiplier min 0.1, max 100, step 0.1. */
export function ingestMultiplierError(text: string): string | null {
  const v = Number(text.trim());
  if (text.trim() === '' || !Number.isFinite(v)) return 'Ingest multiplier must be a number';
  if (v < 0.1) return 'Ingest multiplier must be at least 0.1';
  if (v > 100) return 'Ingest multiplier must be at most 100';
  if (Math.abs(v * 10 - Math.round(v * 10)) > 1e-6) return 'Ingest multiplier must be a multiple of 0.1';
  return null;
}

function wholeError(text: string, label: string, min: number): string | null {
  const v = Number(text.trim());
  if (text.trim() === '' || !Number.isInteger(v) || v < min)
    return min === 0
      ? `${label} must be a whole number, 0 or more`
      : `${label} must be a whole number above 0`;
  return null;
}

export type FormErrors = Partial<Record<keyof GatewayForm, string>>;

/** The form's problems as you type (UI.md "forms validate as you type"); empty when it can be saved. */
export function gatewayErrors(f: GatewayForm): FormErrors {
  const out: FormErrors = {};
  const name = f.name.trim();
  if (name === '') out.name = 'Missing required field: Name';
  else if (name.length > 250) out.name = 'Name must be at most 250 characters';
  if (f.assetSerial.trim().length > 250) out.assetSerial = 'At most 250 characters';
  if (f.edgeRef.trim().length > 250) out.edgeRef = 'At most 250 characters';
  const im = ingestMultiplierError(f.ingestMultiplier);
  if (im) out.ingestMultiplier = im;
  const checks = [
    ['drainCount', 0],
    ['drainInterval', 1],
    ['packedRecordCount', 1],
    ['pushInterval', 1],
  ] as const;
  for (const [key, min] of checks) {
    const e = wholeError(f[key], t(`internal.gateways.field.${key}`), min);
    if (e) out[key] = e;
  }
  return out;
}

const textOrNull = (s: string) => (s.trim() === '' ? null : s.trim());

/** One gateway's URL, or one of its actions' (`/enable`, `/reset`, …). */
export const gatewayPath = (id: string, action = '') => `/api/gateways/${encodeURIComponent(id)}${action}`;

/** POST and PUT /api/gateways body. */
export function gatewayBody(f: GatewayForm) {
  return {
    name: f.name.trim(),
    companyId: f.companyId === '' ? null : f.companyId,
    assetSerial: textOrNull(f.assetSerial),
    edgeRef: textOrNull(f.edgeRef),
    // Rounded to the 0.1 step so 0.30000000000000004 typed by arrows is saved as 0.3.
    ingestMultiplier: Math.round(Number(f.ingestMultiplier) * 10) / 10,
    pusher: {
      drainCount: Number(f.drainCount),
      drainInterval: Number(f.drainInterval),
      packedRecordCount: Number(f.packedRecordCount),
      pushInterval: Number(f.pushInterval),
    },
    supervisor: { mode: f.mode },
  };
}

// ---------- Edge device controls (reports-admin §2, §4, §9) ----------

export type EdgeAction = 'enable' | 'disable' | 'reset' | 'deregister';

/**
 * reports-admin §2: active allows Reset (needs company), Disable, Deregister (needs company); not active allows
 * Enable. `disabled` says why an allowed action cannot run yet.
 */
export function edgeControls(
  g: Pick<GatewayRow, 'state' | 'company'>,
): Array<{ action: EdgeAction; needsCompany: boolean }> {
  if (g.state !== 'active') return [{ action: 'enable', needsCompany: false }];
  const noCompany = g.company === null;
  return [
    { action: 'reset', needsCompany: noCompany },
    { action: 'disable', needsCompany: false },
    { action: 'deregister', needsCompany: noCompany },
  ];
}

/** reports-admin §9: pusher update allowed for version 3.0.0 and later. */
export function pusherUpdatable(version: string | null): boolean {
  const m = version ? /^(\d+)\.(\d+)\.(\d+)/.exec(version.trim()) : null;
  return m !== null && Number(m[1]) >= 3;
}

export const VERSION_PATTERN = /^\d+\.\d+\.\d+$/;

/**
 * How long ago, compactly ("45 s ago", "12 min ago", "3 h ago", "2 d ago"), for the list's time columns: staff
 * compare how fresh edges are, the exact time is in the cell's title.
 */
export function agoText(at: number, now: number): string {
  const s = Math.max(0, Math.floor((now - at) / 1000));
  if (s < 60) return t('internal.gateways.agoSeconds', { n: s });
  if (s < 3600) return t('internal.gateways.agoMinutes', { n: Math.floor(s / 60) });
  if (s < 86_400) return t('internal.gateways.agoHours', { n: Math.floor(s / 3600) });
  return t('internal.gateways.agoDays', { n: Math.floor(s / 86_400) });
}

/** reports-admin §7: gateway status polled every 15 s. */
export const GATEWAY_POLL_MS = 15_000;
