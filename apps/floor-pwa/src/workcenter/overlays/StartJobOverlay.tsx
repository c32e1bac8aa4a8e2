import { ApiError, Modal, t } from '@takt/ui';
import { useMachine } from '@xstate/react';
import { lazy, Suspense, useEffect, useId, useMemo, useRef, useState } from 'react';
import { fromPromise } from 'xstate';
import { useSubmit } from '../../components/submit';
import { ENDPOINTS } from '../../endpoints/endpoints';
import { cacheJobs } from '../../offline/refdata';
import { useFloorSync } from '../../offline/SyncProvider';
import { useSession } from '../../session';
import { queue } from '../actions';
import type { JobRow, Stage } from '../forms';
import { emptyJobsText, jobRowOf, startJobPayload, startOptions } from '../forms';
import type { JobPage } from '../machines/startJobMachine';
import { startJobMachine } from '../machines/startJobMachine';
import type { OverlayProps } from './types';

// The admins' job dispatch modal (live-operations §2, §6): the dashboards' job picker over all operations.
const JobPickerModal = lazy(() =>
  import('../../dashboards/JobActions').then((m) => ({ default: m.JobPickerModal })),
);

export function stagesOf(raw: unknown): Stage[] {
  if (!Array.isArray(raw)) return [];
  return (raw as Record<string, unknown>[]).map((s) => ({
    id: String(s.id),
    name: String(s.name),
    stageOrder: typeof s.stageOrder === 'number' ? s.stageOrder : 0,
    archivedAt: typeof s.archivedAt === 'number' ? s.archivedAt : null,
  }));
}

/** Start Job (live-operations §2): search, choose, start in setup (per stage) or in production. */
export default function StartJobOverlay({ machineId, machineName, data, onClose }: OverlayProps) {
  const sync = useFloorSync();
  const { me } = useSession();
  const [dispatch, setDispatch] = useState(false);
  const id = useId();
  const stages = useMemo(() => stagesOf(data.setupStages), [data.setupStages]);
  const machine = useMemo(
    () =>
      startJobMachine.provide({
        actors: {
          loadPage: fromPromise(async ({ input }): Promise<JobPage> => {
            try {
              const page = await sync.api.request<{ rows: Record<string, unknown>[]; count: number }>(
                ENDPOINTS.jobs,
                {
                  query: { machineId, filter: input.filter, limit: input.limit, offset: input.offset },
                },
              );
              void cacheJobs(sync.db, machineId, page.rows);
              return { rows: page.rows.map((j) => jobRowOf(j, machineId)), count: page.count, cached: false };
            } catch (e) {
              if (!(e instanceof ApiError && e.isNetworkError)) throw e;
              // Offline: the operations saved on this device, filtered here (case-insensitive, §5).
              const q = input.filter.trim().toLowerCase();
              const all = await sync.db.jobs
                .where('machineId')
                .equals(machineId)
                .filter((j) => j.search.includes(q))
                .sortBy('search');
              return {
                rows: all
                  .slice(input.offset, input.offset + input.limit)
                  .map((j) => jobRowOf(j.job, machineId)),
                count: all.length,
                cached: true,
              };
            }
          }),
          start: fromPromise(async ({ input }) => {
            const stage = stages.find((s) => s.id === input.stageId);
            await queue(
              sync,
              machineId,
              'start_job',
              startJobPayload(machineId, input.job.id, input.setup, input.stageId),
              {
                jobName: input.job.name,
                expectedSetupMs: input.job.expectedSetupMs,
                stageName: stage?.name ?? null,
              },
            );
          }),
        },
      }),
    [sync, machineId, stages],
  );
  const [state, send] = useMachine(machine);
  // §5: submits are debounced 200 ms; the machine ignores START while starting.
  const { submit: start } = useSubmit(
    async (e: { setup: boolean; stageId: string | null }) => void send({ type: 'START', ...e }),
  );
  const { rows, count, filter, selectedId, error, cached, loadError } = state.context;
  const selected: JobRow | null = rows.find((r) => r.id === selectedId) ?? null;
  const options = selected ? startOptions(selected, stages, data.flags.enableSetupStages) : null;
  const busy = state.matches('starting');
  const sentinel = useRef<HTMLLIElement>(null);

  useEffect(() => {
    if (state.status === 'done') onClose();
  }, [state.status, onClose]);

  // Infinite scroll: the last row coming into view asks for the next page of 15.
  useEffect(() => {
    const el = sentinel.current;
    if (!el || typeof IntersectionObserver === 'undefined') return;
    const io = new IntersectionObserver((entries) => {
      if (entries.some((e) => e.isIntersecting)) send({ type: 'LOAD_MORE' });
    });
    io.observe(el);
    return () => io.disconnect();
  }, [send, rows.length]);

  if (dispatch) {
    return (
      <Suspense fallback={null}>
        <JobPickerModal
          sync={sync}
          machine={{ id: machineId, name: machineName }}
          allOperations
          title={t('dispatch.title')}
          onClose={onClose}
        />
      </Suspense>
    );
  }

  if (state.matches('failed')) {
    return (
      <Modal
        title={t('startJob.failed')}
        onClose={onClose}
        footer={
          <button
            type="button"
            className="button button--primary touch"
            onClick={() => {
              send({ type: 'OK' });
              onClose();
            }}
          >
            {t('overlay.ok')}
          </button>
        }
      >
        <p role="alert">{error}</p>
      </Modal>
    );
  }

  const loading = state.matches('loading') || state.matches('debouncing');
  return (
    <Modal
      title={t('startJob.title')}
      onClose={onClose}
      busy={busy}
      className="modal--tall"
      footer={
        <>
          {!selected && (
            <p className="modal__hint">
              {t('startJob.jobs')}: {count}
            </p>
          )}
          {selected && options && (
            <div className="start-actions">
              <p className="modal__hint">{t('startJob.selected', { name: selected.name })}</p>
              {options.setup && options.stages.length > 0 && (
                <div role="group" aria-label={t('startJob.inSetup')} className="start-actions__stages">
                  <span className="start-actions__label" aria-hidden="true">
                    {t('startJob.inSetup')}
                  </span>
                  {options.stages.map((s) => (
                    <button
                      key={s.id}
                      type="button"
                      className="button touch"
                      disabled={busy}
                      onClick={() => start({ setup: true, stageId: s.id })}
                    >
                      {s.name}
                    </button>
                  ))}
                </div>
              )}
              {options.setup && options.noStages && <p className="notice">{t('startJob.noStages')}</p>}
              {!options.setup && <p className="notice">{t('startJob.noSetupTime')}</p>}
              <div className="modal__buttons">
                {options.setup && options.stages.length === 0 && (
                  <button
                    type="button"
                    className="button touch"
                    disabled={busy}
                    onClick={() => start({ setup: true, stageId: null })}
                  >
                    {t('startJob.inSetup')}
                  </button>
                )}
                <button
                  type="button"
                  className="button button--primary touch"
                  disabled={busy}
                  onClick={() => start({ setup: false, stageId: null })}
                >
                  {t('startJob.inProduction')}
                </button>
              </div>
            </div>
          )}
        </>
      }
    >
      {me.isAdmin && (
        <button type="button" className="button touch" onClick={() => setDispatch(true)}>
          {t('dispatch.open')}
        </button>
      )}
      <div className="field">
        <label className="field__label" htmlFor={`${id}-search`}>
          {t('startJob.search')}
        </label>
        <input
          id={`${id}-search`}
          type="search"
          className="touch-input"
          autoComplete="off"
          value={filter}
          onChange={(e) => send({ type: 'TYPE', filter: e.target.value })}
        />
      </div>
      {cached && <p className="notice">{t('startJob.offlineList')}</p>}
      {loadError && !loading && (
        <p className="notice notice--error" role="alert">
          {loadError}
        </p>
      )}
      {loading && rows.length === 0 ? (
        <p className="notice" aria-busy="true">
          {t('overlay.loading')}
        </p>
      ) : loadError && rows.length === 0 ? null : rows.length === 0 ? (
        <p className="notice">{emptyJobsText(filter)}</p>
      ) : (
        <ul className="pick-list" aria-label={t('startJob.jobs')} aria-busy={loading || undefined}>
          {rows.map((r, i) => (
            <li key={r.id} ref={i === rows.length - 1 ? sentinel : undefined}>
              <button
                type="button"
                className="pick-list__item touch"
                aria-pressed={r.id === selectedId}
                onClick={() => send({ type: 'SELECT', id: r.id })}
              >
                <span className="pick-list__name">{r.name}</span>
              </button>
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
    </Modal>
  );
}
