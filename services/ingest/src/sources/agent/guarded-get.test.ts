import http from 'node:http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { SourcePolicy } from '@takt/domain';
import { DEFAULT_SOURCE_POLICY, closedAddressMessage } from '@takt/domain';
import { guardedGet } from './guarded-get';

// Decision 0985: the worker's agent requests go only to addresses the source policy allows, a redirect included.
// Two real HTTP servers on loopback: `agent` (opened by the policy, port only) and `inside` (not opened), which
// must never be asked.

async function serve(handler: http.RequestListener): Promise<{ server: http.Server; port: number }> {
  const server = http.createServer(handler);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return { server, port: (server.address() as { port: number }).port };
}

describe('guardedGet', () => {
  let agent: { server: http.Server; port: number };
  let inside: { server: http.Server; port: number };
  let insideRequests = 0;
  let policy: SourcePolicy;

  beforeAll(async () => {
    inside = await serve((_, res) => {
      insideRequests++;
      res.end('secret');
    });
    agent = await serve((req, res) => {
      if (req.url === '/to-inside') {
        res.writeHead(302, { location: `http://127.0.0.1:${inside.port}/metrics` });
        res.end();
      } else if (req.url === '/to-inside-by-name') {
        res.writeHead(301, { location: `http://localhost:${inside.port}/metrics` });
        res.end();
      } else if (req.url === '/moved') {
        res.writeHead(307, { location: '/probe' });
        res.end();
      } else res.end(`<MTConnectDevices path="${req.url}"/>`);
    });
    policy = { allow: [{ cidr: '127.0.0.1/32', ports: { from: agent.port, to: agent.port } }], ownPorts: [] };
  });
  afterAll(async () => {
    await new Promise((resolve) => agent.server.close(resolve));
    await new Promise((resolve) => inside.server.close(resolve));
  });

  const get = (p: SourcePolicy, url: string) => guardedGet(p)(url, AbortSignal.timeout(5000));

  it('asks an allowed agent, by address and by a name that resolves to it', async () => {
    expect(await get(policy, `http://127.0.0.1:${agent.port}/probe`)).toEqual({
      status: 200,
      body: '<MTConnectDevices path="/probe"/>',
    });
    expect((await get(policy, `http://localhost:${agent.port}/probe`)).status).toBe(200);
  });

  it('follows a redirect that stays allowed', async () => {
    expect((await get(policy, `http://127.0.0.1:${agent.port}/moved`)).body).toContain('path="/probe"');
  });

  it('never follows a redirect to a closed address, by address or by name', async () => {
    await expect(get(policy, `http://127.0.0.1:${agent.port}/to-inside`)).rejects.toThrow(
      closedAddressMessage('loopback'),
    );
    await expect(get(policy, `http://127.0.0.1:${agent.port}/to-inside-by-name`)).rejects.toThrow(
      closedAddressMessage('loopback'),
    );
    expect(insideRequests).toBe(0);
  });

  it('refuses a closed agent under the default policy before any request', async () => {
    await expect(get(DEFAULT_SOURCE_POLICY, `http://localhost:${inside.port}/metrics`)).rejects.toThrow(
      closedAddressMessage('loopback'),
    );
    await expect(get(DEFAULT_SOURCE_POLICY, `http://[::ffff:127.0.0.1]:${inside.port}/`)).rejects.toThrow(
      closedAddressMessage('loopback'),
    );
    expect(insideRequests).toBe(0);
  });
});
