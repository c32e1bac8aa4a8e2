import { ApiError, usePolling } from '@takt/ui';
import type { ApiClient } from '@takt/ui';
import { dashboardStatusSchema } from '@takt/domain';
import type { CycleEntry, DashboardStatusResponse, GatewayStatusEntry, UnmappedEntry } from '@takt/domain';
import { dt } from './messages';

// live-operations §2 "Polling": unmapped status every 10 s, gateway status every 15 s. Both come from
// GET /api/dashboard/status (services/api routes/dashboard.ts), one part per poll (?include=), so each keeps
// its own rate. The answer also says whether the company has the Cycles dashboard (decision 0600).

export const UNMAPPED_POLL_MS = 10_000;
export const GATEWAY_POLL_MS = 15_000;
/** The Cycles dashboard's figures change once a cycle: the figures' rate (live-operations §2). */
export const CYCLES_POLL_MS = 15_000;

export type Tone = 'success' | 'warning' | 'danger';

// The entries' types are the API's own (packages/domain dashboard.ts).
export type { GatewayStatusEntry, UnmappedEntry };

/**
 * The answer must have the documented shape (the domain's dashboardStatusSchema); else it throws (the poll
 * counts a failure). The answer is kept as sent once the schema accepts it.
 */
export function parseStatus(d: unknown): DashboardStatusResponse {
  dashboardStatusSchema.parse(d);
  return d as DashboardStatusResponse;
}

export function fetchStatus(api: ApiClient, include: 'unmapped' | 'gateways', signal?: AbortSignal) {
  return api.request('/api/dashboard/status', {
    query: { include },
    parse: parseStatus,
    ...(signal ? { signal } : {}),
  });
}

/** A quiet header indicator: colour and words, never colour alone. */
export interface Indicator {
  id: string;
  tone: Tone;
  text: string;
  /** The detail behind the words (machine keys, gateway names), for the title attribute. */
  detail: string;
}

const RANK: Record<Tone, number> = { success: 0, warning: 1, danger: 2 };

/**
 * The header's indicators: how many machines (of those shown) send unmapped data; the gateways by health,
 * worst first ("Gateway Degraded", "2 Gateways Not Reporting"), or "Gateways Normal" when all are.
 */
export function statusIndicators(
  unmapped: readonly UnmappedEntry[] | undefined,
  gateways: readonly GatewayStatusEntry[] | undefined,
  machineNames: ReadonlyMap<string, string>,
): Indicator[] {
  const out: Indicator[] = [];
  const shown = (unmapped ?? []).filter((u) => u.keys.length > 0 && machineNames.has(u.machineId));
  if (shown.length > 0) {
    out.push({
      id: 'unmapped',
      tone: 'warning',
      text: dt(shown.length === 1 ? 'dash.unmapped.one' : 'dash.unmapped.many', { count: shown.length }),
      detail: shown.map((u) => `${machineNames.get(u.machineId)}: ${u.keys.join(', ')}`).join('\n'),
    });
  }
  const list = gateways ?? [];
  const bad = list.filter((g) => g.health.tone !== 'success');
  if (list.length > 0 && bad.length === 0) {
    out.push({
      id: 'gateways',
      tone: 'success',
      text: dt('dash.gateways.normal'),
      detail: list.map((g) => `${g.name}: ${g.health.label}`).join('\n'),
    });
  }
  // Grouped by the health value, not its words: two healths may read alike, and the words may be translated.
  const byStatus = new Map<string, GatewayStatusEntry[]>();
  for (const g of bad) byStatus.set(g.health.status, [...(byStatus.get(g.health.status) ?? []), g]);
  const groups = [...byStatus.values()].sort(
    (a, b) =>
      RANK[b[0]!.health.tone] - RANK[a[0]!.health.tone] ||
      a[0]!.health.label.localeCompare(b[0]!.health.label),
  );
  for (const gs of groups) {
    const { status, label, tone } = gs[0]!.health;
    out.push({
      id: `gateways:${status}`,
      tone,
      text:
        gs.length === 1
          ? dt('dash.gateway.one', { label })
          : dt('dash.gateway.many', { count: gs.length, label }),
      detail: gs.map((g) => g.name).join('\n'),
    });
  }
  return out;
}

export interface StatusFeeds {
  indicatorsFor(machineNames: ReadonlyMap<string, string>): Indicator[];
  /** Undefined until the first answer. */
  cyclesDashboard: boolean | undefined;
}

/** The two status polls (unmapped 10 s, gateways 15 s). Errors keep the last answer (usePolling). */
export function useStatusFeeds(api: ApiClient): StatusFeeds {
  const unmapped = usePolling((s) => fetchStatus(api, 'unmapped', s), UNMAPPED_POLL_MS, 'status:unmapped');
  const gateways = usePolling((s) => fetchStatus(api, 'gateways', s), GATEWAY_POLL_MS, 'status:gateways');
  return {
    indicatorsFor: (names) => statusIndicators(unmapped.data?.unmapped, gateways.data?.gateways, names),
    cyclesDashboard: unmapped.data?.cyclesDashboard ?? gateways.data?.cyclesDashboard,
  };
}

// ---- The Cycles dashboard (live-operations §6: one configured company only)

const isNumOrNull = (v: unknown) => v === null || (typeof v === 'number' && Number.isFinite(v));

export function parseCycles(d: unknown): CycleEntry[] {
  if (!Array.isArray(d)) throw new Error('Expected an array of cycle entries');
  for (const e of d as Record<string, unknown>[]) {
    if (typeof e?.machineId !== 'string') throw new Error('Cycle entry without machineId');
    for (const k of ['lastCycleMs', 'lastCycleAt', 'expectedCycleMs', 'deltaMs']) {
      if (!isNumOrNull(e[k])) throw new Error(`Cycle entry field ${k} is not a number`);
    }
  }
  return d as CycleEntry[];
}

/** Null when the API says the dashboard is not available for the company. */
export async function fetchCycles(
  api: ApiClient,
  group: string | null,
  signal?: AbortSignal,
): Promise<Map<string, CycleEntry> | null> {
  try {
    const rows = await api.request('/api/dashboard/cycles', {
      query: { group },
      parse: parseCycles,
      ...(signal ? { signal } : {}),
    });
    return new Map(rows.map((r) => [r.machineId, r]));
  } catch (e) {
    if (e instanceof ApiError && e.status === 403 && e.code === 'DASHBOARD_NOT_AVAILABLE') return null;
    throw e;
  }
}

/** Seconds with one decimal under a minute, else m:ss ("1:12"). */
export function formatCycle(ms: number | null): string {
  if (ms == null) return '—';
  const s = Math.round(ms / 100) / 10;
  if (s < 60) return `${s.toFixed(1)} s`;
  const whole = Math.round(ms / 1000);
  return `${Math.floor(whole / 60)}:${String(whole % 60).padStart(2, '0')}`;
}

/** Last against expected: at or under expected is on pace (success); slower than expected is a warning. */
export function cycleVerdict(e: CycleEntry): { tone: Tone | null; text: string } {
  if (e.lastCycleMs == null) return { tone: null, text: dt('dash.cycles.noCycle') };
  if (e.expectedCycleMs == null || e.deltaMs == null) return { tone: null, text: dt('dash.noJobStandards') };
  const delta = formatCycle(Math.abs(e.deltaMs));
  if (e.deltaMs <= 0) return { tone: 'success', text: dt('dash.cycles.under', { delta }) };
  return { tone: 'warning', text: dt('dash.cycles.over', { delta }) };
}
