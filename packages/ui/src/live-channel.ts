import { useEffect, useRef, useState } from 'react';

// The live channel's client (live-operations §7, reports-admin §7: a WebSocket at /live, same origin, cookie
// auth, scoped by machine_id; join `live`, `temp_timeline` (config start, end, key) or `diagnostics` (stream
// raw); events join, leave, reinit, channel_update; error NOT_AUTHENTICATED reloads the page, §8). The floor
// app drives its socket from an XState machine (apps/floor-pwa/src/connection) and takes the message parser
// and the URL from here; the office pages use `openLiveChannel` / `useLiveChannel`.
// Reinit (decision 0705): the server's `reinit` without payload means "drop what you show": the client asks
// for the whole state again with its own `reinit`, which the server answers with a payload.

export const LIVE_PATH = '/live';

export type LiveEventName = 'join' | 'channel_update' | 'reinit' | 'leave' | 'error';

/** Any message of the channel, loosely: each channel's payload is checked by the code that reads it. */
export interface LiveChannelMessage {
  event: LiveEventName;
  machine_id?: string;
  name?: string;
  topic?: string;
  payload?: unknown;
  code?: string;
  message?: string;
}

const EVENTS: ReadonlySet<string> = new Set<LiveEventName>([
  'join',
  'channel_update',
  'reinit',
  'leave',
  'error',
]);

/** A message of the channel, or null when it is none (not JSON, no known event). */
export function parseLiveMessage(data: unknown): LiveChannelMessage | null {
  if (typeof data !== 'string') return null;
  try {
    const m = JSON.parse(data) as { event?: unknown } | null;
    return typeof m?.event === 'string' && EVENTS.has(m.event) ? (m as LiveChannelMessage) : null;
  } catch {
    return null;
  }
}

export function liveUrl(loc: Pick<Location, 'protocol' | 'host'> = location, path = LIVE_PATH): string {
  return `${loc.protocol === 'https:' ? 'wss:' : 'ws:'}//${loc.host}${path}`;
}

/** reports-admin §4: the reconnect delay grows from 4 s to at most 60 s. */
export const LIVE_RECONNECT_MIN_MS = 4_000;
export const LIVE_RECONNECT_MAX_MS = 60_000;

/** The wait before reconnect attempt `attempt` (0 = the first after a drop): doubling, capped. */
export function liveReconnectDelay(attempt: number): number {
  return Math.min(LIVE_RECONNECT_MAX_MS, LIVE_RECONNECT_MIN_MS * 2 ** Math.max(0, attempt));
}

/** Where the page's channel stands: a closed union the page renders. */
export type LiveChannelStatus = 'connecting' | 'live' | 'reconnecting';

/** A channel to join and what to do with what it sends. */
export interface LiveChannelSpec {
  machineId: string;
  name: 'temp_timeline' | 'diagnostics' | 'live';
  config?: Record<string, unknown>;
  /** The channel's state: at join, on each update, and in answer to the client's reinit. */
  onState: (payload: unknown, event: 'join' | 'channel_update' | 'reinit') => void;
  /** The server told the channel to reload (history rewritten); the state follows through onState. */
  onReinit?: () => void;
  /** A refusal of this channel (NOT_FOUND, VALIDATION_ERROR, …); NOT_AUTHENTICATED reloads instead. */
  onError?: (code: string, message: string) => void;
  onStatus?: (status: LiveChannelStatus) => void;
}

export interface LiveChannelDeps {
  /** Opens a socket; the browser's WebSocket by default. */
  connect?: (url: string) => WebSocket;
  reload?: () => void;
  url?: string;
}

/**
 * Mutates: opens a socket, joins one channel and keeps it joined across drops (reconnecting after
 * liveReconnectDelay). `close()` leaves the channel and closes the socket for good.
 */
export function openLiveChannel(spec: LiveChannelSpec, deps: LiveChannelDeps = {}): { close(): void } {
  const connect = deps.connect ?? ((url: string) => new WebSocket(url));
  const reload = deps.reload ?? (() => location.reload());
  const channel = { machine_id: spec.machineId, name: spec.name };
  let ws: WebSocket | null = null;
  let attempt = 0;
  let timer: ReturnType<typeof setTimeout> | null = null;
  let closed = false;

  const send = (m: object) => {
    if (ws?.readyState === 1) ws.send(JSON.stringify(m));
  };
  const ours = (m: LiveChannelMessage) => m.machine_id === spec.machineId && m.name === spec.name;

  const onMessage = (m: LiveChannelMessage) => {
    if (m.event === 'error') {
      if (m.code === 'NOT_AUTHENTICATED') reload();
      else if (m.machine_id === undefined || ours(m)) spec.onError?.(m.code ?? 'ERROR', m.message ?? '');
      return;
    }
    if (!ours(m)) return;
    if (m.event === 'join' || m.event === 'channel_update') spec.onState(m.payload, m.event);
    else if (m.event === 'reinit') {
      if ('payload' in m) spec.onState(m.payload, 'reinit');
      else {
        spec.onReinit?.();
        send({ event: 'reinit', ...channel });
      }
    }
  };

  const open = () => {
    if (closed) return;
    spec.onStatus?.(attempt === 0 ? 'connecting' : 'reconnecting');
    let socket: WebSocket;
    try {
      socket = connect(deps.url ?? liveUrl());
    } catch {
      retry();
      return;
    }
    ws = socket;
    socket.onopen = () => {
      attempt = 0;
      spec.onStatus?.('live');
      send({ event: 'join', ...channel, ...(spec.config ? { config: spec.config } : {}) });
    };
    socket.onmessage = (e: MessageEvent) => {
      const m = parseLiveMessage(e.data);
      if (m) onMessage(m);
    };
    socket.onclose = () => {
      if (ws === socket) ws = null;
      retry();
    };
  };

  const retry = () => {
    if (closed || timer) return;
    spec.onStatus?.('reconnecting');
    timer = setTimeout(() => {
      timer = null;
      open();
    }, liveReconnectDelay(attempt++));
  };

  open();
  return {
    close() {
      closed = true;
      if (timer) clearTimeout(timer);
      const socket = ws;
      ws = null;
      if (!socket) return;
      socket.onclose = null;
      socket.onmessage = null;
      socket.onopen = null;
      if (socket.readyState === 1) socket.send(JSON.stringify({ event: 'leave', ...channel }));
      socket.close();
    },
  };
}

/**
 * The channel joined while the component is mounted (and joined again when the machine, the channel or
 * `configKey` change); its status. The callbacks are read through a ref, so they may change every render.
 */
export function useLiveChannel(
  spec: Omit<LiveChannelSpec, 'onStatus'> | null,
  configKey = '',
): LiveChannelStatus {
  const [status, setStatus] = useState<LiveChannelStatus>('connecting');
  const latest = useRef(spec);
  useEffect(() => {
    latest.current = spec;
  });
  const machineId = spec?.machineId ?? null;
  const name = spec?.name ?? null;
  useEffect(() => {
    const s = latest.current;
    if (!machineId || !name || !s) return;
    const ch = openLiveChannel({
      machineId,
      name: s.name,
      ...(s.config ? { config: s.config } : {}),
      onState: (p, e) => latest.current?.onState(p, e),
      onReinit: () => latest.current?.onReinit?.(),
      onError: (c, m) => latest.current?.onError?.(c, m),
      onStatus: setStatus,
    });
    return () => ch.close();
  }, [machineId, name, configKey]);
  return status;
}
