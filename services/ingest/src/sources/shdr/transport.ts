import type { LinkInput, Transport, TransportEnv } from '../transport';
import { ShdrClient } from './shdr-client';

/** An SHDR adapter the worker dials: its lines feed the link, its socket's state is the link's connection. */
export function shdrTransport(link: LinkInput, env: TransportEnv): Transport {
  const { source } = link;
  const client = new ShdrClient({
    host: source.host,
    port: source.port,
    keyKinds: link.kinds,
    now: env.now,
    ...(env.backoff ? { backoff: env.backoff } : {}),
    onStatus: (status, at) => link.connection(status, at),
    onLine: (line) => {
      const at = env.now();
      // A PONG or any other command proves the link without carrying data.
      if (line.type !== 'data') link.heartbeat(at);
      else {
        if (line.outOfWindow) env.onTimeRefused?.('shdr', 1);
        link.received(line.observations, at, true);
      }
    },
    onError: (err) =>
      env.log(`[ingest] ${source.machineName} (${source.host}:${source.port}): ${err.message}`),
  });
  client.start();
  return {
    get status() {
      return client.status;
    },
    get counters() {
      return client.counters;
    },
    stop: () => client.stop(),
  };
}
