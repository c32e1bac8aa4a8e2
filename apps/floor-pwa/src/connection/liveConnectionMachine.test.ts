import { describe, expect, it, vi } from 'vitest';
import { liveTileMessageSchema } from '@takt/domain';
import { machine } from '@takt/ui/testing';
import { createActor, fromCallback, SimulatedClock } from 'xstate';
import {
  liveConnectionMachine,
  offlineToastView,
  RECONNECT_DEBOUNCE_MS,
  RECONNECTED_CLOSE_MS,
  reconnectLabelText,
} from './liveConnectionMachine';
import { handleServerMessage, liveTileOf, parseServerMessage } from './liveSocket';

function run() {
  const clock = new SimulatedClock();
  const opened = vi.fn();
  const machine = liveConnectionMachine.provide({
    actors: {
      socket: fromCallback(() => {
        opened();
        return () => {};
      }),
    },
  });
  const actor = createActor(machine, { clock, input: { now: () => clock.now() } }).start();
  const toast = () => offlineToastView(actor.getSnapshot());
  return { actor, clock, opened, toast };
}

describe('live connection and the offline toast', () => {
  it('stays quiet while connected and on the first quiet retry', () => {
    const t = run();
    t.actor.send({ type: 'OPENED' });
    expect(t.toast()).toBeNull();
    t.actor.send({ type: 'CLOSED' }); // dropped: retried at once
    expect(t.opened).toHaveBeenCalledTimes(2);
    expect(t.toast()).toBeNull();
  });

  it('shows the toast when a reconnect fails, counting down 4 s then 8 s', () => {
    const t = run();
    t.actor.send({ type: 'OPENED' });
    t.actor.send({ type: 'CLOSED' });
    t.actor.send({ type: 'CLOSED' });
    expect(t.toast()).toEqual({ phase: 'failed', canReconnect: true, retryAt: 4000 });
    t.clock.increment(4000);
    expect(t.toast()?.phase).toBe('reconnecting');
    t.actor.send({ type: 'CLOSED' });
    expect(t.toast()?.retryAt).toBe(4000 + 8000);
  });

  it('debounces reconnect clicks by 1000 ms', () => {
    const t = run();
    t.actor.send({ type: 'CLOSED' });
    const before = t.opened.mock.calls.length;
    t.actor.send({ type: 'RECONNECT' });
    t.clock.increment(600);
    t.actor.send({ type: 'RECONNECT' });
    t.clock.increment(600);
    t.actor.send({ type: 'RECONNECT' });
    t.clock.increment(999);
    expect(t.opened).toHaveBeenCalledTimes(before);
    expect(t.toast()?.phase).toBe('reconnecting');
    t.clock.increment(1);
    expect(t.opened).toHaveBeenCalledTimes(before + 1);
  });

  it('says "Reconnected!" and closes 2 s later', () => {
    const t = run();
    t.actor.send({ type: 'CLOSED' });
    t.clock.increment(4000);
    t.actor.send({ type: 'OPENED' });
    expect(t.toast()?.phase).toBe('reconnected');
    t.clock.increment(1999);
    expect(t.toast()).not.toBeNull();
    t.clock.increment(1);
    expect(t.toast()).toBeNull();
  });
});

describe('offline toast words and timings (live-operations §4, §9)', () => {
  it.each([
    ['reconnecting', 'Reconnecting...'],
    ['reconnected', 'Reconnected!'],
    ['failed', 'Failed to reconnect'],
  ] as const)('while %s the button reads "%s" through the catalogue', (phase, text) =>
    expect(reconnectLabelText(phase)).toBe(text),
  );

  it('debounces 1000 ms and closes 2 s after reconnecting', () => {
    expect(RECONNECT_DEBOUNCE_MS).toBe(1000);
    expect(RECONNECTED_CLOSE_MS).toBe(2000);
  });
});

describe('live channel messages', () => {
  const handlers = () => ({ onTile: vi.fn(), onReinit: vi.fn(), reload: vi.fn() });
  it('routes tiles, reinit and NOT_AUTHENTICATED', () => {
    const h = handlers();
    const msg = (o: unknown) => parseServerMessage(JSON.stringify(o))!;
    const tile = machine({ id: 'm1' });
    handleServerMessage(
      msg({ event: 'channel_update', machine_id: 'm1', name: 'live', topic: 't', payload: tile }),
      h,
    );
    handleServerMessage(msg({ event: 'reinit' }), h);
    handleServerMessage(msg({ event: 'error', code: 'NOT_FOUND', message: 'x' }), h);
    expect(h.onTile).toHaveBeenCalledWith('m1', tile);
    expect(h.onReinit).toHaveBeenCalledTimes(1);
    expect(h.reload).not.toHaveBeenCalled();
    handleServerMessage(msg({ event: 'error', code: 'NOT_AUTHENTICATED', message: 'x' }), h);
    expect(h.reload).toHaveBeenCalledTimes(1);
    expect(parseServerMessage('not json')).toBeNull();
    expect(parseServerMessage(JSON.stringify({ event: 'hello' }))).toBeNull();
  });

  it.each([
    ['a tile missing its status', { ...machine({ id: 'm1' }), status: undefined }],
    ['no tile (the machine is gone)', null],
    ['another channel', 'diagnostics'],
  ])('stores nothing for %s', (_, payload) => {
    const h = handlers();
    const name = payload === 'diagnostics' ? 'diagnostics' : 'live';
    handleServerMessage(
      parseServerMessage(JSON.stringify({ event: 'join', machine_id: 'm1', name, payload }))!,
      h,
    );
    expect(h.onTile).not.toHaveBeenCalled();
  });
});

// The floor checks tiles by hand (zod stays out of its bundle); it must take what the domain's schema takes.
describe('live tile check agrees with the domain schema', () => {
  it.each([
    ['a full tile', machine({ id: 'm1' }), true],
    ['a manual work center', machine({ workcenterType: 'manual' }), true],
    ['an unknown status', machine({ status: 'RUNNING' }), false],
    ['no connection', { ...machine(), connection: undefined }, false],
  ])('%s', (_, payload, ok) => {
    const message = { event: 'channel_update', machine_id: 'm1', name: 'live', payload };
    expect(liveTileMessageSchema.safeParse(message).success).toBe(ok);
    expect(liveTileOf(payload) != null).toBe(ok);
  });
});
