import { t, useToasts } from '@takt/ui';
import { useState } from 'react';
import { api } from '../api';
import {
  AdminPage,
  AdminTable,
  ConfirmDialog,
  DateField,
  EffectiveDateField,
  FormDialog,
  LoadedView,
  NameField,
  RowButton,
  TimeField,
  useLoaded,
  useSubmit,
} from './AdminParts';
import {
  createShiftBody,
  daysText,
  effectiveBounds,
  newShiftForm,
  overlapWarning,
  pendingVersion,
  shiftErrors,
  shiftFormOf,
  shiftStatus,
  shownVersion,
  timesChanged,
  timesText,
  updateShiftBody,
  WEEKDAY_LABEL,
  WEEKDAYS,
  dateInBounds,
} from './shifts';
import type { ShiftView } from '@takt/domain';
import type { ShiftDefaults, ShiftForm, ShiftStatus } from './shifts';

// Shifts (reports-admin §2 "create, edit, terminate, undo termination, delete pending change, show
// terminated, show latest or future contexts", §4, §5, §9); calls GET/POST/PUT /api/shifts,
// PUT /api/shifts/{id}/terminate and /restore, DELETE /api/shifts/{id}/pending (reports-admin §7).

interface Loaded {
  shifts: ShiftView[];
  /** The new-shift defaults; their effective date is the company's tomorrow as the API counts it. */
  defaults: ShiftDefaults;
}

const load = async (signal: AbortSignal): Promise<Loaded> => {
  const [shifts, defaults] = await Promise.all([
    api.request<ShiftView[]>('/api/shifts', { query: { includeTerminated: true }, signal }),
    api.request<ShiftDefaults>('/api/shifts/defaults', { signal }),
  ]);
  return { shifts, defaults };
};

const path = (id: string, action = '') => `/api/shifts/${encodeURIComponent(id)}${action}`;

const STATUS_TEXT: Record<ShiftStatus['kind'], Parameters<typeof t>[0]> = {
  running: 'admin.shifts.status.running',
  changing: 'admin.shifts.status.changing',
  notStarted: 'admin.shifts.status.notStarted',
  ending: 'admin.shifts.status.ending',
  terminated: 'admin.shifts.status.terminated',
};

type Dialog =
  | { kind: 'edit'; shift: ShiftView | null; form: ShiftForm }
  | { kind: 'terminate'; shift: ShiftView; date: string }
  | { kind: 'deletePending'; shift: ShiftView };

export function ShiftsPage() {
  const [state, reload] = useLoaded(load);
  const [showTerminated, setShowTerminated] = useState(false);
  const [context, setContext] = useState<'current' | 'latest'>('current');
  const [dialog, setDialog] = useState<Dialog | null>(null);
  const submit = useSubmit(t('admin.shifts.failed'));
  const row = useSubmit(t('admin.shifts.failed'));
  const toasts = useToasts();

  const done = (message: string) => {
    toasts.show({ message, tone: 'success' });
    setDialog(null);
    reload();
  };

  const openEdit = (shift: ShiftView | null, defaults: ShiftDefaults) => {
    submit.clear();
    setDialog({
      kind: 'edit',
      shift,
      form: shift ? shiftFormOf(shift, defaults.effectivedate) : newShiftForm(defaults),
    });
  };

  const undo = async (s: ShiftView) => {
    if (await row.run(() => api.request(path(s.id, '/restore'), { method: 'PUT' })))
      done(t('admin.shifts.undone', { name: s.name }));
  };

  return (
    <AdminPage
      title="admin.shifts.title"
      intro="admin.shifts.blurb"
      busy={state.kind === 'loading'}
      actions={
        state.kind === 'ready' && (
          <button
            type="button"
            className="button button--primary"
            onClick={() => openEdit(null, state.data.defaults)}
          >
            {t('admin.shifts.add')}
          </button>
        )
      }
    >
      <div className="admin__toolbar">
        <label className="admin__check">
          <input
            type="checkbox"
            checked={showTerminated}
            onChange={(e) => setShowTerminated(e.target.checked)}
          />
          {t('admin.shifts.showTerminated')}
        </label>
        <fieldset className="admin__segmented">
          <legend>{t('admin.shifts.context')}</legend>
          {(['current', 'latest'] as const).map((c) => (
            <label key={c} className="admin__check">
              <input
                type="radio"
                name="shift-context"
                checked={context === c}
                onChange={() => setContext(c)}
              />
              {t(c === 'current' ? 'admin.shifts.context.current' : 'admin.shifts.context.latest')}
            </label>
          ))}
        </fieldset>
      </div>
      {!dialog && row.error && (
        <div className="notice notice--error admin__error" role="alert">
          <strong>{row.error.heading}</strong> {row.error.lines.join(' ')}
        </div>
      )}
      <LoadedView state={state} retry={reload}>
        {({ shifts, defaults }) => {
          const shown = shifts.filter((s) => showTerminated || !s.terminated);
          if (shown.length === 0)
            return (
              <p className="notice" role="status">
                {t('admin.shifts.empty')}
              </p>
            );
          return (
            <AdminTable
              caption={t('admin.shifts.caption')}
              headers={[
                t('admin.field.name'),
                t('admin.shifts.times'),
                t('admin.shifts.days'),
                t('admin.shifts.effectiveFrom'),
              ]}
            >
              {shown.map((s) => {
                const v = shownVersion(s, context);
                const status = shiftStatus(s);
                const ending = status.kind === 'ending' || status.kind === 'terminated';
                const pending = pendingVersion(s);
                return (
                  <tr key={s.id} className={s.terminated ? 'admin-table__archived' : undefined}>
                    <th scope="row" data-label={t('admin.field.name')}>
                      {s.name}
                    </th>
                    <td data-label={t('admin.shifts.times')} className="admin__mono">
                      {v ? timesText(v) : t('common.none')}
                    </td>
                    <td data-label={t('admin.shifts.days')}>
                      {v ? daysText(v.byweekday) : t('common.none')}
                    </td>
                    <td data-label={t('admin.shifts.effectiveFrom')}>
                      {v?.effectivedate ?? t('common.none')}
                    </td>
                    <td data-label={t('admin.status')}>
                      {status.kind === 'running'
                        ? t(STATUS_TEXT.running)
                        : t(STATUS_TEXT[status.kind], { date: status.date })}
                    </td>
                    <td className="admin-table__actions">
                      {!ending && (
                        <RowButton
                          text={t('admin.edit')}
                          label={t('admin.editNamed', { name: s.name })}
                          onClick={() => openEdit(s, defaults)}
                        />
                      )}
                      {pending && !ending && (
                        <RowButton
                          text={t('admin.shifts.deletePending')}
                          label={t('admin.shifts.deletePendingNamed', { name: s.name })}
                          onClick={() => {
                            row.clear();
                            setDialog({ kind: 'deletePending', shift: s });
                          }}
                        />
                      )}
                      {ending ? (
                        <RowButton
                          text={t('admin.shifts.undo')}
                          label={t('admin.shifts.undoNamed', { name: s.name })}
                          disabled={row.busy}
                          onClick={() => void undo(s)}
                        />
                      ) : (
                        <RowButton
                          danger
                          text={t('admin.shifts.terminate')}
                          label={t('admin.shifts.terminateNamed', { name: s.name })}
                          onClick={() => {
                            row.clear();
                            setDialog({ kind: 'terminate', shift: s, date: defaults.effectivedate });
                          }}
                        />
                      )}
                    </td>
                  </tr>
                );
              })}
            </AdminTable>
          );
        }}
      </LoadedView>
      {dialog?.kind === 'edit' && state.kind === 'ready' && (
        <ShiftDialog
          shift={dialog.shift}
          form={dialog.form}
          overlap={overlapWarning(dialog.form, dialog.shift, state.data.shifts)}
          tomorrow={state.data.defaults.effectivedate}
          onChange={(form) => setDialog({ ...dialog, form })}
          onClose={() => setDialog(null)}
          busy={submit.busy}
          error={submit.error}
          onSubmit={async () => {
            const { shift, form } = dialog;
            // The form showed the overlap before Save: saving keeps it (decision 1050).
            const keep = overlapWarning(form, shift, state.data.shifts) ? { allowOverlap: true } : {};
            const ok = await submit.run(() =>
              shift
                ? api.request(path(shift.id), {
                    method: 'PUT',
                    body: { ...updateShiftBody(form, shift.latest ?? shift.current), ...keep },
                  })
                : api.request('/api/shifts', { method: 'POST', body: { ...createShiftBody(form), ...keep } }),
            );
            if (ok) done(t('admin.savedDone', { name: form.name.trim() }));
          }}
        />
      )}
      {dialog?.kind === 'terminate' && state.kind === 'ready' && (
        <TerminateDialog
          shift={dialog.shift}
          date={dialog.date}
          tomorrow={state.data.defaults.effectivedate}
          onChange={(date) => setDialog({ ...dialog, date })}
          onClose={() => setDialog(null)}
          busy={row.busy}
          error={row.error}
          onConfirm={async () => {
            const { shift, date } = dialog;
            const ok = await row.run(() =>
              api.request(path(shift.id, '/terminate'), { method: 'PUT', body: { terminationdate: date } }),
            );
            if (ok) done(t('admin.shifts.terminated', { name: shift.name }));
          }}
        />
      )}
      {dialog?.kind === 'deletePending' && (
        <ConfirmDialog
          title={t('admin.shifts.deletePendingNamed', { name: dialog.shift.name })}
          confirmLabel={t('admin.shifts.deletePending')}
          busy={row.busy}
          error={row.error}
          onClose={() => setDialog(null)}
          onConfirm={() => {
            const { shift } = dialog;
            void row
              .run(() => api.request(path(shift.id, '/pending'), { method: 'DELETE' }))
              .then((ok) => ok && done(t('admin.shifts.pendingDeleted', { name: shift.name })));
          }}
        />
      )}
    </AdminPage>
  );
}

function ShiftDialog({
  shift,
  form,
  overlap,
  tomorrow,
  onChange,
  onClose,
  onSubmit,
  busy,
  error,
}: {
  shift: ShiftView | null;
  form: ShiftForm;
  /** The overlap with another shift, shown before saving (decision 1050). */
  overlap: string | null;
  tomorrow: string;
  onChange: (f: ShiftForm) => void;
  onClose: () => void;
  onSubmit: () => void;
  busy: boolean;
  error: ReturnType<typeof useSubmit>['error'];
}) {
  const bounds = effectiveBounds(tomorrow);
  // reports-admin §5: the effective date is needed for a new shift and when times or days change.
  const needsDate = !shift || timesChanged(form, shift.latest ?? shift.current);
  const [touched, setTouched] = useState(false);
  const allErrors = shiftErrors(form, needsDate, bounds);
  // A fresh form is incomplete, not wrong: its errors show once it was changed (Save stays disabled).
  const errors = touched ? allErrors : {};
  const set = (p: Partial<ShiftForm>) => {
    setTouched(true);
    onChange({ ...form, ...p });
  };
  const toggleDay = (d: number) =>
    set({ days: form.days.includes(d) ? form.days.filter((x) => x !== d) : [...form.days, d] });
  return (
    <FormDialog
      title={t(shift ? 'admin.shifts.editTitle' : 'admin.shifts.new')}
      onClose={onClose}
      onSubmit={onSubmit}
      invalid={Object.keys(allErrors).length > 0}
      busy={busy}
      error={error}
    >
      <NameField value={form.name} onChange={(name) => set({ name })} error={errors.name} />
      <div className="admin__pair">
        <TimeField
          label={t('admin.shifts.start')}
          error={errors.start}
          value={form.start}
          onChange={(start) => set({ start })}
        />
        <TimeField
          label={t('admin.shifts.end')}
          hint={t('admin.shifts.endHint')}
          error={errors.end}
          value={form.end}
          onChange={(end) => set({ end })}
        />
      </div>
      <fieldset className="admin__choices admin__days" aria-invalid={Boolean(errors.days)}>
        <legend>{t('admin.shifts.days')}</legend>
        {WEEKDAYS.map((d) => (
          <label key={d} className="admin__check">
            <input type="checkbox" checked={form.days.includes(d)} onChange={() => toggleDay(d)} />
            {t(WEEKDAY_LABEL[d]!)}
          </label>
        ))}
        {errors.days && <p className="field__error">{errors.days}</p>}
      </fieldset>
      {needsDate ? (
        <EffectiveDateField
          error={errors.effectivedate}
          bounds={bounds}
          value={form.effectivedate}
          onChange={(effectivedate) => set({ effectivedate })}
        />
      ) : (
        <p className="admin__hint">{t('admin.shifts.renameOnly')}</p>
      )}
      {overlap && (
        <p className="notice notice--warning" role="status">
          {overlap} {t('admin.shifts.overlapKeep')}
        </p>
      )}
    </FormDialog>
  );
}

function TerminateDialog({
  shift,
  date,
  tomorrow,
  onChange,
  onClose,
  onConfirm,
  busy,
  error,
}: {
  shift: ShiftView;
  date: string;
  tomorrow: string;
  onChange: (d: string) => void;
  onClose: () => void;
  onConfirm: () => void;
  busy: boolean;
  error: ReturnType<typeof useSubmit>['error'];
}) {
  const bounds = effectiveBounds(tomorrow);
  const wrong = dateInBounds(date, bounds) ? undefined : t('admin.shifts.terminationRange');
  return (
    <ConfirmDialog
      title={t('admin.shifts.terminateTitle', { name: shift.name })}
      confirmLabel={t('admin.shifts.terminate')}
      disabled={Boolean(wrong)}
      onConfirm={onConfirm}
      onClose={onClose}
      busy={busy}
      error={error}
    >
      <DateField
        label={t('admin.shifts.terminationDate')}
        hint={t('admin.shifts.terminationHint', bounds)}
        error={wrong}
        bounds={bounds}
        value={date}
        onChange={onChange}
      />
    </ConfirmDialog>
  );
}
