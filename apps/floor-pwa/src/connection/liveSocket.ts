import { fromCallback } from 'xstate';
import { ENDPOINTS } from '../endpoints/endpoints';
import type { LiveConnectionEvent } from './liveConnectionMachine';

// The live channel over WebSocket (same origin, cookie auth): join 'live' for the open machine; its updates
// are the machine's dashboard tile. 'reinit' asks for a re-fetch; NOT_AUTHENTICATED reloads (live-operations §8).

export type ServerMessage =
  | { event: 'join' | 'channel_update'; machine_id: string; name: string; topic?: string; payload: unknown }
  | { event: 'reinit'; machine_id?: string; name?: string }
  | { event: 'error'; code: string; message: string }
  | { event: 'leave'; machine_id: string; name: string };

export interface LiveHandlers {
  onTile: (machineId: string, tile: Record<string, unknown>) => void;
  onReinit: () => void;
  reload: () => void;
}

export function parseServerMessage(data: unknown): ServerMessage | null {
  if (typeof data !== 'string') return null;
  try {
    const m = JSON.parse(data) as { event?: unknown };
    return typeof m?.event === 'string' ? (m as ServerMessage) : null;
  } catch {
    return null;
  }
}

/** Routes one message: tiles to the store, reinit to a pull, NOT_AUTHENTICATED to a reload. */
export function handleServerMessage(m: ServerMessage, h: LiveHandlers): void {
  switch (m.event) {
    case 'join':
    case 'channel_update':
      if (m.name === 'live' && m.payload && typeof m.payload === 'object')
        h.onTile(m.machine_id, m.payload as Record<string, unknown>);
      break;
    case 'reinit':
      h.onReinit();
      break;
    case 'error':
      if (m.code === 'NOT_AUTHENTICATED') h.reload();
      break;
    case 'leave':
      break;
  }
}

export function liveUrl(loc: Pick<Location, 'protocol' | 'host'> = location): string {
  return `${loc.protocol === 'https:' ? 'wss:' : 'ws:'}//${loc.host}${ENDPOINTS.live}`;
}

/** The socket actor of liveConnectionMachine: one WebSocket per connection attempt. */
export const liveSocketActor = (machineId: string, handlers: LiveHandlers) =>
  fromCallback<LiveConnectionEvent>(({ sendBack }) => {
    let ws: WebSocket | null = null;
    try {
      ws = new WebSocket(liveUrl());
    } catch {
      queueMicrotask(() => sendBack({ type: 'CLOSED' }));
      return () => {};
    }
    ws.onopen = () => {
      ws?.send(JSON.stringify({ event: 'join', machine_id: machineId, name: 'live' }));
      sendBack({ type: 'OPENED' });
    };
    ws.onclose = () => sendBack({ type: 'CLOSED' });
    ws.onmessage = (e: MessageEvent) => {
      const m = parseServerMessage(e.data);
      if (m) handleServerMessage(m, handlers);
    };
    return () => {
      if (!ws) return;
      ws.onclose = null;
      ws.onmessage = null;
      ws.onopen = null;
      if (ws.readyState === WebSocket.OPEN) {
        ws.send(JSON.stringify({ event: 'leave', machine_id: machineId, name: 'live' }));
      }
      ws.close();
    };
  });
