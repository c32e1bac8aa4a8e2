import type { LinkInput, Transport, TransportEnv } from '../transport';
import { dialGuard, SourceRefusedError } from '../address-policy';
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
    guard: dialGuard(env.sourcePolicy),
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
    onError: (err) => {
      const text = `[ingest] ${source.machineName} (${source.host}:${source.port}): ${err.message}`;
      // A refusal repeats at every redial: said once, then at most once a minute.
      if (err instanceof SourceRefusedError) env.logLimited(`${source.sourceId} refused`, text);
      else env.log(text);
    },
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
