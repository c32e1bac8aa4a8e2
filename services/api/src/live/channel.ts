import type { Context } from 'hono';
import type { UpgradeWebSocket, WSContext } from 'hono/ws';
import { Hono } from 'hono';
import { getCookie } from 'hono/cookie';
import { SESSION_COOKIE, TABLET_COOKIE, tabletCallerFor, userCaller } from '../auth/middleware';
import { boardOfCaller } from '../auth/board-device';
import type { AppEnv } from '../http/context';
import { callerPermissions } from '../http/permissions';
import type { LiveBus } from './bus';
import type { CallerLookup } from './session';
import { LiveSession } from './session';
import { ownOriginOnly } from './origin';

// live-operations §7: a WebSocket channel scoped by machine_id. Clients join `temp_timeline` (config start,
// end, key), `diagnostics` (stream raw) or `live` (the machine's tile); events join, leave, reinit,
// channel_update. A caller without a valid session gets the error NOT_AUTHENTICATED (§8: the app reloads).
//
// The caller is checked again after the upgrade (decision 0502): on every join, before updates are delivered
// (at most every REVALIDATE_MS) and every IDLE_CHECK_MS on a quiet socket. A logged-out session or a revoked
// tablet gets NOT_AUTHENTICATED and the socket is closed; a tablet re-bound to another machine loses its
// subscriptions to other machines (FORBIDDEN each) and may join only its new machine.
//
// reinit, both ways (decision 0705):
// - server → client `{ event: 'reinit', machine_id, name }` (no payload): the channel's state can no longer be
//   updated in place (a `reinit` bus event: history was rewritten; or an update could not be built). The client
//   reloads what it shows (the floor app pulls) and may ask the channel for its state with a reinit of its own.
// - client → server `{ event: 'reinit', machine_id, name }` on a joined channel: the server answers
//   `{ event: 'reinit', machine_id, name, payload }` with the whole state, as at join (diagnostics: the last
//   10 minutes again). A channel not joined is refused with NOT_JOINED.
//
// The rules live in one LiveSession per socket (live/session.ts); this module only wires the socket and the
// live bus to it.

/**
 * The socket's caller: a user session (the cookie, kind 'session': decision 0502, a CSV-link token never
 * opens the channel) or a registered tablet. 'error': the database failed, no verdict.
 */
function callerLookup(c: Context<AppEnv>): CallerLookup {
  const { demoMode } = c.var.deps;
  const token = getCookie(c, SESSION_COOKIE);
  const tabletToken = getCookie(c, TABLET_COOKIE);
  return async () => {
    try {
      const user = token ? await userCaller(c, token, 'session') : null;
      const found = user ?? (tabletToken ? await tabletCallerFor(c, tabletToken) : null);
      if (!found) return null;
      return {
        scope: found.scope,
        timezone: found.caller.company.timezone,
        fullProduct: callerPermissions(found.caller, demoMode).includes('FullProduct'),
        boundMachineId: found.caller.kind === 'tablet' ? found.caller.boundMachineId : null,
        boardOnly: boardOfCaller(found.caller) !== null,
      };
    } catch {
      return 'error';
    }
  };
}

export function liveChannelRoutes(upgradeWebSocket: UpgradeWebSocket, bus: LiveBus) {
  return new Hono<AppEnv>().get(
    '/',
    // Another site's page may not open it with the user's cookies (decision 0995).
    ownOriginOnly(),
    upgradeWebSocket((c) => {
      const { now } = c.var.deps;
      // Open sockets of this process (metrics: takt_live_sockets), counted once each from open to close.
      const sockets = c.var.metrics.liveSockets.labels('live');
      let counted = false;
      const lookup = callerLookup(c);
      // Looked up as the upgrade is accepted, before the socket exists; messages may arrive before the answer.
      const first = lookup();
      // The socket exists only once the handlers are called; whichever comes first makes the one session.
      let session: LiveSession | null = null;
      const sessionOf = (ws: WSContext) => (session ??= new LiveSession(ws, { lookup, first, now }));

      return {
        async onOpen(_evt, ws) {
          sockets.inc();
          counted = true;
          const s = sessionOf(ws);
          if (!(await s.open())) return;
          s.whenClosed(bus.subscribe((e) => s.onPublish(e)));
        },
        onMessage(evt, ws) {
          return sessionOf(ws).receive(String(evt.data));
        },
        onClose(_evt, ws) {
          if (counted) sockets.dec();
          counted = false;
          sessionOf(ws).close();
        },
      };
    }),
  );
}
