import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { liveReconnectDelay, liveUrl, openLiveChannel, parseLiveMessage } from './live-channel';

/** A WebSocket double: records what is sent; the test opens it, feeds it messages and drops it. */
class FakeSocket {
  readyState = 0;
  sent: Array<Record<string, unknown>> = [];
  onopen: (() => void) | null = null;
  onclose: (() => void) | null = null;
  onmessage: ((e: { data: unknown }) => void) | null = null;
  send(data: string) {
    this.sent.push(JSON.parse(data) as Record<string, unknown>);
  }
  close() {
    this.readyState = 3;
  }
  open() {
    this.readyState = 1;
    this.onopen?.();
  }
  receive(m: object) {
    this.onmessage?.({ data: JSON.stringify(m) });
  }
  drop() {
    this.readyState = 3;
    this.onclose?.();
  }
}

describe('parseLiveMessage', () => {
  it.each([
    ['{"event":"join","machine_id":"m","name":"diagnostics","payload":{}}', 'join'],
    ['{"event":"channel_update"}', 'channel_update'],
    ['{"event":"error","code":"NOT_AUTHENTICATED"}', 'error'],
    ['{"event":"hello"}', null],
    ['not json', null],
    ['null', null],
  ])('%s → %s', (data, event) => {
    expect(parseLiveMessage(data)?.event ?? null).toBe(event);
  });
  it('ignores binary data', () => expect(parseLiveMessage(new ArrayBuffer(2))).toBeNull());
});

describe('liveUrl and liveReconnectDelay', () => {
  it('follows the page protocol', () => {
    expect(liveUrl({ protocol: 'https:', host: 'x.test' })).toBe('wss://x.test/live');
    expect(liveUrl({ protocol: 'http:', host: 'x.test:8080' })).toBe('ws://x.test:8080/live');
  });
  it.each([
    [0, 4_000],
    [1, 8_000],
    [3, 32_000],
    [4, 60_000],
    [20, 60_000],
  ])('attempt %i waits %i ms (reports-admin §4: 4 s to 60 s)', (attempt, ms) => {
    expect(liveReconnectDelay(attempt)).toBe(ms);
  });
});

describe('openLiveChannel', () => {
  let sockets: FakeSocket[];
  const connect = () => {
    const s = new FakeSocket();
    sockets.push(s);
    return s as unknown as WebSocket;
  };
  beforeEach(() => {
    sockets = [];
    vi.useFakeTimers();
  });
  afterEach(() => vi.useRealTimers());

  const open = (over: Partial<Parameters<typeof openLiveChannel>[0]> = {}, reload = vi.fn()) => {
    const states: Array<[unknown, string]> = [];
    const statuses: string[] = [];
    const errors: string[] = [];
    const ch = openLiveChannel(
      {
        machineId: 'm1',
        name: 'diagnostics',
        config: { stream: 'raw' },
        onState: (p, e) => states.push([p, e]),
        onStatus: (s) => statuses.push(s),
        onError: (c) => errors.push(c),
        ...over,
      },
      { connect, reload, url: 'ws://x/live' },
    );
    return { ch, states, statuses, errors, reload };
  };

  it('joins on open, passes its own channel on, and leaves on close', () => {
    const { ch, states, statuses } = open();
    const s = sockets[0]!;
    s.open();
    expect(s.sent).toEqual([
      { event: 'join', machine_id: 'm1', name: 'diagnostics', config: { stream: 'raw' } },
    ]);
    s.receive({ event: 'join', machine_id: 'm1', name: 'diagnostics', payload: { observations: [] } });
    s.receive({ event: 'channel_update', machine_id: 'm2', name: 'diagnostics', payload: 'other machine' });
    s.receive({ event: 'channel_update', machine_id: 'm1', name: 'diagnostics', payload: 'u' });
    expect(states).toEqual([
      [{ observations: [] }, 'join'],
      ['u', 'channel_update'],
    ]);
    expect(statuses).toEqual(['connecting', 'live']);
    ch.close();
    expect(s.sent.at(-1)).toEqual({ event: 'leave', machine_id: 'm1', name: 'diagnostics' });
  });

  it("answers the server's reinit with its own and takes the state that comes back", () => {
    const onReinit = vi.fn();
    const { states } = open({ onReinit });
    const s = sockets[0]!;
    s.open();
    s.receive({ event: 'reinit', machine_id: 'm1', name: 'diagnostics' });
    expect(onReinit).toHaveBeenCalledOnce();
    expect(s.sent.at(-1)).toEqual({ event: 'reinit', machine_id: 'm1', name: 'diagnostics' });
    s.receive({ event: 'reinit', machine_id: 'm1', name: 'diagnostics', payload: { observations: [1] } });
    expect(states).toEqual([[{ observations: [1] }, 'reinit']]);
  });

  it('reloads the page on NOT_AUTHENTICATED and reports other refusals', () => {
    const { reload, errors } = open();
    const s = sockets[0]!;
    s.open();
    s.receive({
      event: 'error',
      code: 'NOT_FOUND',
      message: 'Machine not found.',
      machine_id: 'm1',
      name: 'diagnostics',
    });
    s.receive({ event: 'error', code: 'NOT_AUTHENTICATED', message: 'You are not logged in.' });
    expect(errors).toEqual(['NOT_FOUND']);
    expect(reload).toHaveBeenCalledOnce();
  });

  it('reconnects after a drop, waiting longer each time, and joins again', () => {
    const { statuses } = open();
    sockets[0]!.drop();
    expect(statuses.at(-1)).toBe('reconnecting');
    vi.advanceTimersByTime(3_999);
    expect(sockets).toHaveLength(1);
    vi.advanceTimersByTime(1);
    expect(sockets).toHaveLength(2);
    sockets[1]!.drop();
    vi.advanceTimersByTime(7_999);
    expect(sockets).toHaveLength(2);
    vi.advanceTimersByTime(1);
    sockets[2]!.open();
    expect(sockets[2]!.sent[0]).toMatchObject({ event: 'join', machine_id: 'm1' });
    expect(statuses.at(-1)).toBe('live');
  });

  it('does not reconnect once closed', () => {
    const { ch } = open();
    ch.close();
    vi.advanceTimersByTime(120_000);
    expect(sockets).toHaveLength(1);
  });
});
