import { SIMULATED_EXECUTIONS } from '@takt/domain';
import type { SimulatedExecution, SimulationAction, SimulationState } from '@takt/domain';
import { formatDateTime, formatTimeOfDay, localeZone, t, useSession, useToasts } from '@takt/ui';
import type { MessageKey } from '@takt/ui';
import { useCallback, useEffect, useId, useState } from 'react';
import type { ReactNode } from 'react';
import { Link, useParams } from 'react-router';
import { api } from '../api';
import { ConfirmDialog, FormErrorBox, LoadedView, useLoaded, useSubmit } from '../admin/AdminParts';
import { TextField } from '../admin/MachineFields';
import { ADMIN_PATHS } from '../admin/screens';
import type { SimulateForms } from './simulate';
import {
  codeError,
  cyclesErrors,
  faultAction,
  faultError,
  missingItem,
  newForms,
  partsError,
  programError,
  simulationApi,
} from './simulate';
import './simulate.css';

// The test screen for simulated execution (live-operations §2 "Test screen for simulated execution"; decision
// 1100): an admin drives one machine's simulated execution; each button sends one action through the ingest path.

export function SimulatePage() {
  const { id = '' } = useParams();
  const load = useCallback(
    (signal: AbortSignal) => api.request<SimulationState>(simulationApi(id), { signal }),
    [id],
  );
  const [state, reload] = useLoaded(load);
  const headingId = useId();
  const name = state.kind === 'ready' ? state.data.machineName : '';
  useEffect(() => {
    document.title = `${t('simulate.pageTitle')} · ${t('app.officeName')}`;
  }, []);
  return (
    <main className="page admin simulate" aria-labelledby={headingId} aria-busy={state.kind === 'loading'}>
      <p className="admin__back">
        <Link to={ADMIN_PATHS.machines}>{t('simulate.back')}</Link>
      </p>
      <div className="page__head">
        <h1 id={headingId}>{name ? t('simulate.title', { name }) : t('simulate.pageTitle')}</h1>
      </div>
      <p className="admin__intro">{t('simulate.blurb')}</p>
      <LoadedView state={state} retry={reload}>
        {(data) => <Simulator initial={data} />}
      </LoadedView>
    </main>
  );
}

function Simulator({ initial }: { initial: SimulationState }) {
  const [sim, setSim] = useState(initial);
  const [forms, setForms] = useState<SimulateForms>(newForms);
  const [touched, setTouched] = useState<Partial<Record<keyof SimulateForms, boolean>>>({});
  const [ending, setEnding] = useState(false);
  const send = useSubmit(t('simulate.failed'));
  const end = useSubmit(t('simulate.failed'));
  const toasts = useToasts();
  const { me } = useSession();
  const zone = localeZone(me);
  const refused = sim.refusal !== null;

  const set = (patch: Partial<SimulateForms>) => {
    setForms((f) => ({ ...f, ...patch }));
    setTouched((was) => ({ ...was, ...Object.fromEntries(Object.keys(patch).map((k) => [k, true])) }));
  };
  const shown = (key: keyof SimulateForms, error: string | null) =>
    touched[key] ? (error ?? undefined) : undefined;
  const run = (action: SimulationAction) => {
    void send.run(async () => {
      setSim(
        await api.request<SimulationState>(simulationApi(sim.machineId), { method: 'POST', body: action }),
      );
      toasts.show({ message: t('simulate.sent'), tone: 'success' });
    });
  };
  const finish = async () => {
    const ended = end.run(async () =>
      setSim(await api.request<SimulationState>(simulationApi(sim.machineId), { method: 'DELETE' })),
    );
    if (await ended) {
      setEnding(false);
      toasts.show({ message: t('simulate.ended'), tone: 'success' });
    }
  };
  const disabled = refused || send.busy;
  const cycles = cyclesErrors(forms);

  return (
    <div className="simulate__grid">
      {refused && (
        <div className="notice notice--warning simulate__wide" role="alert">
          <strong>{t('simulate.refused')}</strong>
          <p>{sim.refusal}</p>
        </div>
      )}
      <div className="simulate__wide">
        <FormErrorBox error={send.error} />
      </div>
      <Card title="simulate.status">
        {!refused && (
          <p className="admin__hint">{t(sim.active ? 'simulate.running' : 'simulate.notStarted')}</p>
        )}
        <dl className="simulate__now" aria-live="polite">
          <Fact label="simulate.execution" value={sim.execution ? execText(sim.execution) : null} />
          <Fact label="simulate.program" value={sim.program} />
          <Fact label="simulate.partCount" value={sim.partCount === null ? null : String(sim.partCount)} />
          <Fact label="simulate.fault" value={sim.fault ? sim.fault.message : t('simulate.noFault')} />
          <Fact
            label="simulate.lastLine"
            value={sim.lastLineAt ? formatDateTime(sim.lastLineAt, zone) : null}
          />
        </dl>
        {sim.active && (
          <button type="button" className="button button--danger" onClick={() => setEnding(true)}>
            {t('simulate.end')}
          </button>
        )}
      </Card>
      <Card title="simulate.setExecution">
        <div className="simulate__buttons" role="group" aria-label={t('simulate.setExecution')}>
          {SIMULATED_EXECUTIONS.map((value) => (
            <button
              key={value}
              type="button"
              className={value === 'ACTIVE' ? 'button button--primary' : 'button'}
              aria-pressed={sim.execution === value}
              disabled={disabled}
              onClick={() => run({ type: 'execution', value })}
            >
              {execText(value)}
            </button>
          ))}
        </div>
      </Card>
      <Card title="simulate.parts" missing={missingItem(sim, 'partCount')}>
        <button
          type="button"
          className="button button--primary"
          disabled={disabled || !sim.keys.partCount}
          onClick={() => run({ type: 'parts', count: 1 })}
        >
          {t('simulate.addOne')}
        </button>
        <div className="simulate__inline">
          <TextField
            label={t('simulate.addCount')}
            hint={t('simulate.addCountHint')}
            range={[1, 1000]}
            error={shown('parts', partsError(forms))}
            value={forms.parts}
            onChange={(parts) => set({ parts })}
          />
          <button
            type="button"
            className="button"
            disabled={disabled || !sim.keys.partCount || partsError(forms) !== null}
            onClick={() => run({ type: 'parts', count: Number(forms.parts) })}
          >
            {t('simulate.addN', { count: partsError(forms) === null ? Number(forms.parts) : 'n' })}
          </button>
        </div>
      </Card>
      <Card title="simulate.program" missing={missingItem(sim, 'program')}>
        <div className="simulate__inline">
          <TextField
            label={t('simulate.programName')}
            error={shown('program', programError(forms))}
            value={forms.program}
            onChange={(program) => set({ program })}
          />
          <button
            type="button"
            className="button"
            disabled={disabled || !sim.keys.program || programError(forms) !== null}
            onClick={() => run({ type: 'program', name: forms.program.trim() })}
          >
            {t('simulate.sendProgram')}
          </button>
        </div>
      </Card>
      <Card title="simulate.fault" missing={missingItem(sim, 'condition')}>
        <TextField
          label={t('simulate.faultMessage')}
          error={shown('faultMessage', faultError(forms))}
          value={forms.faultMessage}
          onChange={(faultMessage) => set({ faultMessage })}
        />
        <TextField
          label={t('simulate.faultCode')}
          error={shown('faultCode', codeError(forms))}
          value={forms.faultCode}
          onChange={(faultCode) => set({ faultCode })}
        />
        <div className="simulate__buttons">
          <button
            type="button"
            className="button button--danger"
            disabled={
              disabled || !sim.keys.condition || faultError(forms) !== null || codeError(forms) !== null
            }
            onClick={() => run(faultAction(forms))}
          >
            {t('simulate.raiseFault')}
          </button>
          <button
            type="button"
            className="button"
            disabled={disabled || !sim.keys.condition || sim.fault === null}
            onClick={() => run({ type: 'clearFault' })}
          >
            {t('simulate.clearFault')}
          </button>
        </div>
      </Card>
      <Card title="simulate.cycles">
        <p className="admin__hint">{t('simulate.cyclesHint')}</p>
        {sim.cycles && (
          <p role="status">
            {t('simulate.cyclesRunning', {
              seconds: sim.cycles.everySeconds,
              time: formatTimeOfDay(sim.cycles.until, zone),
            })}
          </p>
        )}
        <div className="admin__pair">
          <TextField
            label={t('simulate.everySeconds')}
            hint={t('simulate.everySecondsHint')}
            range={[5, 600]}
            error={shown('everySeconds', cycles.everySeconds)}
            value={forms.everySeconds}
            onChange={(everySeconds) => set({ everySeconds })}
          />
          <TextField
            label={t('simulate.minutes')}
            hint={t('simulate.minutesHint')}
            range={[1, 60]}
            error={shown('minutes', cycles.minutes)}
            value={forms.minutes}
            onChange={(minutes) => set({ minutes })}
          />
        </div>
        <div className="simulate__buttons">
          <button
            type="button"
            className="button button--primary"
            disabled={disabled || cycles.everySeconds !== null || cycles.minutes !== null}
            onClick={() =>
              run({
                type: 'cycles',
                everySeconds: Number(forms.everySeconds),
                minutes: Number(forms.minutes),
              })
            }
          >
            {t('simulate.startCycles')}
          </button>
          <button
            type="button"
            className="button"
            disabled={disabled || sim.cycles === null}
            onClick={() => run({ type: 'stopCycles' })}
          >
            {t('simulate.stopCycles')}
          </button>
        </div>
      </Card>
      {ending && (
        <ConfirmDialog
          title={t('simulate.end')}
          confirmLabel={t('simulate.end')}
          onConfirm={() => void finish()}
          onClose={() => setEnding(false)}
          busy={end.busy}
          error={end.error}
        >
          <p className="admin__hint">{t('simulate.endBody')}</p>
        </ConfirmDialog>
      )}
    </div>
  );
}

const execText = (value: string) =>
  (SIMULATED_EXECUTIONS as readonly string[]).includes(value)
    ? t(`simulate.exec.${value as SimulatedExecution}`)
    : value;

function Card({
  title,
  missing,
  children,
}: {
  title: MessageKey;
  missing?: string | null;
  children: ReactNode;
}) {
  const id = useId();
  return (
    <section className="admin-card simulate__card" aria-labelledby={id}>
      <h2 id={id}>{t(title)}</h2>
      {missing && <p className="admin__hint">{missing}</p>}
      {children}
    </section>
  );
}

function Fact({ label, value }: { label: MessageKey; value: string | null }) {
  return (
    <div>
      <dt>{t(label)}</dt>
      <dd>{value ?? t('simulate.none')}</dd>
    </div>
  );
}
