import { describe, expect, it } from 'vitest';
import { ApiError } from '@takt/ui';
import { createActor, fromPromise, SimulatedClock } from 'xstate';
import type { JobPickerInput } from './jobPickerMachine';
import { jobPickerMachine } from './jobPickerMachine';
import type { JobPage, JobRow } from './jobs';
import { JOB_PAGE_SIZE, START_JOB_SEARCH_DEBOUNCE_MS } from './jobs';

const flush = () => new Promise((r) => setTimeout(r, 0));
const row = (i: number): JobRow => ({
  id: `j${i}`,
  name: `Job ${i}`,
  setuptime: 60,
  expectedSetupMs: 60_000,
  onMachine: true,
});
/** The Start Job overlay's settings (live-operations §9): 500 ms debounce, pages of 15. */
const startJob: JobPickerInput = { debounceMs: START_JOB_SEARCH_DEBOUNCE_MS, pageSize: JOB_PAGE_SIZE };

describe('Start Job overlay flow', () => {
  function run() {
    const clock = new SimulatedClock();
    const loads: { filter: string; offset: number; limit: number }[] = [];
    const starts: unknown[] = [];
    const machine = jobPickerMachine.provide({
      actors: {
        loadPage: fromPromise(async ({ input }) => {
          loads.push(input);
          const all = Array.from({ length: 20 }, (_, i) => row(i)).filter((r) =>
            r.name.toLowerCase().includes(input.filter.toLowerCase()),
          );
          return {
            rows: all.slice(input.offset, input.offset + input.limit),
            count: all.length,
            cached: false,
          };
        }),
        start: fromPromise(async ({ input }) => {
          starts.push(input);
        }),
      },
    });
    const actor = createActor(machine, { clock, input: startJob }).start();
    return { actor, clock, loads, starts };
  }

  it('debounces the search by 500 ms and pages by 15', async () => {
    const t = run();
    await flush();
    expect(t.loads).toEqual([{ filter: '', offset: 0, limit: 15 }]);
    t.actor.send({ type: 'LOAD_MORE' });
    await flush();
    expect(t.actor.getSnapshot().context.rows).toHaveLength(20);
    t.actor.send({ type: 'TYPE', filter: 'job 1' });
    t.clock.increment(300);
    t.actor.send({ type: 'TYPE', filter: 'job 1' });
    t.clock.increment(499);
    expect(t.loads).toHaveLength(2);
    t.clock.increment(1);
    await flush();
    expect(t.loads.at(-1)).toEqual({ filter: 'job 1', offset: 0, limit: 15 });
    expect(t.actor.getSnapshot().context.rows.map((r) => r.id)).toContain('j10');
  });

  it('keeps a tap on a row made while the search is still waiting', async () => {
    const t = run();
    await flush();
    t.actor.send({ type: 'TYPE', filter: 'job 1' });
    t.actor.send({ type: 'SELECT', id: 'j1' });
    t.clock.increment(500);
    await flush();
    expect(t.actor.getSnapshot().context.selectedId).toBe('j1');
    t.actor.send({ type: 'TYPE', filter: 'job 2' });
    t.actor.send({ type: 'SELECT', id: 'j1' });
    t.clock.increment(500);
    await flush();
    // no longer in the list: not selected
    expect(t.actor.getSnapshot().context.selectedId).toBeNull();
  });

  it('starts the chosen job when Start is tapped while the search is still waiting', async () => {
    const t = run();
    await flush();
    t.actor.send({ type: 'SELECT', id: 'j3' });
    t.actor.send({ type: 'TYPE', filter: 'job' });
    t.actor.send({ type: 'START', setup: false, stageId: null });
    await flush();
    expect(t.starts).toEqual([{ job: row(3), setup: false, stageId: null }]);
    expect(t.actor.getSnapshot().status).toBe('done');
  });

  it('starts the selected job, and only a selected one', async () => {
    const t = run();
    await flush();
    t.actor.send({ type: 'START', setup: true, stageId: null });
    expect(t.actor.getSnapshot().value).toBe('ready');
    t.actor.send({ type: 'SELECT', id: 'j3' });
    t.actor.send({ type: 'START', setup: true, stageId: 's1' });
    await flush();
    expect(t.starts).toEqual([{ job: row(3), setup: true, stageId: 's1' }]);
    expect(t.actor.getSnapshot().status).toBe('done');
  });

  it('shows "Job could not be started" and Ok cancels', async () => {
    const machine = jobPickerMachine.provide({
      actors: {
        loadPage: fromPromise(async (): Promise<JobPage> => ({ rows: [row(1)], count: 1, cached: false })),
        start: fromPromise(async (): Promise<void> => {
          throw new Error('disk full');
        }),
      },
    });
    const actor = createActor(machine, { input: startJob }).start();
    await flush();
    actor.send({ type: 'SELECT', id: 'j1' });
    actor.send({ type: 'START', setup: false, stageId: null });
    await flush();
    expect(actor.getSnapshot().context.error).toBe('Job could not be started');
    actor.send({ type: 'OK' });
    expect(actor.getSnapshot().value).toBe('cancelled');
  });
});

describe('Start Job search failure (live-operations §8)', () => {
  it.each([
    ['the server message', new ApiError(500, 'BOOM', 'Search is down.'), 'Search is down.'],
    ['a generic text without one', new Error('x'), 'An error occurred with your request.'],
  ])('shows %s, not "No operations found."', async (_, error, text) => {
    let fail = true;
    const machine = jobPickerMachine.provide({
      actors: {
        loadPage: fromPromise(async (): Promise<JobPage> => {
          if (fail) throw error;
          return { rows: [row(1)], count: 1, cached: false };
        }),
      },
    });
    const clock = new SimulatedClock();
    const actor = createActor(machine, { clock, input: startJob }).start();
    await flush();
    expect(actor.getSnapshot().context).toMatchObject({ rows: [], loadError: text });
    fail = false;
    actor.send({ type: 'TYPE', filter: '' });
    clock.increment(500);
    await flush();
    expect(actor.getSnapshot().context).toMatchObject({ loadError: null, count: 1 });
  });
});

describe('job picker on a dashboard (live-operations §5, §9: 250 ms, at most 10 rows)', () => {
  it('debounces by the debounce it is given and asks for its page size', async () => {
    const loads: { filter: string; limit: number }[] = [];
    const machine = jobPickerMachine.provide({
      actors: {
        loadPage: fromPromise(async ({ input }): Promise<JobPage> => {
          loads.push({ filter: input.filter, limit: input.limit });
          return { rows: [row(1)], count: 1, cached: false };
        }),
      },
    });
    const clock = new SimulatedClock();
    const actor = createActor(machine, { clock, input: { debounceMs: 250, pageSize: 10 } }).start();
    await flush();
    actor.send({ type: 'TYPE', filter: 'job' });
    clock.increment(249);
    expect(loads).toEqual([{ filter: '', limit: 10 }]);
    clock.increment(1);
    await flush();
    expect(loads).toEqual([
      { filter: '', limit: 10 },
      { filter: 'job', limit: 10 },
    ]);
  });
});
