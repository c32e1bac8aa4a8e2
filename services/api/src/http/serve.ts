// The API's HTTP server: @hono/node-server's, with idle keep-alive connections kept longer than Node's 5 s
// (decision 1176).
import { Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { serve } from '@hono/node-server';
import type { ServerType } from '@hono/node-server';
import { noteConnection } from '../services/report-turns';

/**
 * How long an idle keep-alive connection stays open by default (`TAKT_KEEP_ALIVE_SECONDS`): longer than the idle upstream connections of the reverse
 * proxies and load balancers put in front of API nodes (60 s: nginx's upstream keepalive_timeout, AWS ALB), so the
 * client, not the server, ends an idle connection and no request is sent on one the server has just closed. The
 * answers announce it (`Keep-Alive: timeout=65`): Node's own clients stop reusing a connection 1 s before, and
 * Node's server closes it 1 s after (66 s).
 */
export const KEEP_ALIVE_TIMEOUT_MS = 65_000;

/**
 * `serve(options, onListen)` on an HTTP/1.1 server whose idle keep-alive connections stay open `keepAliveMs`
 * (KEEP_ALIVE_TIMEOUT_MS unless configured): the answers announce it in whole seconds.
 */
export function serveApi(
  options: Parameters<typeof serve>[0],
  onListen?: (info: AddressInfo) => void,
  keepAliveMs = KEEP_ALIVE_TIMEOUT_MS,
): ServerType {
  const server = serve(options, onListen);
  if (server instanceof Server) server.keepAliveTimeout = keepAliveMs;
  // Report computations wait while connections are being accepted (decision 1259).
  server.on('connection', noteConnection);
  return server;
}
