// A small reverse proxy for HTTP and WebSocket in front of several API nodes (the proxy host of the multi-host
// test and the soak benchmark; decision 0975). Round robin over the nodes that answer GET /readyz; a request
// whose node cannot be reached, or fails before answering, goes to the next node (requests are buffered, and
// the floor app's commands carry ids, so a repeat is harmless).
//   node --import tsx tests/multihost/proxy.ts <listen host> <listen port> <upstream url>...
import http from 'node:http';
import net from 'node:net';

const [listenHost = '0.0.0.0', listenPort = '8080', ...upstreamUrls] = process.argv.slice(2);
const upstreams = upstreamUrls.map((u) => ({ url: new URL(u), ready: true }));
/** A request a node has not answered in this time is tried on the next node. */
const UPSTREAM_TIMEOUT_MS = 8_000;
let turn = 0;

/** The nodes to try for one request, ready ones first, starting at the next in turn. */
function order(): typeof upstreams {
  turn = (turn + 1) % upstreams.length;
  const rotated = [...upstreams.slice(turn), ...upstreams.slice(0, turn)];
  return [...rotated.filter((u) => u.ready), ...rotated.filter((u) => !u.ready)];
}

// Readiness: 200 is ready; 404 means the node has no /readyz (older build): counted ready while it answers.
function checkReady(): void {
  for (const u of upstreams) {
    const req = http.get(new URL('/readyz', u.url), { timeout: 1500 }, (res) => {
      u.ready = res.statusCode === 200 || res.statusCode === 404;
      res.resume();
    });
    req.on('timeout', () => req.destroy(new Error('timeout')));
    req.on('error', () => {
      u.ready = false;
    });
  }
}
setInterval(checkReady, 1000).unref();
checkReady();

const server = http.createServer((req, res) => {
  const chunks: Buffer[] = [];
  req.on('data', (c: Buffer) => chunks.push(c));
  req.on('end', () => {
    const body = Buffer.concat(chunks);
    const tries = order();
    const attempt = (i: number): void => {
      const u = tries[i];
      if (!u) {
        if (!res.headersSent) res.writeHead(502, { 'content-type': 'text/plain' });
        res.end('No API node answered');
        return;
      }
      const up = http.request(
        {
          host: u.url.hostname,
          port: u.url.port,
          method: req.method,
          path: req.url,
          headers: { ...req.headers, host: req.headers.host ?? u.url.host },
          timeout: UPSTREAM_TIMEOUT_MS,
        },
        (answer) => {
          // Hop-by-hop headers stay on their hop (RFC 9110 §7.6.1): this server announces its own keep-alive (5 s),
          // not the node's (65 s, decision 1176), which its clients would otherwise trust.
          const headers = { ...answer.headers };
          delete headers.connection;
          delete headers['keep-alive'];
          res.writeHead(answer.statusCode ?? 502, headers);
          answer.pipe(res);
        },
      );
      up.on('timeout', () => up.destroy(new Error('timeout')));
      up.on('error', () => {
        u.ready = false;
        if (!res.headersSent) attempt(i + 1);
        else res.destroy();
      });
      up.end(body);
    };
    attempt(0);
  });
});

server.on('upgrade', (req: http.IncomingMessage, client: net.Socket, head: Buffer) => {
  client.on('error', () => {});
  const tries = order();
  const attempt = (i: number): void => {
    const u = tries[i];
    if (!u) {
      client.end('HTTP/1.1 502 Bad Gateway\r\n\r\n');
      return;
    }
    const up = net.connect(Number(u.url.port), u.url.hostname);
    up.once('error', () => {
      if (up.bytesRead === 0) attempt(i + 1);
      else client.destroy();
    });
    up.once('connect', () => {
      up.on('error', () => client.destroy());
      const lines = [`${req.method} ${req.url} HTTP/1.1`];
      for (let h = 0; h < req.rawHeaders.length; h += 2)
        lines.push(`${req.rawHeaders[h]}: ${req.rawHeaders[h + 1]}`);
      up.write(`${lines.join('\r\n')}\r\n\r\n`);
      if (head.length > 0) up.write(head);
      up.pipe(client);
      client.pipe(up);
      up.on('close', () => client.destroy());
      client.on('close', () => up.destroy());
    });
  };
  attempt(0);
});

server.listen(Number(listenPort), listenHost, () => console.log(`[proxy] listening on ${listenPort}`));
process.on('SIGTERM', () => process.exit(0));
