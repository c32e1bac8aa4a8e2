import { t } from '@takt/ui';
import { useMachine } from '@xstate/react';
import { useEffect, useId, useRef, useState } from 'react';
import { fromPromise } from 'xstate';
import { ErrorNotice } from '../ErrorNotice';
import type { JobPickerInput } from './jobPickerMachine';
import { jobPickerMachine } from './jobPickerMachine';
import type { JobPage, JobPageRequest, JobRow } from './jobs';
import { emptyJobsText } from './jobs';

export interface StartRequest {
  job: JobRow;
  setup: boolean;
  stageId: string | null;
}

export interface JobPickerOptions extends JobPickerInput {
  load: (r: JobPageRequest, signal: AbortSignal) => Promise<JobPage>;
  /** Queues the start (the machine's START); pickers that start through their own submit leave it out. */
  start?: (r: StartRequest) => Promise<void>;
}

/** The job picker's flow (jobPickerMachine) over the caller's loader; always calls the latest `load`/`start`. */
export function useJobPicker(o: JobPickerOptions) {
  const latest = useRef(o);
  useEffect(() => {
    latest.current = o;
  });
  const [machine] = useState(() =>
    jobPickerMachine.provide({
      actors: {
        loadPage: fromPromise<JobPage, JobPageRequest>(({ input, signal }) =>
          latest.current.load(input, signal),
        ),
        start: fromPromise<void, StartRequest>(async ({ input }) => {
          await latest.current.start?.(input);
        }),
      },
    }),
  );
  return useMachine(machine, { input: { debounceMs: o.debounceMs, pageSize: o.pageSize } });
}

export type JobPickerActor = ReturnType<typeof useJobPicker>;

export interface JobPickerProps {
  picker: JobPickerActor;
  label: string;
  hint?: string;
  /**
   * How a row is chosen: a radio (the dashboards' job picker and the job dispatch modal, whose footer starts
   * the checked job) or a toggle button (the Start Job overlay, whose start buttons depend on the job).
   */
  choice: 'radio' | 'toggle';
}

/**
 * The job picker (live-operations §2 Start Job, §5 Job search): the search box, the operations found with
 * the §2 empty states, more as the list scrolls. A tap on a row counts while the search still waits or loads.
 */
export function JobPicker({ picker: [state, send], label, hint, choice }: JobPickerProps) {
  const id = useId();
  const sentinel = useRef<HTMLLIElement>(null);
  const { rows, count, filter, selectedId, cached, loadError } = state.context;
  const loading = state.matches('loading') || state.matches('debouncing');

  // Infinite scroll: the last row coming into view asks for the next page.
  useEffect(() => {
    const el = sentinel.current;
    if (!el || typeof IntersectionObserver === 'undefined') return;
    const io = new IntersectionObserver((entries) => {
      if (entries.some((e) => e.isIntersecting)) send({ type: 'LOAD_MORE' });
    });
    io.observe(el);
    return () => io.disconnect();
  }, [send, rows.length]);

  return (
    <>
      <div className="field">
        <label className="field__label" htmlFor={`${id}-search`}>
          {label}
        </label>
        <input
          id={`${id}-search`}
          type="search"
          className="touch-input"
          autoComplete="off"
          value={filter}
          onChange={(e) => send({ type: 'TYPE', filter: e.target.value })}
        />
        {hint && <p className="field__hint">{hint}</p>}
      </div>
      {cached && <p className="notice">{t('startJob.offlineList')}</p>}
      <ErrorNotice message={loading ? null : loadError} />
      {loading && rows.length === 0 ? (
        <p className="notice" aria-busy="true">
          {t('overlay.loading')}
        </p>
      ) : loadError && rows.length === 0 ? null : rows.length === 0 ? (
        <p className="notice">{emptyJobsText(filter)}</p>
      ) : (
        <ul
          className={choice === 'radio' ? 'job-radios' : 'pick-list'}
          aria-label={t('startJob.jobs')}
          aria-busy={loading || undefined}
        >
          {rows.map((r, i) => (
            <li key={r.id} ref={i === rows.length - 1 ? sentinel : undefined}>
              {choice === 'radio' ? (
                <label className="job-radios__row touch">
                  <input
                    type="radio"
                    name={`${id}-job`}
                    checked={r.id === selectedId}
                    onChange={() => send({ type: 'SELECT', id: r.id })}
                  />
                  <span>{r.name}</span>
                </label>
              ) : (
                <button
                  type="button"
                  className="pick-list__item touch"
                  aria-pressed={r.id === selectedId}
                  onClick={() => send({ type: 'SELECT', id: r.id })}
                >
                  <span className="pick-list__name">{r.name}</span>
                </button>
              )}
            </li>
          ))}
          {rows.length < count && (
            <li>
              <button
                type="button"
                className="button touch button--block"
                onClick={() => send({ type: 'LOAD_MORE' })}
              >
                {t('startJob.loadMore')}
              </button>
            </li>
          )}
        </ul>
      )}
    </>
  );
}

/** The chosen row, or null (a choice drops out when a new search no longer lists it). */
export const selectedJob = ([state]: JobPickerActor): JobRow | null =>
  state.context.rows.find((r) => r.id === state.context.selectedId) ?? null;
