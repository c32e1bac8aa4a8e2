import { describe, expect, it, vi } from 'vitest';
import { createActor, fromPromise, SimulatedClock } from 'xstate';
import { downtimeMachine } from './downtimeMachine';
import { rejectMachine } from './rejectMachine';
import { setupMachine } from './setupMachine';
import {
  UNDERLAY_AUTO_CLOSE_MS,
  UNDERLAY_AUTO_EXPAND_MS,
  UNDERLAY_DELAY_MS,
  underlayMachine,
  underlayShown,
} from './underlayMachine';

const flush = () => new Promise((r) => setTimeout(r, 0));

describe('Reject Part flow', () => {
  it('saves only a valid form', async () => {
    const save = vi.fn(async () => {});
    const actor = createActor(rejectMachine.provide({ actors: { save: fromPromise(save) } }), {
      input: {
        reasons: [
          { id: 'a', name: 'A', color: null, scrap: true, reject_behavior: 'operator' },
          { id: 'b', name: 'B', color: null, scrap: true, reject_behavior: 'scrap' },
        ],
        hideRemoveFlag: false,
        manual: false,
      },
    }).start();
    actor.send({ type: 'SAVE' }); // no reason yet
    expect(actor.getSnapshot().value).toBe('editing');
    actor.send({ type: 'EDIT', patch: { reasonId: 'a', behavior: 'nonconform' } });
    actor.send({ type: 'EDIT', patch: { count: '0' } });
    actor.send({ type: 'SAVE' });
    expect(save).not.toHaveBeenCalled();
    actor.send({ type: 'EDIT', patch: { count: '2' } });
    actor.send({ type: 'SAVE' });
    await flush();
    expect(save).toHaveBeenCalledTimes(1);
    expect(actor.getSnapshot().status).toBe('done');
  });

  it('saves with reasons that arrived after it opened (the first pull was still running)', async () => {
    const save = vi.fn(async () => {});
    const actor = createActor(rejectMachine.provide({ actors: { save: fromPromise(save) } }), {
      input: { reasons: [], hideRemoveFlag: false, manual: false },
    }).start();
    actor.send({
      type: 'REASONS',
      reasons: [{ id: 'b', name: 'B', color: null, scrap: true, reject_behavior: 'scrap' }],
    });
    expect(actor.getSnapshot().context.draft.reasonId).toBe('b'); // the only reason is chosen
    actor.send({ type: 'REASONS', reasons: [] }); // gone again: the choice goes with it
    expect(actor.getSnapshot().context.draft.reasonId).toBeNull();
    actor.send({
      type: 'REASONS',
      reasons: [
        { id: 'a', name: 'A', color: null, scrap: true, reject_behavior: 'scrap' },
        { id: 'b', name: 'B', color: null, scrap: true, reject_behavior: 'scrap' },
      ],
    });
    actor.send({ type: 'EDIT', patch: { reasonId: 'a' } });
    actor.send({ type: 'SAVE' });
    await flush();
    expect(save).toHaveBeenCalledTimes(1);
  });
});

describe('Setup flow', () => {
  it('defaults kept parts to the setup parts and resumes from a persisted snapshot', async () => {
    const actor = createActor(setupMachine).start();
    actor.send({ type: 'SETUP_PARTS', count: 4 });
    actor.send({ type: 'EDIT', patch: { notes: 'first article ok' } });
    expect(actor.getSnapshot().context.draft).toEqual({ keptParts: '4', notes: 'first article ok' });
    const saved = JSON.parse(JSON.stringify(actor.getPersistedSnapshot()));
    actor.stop();
    const start = vi.fn(async () => {});
    const again = createActor(setupMachine.provide({ actors: { startProduction: fromPromise(start) } }), {
      snapshot: saved,
    }).start();
    expect(again.getSnapshot().context.draft.notes).toBe('first article ok');
    again.send({ type: 'EDIT', patch: { keptParts: '5' } });
    again.send({ type: 'START_PRODUCTION' }); // 5 > 4 made in setup
    expect(start).not.toHaveBeenCalled();
    again.send({ type: 'EDIT', patch: { keptParts: '3' } });
    again.send({ type: 'START_PRODUCTION' });
    await flush();
    expect(start).toHaveBeenCalledWith(
      expect.objectContaining({
        input: { draft: { keptParts: '3', notes: 'first article ok' }, setupParts: 4 },
      }),
    );
  });
});

describe('Categorize Downtime flow', () => {
  it('categorizes several uncategorized periods with one reason', async () => {
    const saves: unknown[] = [];
    const actor = createActor(
      downtimeMachine.provide({ actors: { save: fromPromise(async ({ input }) => void saves.push(input)) } }),
    ).start();
    actor.send({ type: 'CATEGORIZE_MULTIPLE' }); // nothing selected
    expect(actor.getSnapshot().value).toBe('list');
    actor.send({ type: 'TOGGLE_MULTI' });
    actor.send({ type: 'TOGGLE_SELECT', start: 1 });
    actor.send({ type: 'TOGGLE_SELECT', start: 2 });
    actor.send({ type: 'TOGGLE_SELECT', start: 1 });
    actor.send({ type: 'TOGGLE_SELECT', start: 3 });
    actor.send({ type: 'CATEGORIZE_MULTIPLE' });
    actor.send({ type: 'SAVE' }); // no reason
    expect(actor.getSnapshot().value).toBe('categorizing');
    actor.send({ type: 'EDIT', patch: { reasonId: 'r' } });
    actor.send({ type: 'SAVE' });
    await flush();
    expect(saves).toEqual([{ targets: [2, 3], draft: { reasonId: 'r', planned: false, description: '' } }]);
    expect(actor.getSnapshot().context).toMatchObject({ selected: [], multi: false });
  });
});

describe('downtime underlay timing', () => {
  function run(timing: { delayMs?: number; autoExpandMs?: number } = {}) {
    const clock = new SimulatedClock();
    const actor = createActor(underlayMachine, {
      clock,
      input: { now: () => clock.now(), ...timing },
    }).start();
    return {
      actor,
      clock,
      state: () => actor.getSnapshot().value,
      shown: () => actor.getSnapshot().value as string,
    };
  }
  it('appears after the delay and expands by itself', () => {
    const t = run();
    t.actor.send({ type: 'DOWN', start: 0, elapsedMs: 0 });
    t.clock.increment(UNDERLAY_DELAY_MS - 1);
    expect(t.state()).toBe('waiting');
    t.clock.increment(1);
    expect(t.state()).toBe('collapsed');
    t.clock.increment(UNDERLAY_AUTO_EXPAND_MS - UNDERLAY_DELAY_MS);
    expect(t.state()).toBe('expanded');
  });
  it("follows the company's delay and auto-expand duration (decision 1087)", () => {
    const t = run({ delayMs: 5000, autoExpandMs: 20_000 });
    t.actor.send({ type: 'DOWN', start: 0, elapsedMs: 0 });
    t.clock.increment(4999);
    expect(t.state()).toBe('waiting');
    t.clock.increment(1);
    expect(t.state()).toBe('collapsed');
    t.clock.increment(14_999);
    expect(t.state()).toBe('collapsed');
    t.clock.increment(1);
    expect(t.state()).toBe('expanded');
  });
  it('counts a downtime that was already going on', () => {
    const t = run();
    t.actor.send({ type: 'DOWN', start: 0, elapsedMs: UNDERLAY_DELAY_MS + 1000 });
    t.clock.increment(0);
    expect(t.state()).toBe('collapsed');
  });
  it('disappears when the downtime ends quickly, and closes 5 s after saving', () => {
    const t = run();
    t.actor.send({ type: 'DOWN', start: 0, elapsedMs: 0 });
    t.actor.send({ type: 'UP' });
    expect(t.state()).toBe('hidden');
    t.actor.send({ type: 'DOWN', start: 1, elapsedMs: UNDERLAY_DELAY_MS });
    t.clock.increment(0);
    t.actor.send({ type: 'SAVED' });
    t.clock.increment(UNDERLAY_AUTO_CLOSE_MS - 1);
    expect(t.state()).toBe('closing');
    t.clock.increment(1);
    expect(underlayShown(t.shown())).toBe(false);
  });
  it('never shows for a downtime whose reason is known while it waits to appear', () => {
    // Underlay.tsx sends DOWN then SAVED in one pass for an already categorized downtime (reload, machine
    // switch) or one categorized from the list during the delay.
    const t = run();
    t.actor.send({ type: 'DOWN', start: 0, elapsedMs: 0 });
    t.actor.send({ type: 'SAVED' });
    t.clock.increment(UNDERLAY_DELAY_MS + UNDERLAY_AUTO_EXPAND_MS);
    expect(underlayShown(t.shown())).toBe(false);
    t.actor.send({ type: 'DOWN', start: 0, elapsedMs: 1000 }); // the same downtime reported again
    t.clock.increment(UNDERLAY_DELAY_MS);
    expect(underlayShown(t.shown())).toBe(false);
    t.actor.send({ type: 'DOWN', start: 50_000, elapsedMs: 0 }); // a new downtime gets its underlay
    t.clock.increment(UNDERLAY_DELAY_MS);
    expect(t.state()).toBe('collapsed');
  });
  it('starts the flow of a new downtime that begins within 5 s of a save', () => {
    const t = run();
    t.actor.send({ type: 'DOWN', start: 0, elapsedMs: UNDERLAY_DELAY_MS });
    t.clock.increment(0);
    t.actor.send({ type: 'SAVED' });
    t.clock.increment(1000);
    t.actor.send({ type: 'DOWN', start: 40_000, elapsedMs: 0 });
    expect(t.state()).toBe('waiting');
    t.clock.increment(UNDERLAY_DELAY_MS);
    expect(t.state()).toBe('collapsed');
    t.clock.increment(UNDERLAY_AUTO_EXPAND_MS - UNDERLAY_DELAY_MS);
    expect(t.state()).toBe('expanded');
  });
});
