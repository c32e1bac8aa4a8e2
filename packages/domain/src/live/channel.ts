import { z } from 'zod';
import { dashboardMachineSchema } from '../dashboard';

// live-operations §7 "Live channel (websocket), scoped by machine_id: ... events join, leave, reinit,
// channel_update"; §8 "Channel error NOT_AUTHENTICATED: the page reloads". The `live` channel carries the
// machine's dashboard tile (live-operations §3 "Machine (dashboard tile)"), the same as GET /api/dashboard gives
// it, so a client stores it in place of the polled tile.
// Written with z.* calls only (no schema methods): the floor app's bundler drops an unused z.* call, and this
// module is in the domain's index (apps/floor-pwa/vite.config.ts).

export const LIVE_CHANNEL = 'live';

/**
 * The `live` channel's state: at join, on each update, and in answer to the client's own reinit. null when the
 * machine is gone by the time the state is built.
 */
export const liveTileMessageSchema = z.object({
  event: z.enum(['join', 'channel_update', 'reinit']),
  machine_id: z.string(),
  name: z.literal(LIVE_CHANNEL),
  topic: z.optional(z.string()),
  payload: z.nullable(dashboardMachineSchema),
});
export type LiveTileMessage = z.infer<typeof liveTileMessageSchema>;

/** The server asks the client to reload what it shows (no payload): history was rewritten. */
export const liveReinitMessageSchema = z.object({
  event: z.literal('reinit'),
  machine_id: z.optional(z.string()),
  name: z.optional(z.string()),
});
export type LiveReinitMessage = z.infer<typeof liveReinitMessageSchema>;

export const liveLeaveMessageSchema = z.object({
  event: z.literal('leave'),
  machine_id: z.string(),
  name: z.string(),
});
export type LiveLeaveMessage = z.infer<typeof liveLeaveMessageSchema>;

/** A refused message or a caller no longer allowed; NOT_AUTHENTICATED reloads the page (§8). */
export const liveErrorMessageSchema = z.object({
  event: z.literal('error'),
  code: z.string(),
  message: z.string(),
  machine_id: z.optional(z.string()),
  name: z.optional(z.string()),
});
export type LiveErrorMessage = z.infer<typeof liveErrorMessageSchema>;

/** What a client joined to the `live` channel receives. */
export type LiveServerMessage = LiveTileMessage | LiveReinitMessage | LiveLeaveMessage | LiveErrorMessage;
