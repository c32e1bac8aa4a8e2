// Client side of an MTConnect SHDR adapter link, behaving like the reference agent: it dials the
// adapter, sends `* PING`, and when the adapter answers `* PONG <ms>` it pings every <ms> and drops
// the link after 2×<ms> of silence. An adapter without PONG has no heartbeat, and a quiet machine says
// nothing for hours (METRICS.md §1: silence is never UNAVAILABLE by itself): its link is dropped only when
// the socket is, which TCP keep-alive finds out for a peer that vanished. Lost links are redialled with
// backoff.
import net from 'node:net';
import { shdrSilenceLimitMs } from '@takt/domain';
import type { KeyKinds, ShdrLine } from './shdr';
import { boundToWindow, parseShdrLine, pongInterval, splitShdrStream } from './shdr';
import { callListener, reportTo } from '../listeners';

export type ShdrStatus = 'CONNECTING' | 'CONNECTED' | 'DISCONNECTED';

export interface ShdrCounters {
  /** every line received (data and commands) */
  lines: number;
  observations: number;
  /** bad tokens or pairs (see ShdrData.rejected) */
  rejected: number;
  /** lines that had at least one rejected token, and lines dropped whole (over-long, unterminated multiline) */
  rejectedLines: number;
  /** epoch ms of the last line received, null before the first */
  lastLineAt: number | null;
}

export interface BackoffOptions {
  initialMs: number;
  maxMs: number;
}

export interface ShdrClientOptions {
  host: string;
  port: number;
  /** what each key is, from the device description; without it conditions are detected by shape */
  keyKinds?: KeyKinds;
  onLine?: (line: ShdrLine) => void;
  onStatus?: (status: ShdrStatus, at: number) => void;
  /** socket errors and exceptions thrown by callbacks; the client carries on either way */
  onError?: (error: Error) => void;
  /** redial delay: starts at initialMs, doubles per failed attempt up to maxMs (default 500 ms → 30 s) */
  backoff?: BackoffOptions;
  /** TCP keep-alive probe delay: how soon a vanished peer of a quiet link is found (default 30 s) */
  keepAliveMs?: number;
  /** clock, for tests and for the receive time of lines without a timestamp */
  now?: () => number;
  /**
   * Before each dial: the address to connect to, or a rejection when the source may not be dialled (the address
   * policy, decision 0985); the refusal is reported and retried with the backoff like a failed connect.
   */
  guard?: (host: string, port: number) => Promise<string>;
}

const DEFAULT_BACKOFF: BackoffOptions = { initialMs: 500, maxMs: 30_000 };
const DEFAULT_KEEPALIVE_MS = 30_000;
// A PONG below this would make us ping in a tight loop; such adapters are held to this floor.
const MIN_HEARTBEAT_MS = 10;

/** Exponential backoff: each failed attempt doubles the wait, up to the cap. */
export function nextBackoffMs(previousMs: number, backoff: BackoffOptions): number {
  return Math.min(Math.max(previousMs, 1) * 2, backoff.maxMs);
}

export class ShdrClient {
  private readonly options: ShdrClientOptions;
  private readonly now: () => number;
  private readonly backoff: BackoffOptions;
  private socket: net.Socket | null = null;
  private socketClosed: Promise<void> = Promise.resolve();
  private reconnectTimer: NodeJS.Timeout | null = null;
  private pingTimer: NodeJS.Timeout | null = null;
  private silenceTimer: NodeJS.Timeout | null = null;
  private nextDelayMs: number;
  private running = false;
  private currentStatus: ShdrStatus = 'DISCONNECTED';
  private heartbeat: number | null = null;
  /** Bumped by every dial and by stop(): a guard answering late for an earlier one is ignored. */
  private attempt = 0;
  private readonly stats: ShdrCounters = {
    lines: 0,
    observations: 0,
    rejected: 0,
    rejectedLines: 0,
    lastLineAt: null,
  };

  constructor(options: ShdrClientOptions) {
    this.options = options;
    this.now = options.now ?? Date.now;
    this.backoff = options.backoff ?? DEFAULT_BACKOFF;
    this.nextDelayMs = this.backoff.initialMs;
  }

  get status(): ShdrStatus {
    return this.currentStatus;
  }

  /** The adapter's PONG interval on the current link, null when it has not answered PING. */
  get heartbeatMs(): number | null {
    return this.heartbeat;
  }

  get counters(): Readonly<ShdrCounters> {
    return { ...this.stats };
  }

  start(): void {
    if (this.running) return;
    this.running = true;
    this.connect();
  }

  /** Closes the link and cancels every timer; resolves once the socket is fully closed. */
  async stop(): Promise<void> {
    this.running = false;
    this.attempt++;
    this.clearTimers();
    if (this.reconnectTimer) clearTimeout(this.reconnectTimer);
    this.reconnectTimer = null;
    this.socket?.destroy();
    await this.socketClosed;
    this.setStatus('DISCONNECTED');
  }

  private connect(): void {
    this.reconnectTimer = null;
    this.heartbeat = null;
    this.setStatus('CONNECTING');
    const { guard } = this.options;
    if (!guard) return this.dial(this.options.host);
    const attempt = ++this.attempt;
    guard(this.options.host, this.options.port).then(
      (address) => {
        if (this.running && attempt === this.attempt) this.dial(address);
      },
      (error: unknown) => {
        if (!this.running || attempt !== this.attempt) return;
        this.report(error);
        this.setStatus('DISCONNECTED');
        this.redialLater();
      },
    );
  }

  private dial(address: string): void {
    const socket = net.connect({ host: address, port: this.options.port });
    const splitter = splitShdrStream();
    this.socket = socket;
    this.socketClosed = new Promise((resolve) => socket.once('close', () => resolve()));
    socket.setNoDelay(true);
    socket.setKeepAlive(true, this.options.keepAliveMs ?? DEFAULT_KEEPALIVE_MS);
    socket.on('connect', () => this.onConnected(socket));
    let dropped = 0;
    /** Mutates the counters: lines the splitter dropped whole (over-long, an unclosed multiline block). */
    const countDropped = () => {
      const more = splitter.dropped - dropped;
      if (more <= 0) return;
      dropped = splitter.dropped;
      this.stats.lines += more;
      this.stats.rejected += more;
      this.stats.rejectedLines += more;
      this.stats.lastLineAt = this.now();
      this.report(
        new Error(
          `${more} over-long or unterminated line(s) from ${this.options.host}:${this.options.port} dropped`,
        ),
      );
    };
    socket.on('data', (chunk: Buffer) => {
      const lines = splitter.push(chunk);
      countDropped();
      for (const line of lines) {
        // A callback may have stopped the client or dropped the link mid-chunk: ignore the rest.
        if (!this.running || this.socket !== socket) return;
        this.onRawLine(line);
      }
    });
    socket.on('error', (error) => this.report(error));
    socket.on('close', () => {
      // A line cut off by the close is incomplete: rejected, like an unclosed multiline block.
      const cut = splitter.end().length;
      countDropped();
      if (cut > 0) {
        this.stats.lines += cut;
        this.stats.rejected += cut;
        this.stats.rejectedLines += cut;
      }
      this.onClosed(socket);
    });
  }

  private onConnected(socket: net.Socket): void {
    this.setStatus('CONNECTED');
    socket.write('* PING\n');
  }

  private onRawLine(raw: string): void {
    const at = this.now();
    const line = boundToWindow(parseShdrLine(raw, at, this.options.keyKinds), at);
    this.count(line, at);
    // Any line proves the link and the adapter alive: back to the short redial delay.
    this.nextDelayMs = this.backoff.initialMs;
    const interval = pongInterval(line);
    if (interval !== null) this.onPong(Math.max(interval, MIN_HEARTBEAT_MS));
    const limit = shdrSilenceLimitMs(this.heartbeat);
    if (limit !== null) this.armSilenceTimer(limit);
    callListener(() => this.options.onLine?.(line), this.options.onError);
  }

  private count(line: ShdrLine, at: number): void {
    this.stats.lines++;
    this.stats.lastLineAt = at;
    if (line.type !== 'data') return;
    this.stats.observations += line.observations.length;
    this.stats.rejected += line.rejected;
    if (line.rejected > 0) this.stats.rejectedLines++;
  }

  private onPong(intervalMs: number): void {
    if (this.heartbeat === intervalMs && this.pingTimer) return;
    this.heartbeat = intervalMs;
    if (this.pingTimer) clearInterval(this.pingTimer);
    this.pingTimer = setInterval(() => this.socket?.write('* PING\n'), intervalMs);
  }

  private armSilenceTimer(ms: number): void {
    if (this.silenceTimer) clearTimeout(this.silenceTimer);
    const socket = this.socket;
    this.silenceTimer = setTimeout(() => {
      this.report(new Error(`no data from ${this.options.host}:${this.options.port} for ${ms} ms`));
      socket?.destroy();
    }, ms);
  }

  private onClosed(socket: net.Socket): void {
    if (this.socket !== socket) return;
    this.socket = null;
    this.clearTimers();
    this.heartbeat = null;
    this.setStatus('DISCONNECTED');
    this.redialLater();
  }

  private redialLater(): void {
    if (!this.running) return;
    const delay = this.nextDelayMs;
    this.nextDelayMs = nextBackoffMs(delay, this.backoff);
    this.reconnectTimer = setTimeout(() => this.connect(), delay);
  }

  private clearTimers(): void {
    if (this.pingTimer) clearInterval(this.pingTimer);
    if (this.silenceTimer) clearTimeout(this.silenceTimer);
    this.pingTimer = null;
    this.silenceTimer = null;
  }

  private setStatus(status: ShdrStatus): void {
    if (status === this.currentStatus) return;
    this.currentStatus = status;
    callListener(() => this.options.onStatus?.(status, this.now()), this.options.onError);
  }

  private report(error: unknown): void {
    reportTo(this.options.onError, error);
  }
}
