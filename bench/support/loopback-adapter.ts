// A loopback SHDR adapter for the benchmarks that run ingest (bench/live-latency.ts, bench/report-load.ts): a TCP
// server on 127.0.0.1 that answers the agent's PING and keeps its connected sockets, for the bench to write to.
import net from 'node:net';

export interface LoopbackAdapter {
  port: number;
  sockets: Set<net.Socket>;
  server: net.Server;
}

export async function loopbackAdapter(): Promise<LoopbackAdapter> {
  const sockets = new Set<net.Socket>();
  const server = net.createServer((s) => {
    sockets.add(s);
    s.on('close', () => sockets.delete(s));
    s.on('error', () => {});
    s.on('data', (d) => {
      if (d.toString().includes('* PING')) s.write('* PONG 10000\n');
    });
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  return { port: (server.address() as net.AddressInfo).port, sockets, server };
}

/** Sends one line a second (execution and part count change) to every socket of `adapters`; returns the timer. */
export function linesEverySecond(adapters: readonly LoopbackAdapter[]): NodeJS.Timeout {
  let tick = 0;
  return setInterval(() => {
    tick++;
    const line = `${new Date().toISOString()}|execution|${tick % 3 ? 'ACTIVE' : 'READY'}|PartCount|${tick}\n`;
    for (const a of adapters) for (const s of a.sockets) s.write(line);
  }, 1000);
}
