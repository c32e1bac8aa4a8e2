import type { UpgradeWebSocket, WSContext } from 'hono/ws';
import { Hono } from 'hono';
import { getCookie } from 'hono/cookie';
import { z } from 'zod';
import type { AppEnv } from '../http/context';
import type { MiddlewareHandler } from 'hono';
import { clientAddress } from '../http/client-address';
import { rateLimit, takeHit, tooManyRequests } from '../http/rate-limit';
import {
  countLivePending,
  deletePendingTablet,
  deleteStalePending,
  findTabletByToken,
  issueTabletToken,
  renewCode,
  requestCode,
} from '../repositories/tablets';
import { ownOriginOnly } from './origin';
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

/** A pending registration whose code expired this long ago has no socket renewing it: it is removed. */
const STALE_PENDING_GRACE_MS = 60_000;

/** How long an admin's push waits for the tablets' sockets (on any process) to acknowledge. */
export const PUSH_ACK_TIMEOUT_MS = 1500;
let ackTimeoutMs = PUSH_ACK_TIMEOUT_MS;

/**
 * The pushes' wait for acknowledgements, for the tests whose pushes no socket ever answers (the route fuzz: each
 * case of a push route waited the whole 1.5 s, 24 s of a CI file); `undefined` restores PUSH_ACK_TIMEOUT_MS.
 */
export function useTabletAckTimeout(ms: number | undefined): void {
  ackTimeoutMs = ms ?? PUSH_ACK_TIMEOUT_MS;
}

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
  timeoutMs = ackTimeoutMs,
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

/**
 * Registration limits (decision 0992). A socket holds one pending registration at a time (asking again renews
 * its code), so one socket cannot fill the table; sockets and new registrations are counted per client address
 * on every API process (rate_limits, decision 0987); and the live pending registrations of all addresses
 * together are capped.
 */
export const TABLET_AUTH_LIMITS = {
  /** /tablet-auth upgrades per client address (the page reconnects every 4 s at worst). */
  upgrades: rateLimit('tablet-auth', 60, 60_000),
  /** New pending registrations per client address. */
  registrations: rateLimit('tablet-code', 20, 10 * 60_000),
  /** Messages one socket may send a minute (the page sends one at open and one as each code expires). */
  messagesPerMinute: 20,
  /** Pending registrations with a live code, over every address and process. */
  livePending: 500,
} as const;

export const TABLET_AUTH_TEXTS = {
  tooManyMessages: 'Too many messages on this socket. Wait a minute and try again.',
  tooManyCodes: 'Too many registration codes were asked for from this network. Try again later.',
  tooManyPending: 'Too many tablets are waiting to be registered. Try again in a few minutes.',
  tooManySockets: 'Too many connections from this network. Try again later.',
};

/** 429 with Retry-After before the upgrade: too many sockets from one client address. */
function upgradesPerAddress(): MiddlewareHandler<AppEnv> {
  return async (c, next) => {
    const { db, now } = c.var.deps;
    const decision = await takeHit(db, TABLET_AUTH_LIMITS.upgrades, clientAddress(c) ?? 'unknown', now());
    if (!decision.allowed)
      throw tooManyRequests(decision, 'TOO_MANY_REQUESTS', TABLET_AUTH_TEXTS.tooManySockets);
    return next();
  };
}

export function tabletAuthRoutes(upgradeWebSocket: UpgradeWebSocket, bus: LiveBus) {
  return new Hono<AppEnv>().get(
    '/',
    ownOriginOnly(),
    upgradesPerAddress(),
    upgradeWebSocket((c) => {
      const { db, now } = c.var.deps;
      const sockets = c.var.metrics.liveSockets.labels('tablet-auth');
      let counted = false;
      const cookieToken = getCookie(c, TABLET_COOKIE);
      const address = clientAddress(c) ?? 'unknown';
      /**
       * The tablet this socket speaks for: the pending registration it created (no other socket can adopt
       * it: decision 0992), or the registered tablet it joined as.
       */
      let tabletId: string | null = null;
      /** Whether `tabletId` is a pending registration of this socket's own (forgotten when it closes). */
      let ownPending = false;
      let unsubscribe: (() => void) | null = null;
      let renew: NodeJS.Timeout | null = null;
      let serial: string | null = null;
      let closed = false;
      /** This socket's messages in the current minute (in memory: a socket lives on one process). */
      let window = { start: 0, count: 0 };
      let queue: Promise<void> = Promise.resolve();

      const send = (ws: WSContext, msg: unknown) => {
        if (ws.readyState === 1) ws.send(JSON.stringify(msg));
      };
      const error = (ws: WSContext, code: string, message: string) =>
        send(ws, { event: 'error', code, message });

      /** A new pending registration for this socket, within the address and global limits; null if refused. */
      const createPending = async (ws: WSContext, serialNumber: string) => {
        const t = now();
        // Registrations whose socket is gone (a crashed process leaves them) make room first.
        await deleteStalePending(db, t - STALE_PENDING_GRACE_MS);
        if ((await countLivePending(db, t)) >= TABLET_AUTH_LIMITS.livePending) {
          error(ws, 'TOO_MANY_REQUESTS', TABLET_AUTH_TEXTS.tooManyPending);
          return null;
        }
        const decision = await takeHit(db, TABLET_AUTH_LIMITS.registrations, address, t);
        if (!decision.allowed) {
          send(ws, {
            event: 'error',
            code: 'TOO_MANY_REQUESTS',
            message: TABLET_AUTH_TEXTS.tooManyCodes,
            retryAfter: decision.retryAfterS,
          });
          return null;
        }
        return requestCode(db, serialNumber, t);
      };

      const issueCode = async (ws: WSContext) => {
        if (!serial) return;
        const issued =
          (ownPending && tabletId ? await renewCode(db, tabletId, now()) : undefined) ??
          (await createPending(ws, serial));
        if (!issued) return;
        if (closed) {
          // The socket closed while the row was made: nobody can ever be shown its code.
          await deletePendingTablet(db, issued.tablet.id);
          return;
        }
        const { tablet, code, expiresAt } = issued;
        tabletId = tablet.id;
        ownPending = true;
        // expiresIn lets the tablet count down on its own clock, whatever its skew.
        send(ws, { event: 'send_code', code, expiresAt, expiresIn: expiresAt - now(), tablet_id: tablet.id });
        // Re-issue on expiry even if the page does not ask (it does too; a valid code is simply reused).
        if (renew) clearTimeout(renew);
        renew = setTimeout(
          () => {
            renew = null;
            if (ws.readyState === 1 && tabletId === tablet.id)
              queue = queue.then(() => issueCode(ws)).catch(() => {});
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
            ownPending = false;
            send(ws, { event: 'associated', tablet_id: e.machineId });
            // The token is made here, by the process holding the socket that created the code the admin typed,
            // so it never crosses the bus and reaches no other socket.
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

      const handle = async (data: unknown, ws: WSContext) => {
        let parsed: z.infer<typeof messageSchema>;
        try {
          const result = messageSchema.safeParse(JSON.parse(String(data)));
          if (!result.success)
            return error(ws, 'BAD_REQUEST', result.error.issues.map((i) => i.message).join('; '));
          parsed = result.data;
        } catch {
          return error(ws, 'BAD_REQUEST', 'Messages must be JSON.');
        }
        try {
          if (parsed.event === 'get_code') {
            // One pending registration a socket: asking again renews it, whatever serial number is sent.
            serial ??= parsed.serial_number;
            return await issueCode(ws);
          }
          // join: a registered tablet listens for the admin's refresh and restart.
          const tablet = cookieToken ? await findTabletByToken(db, cookieToken) : undefined;
          if (!tablet || tablet.state !== 'active') {
            error(ws, 'NOT_AUTHENTICATED', 'This tablet is not registered.');
            return;
          }
          if (ownPending && tabletId) await deletePendingTablet(db, tabletId);
          ownPending = false;
          tabletId = tablet.id;
          send(ws, { event: 'join', tablet_id: tablet.id });
        } catch {
          error(ws, 'INTERNAL', 'An error occurred with your request.');
        }
      };

      return {
        onOpen(_evt, ws) {
          sockets.inc();
          counted = true;
          unsubscribe = bus.subscribe(onEvent(ws));
        },
        onMessage(evt, ws) {
          const t = now();
          if (t - window.start >= 60_000) window = { start: t, count: 0 };
          if (++window.count > TABLET_AUTH_LIMITS.messagesPerMinute) {
            // Refused without reading the message; a socket that keeps on is closed (policy violation).
            if (window.count > 2 * TABLET_AUTH_LIMITS.messagesPerMinute) ws.close(1008, 'Too many messages');
            else error(ws, 'TOO_MANY_REQUESTS', TABLET_AUTH_TEXTS.tooManyMessages);
            return;
          }
          // One message at a time: two quick get_code must not both find no registration and make two.
          queue = queue.then(() => handle(evt.data, ws)).catch(() => {});
        },
        onClose() {
          closed = true;
          if (counted) sockets.dec();
          counted = false;
          unsubscribe?.();
          if (renew) clearTimeout(renew);
          // Its code can no longer reach anyone: the pending registration goes with the socket.
          if (ownPending && tabletId) void deletePendingTablet(db, tabletId).catch(() => {});
        },
      };
    }),
  );
}
