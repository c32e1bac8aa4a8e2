import { getMachine } from '../repositories/machines';
import type { CompanyScope } from '@takt/db';
import { z } from 'zod';
import type { LiveEvent } from './bus';
import {
  diagnosticsSince,
  liveMachinePayload,
  timelineBetween,
  timelineRangeProblem,
  timelineWindow,
} from './payloads';

// One LiveSession per socket of the live channel (live-operations §7; the wiring is live/channel.ts): what the
// caller may see, the channels it joined, their pending updates, and the re-checks of the caller
// (decision 0502). Every public method mutates the session; once closed it sends nothing more.

/** Coalesce bursts of changes (an adapter sends many lines a second) into one update per subscription. */
const UPDATE_DEBOUNCE_MS = 200;
/** diagnostics: how far back a join (or a reinit) starts the raw stream (decision 0705). */
const DIAGNOSTICS_BACKLOG_MS = 10 * 60_000;
/** A caller check is trusted this long before an update is delivered (a join always checks again). */
export const REVALIDATE_MS = 5_000;
/** A socket that receives nothing is still checked this often, so a revoked caller's socket closes. */
const IDLE_CHECK_MS = 30_000;

/** The join refusal's text, also sent for each subscription a re-bound tablet loses (decision 0502). */
const BOUND_ELSEWHERE = 'This tablet is bound to another machine.';

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

/** What the caller may see, as of the last check. */
export interface Access {
  scope: CompanyScope;
  timezone: string;
  /** live-operations §6: the tile's FullProduct fields go only to callers with FullProduct. */
  fullProduct: boolean;
  /** A tablet bound to one machine follows only that machine. */
  boundMachineId: string | null;
  /** A TV (decision 1041) may join only the machines' `live` tiles, not timelines or raw diagnostics. */
  boardOnly?: boolean;
}

/** The caller as the database has it now: null when the session or tablet is gone, 'error' for no verdict. */
export type CallerLookup = () => Promise<Access | null | 'error'>;

/** The socket as a session uses it; hono's WSContext is one. */
export interface LiveSocket {
  readonly readyState: number;
  send(data: string): void;
  close(code?: number, reason?: string): void;
}

/** One joined channel. */
interface Subscription {
  join: Join;
  /** diagnostics: the newest observation already sent */
  cursor: number;
  /** The pending (debounced) update, if any. */
  timer: NodeJS.Timeout | null;
}

const keyOf = (machineId: string, name: string) => `${machineId}\u0000${name}`;

/**
 * One socket's state: the caller's access and when it was last checked, the joined channels with their
 * pending updates, and the idle re-check timer. Mutable by design; channel.ts feeds it the socket's messages
 * and the bus's events.
 */
export class LiveSession {
  /** What the caller may see; null until the first lookup found the caller. */
  private access: Access | null = null;
  private checkedAt = Number.NEGATIVE_INFINITY;
  /** The re-check under way: callers asking meanwhile share its lookup. */
  private checking: Promise<boolean> | null = null;
  private closed = false;
  private readonly subs = new Map<string, Subscription>();
  private idleCheck: NodeJS.Timeout | null = null;
  /** What the wiring undoes when the session ends (the bus subscription), run once. */
  private readonly teardowns: Array<() => void> = [];
  /** Settles once the first lookup has answered. */
  private readonly ready: Promise<void>;

  /**
   * `first` is the lookup started as the upgrade was accepted (before the socket exists); `lookup` asks again
   * for each re-check.
   */
  constructor(
    private readonly socket: LiveSocket,
    private readonly deps: { lookup: CallerLookup; first: ReturnType<CallerLookup>; now: () => number },
  ) {
    this.ready = deps.first.then((found) => {
      if (found && found !== 'error') {
        this.access = found;
        this.checkedAt = deps.now();
      }
    });
  }

  /**
   * Mutates: once the first lookup has answered, refuses a caller it did not find (NOT_AUTHENTICATED, the
   * socket closed) or starts the idle re-check. True when the socket is to be served.
   */
  async open(): Promise<boolean> {
    await this.ready;
    if (!this.access) {
      this.refuse();
      return false;
    }
    if (this.closed) return false;
    this.idleCheck = setInterval(() => void this.recheck(), IDLE_CHECK_MS);
    this.idleCheck.unref();
    return true;
  }

  /** Runs `teardown` when the session ends (at once if it has ended). */
  whenClosed(teardown: () => void): void {
    if (this.closed) teardown();
    else this.teardowns.push(teardown);
  }

  /** Mutates: a message from the client, refused (an `error` event) unless it is a valid join, leave or reinit. */
  async receive(data: string): Promise<void> {
    // Messages can arrive before open() has the first lookup's answer.
    await this.ready;
    if (!this.access || this.closed) return this.error('NOT_AUTHENTICATED', 'You are not logged in.');
    let message: z.infer<typeof messageSchema>;
    try {
      const result = messageSchema.safeParse(JSON.parse(data));
      if (!result.success)
        return this.error('BAD_REQUEST', result.error.issues.map((i) => i.message).join('; '));
      message = result.data;
    } catch {
      return this.error('BAD_REQUEST', 'Messages must be JSON.');
    }
    try {
      if (message.event === 'reinit') return await this.reinit(message.machine_id, message.name);
      if (message.event === 'leave') return this.leave(message.machine_id, message.name);
      return await this.join(message);
    } catch {
      // The database failed mid-answer: the client hears it and may ask again; the process must not die of
      // an unhandled rejection (ARCHITECTURE.md: no process crashes on a bad moment).
      return this.error('UNAVAILABLE', 'The server could not answer just now. Please try again.', {
        machine_id: message.machine_id,
        name: message.name,
      });
    }
  }

  /**
   * Mutates: subscribes to a channel and answers `join` with its state. Refused: a tablet bound to another
   * machine (FORBIDDEN), a machine not found (NOT_FOUND), a timeline window the HTTP call refuses.
   */
  async join(join: Join): Promise<void> {
    // decision 0502: every join asks again; the session may be gone, the tablet revoked or bound elsewhere.
    if (!(await this.recheck(true)) || !this.access) return;
    const { scope, boundMachineId, timezone } = this.access;
    const channel = { machine_id: join.machine_id, name: join.name };
    if (boundMachineId && join.machine_id !== boundMachineId)
      return this.error('FORBIDDEN', BOUND_ELSEWHERE, channel);
    if (this.access.boardOnly && join.name !== 'live')
      return this.error('FORBIDDEN', 'This display shows its live board only.', channel);
    // Tenancy: a machine of another company is simply not found.
    const machine = await getMachine(scope, join.machine_id);
    if (!machine) return this.error('NOT_FOUND', 'Machine not found.', channel);
    // live-operations §5/§9: the same range rules and texts as the HTTP timeline call.
    if (join.name === 'temp_timeline') {
      const problem = timelineRangeProblem(timezone, timelineWindow(join, this.deps.now()));
      if (problem) return this.error('VALIDATION_ERROR', problem.message, { issues: [problem], ...channel });
    }
    const sub: Subscription = { join, cursor: this.deps.now() - DIAGNOSTICS_BACKLOG_MS, timer: null };
    this.subs.set(keyOf(join.machine_id, join.name), sub);
    this.send({ event: 'join', ...channel, payload: await this.payloadFor(sub) });
  }

  /** Mutates: unsubscribes (a pending update is dropped) and answers `leave`, joined or not. */
  leave(machineId: string, name: string): void {
    this.drop(keyOf(machineId, name));
    this.send({ event: 'leave', machine_id: machineId, name });
  }

  /**
   * Mutates: the client's reinit (decision 0705): the channel's whole state again, as at join (diagnostics:
   * the last 10 minutes again). A channel not joined is refused with NOT_JOINED.
   */
  async reinit(machineId: string, name: string): Promise<void> {
    const s = this.subs.get(keyOf(machineId, name));
    if (!s) {
      return this.error('NOT_JOINED', 'Join the channel before asking for its state.', {
        machine_id: machineId,
        name,
      });
    }
    if (!(await this.recheck())) return;
    if (!this.holds(s)) return; // dropped by the check (a re-bound tablet)
    if (s.join.name === 'diagnostics') s.cursor = this.deps.now() - DIAGNOSTICS_BACKLOG_MS;
    this.send({ event: 'reinit', machine_id: machineId, name, payload: await this.payloadFor(s) });
  }

  /**
   * Mutates: a change published on the live bus. Each subscription to the machine gets one `channel_update`
   * per burst (after UPDATE_DEBOUNCE_MS), or at once a `reinit` without payload when history was rewritten.
   */
  onPublish(e: LiveEvent): void {
    if (!this.access || e.companyId !== this.access.scope.companyId) return;
    for (const s of this.subs.values()) {
      if (s.join.machine_id !== e.machineId) continue;
      if (e.topic === 'reinit') {
        this.tellToReload(s);
        continue;
      }
      if (s.timer) continue;
      s.timer = setTimeout(() => {
        s.timer = null;
        void this.update(s, e.topic);
      }, UPDATE_DEBOUNCE_MS);
    }
  }

  /**
   * Is the caller still allowed? Asks the database again when the last answer is older than REVALIDATE_MS
   * (or always, with `force`); concurrent callers share one lookup. Mutates: closes the socket when the
   * session or tablet is gone, and drops the subscriptions a re-bound tablet may no longer follow. A
   * database failure keeps the last verdict and asks again next time (decision 0502: no reload storm on a
   * hiccup).
   */
  recheck(force = false): Promise<boolean> {
    if (this.closed || !this.access) return Promise.resolve(false);
    if (!force && this.deps.now() - this.checkedAt < REVALIDATE_MS) return Promise.resolve(true);
    this.checking ??= this.lookUpAgain().finally(() => {
      this.checking = null;
    });
    return this.checking;
  }

  /** Mutates: ends the session (the socket closed, or the caller refused): nothing pending is sent. */
  close(): void {
    this.closed = true;
    if (this.idleCheck) clearInterval(this.idleCheck);
    this.idleCheck = null;
    for (const s of this.subs.values()) if (s.timer) clearTimeout(s.timer);
    this.subs.clear();
    for (const teardown of this.teardowns.splice(0)) teardown();
  }

  private async lookUpAgain(): Promise<boolean> {
    const found = await this.deps.lookup();
    if (this.closed) return false;
    if (found === 'error') return true;
    this.checkedAt = this.deps.now();
    if (!found || found.scope.companyId !== this.access?.scope.companyId) {
      this.refuse();
      return false;
    }
    this.access = found;
    const bound = found.boundMachineId;
    if (bound) {
      for (const [key, s] of this.subs) {
        if (s.join.machine_id === bound) continue;
        this.drop(key);
        this.error('FORBIDDEN', BOUND_ELSEWHERE, { machine_id: s.join.machine_id, name: s.join.name });
      }
    }
    return true;
  }

  /** The server's reinit (decision 0705): the client drops what the channel shows and reloads it. */
  private tellToReload(s: Subscription): void {
    // A pending update would build on the state the subscriber is told to drop.
    if (s.timer) clearTimeout(s.timer);
    s.timer = null;
    void this.recheck().then((ok) => {
      if (ok && this.holds(s))
        this.send({ event: 'reinit', machine_id: s.join.machine_id, name: s.join.name });
    });
  }

  /** A debounced update; one that cannot be built becomes a reinit (decision 0705). */
  private async update(s: Subscription, topic: LiveEvent['topic']): Promise<void> {
    const channel = { machine_id: s.join.machine_id, name: s.join.name };
    try {
      // Nothing reaches a caller that is no longer allowed, nor a subscription the check just dropped.
      const payload = (await this.recheck()) && this.holds(s) ? await this.payloadFor(s) : null;
      if (payload) this.send({ event: 'channel_update', ...channel, topic, payload });
    } catch {
      this.send({ event: 'reinit', ...channel });
    }
  }

  /** Mutates: a diagnostics subscription's cursor moves past what it returns. */
  private async payloadFor(s: Subscription) {
    const { join } = s;
    if (!this.access) return null;
    const { scope, fullProduct } = this.access;
    const now = this.deps.now();
    if (join.name === 'live') return liveMachinePayload(scope, join.machine_id, now, fullProduct);
    if (join.name === 'diagnostics') {
      const { observations, cursor } = await diagnosticsSince(scope, join.machine_id, s.cursor, now);
      s.cursor = cursor;
      return { observations };
    }
    const { start, end } = timelineWindow(join, now);
    const key = join.config?.key ?? null;
    return { key, ...(await timelineBetween(scope, join.machine_id, start, end, key)) };
  }

  /** Is `s` still the subscription to its channel (not left, dropped or joined again)? */
  private holds(s: Subscription): boolean {
    return this.subs.get(keyOf(s.join.machine_id, s.join.name)) === s;
  }

  private drop(key: string): void {
    const s = this.subs.get(key);
    if (s?.timer) clearTimeout(s.timer);
    this.subs.delete(key);
  }

  private refuse(): void {
    // live-operations §8: NOT_AUTHENTICATED makes the page reload.
    this.error('NOT_AUTHENTICATED', 'You are not logged in.');
    this.socket.close(4001, 'NOT_AUTHENTICATED');
    this.close();
  }

  private send(msg: object): void {
    if (this.socket.readyState === 1) this.socket.send(JSON.stringify(msg));
  }

  private error(code: string, message: string, extra: object = {}): void {
    this.send({ event: 'error', code, message, ...extra });
  }
}
