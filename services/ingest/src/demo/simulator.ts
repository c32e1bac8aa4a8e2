// The demo plant: one MTConnect SHDR adapter per simulated machine, each a TCP server on the given
// port speaking the real protocol to every client (snapshot on connect, timestamped changes,
// `* PING` → `* PONG <ms>`). What a machine does comes from demo-script.ts, seeded per machine.
import net from 'node:net';
import type { DemoCondition, DemoKey, DemoOutage, DemoProfile, DemoStep, DemoValues } from './demo-script';
import { CONDITION_NORMAL, DEMO_VALUE_KEYS, demoMachineScript } from './demo-script';
import { splitShdrStream } from '../sources/shdr/shdr';
import type { DemoResume } from './demo-history';

export { DEFAULT_DEMO_PROFILE, DEMO_KEYS, demoMachineScript, mulberry32 } from './demo-script';
export type { DemoCondition, DemoKey, DemoProfile, DemoStep } from './demo-script';

export interface DemoMachine {
  name: string;
  /** 0 picks a free port (tests); the demo plant uses fixed ports */
  port: number;
  seed: number;
  profile?: Partial<DemoProfile>;
  /** Go on from the end of the machine's history (demo-history.ts) instead of starting the script afresh. */
  resume?: DemoResume;
}

export interface DemoPlantOptions {
  machines: DemoMachine[];
  /** 10 → everything happens 10× faster (default 1) */
  speed?: number;
  host?: string;
  /** the interval announced in `* PONG <ms>` (default 10 s; not scaled by speed: it is a network setting) */
  heartbeatMs?: number;
  /** every change line a machine's adapter sends (whether or not a client is connected); not snapshots */
  onLine?: (name: string, line: string) => void;
  /** clock for the line timestamps (default Date.now) */
  now?: () => number;
}

export interface DemoPlant {
  adapters: Array<{ name: string; port: number }>;
  stop(): Promise<void>;
}

export async function startDemoPlant(options: DemoPlantOptions): Promise<DemoPlant> {
  const adapters = options.machines.map((machine) => new DemoAdapter(machine, options));
  try {
    await Promise.all(adapters.map((a) => a.start()));
  } catch (error) {
    await Promise.all(adapters.map((a) => a.stop()));
    throw error;
  }
  return {
    adapters: adapters.map((a) => ({ name: a.name, port: a.port })),
    stop: async () => {
      await Promise.all(adapters.map((a) => a.stop()));
    },
  };
}

/** Retry delay for re-listening after a refuse outage, when the port is briefly unavailable. */
const RELISTEN_RETRY_MS = 1_000;

class DemoAdapter {
  readonly name: string;
  port: number;
  private readonly host: string;
  private readonly speed: number;
  private readonly heartbeatMs: number;
  private readonly now: () => number;
  private readonly onLine: (name: string, line: string) => void;
  private readonly script: Generator<DemoStep, never>;
  private readonly values: DemoValues;
  private condition: DemoCondition = CONDITION_NORMAL;
  private readonly clients = new Set<net.Socket>();
  /** clients whose PING arrived while the adapter hung: answered when it resumes */
  private readonly pendingPings = new Set<net.Socket>();
  /** clients that connected while the adapter hung: they get their snapshot when it resumes */
  private readonly awaitingSnapshot = new Set<net.Socket>();
  private server: net.Server | null = null;
  private stepTimer: NodeJS.Timeout | null = null;
  private outageTimer: NodeJS.Timeout | null = null;
  private outage: DemoOutage | null = null;
  private stopped = false;
  /** The first step after the machine's history, due at its own time. */
  private resumeAt: { step: DemoStep; at: number } | null = null;

  constructor(machine: DemoMachine, options: DemoPlantOptions) {
    this.name = machine.name;
    this.port = machine.port;
    this.host = options.host ?? '127.0.0.1';
    this.speed = options.speed && options.speed > 0 ? options.speed : 1;
    this.heartbeatMs = options.heartbeatMs ?? 10_000;
    this.now = options.now ?? Date.now;
    this.onLine = options.onLine ?? (() => {});
    if (machine.resume) {
      this.script = machine.resume.script;
      this.values = { ...machine.resume.values };
      this.condition = machine.resume.condition;
      this.resumeAt = machine.resume.next;
      return;
    }
    this.script = demoMachineScript(machine.seed, machine.profile);
    // The first step sets every value: the adapter's state before anything happens.
    const first = this.script.next().value;
    this.values = { ...(first.set as DemoValues) };
    this.condition = first.condition ?? CONDITION_NORMAL;
  }

  async start(): Promise<void> {
    await this.listen();
    this.scheduleNext();
  }

  async stop(): Promise<void> {
    this.stopped = true;
    for (const timer of [this.stepTimer, this.outageTimer]) if (timer) clearTimeout(timer);
    this.stepTimer = null;
    this.outageTimer = null;
    await this.closeServer();
  }

  private listen(): Promise<void> {
    const server = net.createServer((socket) => this.accept(socket));
    this.server = server;
    return new Promise((resolve, reject) => {
      server.once('error', reject);
      server.listen(this.port, this.host, () => {
        server.off('error', reject);
        const address = server.address();
        if (address && typeof address !== 'string') this.port = address.port;
        resolve();
      });
    });
  }

  private closeServer(): Promise<void> {
    const server = this.server;
    this.server = null;
    for (const socket of this.clients) socket.destroy();
    this.clients.clear();
    this.pendingPings.clear();
    this.awaitingSnapshot.clear();
    if (!server) return Promise.resolve();
    return new Promise((resolve) => server.close(() => resolve()));
  }

  private accept(socket: net.Socket): void {
    this.clients.add(socket);
    socket.setNoDelay(true);
    socket.on('error', () => {}); // a client vanishing is normal; 'close' cleans up
    socket.on('close', () => {
      this.clients.delete(socket);
      this.pendingPings.delete(socket);
      this.awaitingSnapshot.delete(socket);
    });
    const splitter = splitShdrStream({ maxLineLength: 4_096 });
    socket.on('data', (chunk: Buffer) => {
      for (const line of splitter.push(chunk)) this.onClientLine(socket, line);
    });
    if (this.outage === 'silent') this.awaitingSnapshot.add(socket);
    else this.sendSnapshot(socket);
  }

  private onClientLine(socket: net.Socket, line: string): void {
    if (line.trim().toUpperCase() !== '* PING') return;
    if (this.outage === 'silent') this.pendingPings.add(socket);
    else socket.write(`* PONG ${this.heartbeatMs}\n`);
  }

  /** On connect a real adapter sends every current value, so the agent starts from a full picture. */
  private sendSnapshot(socket: net.Socket): void {
    const ts = this.timestamp();
    const pairs = DEMO_VALUE_KEYS.map((key) => `${key}|${this.values[key]}`).join('|');
    socket.write(`${ts}|${pairs}\n${conditionLine(ts, this.condition)}\n`);
  }

  private scheduleNext(): void {
    if (this.stopped) return;
    const resumed = this.resumeAt;
    this.resumeAt = null;
    const step = resumed ? resumed.step : this.script.next().value;
    const delayMs = resumed ? Math.max(0, resumed.at - this.now()) : step.afterMs;
    this.stepTimer = setTimeout(() => {
      this.stepTimer = null;
      this.apply(step);
      this.scheduleNext();
    }, delayMs / this.speed);
  }

  private apply(step: DemoStep): void {
    if (step.outage) {
      this.beginOutage(step.outage.kind, step.outage.durationMs / this.speed);
      return;
    }
    const ts = this.timestamp();
    const changed = Object.entries(step.set ?? {}).filter(
      ([key, value]) => this.values[key as keyof DemoValues] !== value,
    );
    for (const [key, value] of changed) this.values[key as keyof DemoValues] = value;
    if (changed.length > 0) this.broadcast(`${ts}|${changed.map(([k, v]) => `${k}|${v}`).join('|')}`);
    if (step.condition && !sameCondition(step.condition, this.condition)) {
      this.condition = step.condition;
      this.broadcast(conditionLine(ts, step.condition));
    }
  }

  private broadcast(line: string): void {
    if (this.outage !== null) return;
    for (const socket of this.clients) socket.write(`${line}\n`);
    this.onLine(this.name, line);
  }

  private beginOutage(kind: DemoOutage, realMs: number): void {
    this.outage = kind;
    if (kind === 'refuse') void this.closeServer();
    this.outageTimer = setTimeout(() => this.endOutage(), realMs);
  }

  private endOutage(): void {
    this.outageTimer = null;
    if (this.stopped) return;
    if (this.outage === 'refuse') {
      this.listen().then(
        () => {
          this.outage = null;
          if (this.stopped) void this.closeServer(); // stop() came while we were re-listening
        },
        () => {
          // The port was taken meanwhile: try again shortly, still refusing.
          this.outageTimer = setTimeout(() => this.endOutage(), RELISTEN_RETRY_MS);
        },
      );
      return;
    }
    this.outage = null;
    // The hung adapter wakes up and works through what queued up meanwhile.
    for (const socket of this.awaitingSnapshot) this.sendSnapshot(socket);
    for (const socket of this.pendingPings) socket.write(`* PONG ${this.heartbeatMs}\n`);
    this.awaitingSnapshot.clear();
    this.pendingPings.clear();
  }

  private timestamp(): string {
    return new Date(this.now()).toISOString();
  }
}

function conditionLine(ts: string, c: DemoCondition): string {
  return `${ts}|system|${c.level}|${c.nativeCode}|${c.nativeSeverity}|${c.qualifier}|${c.message}`;
}

function sameCondition(a: DemoCondition, b: DemoCondition): boolean {
  return a.level === b.level && a.nativeCode === b.nativeCode && a.message === b.message;
}

// ---------------------------------------------------------------------------------------------
// The demo plant's data items

export interface DemoDataItem {
  type: string;
  category: 'EVENT' | 'SAMPLE' | 'CONDITION';
  subType?: string;
  units?: string;
  component: 'device' | 'controller' | 'path' | 'spindle';
}

/**
 * How each demo key is described in MTConnect 2.x vocabulary: the demo adapter's field mapping
 * (demo-adapter.ts), and the demo plant's Devices.xml the tests import (testing/xml.ts).
 */
export const DEMO_DATA_ITEMS: Readonly<Record<DemoKey, DemoDataItem>> = {
  avail: { type: 'AVAILABILITY', category: 'EVENT', component: 'device' },
  system: { type: 'SYSTEM', category: 'CONDITION', component: 'controller' },
  mode: { type: 'CONTROLLER_MODE', category: 'EVENT', component: 'controller' },
  execution: { type: 'EXECUTION', category: 'EVENT', component: 'path' },
  program: { type: 'PROGRAM', category: 'EVENT', component: 'path' },
  part_count: { type: 'PART_COUNT', category: 'EVENT', subType: 'ALL', component: 'path' },
  path_feedrate: {
    type: 'PATH_FEEDRATE',
    category: 'SAMPLE',
    subType: 'ACTUAL',
    units: 'MILLIMETER/SECOND',
    component: 'path',
  },
  Sspeed: {
    type: 'ROTARY_VELOCITY',
    category: 'SAMPLE',
    subType: 'ACTUAL',
    units: 'REVOLUTION/MINUTE',
    component: 'spindle',
  },
};
