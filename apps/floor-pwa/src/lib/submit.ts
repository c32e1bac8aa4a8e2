import { t } from '@takt/ui';
import { useEffect, useRef, useState } from 'react';
import { JOB_ACTION_DEBOUNCE_MS, realTimers } from './debounce';
import type { Timers } from './debounce';

// live-operations §5 "Submits are debounced 200 ms and ignored while saving" (§9: submit debounce 200 ms).
// One gate for every submit of the floor app: the dashboards' job actions, the workcenter overlays and the
// Save buttons of the overlays (the manual Add Part / Add 1 Part / Undo counters are not gated, decision 0711).

/** The same 200 ms as the dashboards' job actions (live-operations §9). */
export const SUBMIT_DEBOUNCE_MS = JOB_ACTION_DEBOUNCE_MS;

export interface SubmitHooks {
  busy: (busy: boolean) => void;
  done: () => void;
  failed: (e: unknown) => void;
}

export interface SubmitGate<A> {
  /** Press: runs at once; ignored while a run is saving and for `ms` after the press that ran. */
  submit: (arg: A) => void;
  cancel: () => void;
}

/**
 * The pure gate behind useSubmit: a leading-edge debounce (the first press runs at once, the presses of the
 * next 200 ms are dropped) and nothing while the last run is still saving. Leading, not trailing: a trailing
 * debounce would hold every Save for 200 ms, past the 100 ms a tap may take to show its result
 * (decision 0711).
 */
export function submitGate<A>(
  run: (arg: A) => Promise<void>,
  hooks: SubmitHooks,
  ms = SUBMIT_DEBOUNCE_MS,
  timers: Timers = realTimers,
): SubmitGate<A> {
  let cooling: unknown = null;
  let saving = false;
  return {
    submit(arg) {
      if (saving || cooling !== null) return;
      cooling = timers.set(() => {
        cooling = null;
      }, ms);
      saving = true;
      hooks.busy(true);
      let p: Promise<void>;
      try {
        p = run(arg);
      } catch (e) {
        p = Promise.reject(e);
      }
      p.then(
        () => {
          saving = false;
          hooks.busy(false);
          hooks.done();
        },
        (e: unknown) => {
          saving = false;
          hooks.busy(false);
          hooks.failed(e);
        },
      );
    },
    cancel() {
      if (cooling !== null) timers.clear(cooling);
      cooling = null;
    },
  };
}

/**
 * A submit that runs once however often it is pressed (submitGate), with `busy` for disabling the buttons
 * and the failure's message. Always runs the latest `run` and `onDone`; a pending press is dropped on unmount.
 */
export function useSubmit<A = void>(run: (arg: A) => Promise<void>, onDone: () => void = () => {}) {
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const latest = useRef({ run, onDone });
  useEffect(() => {
    latest.current = { run, onDone };
  });
  const [gate] = useState(() =>
    submitGate<A>((arg) => latest.current.run(arg), {
      busy: (b) => {
        setBusy(b);
        if (b) setError(null);
      },
      done: () => latest.current.onDone(),
      failed: (e) => setError(e instanceof Error ? e.message : t('common.requestError')),
    }),
  );
  useEffect(() => () => gate.cancel(), [gate]);
  return { busy, error, submit: gate.submit };
}
