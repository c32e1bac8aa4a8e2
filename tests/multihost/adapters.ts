// The adapters host of the multi-host test and the soak benchmark: N simulated SHDR adapters (one TCP port
// each) playing one deterministic script, once per "set" of ports (the cluster under test and the single-node
// baseline hear the same lines at the same times). A small HTTP control port starts the script and reports
// what each adapter wrote and who is connected.
//   node --import tsx tests/multihost/adapters.ts '<AdapterHostConfig as JSON>'
import http from 'node:http';
import net from 'node:net';

export interface Phase {
  steps: number;
  /** No data lines in this phase (heartbeats are still answered): a window for faults (decision 0975). */
  quiet: boolean;
}

export interface AdapterHostConfig {
  host: string;
  controlPort: number;
  machines: number;
  /** First port of each set of adapters, by set name. */
  sets: Record<string, number>;
  phases: Phase[];
  stepMs: number;
}

export interface AdapterStatus {
  /** The script's step 0 (epoch ms), null before start. */
  startAt: number | null;
  /** Steps played so far. */
  step: number;
  done: boolean;
  sets: Record<
    string,
    {
      /** Observation pairs written to connected clients (once per line, however many), per machine and key. */
      sent: Array<Record<string, number>>;
      /** Remote addresses of the clients connected now, per machine. */
      peers: string[][];
    }
  >;
}

const EXECUTION = ['ACTIVE', 'READY', 'ACTIVE', 'INTERRUPTED'] as const;

/**
 * The script, pure: what machine `i` says at its `active`-th data step (0-based, counting only steps outside
 * quiet phases). Every step a feed rate and the program number (the soak's 1 Hz line); every fourth step,
 * offset per machine, the execution changes, and a finished cycle (leaving ACTIVE) counts a part.
 */
export function scriptValues(i: number, active: number): Record<string, string> {
  const phase = Math.floor((active + (i % 4)) / 4);
  // Phases 0, 2, 4… are ACTIVE: each one that has ended is a finished cycle.
  const parts = Math.ceil(phase / 2);
  return {
    execution: EXECUTION[phase % EXECUTION.length]!,
    part_count: String(parts),
    program: `P${active}`,
    path_feedrate: String(((i * 37 + active * 11) % 900) + 100),
  };
}

const INITIAL: Record<string, string> = {
  avail: 'AVAILABLE',
  execution: 'READY',
  mode: 'AUTOMATIC',
  program: 'P0',
  part_count: '0',
  Sspeed: '0',
  path_feedrate: '0',
};

class Adapter {
  readonly clients = new Set<net.Socket>();
  readonly sent: Record<string, number> = {};
  values: Record<string, string> = { ...INITIAL };
  /** When the current values took effect (the snapshot's time stamp). */
  since = Date.now();
  private server: net.Server;

  constructor(
    readonly port: number,
    host: string,
  ) {
    this.server = net.createServer((socket) => this.accept(socket));
    this.server.listen(port, host);
  }

  private accept(socket: net.Socket): void {
    socket.setNoDelay(true);
    socket.on('error', () => {});
    socket.on('close', () => this.clients.delete(socket));
    let buffer = '';
    socket.on('data', (chunk: Buffer) => {
      buffer += chunk.toString();
      const lines = buffer.split('\n');
      buffer = lines.pop() ?? '';
      for (const l of lines) if (l.trim().toUpperCase() === '* PING') socket.write('* PONG 10000\n');
    });
    // A real adapter sends every current value on connect, stamped with when they took effect. A node taking
    // the machine over while its holder still listens hears values that were stored already, and stores them
    // no second time (decision 0971): only the snapshot of a client that is alone counts as sent.
    const alone = this.clients.size === 0;
    this.clients.add(socket);
    if (this.write(socket, this.since, this.values) && alone) this.count(this.values);
  }

  /** Mutates: the values of this step; writes the changed ones (and the feed-rate sample) to every client. */
  play(ts: number, next: Record<string, string>): void {
    const changed = Object.fromEntries(
      Object.entries(next).filter(([k, v]) => k === 'path_feedrate' || this.values[k] !== v),
    );
    this.values = { ...this.values, ...next };
    this.since = ts;
    // Each line is to be stored once, however many nodes hear it.
    let written = false;
    for (const socket of this.clients) written = this.write(socket, ts, changed) || written;
    if (written) this.count(changed);
  }

  /** Writes the pairs as one line; false when there was nothing to write or the socket is closing. */
  private write(socket: net.Socket, ts: number, pairs: Record<string, string>): boolean {
    if (socket.destroyed || !socket.writable) return false;
    const entries = Object.entries(pairs);
    if (entries.length === 0) return false;
    socket.write(`${new Date(ts).toISOString()}|${entries.map(([k, v]) => `${k}|${v}`).join('|')}\n`);
    return true;
  }

  /** Mutates `sent`. */
  private count(pairs: Record<string, string>): void {
    for (const k of Object.keys(pairs)) this.sent[k] = (this.sent[k] ?? 0) + 1;
  }

  peers(): string[] {
    return [...this.clients].map((s) => s.remoteAddress ?? '?');
  }

  close(): void {
    for (const s of this.clients) s.destroy();
    this.server.close();
  }
}

function run(config: AdapterHostConfig): void {
  const sets = Object.fromEntries(
    Object.entries(config.sets).map(([name, base]) => [
      name,
      Array.from({ length: config.machines }, (_, i) => new Adapter(base + i, config.host)),
    ]),
  );
  const totalSteps = config.phases.reduce((n, p) => n + p.steps, 0);
  const quietAt = (step: number) => {
    let n = 0;
    for (const p of config.phases) {
      n += p.steps;
      if (step < n) return p.quiet;
    }
    return true;
  };
  let startAt: number | null = null;
  let step = 0;
  let active = 0;

  // Each step runs at its own wall time and is stamped with it exactly, so both sets (and every run of the
  // script) carry the same times relative to step 0, whatever the timer's jitter.
  const tick = () => {
    if (startAt === null || step >= totalSteps) return;
    const ts = startAt + step * config.stepMs;
    // A timer may fire a millisecond early; a line sent before its stamp is "ahead of its receipt" and placed at
    // the receipt (decision 1154), a millisecond off in one set and not the other. A real adapter stamps a line
    // with its clock when it writes it: never before.
    if (Date.now() < ts) {
      setTimeout(tick, ts - Date.now());
      return;
    }
    if (!quietAt(step)) {
      for (const adapters of Object.values(sets))
        adapters.forEach((a, i) => a.play(ts, scriptValues(i, active)));
      active += 1;
    }
    step += 1;
    if (step < totalSteps) setTimeout(tick, Math.max(0, startAt + step * config.stepMs - Date.now()));
  };

  const status = (): AdapterStatus => ({
    startAt,
    step,
    done: step >= totalSteps,
    sets: Object.fromEntries(
      Object.entries(sets).map(([name, adapters]) => [
        name,
        { sent: adapters.map((a) => ({ ...a.sent })), peers: adapters.map((a) => a.peers()) },
      ]),
    ),
  });

  const control = http.createServer((req, res) => {
    const url = new URL(req.url ?? '/', 'http://adapters');
    if (req.method === 'POST' && url.pathname === '/start') {
      startAt ??= Number(url.searchParams.get('at') ?? Date.now());
      setTimeout(tick, Math.max(0, startAt - Date.now()));
    } else if (url.pathname !== '/status') {
      res.writeHead(404).end();
      return;
    }
    res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify(status()));
  });
  control.listen(config.controlPort, config.host, () => console.log('[adapters] ready'));
  process.on('SIGTERM', () => {
    for (const adapters of Object.values(sets)) for (const a of adapters) a.close();
    control.close();
    process.exit(0);
  });
}

if (process.argv[1] && import.meta.url.endsWith(process.argv[1].split('/').pop() ?? '')) {
  run(JSON.parse(process.argv[2] ?? '{}') as AdapterHostConfig);
}
