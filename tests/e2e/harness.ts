// End-to-end harness: the real product as a child process on a fresh SQLite file, and Debian's Chromium
// driven by playwright-core.
import { spawn } from 'node:child_process';
import type { ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import net from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { bundledCommand } from '../../services/ingest/src/testing/bundle';
import { chromium } from 'playwright-core';
import type { Browser, Page } from 'playwright-core';

const ROOT = fileURLToPath(new URL('../../', import.meta.url));
/** The product, run from one bundled file (services/ingest/src/testing/bundle.ts; decision 1151). */
const MAIN = join(ROOT, 'services/api/src/main.ts');

/** Fill and send the login form the page shows (after opening `url`, when given). */
export async function logIn(
  page: Page,
  who: { email: string; password: string },
  url?: string,
): Promise<void> {
  if (url !== undefined) await page.goto(url);
  await page.getByLabel('Email').fill(who.email);
  await page.getByLabel('Password').fill(who.password);
  await page.getByRole('button', { name: 'Log in' }).click();
}

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

/**
 * `count` consecutive free TCP ports, below Linux's ephemeral range (32768–60999): a port there that is free when
 * checked can be taken a moment later as the local end of any outgoing connection (a database client's, say),
 * and the product that was to listen on it then fails with EADDRINUSE (stop 41's CI).
 */
export async function freePorts(count: number): Promise<number> {
  for (let attempt = 0; attempt < 50; attempt++) {
    const base = 20_000 + Math.floor(Math.random() * (12_700 - count));
    let ok = true;
    for (let p = base; p < base + count && ok; p++) ok = await portFree(p);
    if (ok) return base;
  }
  throw new Error('no free port range');
}

export interface RunningProduct {
  url: string;
  demoPortBase: number;
  /** The folder of the SQLite file (removed by stop()). */
  dir: string;
  /** The SQLite file the product writes. */
  dbFile: string;
  port: number;
  output: () => string;
  /** SIGTERM (SIGKILL after 5 s), then remove the database folder. */
  stop(): Promise<void>;
  /** SIGKILL, as a power cut would, keeping the database for a restart on the same files and ports. */
  kill(): Promise<void>;
}

/** Where a restarted product finds its database and listens again. */
export interface ProductPlace {
  dir: string;
  port: number;
  demoPortBase: number;
}

/**
 * Start `services/api/src/main.ts` with the demo plant on a fresh SQLite file (or, with `reuse`, on the
 * files and ports of a product that was killed); resolves once it listens.
 */
export async function startProduct(
  env: Record<string, string> = {},
  options: { reuse?: ProductPlace } = {},
): Promise<RunningProduct> {
  // Another test process may take a port between our check and the product's listen: a fresh product tries
  // fresh ports again; a restarted one must keep its own.
  for (let attempt = 1; ; attempt++) {
    try {
      return await startProductOnce(env, options);
    } catch (error) {
      if (options.reuse || attempt >= 3 || !String(error).includes('EADDRINUSE')) throw error;
    }
  }
}

async function startProductOnce(
  env: Record<string, string>,
  options: { reuse?: ProductPlace },
): Promise<RunningProduct> {
  const dir = options.reuse?.dir ?? mkdtempSync(join(tmpdir(), 'takt-e2e-'));
  const port = options.reuse?.port ?? (await freePorts(1));
  const demoPortBase = options.reuse?.demoPortBase ?? (await freePorts(12));
  const dbFile = join(dir, 'takt.db');
  let out = '';
  const child: ChildProcess = spawn(process.execPath, await bundledCommand(MAIN), {
    cwd: ROOT,
    env: {
      ...process.env,
      // main.ts finds the apps beside its own file by default; the bundle is elsewhere (bundle.ts).
      TAKT_STATIC_ROOT: process.env.TAKT_STATIC_ROOT ?? ROOT,
      PORT: String(port),
      HOST: '127.0.0.1',
      DATABASE_URL: dbFile,
      TAKT_DEMO: '1',
      // No demo history (decision 1035): tests that need a past make their own, and CI time stays as it was.
      TAKT_DEMO_DAYS: '0',
      TAKT_DEMO_PORT_BASE: String(demoPortBase),
      // The tests' own adapters (and the machines they add through the screens) listen on this host: loopback
      // opened as a plant with adapters on the server would (decision 0985).
      TAKT_SOURCE_NETWORKS: '127.0.0.0/8',
      // E-mailed links start with the public URL, never the request's Host (decision 0989): here, this product.
      TAKT_PUBLIC_URL: `http://127.0.0.1:${port}`,
      ...env,
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  child.stdout?.on('data', (d) => (out += d.toString()));
  child.stderr?.on('data', (d) => (out += d.toString()));
  const url = `http://127.0.0.1:${port}`;
  const deadline = Date.now() + 60_000;
  for (;;) {
    if (child.exitCode != null) {
      if (!options.reuse) rmSync(dir, { recursive: true, force: true });
      throw new Error(`the product exited with ${child.exitCode}:\n${out}`);
    }
    if (out.includes('[takt] listening on')) break;
    if (Date.now() > deadline) {
      child.kill('SIGKILL');
      throw new Error(`the product did not start within 60 s:\n${out}`);
    }
    await new Promise((r) => setTimeout(r, 100));
  }
  const exited = () =>
    child.exitCode != null || child.signalCode != null
      ? Promise.resolve()
      : new Promise<void>((r) => child.once('exit', () => r()));
  return {
    url,
    demoPortBase,
    dir,
    dbFile,
    port,
    output: () => out,
    async stop() {
      if (child.exitCode == null && child.signalCode == null) {
        const done = exited();
        child.kill('SIGTERM');
        await Promise.race([done, new Promise((r) => setTimeout(r, 5000))]);
        if (child.exitCode == null && child.signalCode == null) child.kill('SIGKILL');
        await done;
      }
      rmSync(dir, { recursive: true, force: true });
    },
    async kill() {
      const done = exited();
      child.kill('SIGKILL');
      await done;
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
