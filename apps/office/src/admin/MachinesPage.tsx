import type { AdminMachine } from '@takt/domain';
import { formatDateTime, localeZone, t, useSession, useToasts } from '@takt/ui';
import { useState } from 'react';
import { Link } from 'react-router';
import { api } from '../api';
import {
  AdminPage,
  ConfirmDialog,
  FormDialog,
  FormErrorBox,
  LoadedView,
  RowButton,
  saveState,
  useLoaded,
  useSubmit,
} from './AdminParts';
import {
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
import type { MachineForm } from './machines';
import { SortableRows } from './SortableRows';
import { MachineNotificationsPanel } from './MachineNotificationsPanel';
import { machinePath as path, MachineFields, TextField } from './MachineFields';
import type { Adapter } from './MachineFields';
import { simulatePath } from '../simulate/simulate';
import './admin-machines.css';
import './admin-tablets.css';

// Machines admin (reports-admin §2 "Machines admin: create and edit with panels …; reorder by drag; show or
// hide decommissioned; decommission", §4 "Machine: active to decommissioned (typed machine name required)",
// §8 "Workcenter order: 'Your workcenter order has been updated!'"). Calls /api/machines (decision 0861).

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
  const { me } = useSession();
  const zone = localeZone(me);

  const open = (machine: AdminMachine | null) => {
    save.clear();
    setEditing({
      machine,
      form: machine ? machineFormOf(machine, zone.timeZone) : newMachineForm(),
      touched: false,
    });
  };

  const submit = async () => {
    if (!editing) return;
    // reports-admin §6 "root sees extra machine options": only a root user's form sends them (decision 1112).
    const body = machineBody(editing.form, me.isRoot ? { timezone: zone.timeZone } : undefined);
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
            root={
              me.isRoot
                ? {
                    zone,
                    firstDataAt:
                      editing.machine?.integratedAtSet === false
                        ? (editing.machine.integratedAt ?? null)
                        : null,
                  }
                : null
            }
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
              {m.workcenterType !== 'manual' && (
                <Link
                  className="button"
                  to={simulatePath(m.id)}
                  aria-label={t('simulate.linkNamed', { name: m.name })}
                >
                  {t('simulate.link')}
                </Link>
              )}
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
