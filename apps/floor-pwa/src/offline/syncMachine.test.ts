import { ApiError } from '@takt/ui';
import { describe, expect, it, vi } from 'vitest';
import { createActor, fromPromise, SimulatedClock } from 'xstate';
import type { PushResult } from './syncMachine';
import { PULL_INTERVAL_MS, syncMachine, syncStatusOf } from './syncMachine';

const flush = () => new Promise((r) => setTimeout(r, 0));
const network = () => new ApiError(0, 'NETWORK_ERROR', 'Failed to fetch');

function run(pushes: Array<PushResult | Error>, opts: { pull?: () => Promise<void> } = {}) {
  const clock = new SimulatedClock();
  const reload = vi.fn();
  const pushCalls = vi.fn();
  const machine = syncMachine.provide({
    actors: {
      push: fromPromise(async () => {
        pushCalls();
        const next = pushes.shift() ?? { sent: 0, more: false, serverErrors: 0 };
        if (next instanceof Error) throw next;
        return next;
      }),
      pull: fromPromise(opts.pull ?? (async () => {})),
    },
    actions: { reload },
  });
  const actor = createActor(machine, { clock, input: { now: () => clock.now() } });
  actor.start();
  const status = () => syncStatusOf(String(actor.getSnapshot().value));
  return { actor, clock, reload, pushCalls, status };
}

describe('sync machine', () => {
  it('pushes, pulls, and settles in sync', async () => {
    const t = run([{ sent: 2, more: false, serverErrors: 0 }]);
    expect(t.status()).toBe('pushing');
    await flush();
    await flush();
    expect(t.status()).toBe('in-sync');
  });

  it('backs off 4 s, 8 s, 16 s … 60 s while offline', async () => {
    const t = run([
      network(),
      network(),
      network(),
      network(),
      network(),
      network(),
      { sent: 0, more: false, serverErrors: 0 },
    ]);
    await flush();
    expect(t.status()).toBe('offline');
    const waits = [4000, 8000, 16_000, 32_000, 60_000, 60_000];
    for (const [i, ms] of waits.entries()) {
      expect(t.actor.getSnapshot().context.retryAt).toBe(t.clock.now() + ms);
      t.clock.increment(ms - 1);
      expect(t.pushCalls).toHaveBeenCalledTimes(i + 1);
      t.clock.increment(1);
      expect(t.pushCalls).toHaveBeenCalledTimes(i + 2);
      await flush();
    }
    expect(t.status()).toBe('in-sync');
    expect(t.actor.getSnapshot().context.failures).toBe(0);
  });

  it('goes back online at once when the browser says so', async () => {
    const t = run([network()]);
    await flush();
    t.actor.send({ type: 'ONLINE' });
    expect(t.status()).toBe('pushing');
    expect(t.pushCalls).toHaveBeenCalledTimes(2);
  });

  it('retries server failures with the same backoff, in the error state', async () => {
    const t = run([{ sent: 1, more: false, serverErrors: 1 }]);
    await flush();
    expect(t.status()).toBe('error');
    t.clock.increment(4000);
    expect(t.pushCalls).toHaveBeenCalledTimes(2);
  });

  it('pushes again when more is queued or something was queued meanwhile', async () => {
    const t = run([
      { sent: 200, more: true, serverErrors: 0 },
      { sent: 1, more: false, serverErrors: 0 },
    ]);
    t.actor.send({ type: 'ENQUEUED' });
    await flush();
    expect(t.pushCalls).toHaveBeenCalledTimes(2);
  });

  it('backs off from 4 s again after a round the server answered, also when more is queued', async () => {
    const t = run([
      network(),
      network(),
      { sent: 200, more: true, serverErrors: 0 },
      network(),
      { sent: 1, more: false, serverErrors: 0 },
    ]);
    await flush();
    t.clock.increment(4000);
    await flush();
    t.clock.increment(8000);
    await flush();
    await flush();
    // The third round was answered (more to send), the fourth failed: a first failure again.
    expect(t.pushCalls).toHaveBeenCalledTimes(4);
    expect(t.status()).toBe('offline');
    expect(t.actor.getSnapshot().context.failures).toBe(1);
    expect(t.actor.getSnapshot().context.retryAt).toBe(t.clock.now() + 4000);
  });

  it('reloads the page on 401', async () => {
    const t = run([new ApiError(401, 'UNAUTHENTICATED', 'Sign in')]);
    await flush();
    expect(t.reload).toHaveBeenCalledTimes(1);
  });

  it('pulls again every minute while in sync', async () => {
    const pull = vi.fn(async () => {});
    const t = run([], { pull });
    await flush();
    expect(t.status()).toBe('in-sync');
    t.clock.increment(PULL_INTERVAL_MS);
    expect(pull).toHaveBeenCalledTimes(1);
  });
});

describe('sync machine pulls asked for while busy', () => {
  it('pulls after the push when a machine was opened meanwhile', async () => {
    const pull = vi.fn(async () => {});
    const t = run([{ sent: 0, more: false, serverErrors: 0 }], { pull });
    t.actor.send({ type: 'PULL' });
    await flush();
    await flush();
    expect(pull).toHaveBeenCalledTimes(1);
    expect(t.status()).toBe('in-sync');
  });

  it('pulls again when a machine was opened during a pull', async () => {
    let release: () => void = () => {};
    const pull = vi.fn(() => new Promise<void>((r) => (release = r)));
    const t = run([{ sent: 1, more: false, serverErrors: 0 }], { pull });
    await flush();
    await flush();
    expect(pull).toHaveBeenCalledTimes(1);
    t.actor.send({ type: 'PULL' });
    release();
    await flush();
    await flush();
    expect(pull).toHaveBeenCalledTimes(2);
    release();
    await flush();
    await flush();
    expect(pull).toHaveBeenCalledTimes(2);
    expect(t.status()).toBe('in-sync');
  });

  it('pulls after a failed round when a machine was opened meanwhile', async () => {
    const pull = vi.fn(async () => {});
    const t = run([new Error('boom')], { pull });
    await flush();
    await flush();
    expect(t.actor.getSnapshot().value).toBe('error');
    t.actor.send({ type: 'PULL' });
    t.actor.send({ type: 'RETRY' });
    await flush();
    await flush();
    expect(pull).toHaveBeenCalledTimes(1);
    expect(t.status()).toBe('in-sync');
  });
});
