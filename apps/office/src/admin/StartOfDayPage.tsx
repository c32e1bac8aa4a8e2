import { t, useToasts } from '@takt/ui';
import { useId, useState } from 'react';
import { api } from '../api';
import {
  AdminPage,
  ConfirmDialog,
  EffectiveDateField,
  FormErrorBox,
  LoadedView,
  TimeField,
  useLoaded,
  useSubmit,
} from './AdminParts';
import { dayBody, dayErrors, offsetToTime, startsDayBefore } from './day';
import type { DayForm, TimeContextAnswer } from './day';
import { effectiveBounds } from './shifts';

// Start of day (reports-admin §2 "Start-of-day (time context) change"; GET, PUT and DELETE /api/timecontext,
// decision 0703): the start in force, a pending change, scheduling one from tomorrow and deleting it.

interface Loaded {
  context: TimeContextAnswer;
  /** The company's tomorrow as the API counts it (the new-shift defaults carry it). */
  tomorrow: string;
}

const load = async (signal: AbortSignal): Promise<Loaded> => {
  const [context, defaults] = await Promise.all([
    api.request<TimeContextAnswer>('/api/timecontext', { signal }),
    api.request<{ effectivedate: string }>('/api/shifts/defaults', { signal }),
  ]);
  return { context, tomorrow: defaults.effectivedate };
};

const startText = (offsetMs: number) =>
  t(startsDayBefore(offsetMs) ? 'admin.day.currentBefore' : 'admin.day.current', {
    time: offsetToTime(offsetMs),
  });

export function StartOfDayPage() {
  const [state, reload] = useLoaded(load);
  return (
    <AdminPage title="admin.day.title" intro="admin.day.blurb" busy={state.kind === 'loading'}>
      <LoadedView state={state} retry={reload}>
        {(data) => <DayEditor key={JSON.stringify(data.context)} data={data} onSaved={reload} />}
      </LoadedView>
    </AdminPage>
  );
}

function DayEditor({ data, onSaved }: { data: Loaded; onSaved: () => void }) {
  const { context, tomorrow } = data;
  const pending = context.futureTimeContext;
  const [form, setForm] = useState<DayForm>({
    start: offsetToTime(pending?.offset_millis ?? context.currentTimeContext.offset_millis),
    effectivedate: pending?.effectivedate ?? tomorrow,
  });
  const [confirmDelete, setConfirmDelete] = useState(false);
  const save = useSubmit(t('admin.day.failed'));
  const remove = useSubmit(t('admin.day.failed'));
  const toasts = useToasts();
  const headingId = useId();
  const errors = dayErrors(form, tomorrow);
  const bounds = effectiveBounds(tomorrow);

  const submit = async () => {
    if (await save.run(() => api.request('/api/timecontext', { method: 'PUT', body: dayBody(form) }))) {
      toasts.show({ message: t('admin.day.saved'), tone: 'success' });
      onSaved();
    }
  };

  return (
    <>
      <section className="admin-card" aria-label={t('admin.day.title')}>
        <p>
          <strong>{startText(context.currentTimeContext.offset_millis)}</strong>
        </p>
        {pending ? (
          <div className="admin__row">
            <p>
              {t(startsDayBefore(pending.offset_millis) ? 'admin.day.pendingBefore' : 'admin.day.pending', {
                date: pending.effectivedate,
                time: offsetToTime(pending.offset_millis),
              })}
            </p>
            <button
              type="button"
              className="button button--danger"
              onClick={() => {
                remove.clear();
                setConfirmDelete(true);
              }}
            >
              {t('admin.day.deletePending')}
            </button>
          </div>
        ) : (
          <p className="admin__hint">{t('admin.day.none')}</p>
        )}
      </section>
      <section className="admin-card" aria-labelledby={headingId}>
        <h2 id={headingId}>{t('admin.day.change')}</h2>
        <form
          className="admin__form"
          noValidate
          onSubmit={(e) => {
            e.preventDefault();
            if (Object.keys(errors).length === 0 && !save.busy) void submit();
          }}
        >
          <FormErrorBox error={save.error} />
          <div className="admin__pair">
            <TimeField
              label={t('admin.day.start')}
              hint={t('admin.day.startHint')}
              error={errors.start}
              value={form.start}
              onChange={(start) => setForm({ ...form, start })}
            />
            <EffectiveDateField
              error={errors.effectivedate}
              bounds={bounds}
              value={form.effectivedate}
              onChange={(effectivedate) => setForm({ ...form, effectivedate })}
            />
          </div>
          <div>
            <button
              type="submit"
              className="button button--primary"
              disabled={Object.keys(errors).length > 0 || save.busy}
            >
              {save.busy ? t('admin.saving') : t('admin.day.schedule')}
            </button>
          </div>
        </form>
      </section>
      {confirmDelete && (
        <ConfirmDialog
          title={t('admin.day.deletePending')}
          confirmLabel={t('admin.day.deletePending')}
          busy={remove.busy}
          error={remove.error}
          onClose={() => setConfirmDelete(false)}
          onConfirm={() => {
            void remove
              .run(() => api.request('/api/timecontext', { method: 'DELETE' }))
              .then((ok) => {
                if (!ok) return;
                setConfirmDelete(false);
                toasts.show({ message: t('admin.day.deleted'), tone: 'success' });
                onSaved();
              });
          }}
        />
      )}
    </>
  );
}
