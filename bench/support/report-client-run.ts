// bench/report-load.ts's client parts: the client process run and its latencies collected, and the percentile the
// bench prints.
import { spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import type { Call } from './report-client';

/** The p-th percentile of `xs` (nearest rank). */
export const pct = (xs: readonly number[], p: number) => {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.min(s.length - 1, Math.floor((p / 100) * s.length))] ?? Number.NaN;
};

/**
 * Runs the client process (report-client.ts) and collects its latencies, with when its part started on this
 * process's performance clock (the client's wall clock, sub-ms) and the CPU time the client took over it (ms).
 */
export function runClients(
  url: string,
  cookie: string,
  clients: number,
  file: string,
  perClient = 1e9,
): Promise<{ calls: Call[]; origin: number; cpuMs: number }> {
  return new Promise((resolve, reject) => {
    // Its own small module (decision 1249): the client shares the API's two cores, so it loads none of the API.
    const self = fileURLToPath(new URL('./report-client.ts', import.meta.url));
    const p = spawn(
      process.execPath,
      [...process.execArgv, self, url, cookie, String(clients), file, String(perClient)],
      { stdio: ['ignore', 'pipe', 'inherit'] },
    );
    let text = '';
    p.stdout.on('data', (d: Buffer) => (text += d.toString()));
    p.on('exit', (code) => {
      if (code !== 0) return reject(new Error(`client exit ${code}`));
      const { origin, calls, cpuMs } = JSON.parse(text) as { origin: number; calls: Call[]; cpuMs: number };
      resolve({ calls, origin: origin - performance.timeOrigin, cpuMs });
    });
  });
}
