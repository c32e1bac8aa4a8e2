// Who had the machine's cores during a part of a bench (Linux /proc): this process's threads by their names
// (decision 1260: the node names its ingest, report and WAL checkpointer threads; the main thread is the API's; the
// unnamed rest are V8's GC helpers and libuv's pool), the bench's child processes (the report clients, the
// adapters) and the rest of the machine. CPU time in ms (the kernel's ticks: 10 ms), for bench/report-load.ts's part
// lines. Figures only.
import { readdirSync, readFileSync } from 'node:fs';
import { cpus } from 'node:os';

/** The kernel's clock ticks a second in /proc (USER_HZ: 100 on Linux whatever the kernel's own rate). */
const TICK_MS = 10;

export type CoreSnapshot = { at: number; threads: Map<string, number>; machine: number } | null;

const read = (path: string) => readFileSync(path, 'utf8');

/** A thread's stat line: its name and its user + system CPU time (ms). */
function stat(path: string): { comm: string; ms: number } {
  const s = read(path);
  const close = s.lastIndexOf(')');
  const f = s.slice(close + 2).split(' ');
  return {
    comm: s.slice(s.indexOf('(') + 1, close),
    ms: (Number(f[11]) + Number(f[12])) * TICK_MS,
  };
}

/** This process's descendants (the bench's clients and adapters; /proc's children lists), with what each runs. */
function descendants(pid = process.pid, out = new Map<number, string>()): Map<number, string> {
  for (const tid of readdirSync(`/proc/${pid}/task`)) {
    let children: string[] = [];
    try {
      children = read(`/proc/${pid}/task/${tid}/children`).trim().split(' ').filter(Boolean);
    } catch {
      // ended meanwhile
    }
    for (const c of children.map(Number)) {
      try {
        out.set(c, read(`/proc/${c}/cmdline`).replaceAll('\0', ' '));
        descendants(c, out);
      } catch {
        // ended meanwhile
      }
    }
  }
  return out;
}

/** Which share a thread's time goes to. */
function shareOf(pid: number, tid: number, comm: string, cmdline: string | null): string {
  if (cmdline !== null) {
    if (cmdline.includes('report-client')) return 'clients';
    if (cmdline.includes('adapter')) return 'adapters';
    return 'other children';
  }
  if (tid === pid) return 'API thread';
  if (comm === 'takt-ingest') return 'ingest thread';
  if (comm === 'takt-report') return 'report threads';
  if (comm === 'takt-wal-ckpt') return 'WAL checkpointer';
  return "V8's and libuv's helpers";
}

/** Every thread of this process and of its descendants (share → ms), and the machine's busy time (ms). */
export function coreSnapshot(): CoreSnapshot {
  try {
    const threads = new Map<string, number>();
    const add = (pid: number, cmdline: string | null) => {
      for (const tid of readdirSync(`/proc/${pid}/task`)) {
        try {
          const t = stat(`/proc/${pid}/task/${tid}/stat`);
          const share = shareOf(pid, Number(tid), t.comm, cmdline);
          threads.set(`${share}\t${pid}/${tid}`, t.ms);
        } catch {
          // ended meanwhile
        }
      }
    };
    add(process.pid, null);
    for (const [pid, cmdline] of descendants()) add(pid, cmdline);
    // /proc/stat's first line: the machine's user, nice, system, idle, iowait, irq, softirq, steal ticks.
    const cpu = read('/proc/stat').split('\n')[0]!.trim().split(/\s+/).slice(1).map(Number);
    const machine = (cpu[0]! + cpu[1]! + cpu[2]! + cpu[5]! + cpu[6]! + cpu[7]!) * TICK_MS;
    return { at: performance.now(), threads, machine };
  } catch {
    return null; // not Linux
  }
}

/**
 * The part between two snapshots as a line: each share's CPU time (with `clientsMs`, the clients' count of their own),
 * the rest of the machine's, of the cores' time.
 */
export function coreSharesLine(a: CoreSnapshot, b: CoreSnapshot, clientsMs?: number): string | null {
  if (!a || !b) return null;
  // The client process has ended by the part's last snapshot: its own count of its part.
  const shares = new Map<string, number>(clientsMs === undefined ? [] : [['clients', clientsMs]]);
  let ours = clientsMs ?? 0;
  for (const [key, ms] of b.threads) {
    const d = ms - (a.threads.get(key) ?? 0);
    if (d <= 0) continue;
    const share = key.split('\t')[0]!;
    shares.set(share, (shares.get(share) ?? 0) + d);
    ours += d;
  }
  const wall = b.at - a.at;
  const parts = [...shares].sort((x, y) => y[1] - x[1]).map(([s, ms]) => `${s} ${ms.toFixed(0)}`);
  parts.push(`the rest of the machine ${Math.max(0, b.machine - a.machine - ours).toFixed(0)}`);
  return `the cores over the part (${wall.toFixed(0)} ms × ${cpus().length} cores, ms on a core): ${parts.join(', ')}`;
}
