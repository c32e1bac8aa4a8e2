import type { UpgradeWebSocket, WSContext } from 'hono/ws';
import { Hono } from 'hono';
import { getCookie } from 'hono/cookie';
import { z } from 'zod';
import { SESSION_COOKIE, TABLET_COOKIE, tabletCallerFor, userCaller } from '../auth/middleware';
import type { CompanyScope } from '../db/scope';
import type { AppEnv } from '../http/context';
import { callerPermissions } from '../http/permissions';
import { liveMachinePayload, diagnosticsSince, timelineBetween } from './payloads';
import type { LiveBus, LiveEvent } from './bus';

// live-operations §7: a WebSocket channel scoped by machine_id. Clients join `temp_timeline` (config start,
// end, key), `diagnostics` (stream raw) or `live` (the machine's tile); events join, leave, reinit,
// channel_update. A caller without a valid session gets the error NOT_AUTHENTICATED (the app reloads).
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

export function liveChannelRoutes(upgradeWebSocket: UpgradeWebSocket, bus: LiveBus) {
  return new Hono<AppEnv>().get(
    '/',
    upgradeWebSocket((c) => {
      const { now, demoMode } = c.var.deps;
      const token = getCookie(c, SESSION_COOKIE);
      let scope: CompanyScope | null = null;
      /** live-operations §6: the tile's FullProduct fields go only to callers with FullProduct. */
      let fullProduct = false;
      const subs = new Map<string, Subscription>();
      let unsubscribe: (() => void) | null = null;

      const send = (ws: WSContext, msg: unknown) => {
        if (ws.readyState === 1) ws.send(JSON.stringify(msg));
      };
      const error = (ws: WSContext, code: string, message: string, extra: object = {}) =>
        send(ws, { event: 'error', code, message, ...extra });
      const keyOf = (machineId: string, name: string) => `${machineId}\u0000${name}`;
      // The caller is looked up once, as the upgrade is accepted: a user session, or a registered tablet.
      let boundMachineId: string | null = null;
      const tabletToken = getCookie(c, TABLET_COOKIE);
      const authenticated: Promise<CompanyScope | null> = (async () => {
        const user = token ? await userCaller(c, token) : null;
        const found = user ?? (tabletToken ? await tabletCallerFor(c, tabletToken) : null);
        if (!found) return null;
        if (found.caller.kind === 'tablet') boundMachineId = found.caller.boundMachineId;
        fullProduct = callerPermissions(found.caller, demoMode).includes('FullProduct');
        return found.scope;
      })().catch(() => null);

      const payloadFor = async (s: Subscription) => {
        const join = s.join;
        if (!scope) return null;
        if (join.name === 'live') return liveMachinePayload(scope, join.machine_id, now(), fullProduct);
        if (join.name === 'diagnostics') {
          const { observations, cursor } = await diagnosticsSince(scope, join.machine_id, s.cursor, now());
          s.cursor = cursor;
          return { observations };
        }
        const end = join.config?.end ?? now();
        const start = join.config?.start ?? end - 3_600_000;
        return {
          key: join.config?.key ?? null,
          ...(await timelineBetween(scope, join.machine_id, start, end)),
        };
      };

      const onEvent = (ws: WSContext) => (e: LiveEvent) => {
        if (!scope || e.companyId !== scope.companyId) return;
        for (const s of subs.values()) {
          if (s.join.machine_id !== e.machineId) continue;
          if (e.topic === 'reinit') {
            // A pending update would build on the state the subscriber is told to drop.
            if (s.timer) clearTimeout(s.timer);
            s.timer = null;
            send(ws, { event: 'reinit', machine_id: s.join.machine_id, name: s.join.name });
            continue;
          }
          if (s.timer) continue;
          s.timer = setTimeout(() => {
            s.timer = null;
            payloadFor(s)
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
          scope = await authenticated;
          if (!scope) {
            error(ws, 'NOT_AUTHENTICATED', 'You are not logged in.');
            ws.close(4001, 'NOT_AUTHENTICATED');
            return;
          }
          unsubscribe = bus.subscribe(onEvent(ws));
        },
        async onMessage(evt, ws) {
          // Messages can arrive before onOpen finished looking up the session.
          scope = await authenticated;
          if (!scope) return error(ws, 'NOT_AUTHENTICATED', 'You are not logged in.');
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
          unsubscribe?.();
          for (const s of subs.values()) if (s.timer) clearTimeout(s.timer);
          subs.clear();
        },
      };
    }),
  );
}
