import type net from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import type { ShdrLine } from './shdr';
import type { ShdrClientOptions, ShdrStatus } from './shdr-client';
import { nextBackoffMs, ShdrClient } from './shdr-client';
import type { FakeAdapter } from '../../testing/test-support';
import { fakeAdapter, sleep, waitFor } from '../../testing/test-support';

const FAST_BACKOFF = { initialMs: 10, maxMs: 80 };
const cleanups: Array<() => Promise<void>> = [];

afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

async function adapter(...args: Parameters<typeof fakeAdapter>): Promise<FakeAdapter> {
  const server = await fakeAdapter(...args);
  cleanups.push(() => server.close());
  return server;
}

function client(port: number, extra: Partial<ShdrClientOptions> = {}) {
  const lines: ShdrLine[] = [];
  const statuses: ShdrStatus[] = [];
  const errors: Error[] = [];
  const shdr = new ShdrClient({
    host: '127.0.0.1',
    port,
    backoff: FAST_BACKOFF,
    onLine: (line) => lines.push(line),
    onStatus: (status) => statuses.push(status),
    onError: (error) => errors.push(error),
    ...extra,
  });
  cleanups.push(() => shdr.stop());
  shdr.start();
  return { shdr, lines, statuses, errors };
}

function values(lines: ShdrLine[]): Array<[string, string | null]> {
  return lines.flatMap((l) =>
    l.type === 'data' ? l.observations.map((o): [string, string | null] => [o.key, o.value]) : [],
  );
}

const answerPing = (intervalMs: number) => (socket: net.Socket, line: string) => {
  if (line === '* PING') socket.write(`* PONG ${intervalMs}\n`);
};

describe('nextBackoffMs', () => {
  it.each([
    [500, 1_000],
    [1_000, 2_000],
    [16_000, 30_000],
    [30_000, 30_000],
    [0, 2],
  ])('%d ms → %d ms', (previous, next) => {
    expect(nextBackoffMs(previous, { initialMs: 500, maxMs: 30_000 })).toBe(next);
  });
});

describe('ShdrClient', () => {
  it('sends PING, learns the PONG interval and keeps pinging at it', async () => {
    // 400 ms, so the link's silence limit (2 × 400 ms) outlasts a busy machine's event-loop stalls: at 30 ms (a 60 ms
    // limit) a stall beside the browser tests (decision 1179) dropped the link and the pings went to a second one.
    const server = await adapter(() => {}, answerPing(400));
    const { shdr, statuses } = client(server.port);
    await waitFor(
      () => (server.received[0] ?? []).filter((l) => l === '* PING').length >= 4,
      10_000,
      'four pings',
    );
    expect(shdr.heartbeatMs).toBe(400);
    expect(shdr.status).toBe('CONNECTED');
    expect(statuses).toEqual(['CONNECTING', 'CONNECTED']);
    expect(server.sockets).toHaveLength(1);
  });

  it('counts lines dropped whole (over-long, an unclosed multiline block at close) as rejected lines', async () => {
    const server = await adapter((socket, index) => {
      if (index > 0) return; // the redial after the close gets nothing
      socket.write('2024-01-01T00:00:00Z|execution|ACTIVE\n');
      // Longer than the 1 MiB a line may hold: dropped, and the line after it is read as usual.
      socket.write(`2024-01-01T00:00:01Z|program|${'x'.repeat((1 << 20) + 10)}\n`);
      socket.write('2024-01-01T00:00:02Z||x||y\n'); // two bad pairs, one rejected line
      socket.write('2024-01-01T00:00:03Z|mode|AUTO\n');
      socket.write('2024-01-01T00:00:04Z|@ASSET@|T1|Tool|--multiline--AB\n<Tool>\n');
      setTimeout(() => socket.end(), 50);
    });
    const { shdr, errors } = client(server.port);
    await waitFor(() => shdr.counters.rejectedLines === 3, 5_000, 'three rejected lines');
    expect(shdr.counters).toMatchObject({ lines: 5, observations: 2, rejected: 4, rejectedLines: 3 });
    expect(errors.some((e) => /dropped/.test(e.message))).toBe(true);
  });

  it('delivers lines split mid-line across chunks and ending in CRLF, and counts them', async () => {
    const server = await adapter((socket) => {
      socket.write('2024-01-01T00:00:00.000Z|execution|ACTIVE|part_cou');
      setTimeout(() => socket.write('nt|17\r\n2024-01-01T00:00:01Z|mode|AUTO'), 20);
      setTimeout(() => socket.write('MATIC\r\n2017\r\n'), 40);
    });
    const { shdr, lines } = client(server.port);
    await waitFor(() => shdr.counters.lines === 3, 5_000, 'three lines');
    expect(values(lines)).toEqual([
      ['execution', 'ACTIVE'],
      ['part_count', '17'],
      ['mode', 'AUTOMATIC'],
    ]);
    expect(shdr.counters).toMatchObject({ lines: 3, observations: 3, rejected: 1, rejectedLines: 1 });
    expect(shdr.counters.lastLineAt).not.toBeNull();
  });

  it('drops a link that falls silent for 2× the PONG interval, then redials', async () => {
    // Answers the first PING only, then stays silent on that link.
    const server = await adapter(
      () => {},
      (socket, line, index) => {
        if (line === '* PING' && server.received[index]?.length === 1) socket.write('* PONG 40\n');
      },
    );
    const { statuses, errors } = client(server.port);
    await waitFor(() => server.closed[0], 5_000, 'the client to drop the silent link');
    await waitFor(() => server.sockets.length >= 2, 5_000, 'a redial');
    expect(statuses.slice(0, 4)).toEqual(['CONNECTING', 'CONNECTED', 'DISCONNECTED', 'CONNECTING']);
    expect(errors.some((e) => /no data/.test(e.message))).toBe(true);
  });

  it('without PONG support, keeps a silent link: silence is no link evidence (METRICS.md §1)', async () => {
    const server = await adapter((socket) => socket.write('t|avail|AVAILABLE\n'));
    const { shdr, statuses } = client(server.port);
    await waitFor(() => shdr.counters.lines === 1, 5_000, 'the first line');
    // A quiet adapter without heartbeat: nothing arrives, and nothing may be concluded from that.
    await new Promise((resolve) => setTimeout(resolve, 600));
    expect(statuses).toEqual(['CONNECTING', 'CONNECTED']);
    expect(server.closed[0]).toBeFalsy();
    // The socket is still the evidence: when the adapter closes it, the link drops.
    server.sockets[0]!.destroy();
    await waitFor(() => statuses.includes('DISCONNECTED'), 5_000, 'the drop');
  });

  it('reconnects after the adapter drops the link, and after it refused connections for a while', async () => {
    const first = await adapter((socket, index) => {
      socket.write(`t|part_count|${index}\n`);
      if (index === 0) setTimeout(() => socket.destroy(), 10);
    });
    const { shdr, lines, statuses } = client(first.port);
    await waitFor(() => first.sockets.length >= 2, 5_000, 'a second connection');
    await waitFor(() => values(lines).length >= 2);
    expect(values(lines).slice(0, 2)).toEqual([
      ['part_count', '0'],
      ['part_count', '1'],
    ]);

    // The adapter goes away (connections refused), then returns on the same port.
    const port = first.port;
    await first.close();
    await waitFor(() => statuses.filter((s) => s === 'CONNECTING').length >= 5, 5_000, 'redial attempts');
    expect(shdr.status).not.toBe('CONNECTED');
    const back = await adapter(
      (socket) => socket.write('t|avail|AVAILABLE\n'),
      () => {},
      port,
    );
    await waitFor(() => back.sockets.length === 1 && shdr.status === 'CONNECTED', 5_000, 'the return');
    await waitFor(() => values(lines).some(([k]) => k === 'avail'));
  });

  it('survives a callback that throws and reports it', async () => {
    const server = await adapter((socket) => socket.write('t|a|1\nt|b|2\n'));
    const { shdr, errors } = client(server.port, {
      onLine: () => {
        throw new Error('consumer bug');
      },
    });
    await waitFor(() => shdr.counters.lines === 2);
    expect(errors.filter((e) => e.message === 'consumer bug')).toHaveLength(2);
    expect(shdr.status).toBe('CONNECTED');
  });

  it('stop() closes the link, reports DISCONNECTED and never redials', async () => {
    const server = await adapter(() => {}, answerPing(20));
    const { shdr, statuses } = client(server.port);
    await waitFor(() => shdr.heartbeatMs === 20);
    await shdr.stop();
    expect(statuses.at(-1)).toBe('DISCONNECTED');
    await waitFor(() => server.closed[0], 1_000, 'the server to see the close');
    const received = server.received[0]?.length;
    await sleep(100); // several ping and backoff periods: nothing may happen any more
    expect(server.sockets).toHaveLength(1);
    expect(server.received[0]?.length).toBe(received);
  });

  it('stop() from inside onLine ignores the rest of the chunk', async () => {
    const server = await adapter((socket) => socket.write('t|a|1\nt|b|2\nt|c|3\n'));
    const seen: string[] = [];
    const shdrHolder: { client?: ShdrClient } = {};
    const { shdr } = client(server.port, {
      onLine: (line) => {
        if (line.type === 'data') seen.push(line.observations[0]?.key ?? '');
        void shdrHolder.client?.stop();
      },
    });
    shdrHolder.client = shdr;
    await waitFor(() => shdr.status === 'DISCONNECTED' && seen.length > 0);
    expect(seen).toEqual(['a']);
  });
});
