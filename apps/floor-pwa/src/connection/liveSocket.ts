import type { LiveServerMessage } from '@takt/domain';
import { LIVE_CHANNEL } from '@takt/domain';
import { liveUrl as channelUrl, parseDashboardResponse, parseLiveMessage } from '@takt/ui';
import type { LiveMachine } from '@takt/ui';
import { fromCallback } from 'xstate';
import { ENDPOINTS } from '../endpoints/endpoints';
import type { LiveConnectionEvent } from './liveConnectionMachine';

// The live channel over WebSocket (same origin, cookie auth): join 'live' for the open machine; its updates
// are the machine's dashboard tile. 'reinit' asks for a re-fetch; NOT_AUTHENTICATED reloads (live-operations §8).
// The messages are the domain's LiveServerMessage (packages/domain/src/live/channel.ts).

export interface LiveHandlers {
  onTile: (machineId: string, tile: LiveMachine) => void;
  onReinit: () => void;
  reload: () => void;
}

/** A message of the channel, or null when it is none (the shared parser of @takt/ui's live-channel). */
export function parseServerMessage(data: unknown): LiveServerMessage | null {
  return parseLiveMessage(data) as LiveServerMessage | null;
}

/**
 * The tile of a `live` message, checked as GET /api/dashboard's machines are (the same store takes both; the
 * floor keeps zod out of its bundle, so the check is the UI package's twin of dashboardMachineSchema). null
 * when it is not one: a malformed tile is not stored.
 */
export function liveTileOf(payload: unknown): LiveMachine | null {
  if (payload == null) return null;
  try {
    return parseDashboardResponse({ machines: [payload], groups: [], now: 0 }).machines[0] ?? null;
  } catch {
    return null;
  }
}

/** Routes one message: tiles to the store, reinit to a pull, NOT_AUTHENTICATED to a reload. */
export function handleServerMessage(m: LiveServerMessage, h: LiveHandlers): void {
  switch (m.event) {
    case 'join':
    case 'channel_update': {
      const tile = m.name === LIVE_CHANNEL && m.machine_id ? liveTileOf(m.payload) : null;
      if (tile) h.onTile(m.machine_id, tile);
      break;
    }
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
  return channelUrl(loc, ENDPOINTS.live);
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
      ws?.send(JSON.stringify({ event: 'join', machine_id: machineId, name: LIVE_CHANNEL }));
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
        ws.send(JSON.stringify({ event: 'leave', machine_id: machineId, name: LIVE_CHANNEL }));
      }
      ws.close();
    };
  });
