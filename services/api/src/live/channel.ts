import type { UpgradeWebSocket, WSContext } from 'hono/ws';
import { Hono } from 'hono';
import { getCookie } from 'hono/cookie';
import { z } from 'zod';
import { SESSION_COOKIE, TABLET_COOKIE, tabletCallerFor } from '../auth/middleware';
import { companyScope } from '../db/scope';
import type { CompanyScope } from '../db/scope';
import type { AppEnv } from '../http/context';
import { findLiveSession } from '../repositories/sessions';
import { getUser } from '../repositories/users';
import { liveMachinePayload, diagnosticsSince, timelineBetween } from './payloads';
import type { LiveBus, LiveEvent } from './bus';

// live-operations §7: a WebSocket channel scoped by machine_id. Clients join `temp_timeline` (config start,
// end, key), `diagnostics` (stream raw) or `live` (the machine's tile); events join, leave, reinit,
// channel_update. A caller without a valid session gets the error NOT_AUTHENTICATED (the app reloads).

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
const messageSchema = z.union([joinSchema, leaveSchema]);
type Join = z.infer<typeof joinSchema>;

interface Subscription {
  join: Join;
  /** diagnostics: the newest observation already sent */
  cursor: number;
  timer: NodeJS.Timeout | null;
}

/** Coalesce bursts of changes (an adapter sends many lines a second) into one update per subscription. */
const UPDATE_DEBOUNCE_MS = 200;

export function liveChannelRoutes(upgradeWebSocket: UpgradeWebSocket, bus: LiveBus) {
  return new Hono<AppEnv>().get(
    '/',
    upgradeWebSocket((c) => {
      const { db, now } = c.var.deps;
      const token = getCookie(c, SESSION_COOKIE);
      let scope: CompanyScope | null = null;
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
        const session = token ? await findLiveSession(db, token, now()) : undefined;
        const user = session ? await getUser(companyScope(db, session.companyId), session.userId) : undefined;
        if (session && user && !user.locked) return companyScope(db, session.companyId);
        if (!tabletToken) return null;
        const tablet = await tabletCallerFor(c, tabletToken);
        if (!tablet || tablet.caller.kind !== 'tablet') return null;
        boundMachineId = tablet.caller.boundMachineId;
        return tablet.scope;
      })().catch(() => null);

      const payloadFor = async (s: Subscription) => {
        const join = s.join;
        if (!scope) return null;
        if (join.name === 'live') return liveMachinePayload(scope, join.machine_id, now());
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
          if (s.join.machine_id !== e.machineId || s.timer) continue;
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
          const sub: Subscription = { join: parsed, cursor: now() - 10 * 60_000, timer: null };
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
