import type { UpgradeWebSocket, WSContext } from 'hono/ws';
import { Hono } from 'hono';
import { getCookie } from 'hono/cookie';
import { z } from 'zod';
import { SESSION_COOKIE, TABLET_COOKIE, tabletCallerFor, userCaller } from '../auth/middleware';
import type { CompanyScope } from '../db/scope';
import type { AppEnv } from '../http/context';
import { callerPermissions } from '../http/permissions';
import {
  liveMachinePayload,
  diagnosticsSince,
  timelineBetween,
  timelineRangeProblem,
  timelineWindow,
} from './payloads';
import type { LiveBus, LiveEvent } from './bus';

// live-operations §7: a WebSocket channel scoped by machine_id. Clients join `temp_timeline` (config start,
// end, key), `diagnostics` (stream raw) or `live` (the machine's tile); events join, leave, reinit,
// channel_update. A caller without a valid session gets the error NOT_AUTHENTICATED (the app reloads).
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

const joining = { event: z.literal('join'), machine_id: z.string().min(1) };
const joinSchema = z.discriminatedUnion('name', [
  z.object({
    ...joining,
    name: z.literal('temp_timeline'),
    config: z
      .object({ start: z.number().int(), end: z.number().int(), key: z.string().optional() })
      .optional(),
  }),
  // live-operations §7: diagnostics streams the raw fields (config `{ stream: 'raw' }`, the only stream).
  z.object({
    ...joining,
    name: z.literal('diagnostics'),
    config: z.object({ stream: z.literal('raw') }).optional(),
  }),
  z.object({ ...joining, name: z.literal('live') }),
]);
const leaveSchema = z.object({ event: z.literal('leave'), machine_id: z.string().min(1), name: z.string() });
const reinitSchema = z.object({
  event: z.literal('reinit'),
  machine_id: z.string().min(1),
  name: z.string(),
});
const messageSchema = z.union([joinSchema, leaveSchema, reinitSchema]);
type Join = z.infer<typeof joinSchema>;

interface Subscription {
  join: Join;
  /** diagnostics: the newest observation already sent */
  cursor: number;
  timer: NodeJS.Timeout | null;
}

/** Coalesce bursts of changes (an adapter sends many lines a second) into one update per subscription. */
const UPDATE_DEBOUNCE_MS = 200;
/** diagnostics: how far back a join (or a reinit) starts the raw stream. */
const DIAGNOSTICS_BACKLOG_MS = 10 * 60_000;
/** A caller check is trusted this long before an update is delivered (a join always checks again). */
export const REVALIDATE_MS = 5_000;
/** A socket that receives nothing is still checked this often, so a revoked caller's socket closes. */
const IDLE_CHECK_MS = 30_000;

/** What the caller may see, as of the last check. */
interface Access {
  scope: CompanyScope;
  timezone: string;
  /** live-operations §6: the tile's FullProduct fields go only to callers with FullProduct. */
  fullProduct: boolean;
  /** A tablet bound to one machine follows only that machine. */
  boundMachineId: string | null;
}

export function liveChannelRoutes(upgradeWebSocket: UpgradeWebSocket, bus: LiveBus) {
  return new Hono<AppEnv>().get(
    '/',
    upgradeWebSocket((c) => {
      const { now, demoMode } = c.var.deps;
      const token = getCookie(c, SESSION_COOKIE);
      const tabletToken = getCookie(c, TABLET_COOKIE);
      const subs = new Map<string, Subscription>();
      let unsubscribe: (() => void) | null = null;
      let idleCheck: NodeJS.Timeout | null = null;
      let closed = false;

      const send = (ws: WSContext, msg: unknown) => {
        if (ws.readyState === 1) ws.send(JSON.stringify(msg));
      };
      const error = (ws: WSContext, code: string, message: string, extra: object = {}) =>
        send(ws, { event: 'error', code, message, ...extra });
      const keyOf = (machineId: string, name: string) => `${machineId}\u0000${name}`;

      // The caller: a user session (the cookie, kind 'session': a CSV-link token never opens the channel) or a
      // registered tablet. 'error': the database failed, no verdict.
      const lookup = async (): Promise<Access | null | 'error'> => {
        try {
          const user = token ? await userCaller(c, token, 'session') : null;
          const found = user ?? (tabletToken ? await tabletCallerFor(c, tabletToken) : null);
          if (!found) return null;
          return {
            scope: found.scope,
            timezone: found.caller.company.timezone,
            fullProduct: callerPermissions(found.caller, demoMode).includes('FullProduct'),
            boundMachineId: found.caller.kind === 'tablet' ? found.caller.boundMachineId : null,
          };
        } catch {
          return 'error';
        }
      };
      let access: Access | null = null;
      let checkedAt = Number.NEGATIVE_INFINITY;
      let checking: Promise<boolean> | null = null;
      // Looked up as the upgrade is accepted; messages may arrive before onOpen has the answer.
      const first = lookup().then((found) => {
        if (found && found !== 'error') {
          access = found;
          checkedAt = now();
        }
      });

      const shutdown = () => {
        closed = true;
        unsubscribe?.();
        unsubscribe = null;
        if (idleCheck) clearInterval(idleCheck);
        idleCheck = null;
        for (const s of subs.values()) if (s.timer) clearTimeout(s.timer);
        subs.clear();
      };
      const refuse = (ws: WSContext) => {
        error(ws, 'NOT_AUTHENTICATED', 'You are not logged in.');
        ws.close(4001, 'NOT_AUTHENTICATED');
        shutdown();
      };

      /**
       * Is the caller still allowed? Asks the database again when the last answer is older than REVALIDATE_MS
       * (or always, with `force`); concurrent callers share one lookup. Mutates: closes the socket when the
       * session or tablet is gone, and drops the subscriptions a re-bound tablet may no longer follow. A
       * database failure keeps the last verdict and asks again next time (no reload storm on a hiccup).
       */
      const stillAllowed = (ws: WSContext, force = false): Promise<boolean> => {
        if (closed || !access) return Promise.resolve(false);
        if (!force && now() - checkedAt < REVALIDATE_MS) return Promise.resolve(true);
        checking ??= (async () => {
          const found = await lookup();
          if (closed) return false;
          if (found === 'error') return true;
          checkedAt = now();
          if (!found || found.scope.companyId !== access?.scope.companyId) {
            refuse(ws);
            return false;
          }
          access = found;
          const bound = found.boundMachineId;
          if (bound) {
            for (const [key, s] of subs) {
              if (s.join.machine_id === bound) continue;
              if (s.timer) clearTimeout(s.timer);
              subs.delete(key);
              error(ws, 'FORBIDDEN', 'This tablet is bound to another machine.', {
                machine_id: s.join.machine_id,
                name: s.join.name,
              });
            }
          }
          return true;
        })().finally(() => {
          checking = null;
        });
        return checking;
      };

      const payloadFor = async (s: Subscription) => {
        const join = s.join;
        if (!access) return null;
        const { scope } = access;
        if (join.name === 'live')
          return liveMachinePayload(scope, join.machine_id, now(), access.fullProduct);
        if (join.name === 'diagnostics') {
          const { observations, cursor } = await diagnosticsSince(scope, join.machine_id, s.cursor, now());
          s.cursor = cursor;
          return { observations };
        }
        const { start, end } = timelineWindow(join, now());
        return {
          key: join.config?.key ?? null,
          ...(await timelineBetween(scope, join.machine_id, start, end)),
        };
      };

      const onEvent = (ws: WSContext) => (e: LiveEvent) => {
        if (!access || e.companyId !== access.scope.companyId) return;
        for (const s of subs.values()) {
          if (s.join.machine_id !== e.machineId) continue;
          if (e.topic === 'reinit') {
            // A pending update would build on the state the subscriber is told to drop.
            if (s.timer) clearTimeout(s.timer);
            s.timer = null;
            void stillAllowed(ws).then((ok) => {
              if (ok && subs.get(keyOf(s.join.machine_id, s.join.name)) === s)
                send(ws, { event: 'reinit', machine_id: s.join.machine_id, name: s.join.name });
            });
            continue;
          }
          if (s.timer) continue;
          s.timer = setTimeout(() => {
            s.timer = null;
            // Nothing reaches a caller that is no longer allowed, nor a subscription the check just dropped.
            stillAllowed(ws)
              .then((ok) =>
                ok && subs.get(keyOf(s.join.machine_id, s.join.name)) === s ? payloadFor(s) : null,
              )
              .then((payload) => {
                if (payload)
                  send(ws, {
                    event: 'channel_update',
                    machine_id: s.join.machine_id,
                    name: s.join.name,
                    topic: e.topic,
                    payload,
                  });
              })
              .catch(() => send(ws, { event: 'reinit', machine_id: s.join.machine_id, name: s.join.name }));
          }, UPDATE_DEBOUNCE_MS);
        }
      };

      return {
        async onOpen(_evt, ws) {
          await first;
          if (!access) return refuse(ws);
          if (closed) return;
          unsubscribe = bus.subscribe(onEvent(ws));
          idleCheck = setInterval(() => void stillAllowed(ws), IDLE_CHECK_MS);
          idleCheck.unref();
        },
        async onMessage(evt, ws) {
          // Messages can arrive before onOpen finished looking up the session.
          await first;
          if (!access || closed) return error(ws, 'NOT_AUTHENTICATED', 'You are not logged in.');
          let parsed: z.infer<typeof messageSchema>;
          try {
            const result = messageSchema.safeParse(JSON.parse(String(evt.data)));
            if (!result.success)
              return error(ws, 'BAD_REQUEST', result.error.issues.map((i) => i.message).join('; '));
            parsed = result.data;
          } catch {
            return error(ws, 'BAD_REQUEST', 'Messages must be JSON.');
          }
          const key = keyOf(parsed.machine_id, parsed.name);
          if (parsed.event === 'reinit') {
            const s = subs.get(key);
            if (!s) {
              return error(ws, 'NOT_JOINED', 'Join the channel before asking for its state.', {
                machine_id: parsed.machine_id,
                name: parsed.name,
              });
            }
            if (!(await stillAllowed(ws))) return;
            if (subs.get(key) !== s) return; // dropped by the check (a re-bound tablet)
            if (s.join.name === 'diagnostics') s.cursor = now() - DIAGNOSTICS_BACKLOG_MS;
            return send(ws, {
              event: 'reinit',
              machine_id: parsed.machine_id,
              name: parsed.name,
              payload: await payloadFor(s),
            });
          }
          if (parsed.event === 'leave') {
            const s = subs.get(key);
            if (s?.timer) clearTimeout(s.timer);
            subs.delete(key);
            return send(ws, { event: 'leave', machine_id: parsed.machine_id, name: parsed.name });
          }
          // Every join asks again: the session may be gone, the tablet revoked or bound elsewhere by now.
          if (!(await stillAllowed(ws, true)) || !access) return;
          const { scope, boundMachineId, timezone } = access;
          // A tablet bound to one machine follows only that machine.
          if (boundMachineId && parsed.machine_id !== boundMachineId) {
            return error(ws, 'FORBIDDEN', 'This tablet is bound to another machine.', {
              machine_id: parsed.machine_id,
              name: parsed.name,
            });
          }
          // Tenancy: a machine of another company is simply not found.
          const machine = await scope
            .selectFrom('machines')
            .select('id')
            .where('id', '=', parsed.machine_id)
            .executeTakeFirst();
          if (!machine)
            return error(ws, 'NOT_FOUND', 'Machine not found.', {
              machine_id: parsed.machine_id,
              name: parsed.name,
            });
          // live-operations §5/§9: the same range rules and texts as the HTTP timeline call.
          if (parsed.name === 'temp_timeline') {
            const problem = timelineRangeProblem(timezone, timelineWindow(parsed, now()));
            if (problem) {
              return error(ws, 'VALIDATION_ERROR', problem.message, {
                issues: [problem],
                machine_id: parsed.machine_id,
                name: parsed.name,
              });
            }
          }
          const sub: Subscription = { join: parsed, cursor: now() - DIAGNOSTICS_BACKLOG_MS, timer: null };
          subs.set(key, sub);
          send(ws, {
            event: 'join',
            machine_id: parsed.machine_id,
            name: parsed.name,
            payload: await payloadFor(sub),
          });
        },
        onClose() {
          shutdown();
        },
      };
    }),
  );
}
