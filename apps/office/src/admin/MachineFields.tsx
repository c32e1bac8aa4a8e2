import type { AdapterStatus } from '@takt/domain';
import { AUTOSTART_BEHAVIORS, WORKCENTER_TYPES } from '@takt/domain';
import { t } from '@takt/ui';
import { useEffect, useRef, useState } from 'react';
import type { ReactNode } from 'react';
import { api } from '../api';
import { Field, FormErrorBox, NameField, useSubmit } from './AdminParts';
import { ADAPTER_POLL_MS, adapterStatusText, workcenterTypeText } from './machines';
import type { AdapterStatusView, MachineForm, SourceKind } from './machines';
import { MachineRootPanel } from './MachineRootPanel';
import type { RootView } from './MachineRootPanel';

// The panels of the machine form (reports-admin §2), split from MachinesPage.tsx.

export interface Adapter {
  id: string;
  name: string;
}

export const machinePath = (id: string, action = '') => `/api/machines/${encodeURIComponent(id)}${action}`;
const path = machinePath;

const SOURCE_KINDS: readonly SourceKind[] = ['shdr', 'agent', 'mqtt', 'none'];

/** A titled panel of the machine form. */
function Panel({ title, children }: { title: string; children: ReactNode }) {
  return (
    <fieldset className="admin-panel">
      <legend>{title}</legend>
      {children}
    </fieldset>
  );
}

function Select<V extends string>({
  label,
  hint,
  value,
  options,
  onChange,
}: {
  label: string;
  hint?: string;
  value: V;
  options: ReadonlyArray<{ value: V; text: string }>;
  onChange: (v: V) => void;
}) {
  return (
    <Field label={label} hint={hint}>
      {(p) => (
        <select {...p} value={value} onChange={(e) => onChange(e.target.value as V)}>
          {options.map((o) => (
            <option key={o.value} value={o.value}>
              {o.text}
            </option>
          ))}
        </select>
      )}
    </Field>
  );
}

/**
 * The panels of the machine form (reports-admin §2): Workcenter, Hardware (with the adapter reset and status of
 * a saved machine), Sources, Software, Utilization and Downtime.
 */
export function MachineFields({
  machineId,
  form: f,
  adapters,
  errors,
  set,
  root = null,
}: {
  machineId: string | null;
  form: MachineForm;
  adapters: Adapter[] | null;
  errors: Partial<Record<string, string>>;
  set: (patch: Partial<MachineForm>) => void;
  /** A root user's view: the Takt staff panel (decision 1112); null for everyone else. */
  root?: RootView | null;
}) {
  const adapterOptions = [
    { value: '', text: t('admin.machines.adapterNone') },
    ...(adapters ?? []).map((a) => ({ value: a.id, text: a.name })),
  ];
  return (
    <>
      <Panel title={t('admin.machines.panel.workcenter')}>
        <NameField value={f.name} onChange={(name) => set({ name })} error={errors.name} />
        <div className="admin__pair">
          <Select
            label={t('admin.machines.workcenterType')}
            value={f.workcenterType}
            options={WORKCENTER_TYPES.map((v) => ({ value: v, text: workcenterTypeText(v) }))}
            onChange={(workcenterType) => set({ workcenterType })}
          />
          <Select
            label={t('admin.machines.autostart')}
            value={f.autostartBehavior}
            options={AUTOSTART_BEHAVIORS.map((v) => ({ value: v, text: t(`admin.machines.autostart.${v}`) }))}
            onChange={(autostartBehavior) => set({ autostartBehavior })}
          />
        </div>
      </Panel>
      <Panel title={t('admin.machines.panel.hardware')}>
        {adapters === null ? (
          <p className="admin__hint">{t('admin.machines.loadAdaptersFailed')}</p>
        ) : (
          <Select
            label={t('admin.machines.adapter')}
            hint={t('admin.machines.adapterHint')}
            value={f.adapterId}
            options={adapterOptions}
            onChange={(adapterId) => set({ adapterId })}
          />
        )}
        {adapters !== null && f.adapterId === '' && f.workcenterType !== 'manual' && (
          <p className="notice notice--warning">{t('admin.machines.adapterNoneWarning')}</p>
        )}
        {machineId !== null && (
          <AdapterReset
            machineId={machineId}
            onAdapter={(adapterId) => {
              if (adapterId !== f.adapterId) set({ adapterId });
            }}
          />
        )}
      </Panel>
      <Panel title={t('admin.machines.panel.sources')}>
        {f.gatewayBound ? (
          <p className="admin__hint">{t('admin.machines.gatewayBound')}</p>
        ) : (
          <>
            <Select
              label={t('admin.machines.sourceKind')}
              value={f.sourceKind}
              options={SOURCE_KINDS.map((v) => ({ value: v, text: t(`admin.machines.source.${v}`) }))}
              onChange={(sourceKind) => set({ sourceKind })}
            />
            {f.simulated && f.sourceKind === 'none' ? (
              <p className="admin__hint">{t('simulate.sourceKept')}</p>
            ) : (
              f.sourceKind === 'none' &&
              f.workcenterType !== 'manual' && (
                <p className="notice notice--warning">{t('admin.machines.sourceNoneWarning')}</p>
              )
            )}
            {f.sourceKind === 'shdr' && (
              <div className="admin-machine__address">
                <TextField
                  label={t('admin.machines.host')}
                  hint={t('admin.machines.hostHint')}
                  error={errors.host}
                  value={f.host}
                  onChange={(host) => set({ host })}
                />
                <TextField
                  label={t('admin.machines.port')}
                  error={errors.port}
                  range={[1, 65535]}
                  value={f.port}
                  onChange={(port) => set({ port })}
                />
              </div>
            )}
            {f.sourceKind === 'agent' && (
              <>
                <TextField
                  label={t('admin.machines.agentUrl')}
                  hint={t('admin.machines.agentUrlHint')}
                  error={errors.baseUrl}
                  type="url"
                  value={f.baseUrl}
                  onChange={(baseUrl) => set({ baseUrl })}
                />
                <TextField
                  label={t('admin.machines.agentDevice')}
                  hint={t('admin.machines.agentDeviceHint')}
                  value={f.agentDevice}
                  onChange={(agentDevice) => set({ agentDevice })}
                />
              </>
            )}
            {f.sourceKind === 'mqtt' && (
              <TextField
                label={t('admin.machines.machineRef')}
                hint={t('admin.machines.machineRefHint')}
                error={errors.machineRef}
                value={f.machineRef}
                onChange={(machineRef) => set({ machineRef })}
              />
            )}
          </>
        )}
      </Panel>
      <Panel title={t('admin.machines.panel.software')}>
        <TextField
          label={t('admin.machines.dispatchKey')}
          hint={t('admin.machines.dispatchKeyHint')}
          error={errors.dispatchKey}
          value={f.dispatchKey}
          onChange={(dispatchKey) => set({ dispatchKey })}
        />
        <Select
          label={t('admin.machines.benchmarking')}
          value={f.excludeFromBenchmarking}
          options={[
            { value: '', text: t('admin.machines.benchmarking.undecided') },
            { value: '0', text: t('admin.machines.benchmarking.in') },
            { value: '1', text: t('admin.machines.benchmarking.out') },
          ]}
          onChange={(excludeFromBenchmarking) => set({ excludeFromBenchmarking })}
        />
      </Panel>
      {root && <MachineRootPanel form={f} root={root} errors={errors} set={set} />}
      <Panel title={t('admin.machines.panel.utilization')}>
        <p className="admin__hint">{t('admin.machines.utilHint')}</p>
        <div className="admin__pair">
          <TextField
            label={t('admin.machines.utilWarning')}
            error={errors.utilizationWarningPercent}
            range={[0, 100]}
            value={f.utilizationWarningPercent}
            onChange={(utilizationWarningPercent) => set({ utilizationWarningPercent })}
          />
          <TextField
            label={t('admin.machines.utilFailure')}
            error={errors.utilizationFailurePercent}
            range={[0, 100]}
            value={f.utilizationFailurePercent}
            onChange={(utilizationFailurePercent) => set({ utilizationFailurePercent })}
          />
        </div>
      </Panel>
      <Panel title={t('admin.machines.panel.downtime')}>
        <TextField
          label={t('admin.machines.downtimeDelay')}
          hint={t('admin.machines.downtimeDelayHint')}
          error={errors.downtimeDelay}
          range={[0, 1440]}
          value={f.downtimeDelay}
          onChange={(downtimeDelay) => set({ downtimeDelay })}
        />
      </Panel>
    </>
  );
}

/** A labelled input: addresses and names as typed (no autocomplete or spelling marks), whole numbers in `range`. */
export function TextField({
  label,
  hint,
  error,
  type,
  range,
  value,
  onChange,
}: {
  label: string;
  hint?: string;
  error?: string | undefined;
  type?: 'url';
  range?: [number, number];
  value: string;
  onChange: (v: string) => void;
}) {
  const attrs = range
    ? { type: 'number', inputMode: 'numeric' as const, min: range[0], max: range[1] }
    : { type: type ?? 'text', autoComplete: 'off', spellCheck: false };
  return (
    <Field label={label} hint={hint} error={error}>
      {(p) => <input {...p} {...attrs} value={value} onChange={(e) => onChange(e.target.value)} />}
    </Field>
  );
}

/**
 * reports-admin §4 "Adapter reset sets adapter to none then polls mapping", §7 "Machine form polls adapter status
 * every 3 s", §8 "Machine adapter status shows the server problem message" (decision 0891). The status is polled
 * while the form is open; `onAdapter` hands the form the adapter after a reset (none) and once one is mapped, so
 * a save keeps what the server matched.
 */
function AdapterReset({
  machineId,
  onAdapter,
}: {
  machineId: string;
  onAdapter: (adapterId: string) => void;
}) {
  const [view, setView] = useState<AdapterStatusView>({ status: 'checking' });
  const [asking, setAsking] = useState(false);
  const reset = useSubmit(t('admin.machines.resetAdapterFailed'));
  /** Set by a reset: the next mapped status is handed to the form. */
  const resetting = useRef(false);
  const onAdapterRef = useRef(onAdapter);
  useEffect(() => {
    onAdapterRef.current = onAdapter;
  });

  const shown = (s: AdapterStatus) => {
    setView(s);
    if (resetting.current && s.status === 'mapped' && s.adapterId) {
      resetting.current = false;
      onAdapterRef.current(s.adapterId);
    }
  };

  useEffect(() => {
    const controller = new AbortController();
    let timer: ReturnType<typeof setTimeout> | undefined;
    const poll = async () => {
      try {
        shown(
          await api.request<AdapterStatus>(path(machineId, '/adapter-status'), { signal: controller.signal }),
        );
      } catch {
        // A failed poll keeps the last status; the next one tries again.
      }
      if (!controller.signal.aborted) timer = setTimeout(() => void poll(), ADAPTER_POLL_MS);
    };
    void poll();
    return () => {
      controller.abort();
      clearTimeout(timer);
    };
  }, [machineId]);

  const run = async () => {
    let answer: AdapterStatus | null = null;
    const ok = await reset.run(async () => {
      answer = await api.request<AdapterStatus>(path(machineId, '/adapter/reset'), { method: 'POST' });
    });
    setAsking(false);
    if (!ok || !answer) return;
    resetting.current = true;
    onAdapterRef.current('');
    shown(answer);
  };

  const { text, detail } = adapterStatusText(view);
  return (
    <div className="admin-adapter-status">
      <p className="admin-adapter-status__line" role="status" aria-live="polite">
        <span className="admin__hint">{t('admin.machines.adapterStatus')}: </span>
        <span className={`admin-adapter-status__text admin-adapter-status__text--${view.status}`}>
          {text}
        </span>
        {detail && <span className="admin-adapter-status__detail"> {detail}</span>}
      </p>
      <FormErrorBox error={reset.error} />
      {asking ? (
        <span className="admin-adapter-status__confirm">
          <span>{t('admin.machines.resetAdapterBody')}</span>
          <button
            type="button"
            className="button button--danger"
            disabled={reset.busy}
            onClick={() => void run()}
          >
            {t('admin.machines.resetAdapterConfirm')}
          </button>
          <button type="button" className="button" onClick={() => setAsking(false)}>
            {t('admin.cancel')}
          </button>
        </span>
      ) : (
        <button type="button" className="button" onClick={() => setAsking(true)}>
          {t('admin.machines.resetAdapter')}
        </button>
      )}
    </div>
  );
}
