import { defaultDateBounds, epochMs } from '@takt/domain';
import type { AdminMachine, CompanyClock, DateBounds, Me, Operator, OperatorRun } from '@takt/domain';
import {
  DateRangePicker,
  DateTimeInput,
  formatDateTime,
  localeZone,
  Progress,
  t,
  useSession,
  useToasts,
} from '@takt/ui';
import { useEffect, useId, useMemo, useState } from 'react';
import { useSearchParams } from 'react-router';
import { api } from '../api';
import {
  AdminPage,
  AdminTable,
  ConfirmDialog,
  FormDialog,
  LoadedView,
  RowButton,
  useLoaded,
  useSubmit,
} from '../admin/AdminParts';
import type { Loaded } from '../admin/AdminParts';
import { useCompanyClock, useMinuteNow } from '../company-clock';
import {
  correctionBody,
  correctionErrors,
  correctionFormOf,
  LIST_LIMIT,
  listQuery,
  readRunsFilter,
  RUN_HORIZONS,
  runRows,
  writeRunsFilter,
} from './operator-runs';
import type { CorrectionForm, RunRow, RunsFilter } from './operator-runs';
import './operator-runs.css';

// The operator runs screen (live-operations §2 "Operator runs (admin, see companion)", decision 1091): the runs
// of a range by operator and machine, with their duration; admins correct a run's start and end, or end an open
// run. Dates are typed in format L or l and the calendar keeps to one year back to now (decision 1092).

const runPath = (id: string, action = '') => `/api/operatorruns/${encodeURIComponent(id)}${action}`;

export function OperatorRunsPage() {
  const { me } = useSession();
  const clock = useCompanyClock(me);
  if (clock.kind !== 'ready')
    return (
      <AdminPage
        title="admin.operatorRuns.title"
        intro="admin.operatorRuns.blurb"
        busy={clock.kind === 'loading'}
      >
        {clock.kind === 'loading' ? (
          <Progress />
        ) : (
          <p className="notice notice--error" role="alert">
            {t('common.requestError')}
          </p>
        )}
      </AdminPage>
    );
  return <RunsScreen me={me} clock={clock.clock} offsetMs={clock.offsetMs} />;
}

interface Refs {
  operators: Operator[];
  machines: AdminMachine[];
}

/** The runs of the filter, loaded again when it changes or after a change was saved. */
function useRuns(filter: RunsFilter, round: number): Loaded<OperatorRun[]> {
  const [state, setState] = useState<Loaded<OperatorRun[]>>({ kind: 'loading' });
  const key = JSON.stringify(listQuery(filter));
  useEffect(() => {
    const controller = new AbortController();
    setState({ kind: 'loading' });
    api
      .request<OperatorRun[]>('/api/operatorruns/list', {
        query: JSON.parse(key) as Record<string, string | number>,
        signal: controller.signal,
      })
      .then((data) => setState({ kind: 'ready', data }))
      .catch(() => {
        if (!controller.signal.aborted) setState({ kind: 'failed' });
      });
    return () => controller.abort();
  }, [key, round]);
  return state;
}

/** One filter of the list: all, or one of the options (the URL keeps its id). */
function FilterSelect({
  label,
  anyLabel,
  value,
  options,
  onChange,
}: {
  label: string;
  anyLabel: string;
  value: string | null;
  options: readonly { id: string; name: string }[];
  onChange: (id: string | null) => void;
}) {
  const id = useId();
  return (
    <div className="field field--inline">
      <label htmlFor={id}>{label}</label>
      <select id={id} value={value ?? ''} onChange={(e) => onChange(e.target.value || null)}>
        <option value="">{anyLabel}</option>
        {options.map((o) => (
          <option key={o.id} value={o.id}>
            {o.name}
          </option>
        ))}
      </select>
    </div>
  );
}

function RunsScreen({ me, clock, offsetMs }: { me: Me; clock: CompanyClock; offsetMs: number }) {
  const now = useMinuteNow(offsetMs);
  const [params, setParams] = useSearchParams();
  const filter = readRunsFilter(params, clock, now);
  const [round, setRound] = useState(0);
  const runs = useRuns(filter, round);
  const [refs, reloadRefs] = useLoaded<Refs>(async (signal) => {
    const [operators, machines] = await Promise.all([
      api.request<Operator[]>('/api/operators', { query: { includeArchived: true }, signal }),
      api.request<AdminMachine[]>('/api/machines', { signal }),
    ]);
    return { operators, machines };
  });
  const [correcting, setCorrecting] = useState<{
    run: OperatorRun;
    form: CorrectionForm;
    bounds: DateBounds;
  } | null>(null);
  const [ending, setEnding] = useState<RunRow | null>(null);
  const save = useSubmit(t('operatorRuns.failed'));
  const toasts = useToasts();
  const lz = localeZone(me);

  const machineNames = useMemo(
    () => new Map(refs.kind === 'ready' ? refs.data.machines.map((m) => [m.id, m.name] as const) : []),
    [refs],
  );
  const setFilter = (patch: Partial<RunsFilter>) =>
    setParams(writeRunsFilter(params, { ...filter, ...patch }));
  /** Server time now, to the millisecond (the minute clock is enough for the list). */
  const exactNow = () => epochMs(Date.now() + offsetMs);
  const done = (text: 'operatorRuns.saved' | 'operatorRuns.ended') => {
    toasts.show({ message: t(text), tone: 'success' });
    setRound((r) => r + 1);
  };

  const errors = correcting ? correctionErrors(correcting.form, correcting.bounds) : null;
  const setForm = (patch: Partial<CorrectionForm>) =>
    setCorrecting((c) => (c ? { ...c, form: { ...c.form, ...patch } } : c));

  return (
    <AdminPage
      title="admin.operatorRuns.title"
      intro="admin.operatorRuns.blurb"
      busy={runs.kind === 'loading'}
    >
      <section className="operator-runs__filters" aria-label={t('operatorRuns.filters')}>
        <DateRangePicker
          clock={clock}
          now={now}
          locale={me.company.locale}
          applied={filter.range}
          horizons={RUN_HORIZONS}
          onApply={(range) => setFilter({ range })}
        />
        <div className="admin__toolbar">
          <FilterSelect
            label={t('operatorRuns.operator')}
            anyLabel={t('operatorRuns.anyOperator')}
            value={filter.operatorId}
            options={refs.kind === 'ready' ? refs.data.operators : []}
            onChange={(operatorId) => setFilter({ operatorId })}
          />
          <FilterSelect
            label={t('operatorRuns.machine')}
            anyLabel={t('operatorRuns.anyMachine')}
            value={filter.machineId}
            options={refs.kind === 'ready' ? refs.data.machines : []}
            onChange={(machineId) => setFilter({ machineId })}
          />
        </div>
      </section>

      <LoadedView
        state={runs}
        retry={() => {
          reloadRefs();
          setRound((r) => r + 1);
        }}
      >
        {(data) => {
          const rows = runRows(data, machineNames, now);
          if (rows.length === 0)
            return (
              <p className="notice" role="status">
                {t('operatorRuns.empty')}
              </p>
            );
          return (
            <>
              <p className="operator-runs__count" role="status">
                {rows.length >= LIST_LIMIT
                  ? t('operatorRuns.limited', { count: LIST_LIMIT })
                  : t('operatorRuns.count', { count: rows.length })}
              </p>
              <AdminTable
                caption={t('operatorRuns.caption')}
                status={false}
                headers={[
                  t('operatorRuns.operator'),
                  t('operatorRuns.machine'),
                  t('operatorRuns.start'),
                  t('operatorRuns.end'),
                  t('operatorRuns.duration'),
                ]}
              >
                {rows.map((row) => (
                  <tr key={row.run.id}>
                    <th scope="row" data-label={t('operatorRuns.operator')}>
                      {row.operator}
                    </th>
                    <td data-label={t('operatorRuns.machine')}>{row.machine}</td>
                    <td data-label={t('operatorRuns.start')}>{formatDateTime(row.run.startAt, lz)}</td>
                    <td data-label={t('operatorRuns.end')}>
                      {row.open ? (
                        <strong>{t('operatorRuns.open')}</strong>
                      ) : (
                        formatDateTime(row.run.endAt, lz)
                      )}
                    </td>
                    <td data-label={t('operatorRuns.duration')} className="operator-runs__duration">
                      {row.duration}
                    </td>
                    <td className="admin-table__actions">
                      <RowButton
                        text={t('operatorRuns.correct')}
                        label={`${t('operatorRuns.correct')} ${row.operator}, ${row.machine}, ${formatDateTime(row.run.startAt, lz)}`}
                        onClick={() => {
                          save.clear();
                          const at = exactNow();
                          setCorrecting({
                            run: row.run,
                            form: correctionFormOf(row.run, at),
                            bounds: defaultDateBounds(at),
                          });
                        }}
                      />
                      {row.open && (
                        <RowButton
                          danger
                          text={t('operatorRuns.endNow')}
                          label={`${t('operatorRuns.endNow')}: ${row.operator}, ${row.machine}`}
                          onClick={() => {
                            save.clear();
                            setEnding(row);
                          }}
                        />
                      )}
                    </td>
                  </tr>
                ))}
              </AdminTable>
            </>
          );
        }}
      </LoadedView>

      {correcting && errors && (
        <FormDialog
          title={t('operatorRuns.correctTitle', {
            operator: correcting.run.operator.name,
            machine: machineNames.get(correcting.run.machineId) ?? t('common.none'),
          })}
          onClose={() => setCorrecting(null)}
          invalid={errors.blocked}
          busy={save.busy}
          error={save.error}
          submitLabel={save.busy ? t('operatorRuns.saving') : t('operatorRuns.save')}
          onSubmit={() =>
            void save
              .run(() =>
                api.request(runPath(correcting.run.id), {
                  method: 'PUT',
                  body: correctionBody(correcting.form),
                }),
              )
              .then((ok) => {
                if (!ok) return;
                setCorrecting(null);
                done('operatorRuns.saved');
              })
          }
        >
          <DateTimeInput
            label={t('operatorRuns.start')}
            value={epochMs(correcting.form.startAt)}
            timeZone={clock.timezone}
            locale={me.company.locale}
            bounds={correcting.bounds}
            onChange={(startAt) => setForm({ startAt })}
            onValidity={(ok) => setForm({ typed: { ...correcting.form.typed, start: ok } })}
          />
          {correcting.run.endAt == null && (
            <label className="admin__check">
              <input
                type="checkbox"
                checked={correcting.form.keepOpen}
                onChange={(e) => setForm({ keepOpen: e.target.checked })}
              />
              {t('operatorRuns.keepOpen')}
            </label>
          )}
          {!correcting.form.keepOpen && (
            <DateTimeInput
              label={t('operatorRuns.end')}
              value={epochMs(correcting.form.endAt)}
              timeZone={clock.timezone}
              locale={me.company.locale}
              bounds={correcting.bounds}
              onChange={(endAt) => setForm({ endAt })}
              onValidity={(ok) => setForm({ typed: { ...correcting.form.typed, end: ok } })}
            />
          )}
          {errors.end && (
            <p className="field__error" role="alert">
              {errors.end}
            </p>
          )}
        </FormDialog>
      )}

      {ending && (
        <ConfirmDialog
          title={t('operatorRuns.endNow')}
          body={t('operatorRuns.endConfirm', { operator: ending.operator, machine: ending.machine })}
          confirmLabel={t('operatorRuns.endNow')}
          busy={save.busy}
          error={save.error}
          onClose={() => setEnding(null)}
          onConfirm={() =>
            void save
              .run(() => api.request(runPath(ending.run.id, '/end'), { method: 'POST' }))
              .then((ok) => {
                if (!ok) return;
                setEnding(null);
                done('operatorRuns.ended');
              })
          }
        />
      )}
    </AdminPage>
  );
}
