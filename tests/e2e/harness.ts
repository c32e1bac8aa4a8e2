// End-to-end harness: the real product as a child process on a fresh SQLite file, and Debian's Chromium
// driven by playwright-core.
import { spawn } from 'node:child_process';
import type { ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import net from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { chromium } from 'playwright-core';
import type { Browser } from 'playwright-core';

const ROOT = fileURLToPath(new URL('../../', import.meta.url));

export const CHROMIUM_ARGS = [
  '--no-sandbox',
  '--disable-gpu',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
  '--no-first-run',
  '--disable-quic',
];

export function launchChromium(): Promise<Browser> {
  return chromium.launch({
    executablePath: process.env.TAKT_CHROMIUM ?? '/usr/bin/chromium',
    args: CHROMIUM_ARGS,
    headless: true,
  });
}

function portFree(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const srv = net.createServer();
    srv.once('error', () => resolve(false));
    srv.listen(port, '127.0.0.1', () => srv.close(() => resolve(true)));
  });
}

/** `count` consecutive free TCP ports. */
export async function freePorts(count: number): Promise<number> {
  for (let attempt = 0; attempt < 50; attempt++) {
    const base = 20_000 + Math.floor(Math.random() * 30_000);
    let ok = true;
    for (let p = base; p < base + count && ok; p++) ok = await portFree(p);
    if (ok) return base;
  }
  throw new Error('no free port range');
}

export interface RunningProduct {
  url: string;
  demoPortBase: number;
  output: () => string;
  stop(): Promise<void>;
}

/** Start `services/api/src/main.ts` with the demo plant on a fresh SQLite file; resolves once it listens. */
export async function startProduct(env: Record<string, string> = {}): Promise<RunningProduct> {
  const dir = mkdtempSync(join(tmpdir(), 'takt-e2e-'));
  const port = await freePorts(1);
  const demoPortBase = await freePorts(12);
  let out = '';
  const child: ChildProcess = spawn(process.execPath, ['--import', 'tsx', 'services/api/src/main.ts'], {
    cwd: ROOT,
    env: {
      ...process.env,
      PORT: String(port),
      HOST: '127.0.0.1',
      DATABASE_URL: join(dir, 'takt.db'),
      TAKT_DEMO: '1',
      TAKT_DEMO_PORT_BASE: String(demoPortBase),
      ...env,
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  child.stdout?.on('data', (d) => (out += d.toString()));
  child.stderr?.on('data', (d) => (out += d.toString()));
  const url = `http://127.0.0.1:${port}`;
  const deadline = Date.now() + 60_000;
  for (;;) {
    if (child.exitCode != null) throw new Error(`the product exited with ${child.exitCode}:\n${out}`);
    if (out.includes('[takt] listening on')) break;
    if (Date.now() > deadline) throw new Error(`the product did not start within 60 s:\n${out}`);
    await new Promise((r) => setTimeout(r, 100));
  }
  return {
    url,
    demoPortBase,
    output: () => out,
    async stop() {
      if (child.exitCode == null) {
        const exited = new Promise((r) => child.once('exit', r));
        child.kill('SIGTERM');
        await Promise.race([exited, new Promise((r) => setTimeout(r, 5000))]);
        if (child.exitCode == null) child.kill('SIGKILL');
      }
      rmSync(dir, { recursive: true, force: true });
    },
  };
}

/** Watch what one simulated adapter sends, as a second SHDR client would. */
export function watchAdapter(port: number, onLine: (line: string) => void): () => void {
  const socket = net.connect(port, '127.0.0.1');
  let buffer = '';
  socket.on('data', (chunk) => {
    buffer += chunk.toString();
    const parts = buffer.split('\n');
    buffer = parts.pop() ?? '';
    for (const l of parts) onLine(l.trim());
  });
  socket.on('error', () => {});
  return () => socket.destroy();
}
