import type { UpgradeWebSocket, WSContext } from 'hono/ws';
import { Hono } from 'hono';
import { getCookie } from 'hono/cookie';
import { z } from 'zod';
import type { AppEnv } from '../http/context';
import { findTabletByToken, issueTabletToken, requestCode } from '../repositories/tablets';
import type { LiveBus, LiveEvent, TabletMessage } from './bus';

// live-operations §2, §7: the tablet authorization socket (`/tablet-auth`). A tablet being registered sends
// `get_code { serial_number }` and is answered `send_code { code, expiresAt, expiresIn, tablet_id }` (a new code when
// the old one expires); when an admin associates the code (POST /api/tablets/associate, on any API
// process: the news travels through the live bus) the socket gets `associated`, then `registered { token,
// machineId, dashboardView }`. A registered tablet (tablet cookie) sends `join` and then receives `refresh`
// and `restart` pushes from the admin. Anything addressed to a tablet is acknowledged on the bus (`ack`), so
// the admin's request learns which tablets could not be reached.

// Name matches auth/middleware.ts TABLET_COOKIE (not imported: middleware imports the repositories this
// module uses, and a cookie name is not worth a cycle).
const TABLET_COOKIE = 'takt_tablet';

const messageSchema = z.discriminatedUnion('event', [
  z.object({ event: z.literal('get_code'), serial_number: z.string().trim().min(1).max(200) }),
  z.object({ event: z.literal('join') }),
]);

/** How long an admin's push waits for the tablets' sockets (on any process) to acknowledge. */
export const PUSH_ACK_TIMEOUT_MS = 1500;

const tabletEvent = (companyId: string, tabletId: string, tablet: TabletMessage): LiveEvent => ({
  companyId,
  machineId: tabletId,
  topic: 'tablet',
  tablet,
});

/**
 * Send `event` to each tablet's socket wherever it is connected; resolves with the ids no socket
 * acknowledged within the timeout.
 */
export async function pushToTablets(
  bus: LiveBus,
  companyId: string,
  tabletIds: string[],
  event: 'associated' | 'refresh' | 'restart',
  timeoutMs = PUSH_ACK_TIMEOUT_MS,
): Promise<{ pushed: string[]; notPushed: string[] }> {
  const waiting = new Map<string, string>(tabletIds.map((id) => [crypto.randomUUID(), id]));
  const pushed = new Set<string>();
  let done: () => void = () => {};
  const allAcked = new Promise<void>((resolve) => (done = resolve));
  const unsubscribe = bus.subscribe((e) => {
    if (e.topic !== 'tablet' || e.companyId !== companyId || e.tablet?.event !== 'ack' || !e.tablet.nonce)
      return;
    const id = waiting.get(e.tablet.nonce);
    if (id === undefined) return;
    pushed.add(id);
    waiting.delete(e.tablet.nonce);
    if (!waiting.size) done();
  });
  try {
    if (waiting.size) {
      await bus.publish([...waiting].map(([nonce, id]) => tabletEvent(companyId, id, { event, nonce })));
      await Promise.race([allAcked, new Promise((r) => setTimeout(r, timeoutMs))]);
    }
  } finally {
    unsubscribe();
  }
  return {
    pushed: tabletIds.filter((id) => pushed.has(id)),
    notPushed: tabletIds.filter((id) => !pushed.has(id)),
  };
}

export function tabletAuthRoutes(upgradeWebSocket: UpgradeWebSocket, bus: LiveBus) {
  return new Hono<AppEnv>().get(
    '/',
    upgradeWebSocket((c) => {
      const { db, now } = c.var.deps;
      const sockets = c.var.metrics.liveSockets.labels('tablet-auth');
      let counted = false;
      const cookieToken = getCookie(c, TABLET_COOKIE);
      /** The tablet this socket speaks for: the pending one it asked a code for, or the joined one. */
      let tabletId: string | null = null;
      let unsubscribe: (() => void) | null = null;
      let renew: NodeJS.Timeout | null = null;
      let serial: string | null = null;

      const send = (ws: WSContext, msg: unknown) => {
        if (ws.readyState === 1) ws.send(JSON.stringify(msg));
      };
      const error = (ws: WSContext, code: string, message: string) =>
        send(ws, { event: 'error', code, message });

      const issueCode = async (ws: WSContext) => {
        if (!serial) return;
        const { tablet, code, expiresAt } = await requestCode(db, serial, now());
        tabletId = tablet.id;
        // expiresIn lets the tablet count down on its own clock, whatever its skew.
        send(ws, { event: 'send_code', code, expiresAt, expiresIn: expiresAt - now(), tablet_id: tablet.id });
        // Re-issue on expiry even if the page does not ask (it does too; a valid code is simply reused).
        if (renew) clearTimeout(renew);
        renew = setTimeout(
          () => {
            renew = null;
            if (ws.readyState === 1 && tabletId === tablet.id) void issueCode(ws).catch(() => {});
          },
          Math.max(0, expiresAt - now()) + 50,
        );
      };

      const onEvent = (ws: WSContext) => (e: LiveEvent) => {
        if (e.topic !== 'tablet' || !e.tablet || e.tablet.event === 'ack' || e.machineId !== tabletId) return;
        const { event, nonce } = e.tablet;
        const ack = () =>
          nonce
            ? bus.publish([tabletEvent(e.companyId, e.machineId, { event: 'ack', nonce })])
            : Promise.resolve();
        void (async () => {
          if (event === 'associated') {
            if (renew) clearTimeout(renew);
            renew = null;
            send(ws, { event: 'associated', tablet_id: e.machineId });
            // The token is made here, by the process holding the socket, so it never crosses the bus.
            const token = await issueTabletToken(db, e.machineId);
            if (!token) return;
            const tablet = await findTabletByToken(db, token);
            send(ws, {
              event: 'registered',
              token,
              tablet_id: e.machineId,
              machineId: tablet?.machine_id ?? null,
              dashboardView: tablet?.dashboardView ?? 'opdash',
            });
          } else {
            send(ws, { event });
          }
          await ack();
        })().catch(() => error(ws, 'INTERNAL', 'An error occurred with your request.'));
      };

      return {
        onOpen(_evt, ws) {
          sockets.inc();
          counted = true;
          unsubscribe = bus.subscribe(onEvent(ws));
        },
        async onMessage(evt, ws) {
          let parsed: z.infer<typeof messageSchema>;
          try {
            const result = messageSchema.safeParse(JSON.parse(String(evt.data)));
            if (!result.success)
              return error(ws, 'BAD_REQUEST', result.error.issues.map((i) => i.message).join('; '));
            parsed = result.data;
          } catch {
            return error(ws, 'BAD_REQUEST', 'Messages must be JSON.');
          }
          try {
            if (parsed.event === 'get_code') {
              serial = parsed.serial_number;
              return await issueCode(ws);
            }
            // join: a registered tablet listens for the admin's refresh and restart.
            const tablet = cookieToken ? await findTabletByToken(db, cookieToken) : undefined;
            if (!tablet || tablet.state !== 'active') {
              error(ws, 'NOT_AUTHENTICATED', 'This tablet is not registered.');
              return;
            }
            tabletId = tablet.id;
            send(ws, { event: 'join', tablet_id: tablet.id });
          } catch {
            error(ws, 'INTERNAL', 'An error occurred with your request.');
          }
        },
        onClose() {
          if (counted) sockets.dec();
          counted = false;
          unsubscribe?.();
          if (renew) clearTimeout(renew);
        },
      };
    }),
  );
}
