import { EventEmitter } from 'node:events';
import pg from 'pg';

/** Something changed for a machine; subscribers re-read what they show. */
export interface LiveEvent {
  companyId: string;
  machineId: string;
  /**
   * What changed: the live row (states, values), annotations, jobs, … . `tablet` is a message for one tablet's
   * registration socket (live/tablet-auth.ts); then `machineId` carries the tablet id and `tablet` the message.
   * `reinit`: what the machine's channels showed is no longer a base to update (history was rewritten, e.g. the
   * start of day moved): each subscriber is told `reinit` and reloads its state (live/channel.ts).
   */
  topic: 'live' | 'annotations' | 'jobs' | 'parts' | 'operators' | 'tablet' | 'reinit';
  tablet?: TabletMessage;
}

/** To a tablet's socket (associated, refresh, restart) or back from it (ack of `nonce`). */
export interface TabletMessage {
  event: 'associated' | 'refresh' | 'restart' | 'ack';
  nonce?: string;
}

/**
 * Fan-out of change events to every API process. In the embedded product (one process) an in-process
 * emitter is enough; with several API processes on PostgreSQL, events travel through LISTEN/NOTIFY so a
 * change written by any process (or an ingest worker) reaches sockets held by every other.
 */
export interface LiveBus {
  publish(events: LiveEvent[]): Promise<void>;
  subscribe(handler: (event: LiveEvent) => void): () => void;
  close(): Promise<void>;
}

export function inProcessBus(): LiveBus {
  const emitter = new EventEmitter();
  emitter.setMaxListeners(0);
  return {
    async publish(events) {
      for (const e of events) emitter.emit('event', e);
    },
    subscribe(handler) {
      emitter.on('event', handler);
      return () => emitter.off('event', handler);
    },
    async close() {
      emitter.removeAllListeners();
    },
  };
}

const CHANNEL = 'takt_live';
// NOTIFY payloads are limited to 8000 bytes; events are small, so batch them under that.
const MAX_PAYLOAD = 7000;

function isLiveEvent(x: unknown): x is LiveEvent {
  const e = x as LiveEvent;
  return typeof e?.companyId === 'string' && typeof e?.machineId === 'string' && typeof e?.topic === 'string';
}

/** LISTEN/NOTIFY on the PostgreSQL server at `url`; reconnects its listening connection when it drops. */
export async function postgresBus(url: string, log: (m: string) => void = () => {}): Promise<LiveBus> {
  const local = inProcessBus();
  const publisher = new pg.Pool({ connectionString: url, max: 2 });
  publisher.on('error', (err) => log(`[live] publisher error: ${err.message}`));
  let listener: pg.Client | null = null;
  let closed = false;

  const listen = async (): Promise<void> => {
    const client = new pg.Client({ connectionString: url });
    client.on('notification', (msg) => {
      if (msg.channel !== CHANNEL || !msg.payload) return;
      try {
        const events: unknown = JSON.parse(msg.payload);
        if (Array.isArray(events)) void local.publish(events.filter(isLiveEvent));
      } catch {
        log('[live] ignored a malformed notification');
      }
    });
    client.on('error', (err) => {
      log(`[live] listener lost: ${err.message}`);
      client.end().catch(() => {});
      if (listener === client) listener = null;
      if (!closed) setTimeout(() => void listen().catch(() => {}), 1000);
    });
    await client.connect();
    await client.query(`LISTEN ${CHANNEL}`);
    listener = client;
  };
  await listen();

  return {
    async publish(events) {
      let batch: LiveEvent[] = [];
      let size = 2;
      const send = async () => {
        if (batch.length) await publisher.query('SELECT pg_notify($1, $2)', [CHANNEL, JSON.stringify(batch)]);
        batch = [];
        size = 2;
      };
      for (const e of events) {
        const n = JSON.stringify(e).length + 1;
        if (size + n > MAX_PAYLOAD) await send();
        batch.push(e);
        size += n;
      }
      await send();
    },
    subscribe: local.subscribe,
    async close() {
      closed = true;
      await listener?.end().catch(() => {});
      await publisher.end();
      await local.close();
    },
  };
}
