import type { AdapterStatus, AdminMachine } from '@takt/domain';
import { AUTOSTART_BEHAVIORS, WORKCENTER_TYPES } from '@takt/domain';
import { formatDateTime, localeZone, t, useSession, useToasts } from '@takt/ui';
import { useEffect, useRef, useState } from 'react';
import type { ReactNode } from 'react';
import { api } from '../api';
import {
  AdminPage,
  ConfirmDialog,
  Field,
  FormDialog,
  FormErrorBox,
  LoadedView,
  NameField,
  RowButton,
  saveState,
  useLoaded,
  useSubmit,
} from './AdminParts';
import {
  ADAPTER_POLL_MS,
  adapterStatusText,
  decommissionMatches,
  inOrder,
  machineBody,
  machineErrors,
  machineFormOf,
  newMachineForm,
  sourceSummary,
  splitMachines,
  workcenterTypeText,
} from './machines';
import type { AdapterStatusView, MachineForm, SourceKind } from './machines';
import { SortableRows } from './SortableRows';
import { MachineNotificationsPanel } from './MachineNotificationsPanel';
import './admin-machines.css';
import './admin-tablets.css';

// Machines admin (reports-admin §2 "Machines admin: create and edit with panels …; reorder by drag; show or
// hide decommissioned; decommission", §4 "Machine: active to decommissioned (typed machine name required)",
// §8 "Workcenter order: 'Your workcenter order has been updated!'"). Calls /api/machines (decision 0861).

interface Adapter {
  id: string;
  name: string;
}

interface Loaded {
  machines: AdminMachine[];
  /** null when the adapters could not be loaded (the form then keeps the machine's adapter). */
  adapters: Adapter[] | null;
}

const load = async (signal: AbortSignal): Promise<Loaded> => {
  const [machines, adapters] = await Promise.all([
    api.request<AdminMachine[]>('/api/machines', { signal }),
    api.request<Adapter[]>('/api/adapters', { signal }).catch(() => null),
  ]);
  return { machines, adapters };
};

const path = (id: string, action = '') => `/api/machines/${encodeURIComponent(id)}${action}`;

type Editing = { machine: AdminMachine | null; form: MachineForm; touched: boolean };
type Decommissioning = { machine: AdminMachine; typed: string };

export function MachinesPage() {
  const [state, reload] = useLoaded(load);
  const [showDecommissioned, setShowDecommissioned] = useState(false);
  const [editing, setEditing] = useState<Editing | null>(null);
  const [decommissioning, setDecommissioning] = useState<Decommissioning | null>(null);
  const save = useSubmit(t('admin.machines.failed'));
  const retire = useSubmit(t('admin.machines.decommissionFailed'));
  const toasts = useToasts();

  const open = (machine: AdminMachine | null) => {
    save.clear();
    setEditing({ machine, form: machine ? machineFormOf(machine) : newMachineForm(), touched: false });
  };

  const submit = async () => {
    if (!editing) return;
    const body = machineBody(editing.form);
    const ok = await save.run(() =>
      editing.machine
        ? api.request(path(editing.machine.id), { method: 'PUT', body })
        : api.request('/api/machines', { method: 'POST', body }),
    );
    if (!ok) return;
    setEditing(null);
    toasts.show({ message: t('admin.savedDone', { name: body.name }), tone: 'success' });
    reload();
  };

  const decommission = async () => {
    if (!decommissioning) return;
    const { machine, typed } = decommissioning;
    const ok = await retire.run(() =>
      api.request(path(machine.id, '/decommission'), { method: 'PUT', body: { name: typed.trim() } }),
    );
    if (!ok) return;
    setDecommissioning(null);
    toasts.show({ message: t('admin.machines.decommissionedDone', { name: machine.name }), tone: 'success' });
    reload();
  };

  const errors = editing ? machineErrors(editing.form) : {};

  return (
    <AdminPage
      title="admin.machines.title"
      intro="admin.machines.intro"
      busy={state.kind === 'loading'}
      actions={
        <>
          <label className="admin__check">
            <input
              type="checkbox"
              checked={showDecommissioned}
              onChange={(e) => setShowDecommissioned(e.target.checked)}
            />
            {t('admin.machines.showDecommissioned')}
          </label>
          <button type="button" className="button button--primary" onClick={() => open(null)}>
            {t('admin.machines.add')}
          </button>
        </>
      }
    >
      <LoadedView state={state} retry={reload}>
        {(data) => {
          const { inService, decommissioned } = splitMachines(data.machines);
          return (
            <>
              <MachineOrder
                machines={inService}
                onSaved={reload}
                onEdit={open}
                onDecommission={(machine) => {
                  retire.clear();
                  setDecommissioning({ machine, typed: '' });
                }}
              />
              {showDecommissioned && <DecommissionedList machines={decommissioned} />}
            </>
          );
        }}
      </LoadedView>
      {editing && (
        <FormDialog
          title={
            editing.machine
              ? t('admin.machines.editTitle', { name: editing.machine.name })
              : t('admin.machines.new')
          }
          onClose={() => setEditing(null)}
          onSubmit={() => void submit()}
          {...saveState(save, errors)}
        >
          <MachineFields
            machineId={editing.machine?.id ?? null}
            form={editing.form}
            adapters={state.kind === 'ready' ? state.data.adapters : null}
            errors={editing.touched ? errors : {}}
            set={(patch) => setEditing((e) => e && { ...e, form: { ...e.form, ...patch }, touched: true })}
          />
          <MachineNotificationsPanel machineId={editing.machine?.id ?? null} />
        </FormDialog>
      )}
      {decommissioning && (
        <ConfirmDialog
          title={t('admin.machines.decommissionNamed', { name: decommissioning.machine.name })}
          confirmLabel={t('admin.machines.decommission')}
          disabled={!decommissionMatches(decommissioning.typed, decommissioning.machine.name) || retire.busy}
          onConfirm={() => void decommission()}
          onClose={() => setDecommissioning(null)}
          busy={retire.busy}
          error={retire.error}
        >
          <p className="admin__hint">{t('admin.machines.decommissionBody')}</p>
          <TextField
            label={t('admin.machines.decommissionPrompt')}
            hint={t('admin.machines.decommissionHint', { name: decommissioning.machine.name })}
            error={
              decommissioning.typed !== '' &&
              !decommissionMatches(decommissioning.typed, decommissioning.machine.name)
                ? t('admin.machines.decommissionMismatch')
                : undefined
            }
            value={decommissioning.typed}
            onChange={(typed) => setDecommissioning((d) => d && { ...d, typed })}
          />
        </ConfirmDialog>
      )}
    </AdminPage>
  );
}

/** The machines in service in workcenter order, dragged (or moved by keyboard) into a new order that is saved at once. */
function MachineOrder({
  machines,
  onSaved,
  onEdit,
  onDecommission,
}: {
  machines: AdminMachine[];
  onSaved: () => void;
  onEdit: (m: AdminMachine) => void;
  onDecommission: (m: AdminMachine) => void;
}) {
  // The order just chosen, shown until the list reloads in it; the rows stay mounted so the moved handle keeps
  // its focus for the next arrow key.
  const [chosen, setChosen] = useState<string[] | null>(null);
  const rows = inOrder(machines, chosen).map((m) => ({ key: m.id, machine: m }));
  const order = useSubmit(t('admin.machines.orderFailed'));
  const toasts = useToasts();

  const move = async (next: typeof rows) => {
    const before = chosen;
    setChosen(next.map((r) => r.key));
    const ok = await order.run(() =>
      api.request('/api/machines/order', {
        method: 'PUT',
        body: { machineIds: next.map((r) => r.key) },
      }),
    );
    if (!ok) {
      setChosen(before);
      return;
    }
    toasts.show({ message: t('admin.machines.orderSaved'), tone: 'success' });
    onSaved();
  };

  if (rows.length === 0)
    return (
      <p className="notice" role="status">
        {t('admin.machines.empty')}
      </p>
    );
  return (
    <section className="admin-machines" aria-label={t('admin.machines.list')}>
      <FormErrorBox error={order.error} />
      <SortableRows
        rows={rows}
        onMove={(next) => void move(next)}
        label={(r) => r.machine.name}
        help={t('admin.machines.intro')}
        renderRow={({ machine: m }, i, { handle }) => (
          <div className="admin-machine">
            {handle}
            <span className="admin-stage__order" aria-hidden="true">
              {i + 1}
            </span>
            <div className="admin-machine__main">
              <strong className="admin-machine__name">{m.name}</strong>
              <span className="admin__hint">
                {workcenterTypeText(m.workcenterType)} ·{' '}
                {m.source ? <span className="admin__mono">{sourceSummary(m)}</span> : sourceSummary(m)}
              </span>
            </div>
            <div className="admin-machine__actions">
              <RowButton
                text={t('admin.edit')}
                label={t('admin.editNamed', { name: m.name })}
                onClick={() => onEdit(m)}
              />
              <RowButton
                text={t('admin.machines.decommission')}
                label={t('admin.machines.decommissionNamed', { name: m.name })}
                onClick={() => onDecommission(m)}
              />
            </div>
          </div>
        )}
      />
    </section>
  );
}

function DecommissionedList({ machines }: { machines: AdminMachine[] }) {
  const { me } = useSession();
  return (
    <section className="admin-machines__retired" aria-labelledby="admin-machines-retired">
      <h2 id="admin-machines-retired">{t('admin.machines.decommissionedTitle')}</h2>
      {machines.length === 0 ? (
        <p className="admin__hint">{t('admin.machines.decommissionedNone')}</p>
      ) : (
        <ul className="admin-stages__archived-list">
          {machines.map((m) => (
            <li key={m.id}>
              <strong>{m.name}</strong>
              <span className="admin__hint">
                {t('admin.machines.decommissionedOn', {
                  date: formatDateTime(m.decommissionedAt, localeZone(me)),
                })}
              </span>
            </li>
          ))}
        </ul>
      )}
    </section>
  );
}

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
function MachineFields({
  machineId,
  form: f,
  adapters,
  errors,
  set,
}: {
  machineId: string | null;
  form: MachineForm;
  adapters: Adapter[] | null;
  errors: Partial<Record<string, string>>;
  set: (patch: Partial<MachineForm>) => void;
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
        <div className="admin__pair">
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
          <Select
            label={t('admin.machines.pingMonitor')}
            hint={t('admin.machines.pingMonitorHint')}
            value={f.pingMonitor}
            options={[
              { value: '', text: t('admin.machines.pingMonitor.unset') },
              { value: '1', text: t('admin.machines.pingMonitor.on') },
              { value: '0', text: t('admin.machines.pingMonitor.off') },
            ]}
            onChange={(pingMonitor) => set({ pingMonitor })}
          />
        </div>
      </Panel>
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
function TextField({
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
