import { apiRules } from '@takt/ingest';
import type { AddressInfo } from 'node:net';
import { serve } from '@hono/node-server';
import type { ServerType } from '@hono/node-server';
import { expect } from 'vitest';
import WebSocket from 'ws';
import { buildApp } from '../app';
import type { DialectName } from '@takt/db';
import type { LiveBus } from '../live/bus';
import type { Deps } from '../http/context';
import type { TestDb } from '@takt/db/testing';

// A real HTTP server per API process (WebSocket upgrades need one; app.request() has none), and socket
// clients that collect messages. Used by the live channel and the tablet tests.

export interface Node {
  url: string;
  server: ServerType;
  bus: LiveBus;
}

/** An API process on a random local port, on the test database, with its own live bus. */
export async function startNode(
  t: TestDb,
  dialect: DialectName,
  bus: LiveBus,
  now: () => number = () => Date.now(),
  over: Partial<Pick<Deps, 'staticRoot' | 'publicUrl'>> = {},
): Promise<Node> {
  const { app, injectWebSocket } = buildApp({
    db: t.db,
    dialect,
    now,
    demoMode: false,
    secureCookies: false,
    staticRoot: null,
    bus,
    ingest: apiRules,
    ...over,
  });
  const server = await new Promise<ServerType>((resolve) => {
    const s = serve({ fetch: app.fetch, port: 0, hostname: '127.0.0.1' }, () => resolve(s));
  });
  injectWebSocket(server);
  const { port } = server.address() as AddressInfo;
  return { url: `127.0.0.1:${port}`, server, bus };
}

/** POST /login on a node; the session cookie. */
export async function login(node: Node, email: string, password: string): Promise<string> {
  const res = await fetch(`http://${node.url}/login`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ email, password }),
  });
  expect(res.status).toBe(200);
  return res.headers.get('set-cookie')!.split(';')[0]!;
}

/** A WebSocket client of `path` (e.g. /live, /tablet-auth) that collects JSON messages. */
export async function openSocket(
  node: Node,
  path: string,
  cookie?: string,
  headers: Record<string, string> = {},
) {
  const ws = new WebSocket(`ws://${node.url}${path}`, {
    headers: { ...headers, ...(cookie ? { cookie } : {}) },
  });
  const messages: Array<Record<string, unknown>> = [];
  ws.on('message', (data) => messages.push(JSON.parse(String(data))));
  await new Promise<void>((resolve, reject) => {
    ws.once('open', () => resolve());
    ws.once('error', reject);
  });
  const next = async (pred: (m: Record<string, unknown>) => boolean, what: string) => {
    await expect.poll(() => messages.find(pred), { timeout: 5000, message: what }).toBeDefined();
    return messages.find(pred)!;
  };
  return { ws, messages, next, send: (m: unknown) => ws.send(JSON.stringify(m)) };
}

/** Close the sockets and stop the nodes a test started (each list is emptied). */
export async function stopAll(sockets: WebSocket[], nodes: Node[]): Promise<void> {
  sockets.splice(0).forEach((s) => s.terminate());
  for (const n of nodes.splice(0)) {
    await new Promise((r) => n.server.close(r));
    await n.bus.close();
  }
}
