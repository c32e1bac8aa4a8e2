import { HEARTBEAT_TIMEOUT_MS, machineConnection } from '@takt/domain';
import type { LiveConnection, MachineConnectionInput, TileStatus } from '@takt/domain';
import { t } from '@takt/ui';

// The machine diagnostics page (reports-admin §2; live-operations §4 "Live connection status", §9 "Diagnostics
// heartbeat timeout 5 minutes"): the latest value of every field from GET /api/machines/:id/diagnostics, kept
// current by the live channel's `diagnostics` stream (raw observations), and the keys no adapter field maps.
// Pure: the page feeds it answers, channel payloads and the clock.

/**
 * A fresh answer with what the page already shows folded in: a live value newer than the answer (it arrived
 * while the answer was on its way) is kept.
 */
export function mergeAnswers(fresh: DiagnosticsAnswer, shown: DiagnosticsAnswer | null): DiagnosticsAnswer {
  if (!shown) return fresh;
  const newer = shown.fields.flatMap((f) => {
    const had = fresh.fields.find((g) => g.key === f.key);
    return f.ts != null && (!had || had.ts == null || had.ts < f.ts)
      ? [{ ts: f.ts, key: f.key, value: f.value }]
      : [];
  });
  return applyObservations(fresh, newer);
}

/** The store's internal key for the link log (packages/db CONNECTION_KEY): never a field. */
const CONNECTION_KEY = '@connection';

export interface DiagnosticsField {
  key: string;
  value: string | null;
  /** When the value was reported; null for a mapped field not heard from in the window. */
  ts: number | null;
  /** The adapter field's MTConnect type; null for a key no adapter field maps. */
  dataItemType: string | null;
}

export interface DiagnosticsAnswer {
  connection: LiveConnection;
  lastHeartbeat: number | null;
  fields: DiagnosticsField[];
  unmapped: string[];
  counters: { lines: number; observations: number; rejected: number; lastLineAt: number | null };
  /** The server's clock when it answered (`window.to`), for the page's clock; null when absent. */
  serverNow: number | null;
  /** Why the server does not connect the machine's source (the source address policy, decision 0985); null: nothing. */
  sourceProblem: string | null;
  /** The facts the machine's connection words come from (machineConnection, decision 1055); null from older servers. */
  connectionInput?: MachineConnectionInput | null;
}

export interface RawObservation {
  ts: number;
  key: string;
  value: string | null;
}

const num = (v: unknown): number | null => (typeof v === 'number' && Number.isFinite(v) ? v : null);
const str = (v: unknown): string | null => (typeof v === 'string' ? v : null);

/** Keys in reading order: alphabetical whatever the case ("exec", "pc", "Sload"), ties by code unit. */
export const keyOrder = (a: string, b: string): number =>
  a.localeCompare(b, 'en', { sensitivity: 'base' }) || (a < b ? -1 : a > b ? 1 : 0);
const byKeyName = (a: { key: string }, b: { key: string }) => keyOrder(a.key, b.key);

/** GET /api/machines/:id/diagnostics, checked; throws on an answer of another shape. */
export function parseDiagnostics(json: unknown): DiagnosticsAnswer {
  const o = json as Partial<Record<keyof DiagnosticsAnswer, unknown>> | null;
  if (!o || !Array.isArray(o.fields) || !Array.isArray(o.unmapped)) throw new Error('Unexpected answer');
  const c = (o.counters ?? {}) as Record<string, unknown>;
  const connection = typeof o.connection === 'string' ? o.connection : num(o.connection);
  return {
    connection: (connection ?? 'CONNECTING') as LiveConnection,
    lastHeartbeat: num(o.lastHeartbeat),
    fields: (o.fields as Array<Record<string, unknown>>)
      .filter((f) => typeof f.key === 'string')
      .map((f) => ({
        key: f.key as string,
        value: str(f.value),
        ts: num(f.ts),
        dataItemType: str(f.dataItemType),
      }))
      .sort(byKeyName),
    unmapped: (o.unmapped as unknown[]).filter((k): k is string => typeof k === 'string').sort(keyOrder),
    counters: {
      lines: num(c.lines) ?? 0,
      observations: num(c.observations) ?? 0,
      rejected: num(c.rejected) ?? 0,
      lastLineAt: num(c.lastLineAt),
    },
    serverNow: num((o as { window?: { to?: unknown } }).window?.to),
    sourceProblem: str((o as { sourceProblem?: unknown }).sourceProblem),
    connectionInput: parseConnectionInput((o as { connectionInput?: unknown }).connectionInput),
  };
}

function parseConnectionInput(v: unknown): MachineConnectionInput | null {
  const o = v as Record<string, unknown> | null | undefined;
  if (!o || typeof o !== 'object') return null;
  return {
    sourceConfigured: o.sourceConfigured === true,
    fieldsMapped: o.fieldsMapped === true,
    everReported: o.everReported === true,
    link: str(o.link),
    lastHeartbeat: num(o.lastHeartbeat),
  };
}

/** The `diagnostics` channel's payload `{ observations }`, checked; malformed rows are dropped. */
export function parseObservations(payload: unknown): RawObservation[] {
  const rows = (payload as { observations?: unknown } | null)?.observations;
  if (!Array.isArray(rows)) return [];
  return (rows as Array<Record<string, unknown>>).flatMap((r) => {
    const ts = typeof r.ts === 'string' ? Number(r.ts) : num(r.ts);
    return typeof r.key === 'string' &&
      ts != null &&
      Number.isFinite(ts) &&
      (r.value === null || typeof r.value === 'string')
      ? [{ ts, key: r.key, value: r.value }]
      : [];
  });
}

/**
 * The answer with live observations folded in: each key keeps its newest value (an older one arriving late
 * does not replace it), keys not seen before are added, and a new key no adapter field maps joins the
 * unmapped list. The link log's internal key is not a field. Sorted by key (keyOrder).
 */
export function applyObservations(
  answer: DiagnosticsAnswer,
  observations: readonly RawObservation[],
): DiagnosticsAnswer {
  if (observations.length === 0) return answer;
  const byKey = new Map(answer.fields.map((f) => [f.key, f]));
  const unmapped = new Set(answer.unmapped);
  for (const o of observations) {
    if (o.key === CONNECTION_KEY) continue;
    const had = byKey.get(o.key);
    if (had && had.ts != null && had.ts > o.ts) continue;
    byKey.set(o.key, { key: o.key, value: o.value, ts: o.ts, dataItemType: had?.dataItemType ?? null });
    if (!had?.dataItemType) unmapped.add(o.key);
  }
  const fields = [...byKey.values()].sort(byKeyName);
  return { ...answer, fields, unmapped: [...unmapped].sort(keyOrder) };
}

export interface ConnectionView {
  status: TileStatus;
  /** The words beside the colour (UI.md: never colour alone). */
  label: string;
  /** What it means for the plant manager. */
  detail: string;
}

/**
 * How long until the page asks for the answer again: DIAGNOSTICS_REFRESH_MS while the link shows up, sooner
 * (DIAGNOSTICS_WAIT_MS) while it shows anything else, since the link's state comes only with the answer and a
 * technician fixing an adapter watches for it to come up (decision 1241).
 */
export function nextRefreshMs(answer: DiagnosticsAnswer | null, now: number): number {
  if (!answer) return DIAGNOSTICS_WAIT_MS;
  return connectionView(answer, now, String).status === 'success'
    ? DIAGNOSTICS_REFRESH_MS
    : DIAGNOSTICS_WAIT_MS;
}

/** The heartbeat and the counters come only with the HTTP answer: asked again this often while the link is up. */
export const DIAGNOSTICS_REFRESH_MS = 30_000;
/** … and this often while it is not (connecting, refused, lost, or no answer yet). */
export const DIAGNOSTICS_WAIT_MS = 5_000;

/**
 * The machine's connection in the words of the Machines list and the tiles (machineConnection, decision 1055):
 * Not configured (no source, or no adapter fields), Never Reported (connecting, or the source refuses), Disconnected
 * (no heartbeat for 5 minutes, §9), otherwise Connected with the last heartbeat. Recomputed on the page's clock
 * with the domain's rule, so the page turns Disconnected on time without a new answer. An answer without the
 * facts (an older server) is judged by its fields and heartbeat.
 */
export function connectionView(
  answer: Pick<DiagnosticsAnswer, 'fields' | 'lastHeartbeat' | 'connectionInput'>,
  now: number,
  formatTime: (ms: number) => string,
): ConnectionView {
  const input: MachineConnectionInput = answer.connectionInput ?? {
    sourceConfigured: true,
    fieldsMapped: answer.fields.some((f) => f.dataItemType != null),
    everReported: answer.lastHeartbeat != null,
    link: answer.lastHeartbeat != null ? 'CONNECTED' : null,
    lastHeartbeat: answer.lastHeartbeat,
  };
  const c = machineConnection(input, now);
  const label = c.words;
  switch (c.why) {
    case 'noSource':
      return { status: 'unavailable', label, detail: t('machineTools.conn.noSourceHint') };
    case 'noFields':
      return { status: 'unavailable', label, detail: t('machineTools.conn.notConfiguredHint') };
    case 'connecting':
      return { status: 'warning', label, detail: t('machineTools.conn.neverReportedHint') };
    case 'refused':
      return { status: 'danger', label, detail: t('machineTools.conn.refusedHint') };
    case 'lost':
      return {
        status: 'danger',
        label,
        detail: t('machineTools.conn.disconnectedHint', {
          minutes: HEARTBEAT_TIMEOUT_MS / 60_000,
          time: c.lastHeartbeat == null ? t('machineTools.never') : formatTime(c.lastHeartbeat),
        }),
      };
    case 'linkUp':
      return {
        status: 'success',
        label,
        detail: t('machineTools.conn.heartbeat', { time: formatTime(c.lastHeartbeat ?? now) }),
      };
  }
}

/**
 * A field's value as shown: numbers in the locale (at most `decimals` decimals, 4 by default), text as sent,
 * none as "No value".
 */
export function formatFieldValue(value: string | null, locale?: string, decimals = 4): string {
  if (value === null || value === '') return t('machineTools.noValue');
  const v = value.trim();
  if (/^[-+]?(\d+\.?\d*|\.\d+)([eE][-+]?\d+)?$/.test(v))
    return new Intl.NumberFormat(locale, { maximumFractionDigits: decimals }).format(Number(v));
  return value;
}

/** How long ago `ts` was, coarsely ("just now", "42 s ago", "5 min ago", "3 h ago", "2 d ago"); '-' unknown. */
export function formatAge(ts: number | null, now: number): string {
  if (ts == null) return '-';
  const s = Math.max(0, Math.floor((now - ts) / 1000));
  if (s < 5) return t('machineTools.age.now');
  if (s < 60) return t('machineTools.age.seconds', { n: s });
  if (s < 3600) return t('machineTools.age.minutes', { n: Math.floor(s / 60) });
  if (s < 86_400) return t('machineTools.age.hours', { n: Math.floor(s / 3600) });
  return t('machineTools.age.days', { n: Math.floor(s / 86_400) });
}

/** A value reported within this long is marked as just changed (a short highlight on the row). */
export const FRESH_MS = 10_000;

/** Is the field's value fresh (reported within FRESH_MS of now)? */
export const isFresh = (f: Pick<DiagnosticsField, 'ts'>, now: number): boolean =>
  f.ts != null && now - f.ts <= FRESH_MS && now >= f.ts - FRESH_MS;
