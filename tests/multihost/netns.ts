// A private network of hosts for multi-host tests and the soak benchmark: one Linux network namespace per
// host, each with a veth pair into one bridge on a private 10.77.N.0/24 subnet; the test process itself sits
// on the bridge (.1) so it can reach every host. Everything is created by the run and removed by it
// (decision 0975): names carry the creating process id, so parallel runs never clash and the leftovers of an
// aborted run (its process is gone) are removed by the next run.
import { execFileSync, spawn, spawnSync } from 'node:child_process';
import type { ChildProcess } from 'node:child_process';
import { appendFileSync, chownSync, mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { bundledCommand } from '../../services/ingest/src/testing/bundle';

export const ROOT = fileURLToPath(new URL('../../', import.meta.url));
const IP = '/usr/sbin/ip';
const PG_BIN = '/usr/lib/postgresql/15/bin';
const NAME = /^tk(\d+)(?:-|br$|v\d+$)/;
const TMP_PREFIX = 'takt-netns-';

const ip = (...args: string[]): string => execFileSync(IP, args, { encoding: 'utf8', stdio: 'pipe' });

function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (err) {
    return (err as NodeJS.ErrnoException).code === 'EPERM';
  }
}

/** Kill every process inside a namespace and delete it; quiet when it is already gone. */
function removeNamespace(ns: string): void {
  const pids = spawnSync(IP, ['netns', 'pids', ns], { encoding: 'utf8' }).stdout ?? '';
  for (const p of pids.split('\n').filter(Boolean)) {
    try {
      process.kill(Number(p), 'SIGKILL');
    } catch {
      // already gone
    }
  }
  spawnSync(IP, ['netns', 'del', ns]);
}

/** Remove namespaces, links and temp folders of runs whose process has ended (aborted runs). */
export function removeLeftovers(): void {
  const namespaces = (spawnSync(IP, ['netns', 'list'], { encoding: 'utf8' }).stdout ?? '')
    .split('\n')
    .map((l) => l.split(' ')[0] ?? '')
    .filter(Boolean);
  for (const ns of namespaces) {
    const m = NAME.exec(ns);
    if (m && !alive(Number(m[1]))) removeNamespace(ns);
  }
  const links = (spawnSync(IP, ['-o', 'link', 'show'], { encoding: 'utf8' }).stdout ?? '')
    .split('\n')
    .map((l) => (l.split(': ')[1] ?? '').split('@')[0] ?? '');
  for (const link of links) {
    const m = NAME.exec(link);
    if (m && !alive(Number(m[1]))) spawnSync(IP, ['link', 'del', link]);
  }
  for (const entry of readdirSync(tmpdir())) {
    const m = /^takt-netns-(\d+)-/.exec(entry);
    if (m && !alive(Number(m[1]))) rmSync(join(tmpdir(), entry), { recursive: true, force: true });
  }
}

export interface Proc {
  host: string;
  child: ChildProcess;
  output(): string;
  /** Resolves when the process has ended. */
  exited(): Promise<void>;
  /** SIGKILL, as a power cut would. */
  kill9(): Promise<void>;
  /** SIGTERM, SIGKILL after 5 s. */
  stop(): Promise<void>;
}

function track(host: string, child: ChildProcess, echo: boolean): Proc {
  let out = '';
  const keep = (d: Buffer) => {
    out += d.toString();
    if (out.length > 400_000) out = out.slice(-200_000);
    if (echo) process.stderr.write(`[${host}] ${d.toString()}`);
  };
  child.stdout?.on('data', keep);
  child.stderr?.on('data', keep);
  const ended = () => child.exitCode != null || child.signalCode != null;
  const exited = () =>
    ended() ? Promise.resolve() : new Promise<void>((r) => child.once('exit', () => r()));
  return {
    host,
    child,
    output: () => out,
    exited,
    async kill9() {
      const done = exited();
      if (!ended()) child.kill('SIGKILL');
      await done;
    },
    async stop() {
      if (ended()) return;
      const done = exited();
      child.kill('SIGTERM');
      await Promise.race([done, new Promise((r) => setTimeout(r, 5000))]);
      if (!ended()) child.kill('SIGKILL');
      await done;
    },
  };
}

export interface SpawnOptions {
  env?: Record<string, string>;
  /** Run as this system user (PostgreSQL refuses to run as root). */
  user?: string;
  /** Copy the process output to stderr, prefixed with the host (debugging). */
  echo?: boolean;
}

/** Polls until `check` gives a value other than undefined/false; fails with `what` after `timeoutMs`. */
export async function until<T>(
  check: () => Promise<T | undefined | false> | T | undefined | false,
  timeoutMs: number,
  what: string,
): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await check();
    if (value !== undefined && value !== false) return value;
    if (Date.now() > deadline) throw new Error(`timed out after ${timeoutMs} ms waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 200));
  }
}

/**
 * The network: `hosts` namespaces on one bridge. `create` fails with a clear message when namespaces cannot
 * be made (not root, no iproute2, a sandbox without CAP_NET_ADMIN): the multi-host test never skips.
 */
export class NetLab {
  private readonly procs = new Set<Proc>();
  private readonly dirs: string[] = [];
  private destroyed = false;
  private readonly onExit = () => this.destroySync();

  private constructor(
    readonly prefix: string,
    readonly bridge: string,
    readonly subnet: string,
    private readonly addresses: Map<string, string>,
  ) {
    process.on('exit', this.onExit);
  }

  static create(hosts: readonly string[]): NetLab {
    removeLeftovers();
    const prefix = `tk${process.pid}`;
    const bridge = `${prefix}br`;
    const third = freeThirdOctet(process.pid % 250);
    const subnet = `10.77.${third}`;
    const addresses = new Map(hosts.map((h, i) => [h, `${subnet}.${10 + i}`]));
    try {
      ip('link', 'add', bridge, 'type', 'bridge');
      ip('addr', 'add', `${subnet}.1/24`, 'dev', bridge);
      ip('link', 'set', bridge, 'up');
    } catch (err) {
      spawnSync(IP, ['link', 'del', bridge]);
      throw new Error(
        `The multi-host test needs Linux network namespaces (ip netns, veth, bridge) and root: ` +
          `creating the bridge failed: ${(err as Error).message.trim()}`,
      );
    }
    const lab = new NetLab(prefix, bridge, subnet, addresses);
    try {
      for (const [i, host] of hosts.entries()) lab.addHost(host, i);
    } catch (err) {
      lab.destroySync();
      throw new Error(
        `The multi-host test needs Linux network namespaces (ip netns add, veth pairs) and root: ` +
          `${(err as Error).message.trim()}`,
      );
    }
    return lab;
  }

  private addHost(host: string, i: number): void {
    const ns = this.ns(host);
    const outside = `${this.prefix}v${i}`;
    const inside = `${this.prefix}p${i}`;
    ip('netns', 'add', ns);
    ip('link', 'add', outside, 'type', 'veth', 'peer', 'name', inside);
    ip('link', 'set', outside, 'master', this.bridge);
    ip('link', 'set', outside, 'up');
    ip('link', 'set', inside, 'netns', ns);
    ip('-n', ns, 'link', 'set', inside, 'name', 'eth0');
    ip('-n', ns, 'addr', 'add', `${this.ip(host)}/24`, 'dev', 'eth0');
    ip('-n', ns, 'link', 'set', 'eth0', 'up');
    ip('-n', ns, 'link', 'set', 'lo', 'up');
  }

  /** Every process started here, in start order (killed ones included). */
  processes(): Proc[] {
    return [...this.procs];
  }

  ns(host: string): string {
    return `${this.prefix}-${host}`;
  }

  ip(host: string): string {
    const a = this.addresses.get(host);
    if (!a) throw new Error(`no host ${host}`);
    return a;
  }

  /** A temp folder removed with the lab (owned by `user` when given). */
  tempDir(name: string, user?: string): string {
    const dir = mkdtempSync(join(tmpdir(), `${TMP_PREFIX}${process.pid}-${name}-`));
    if (user) {
      const uid = Number(execFileSync('id', ['-u', user], { encoding: 'utf8' }).trim());
      const gid = Number(execFileSync('id', ['-g', user], { encoding: 'utf8' }).trim());
      chownSync(dir, uid, gid);
    }
    this.dirs.push(dir);
    return dir;
  }

  /** Start a program on a host. `ip netns exec` execs it, so the pid is the program's own (for kill -9). */
  spawn(host: string, command: string, args: string[], options: SpawnOptions = {}): Proc {
    const prefix = options.user
      ? ['setpriv', `--reuid=${options.user}`, `--regid=${options.user}`, '--init-groups', command]
      : [command];
    const child = spawn(IP, ['netns', 'exec', this.ns(host), ...prefix, ...args], {
      cwd: ROOT,
      env: { ...process.env, ...options.env },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    const proc = track(host, child, options.echo ?? false);
    this.procs.add(proc);
    return proc;
  }

  /**
   * Run a TypeScript file of the repository on a host, from one bundled file as the other tests' child
   * processes (decision 1151; `--import tsx file` when it cannot be bundled): the lab starts five product nodes at
   * once, and through tsx each loaded its modules one by one (decision 1173).
   */
  async node(host: string, file: string, args: string[], options: SpawnOptions = {}): Promise<Proc> {
    // TAKT_LAB_PROFILE_HOSTS=solo,api1 (benchmarks): those hosts' programs write a CPU profile when they exit.
    const prof = (process.env.TAKT_LAB_PROFILE_HOSTS ?? '').split(',').includes(host)
      ? ['--cpu-prof', `--cpu-prof-dir=${process.env.TAKT_LAB_PROFILE_DIR ?? '/tmp'}`]
      : [];
    const command = await bundledCommand(join(ROOT, file));
    return this.spawn(host, process.execPath, [...prof, ...command, ...args], options);
  }

  /**
   * Cut `host` off from `peer`: packets from `host` to `peer` are refused by its routing table (a network
   * partition between the two; every other peer still answers). `heal` undoes it.
   */
  partition(host: string, peer: string): void {
    ip('-n', this.ns(host), 'route', 'add', 'prohibit', `${this.ip(peer)}/32`);
  }

  heal(host: string, peer: string): void {
    ip('-n', this.ns(host), 'route', 'del', 'prohibit', `${this.ip(peer)}/32`);
  }

  /**
   * A PostgreSQL 15 server of its own on `host`: initdb into a temp folder, listening on the host's address,
   * trust for the lab's subnet. Resolves with the server's base URL (no database name).
   */
  async postgres(host: string): Promise<{ url: string; proc: Proc }> {
    const dir = this.tempDir('pg', 'postgres');
    const data = join(dir, 'data');
    const init = spawnSync(
      'setpriv',
      [
        '--reuid=postgres',
        '--regid=postgres',
        '--init-groups',
        `${PG_BIN}/initdb`,
        '-D',
        data,
        '-U',
        'root',
        '--auth=trust',
        '--no-sync',
      ],
      { encoding: 'utf8' },
    );
    if (init.status !== 0) throw new Error(`initdb failed:\n${init.stdout}\n${init.stderr}`);
    appendFileSync(join(data, 'pg_hba.conf'), `host all all ${this.subnet}.0/24 trust\n`);
    const proc = this.spawn(
      host,
      `${PG_BIN}/postgres`,
      [
        '-D',
        data,
        '-c',
        `listen_addresses=${this.ip(host)}`,
        '-c',
        'port=5432',
        '-c',
        `unix_socket_directories=${dir}`,
        '-c',
        'max_connections=300',
        '-c',
        'fsync=off',
        '-c',
        'shared_buffers=64MB',
      ],
      { user: 'postgres' },
    );
    await until(
      () => {
        if (proc.child.exitCode != null) throw new Error(`postgres exited:\n${proc.output()}`);
        return proc.output().includes('ready to accept connections');
      },
      30_000,
      'PostgreSQL to start',
    );
    return { url: `postgres://root@${this.ip(host)}:5432`, proc };
  }

  /** Stop every process started here, then remove namespaces, bridge and temp folders. */
  async destroy(): Promise<void> {
    await Promise.all([...this.procs].map((p) => p.stop().catch(() => {})));
    this.destroySync();
  }

  private destroySync(): void {
    if (this.destroyed) return;
    this.destroyed = true;
    process.off('exit', this.onExit);
    for (const p of this.procs) {
      if (p.child.exitCode == null && p.child.signalCode == null) p.child.kill('SIGKILL');
    }
    for (const host of this.addresses.keys()) removeNamespace(this.ns(host));
    spawnSync(IP, ['link', 'del', this.bridge]);
    for (const d of this.dirs) rmSync(d, { recursive: true, force: true });
  }
}

/** A third octet for 10.77.N.0/24 that no address on this machine uses yet, starting at `first`. */
function freeThirdOctet(first: number): number {
  const used = spawnSync(IP, ['-4', '-o', 'addr', 'show'], { encoding: 'utf8' }).stdout ?? '';
  for (let i = 0; i < 250; i++) {
    const n = ((first + i) % 250) + 1;
    if (!used.includes(` 10.77.${n}.`)) return n;
  }
  throw new Error('no free 10.77.N.0/24 subnet for the lab');
}
