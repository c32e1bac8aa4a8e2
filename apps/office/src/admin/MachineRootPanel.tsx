import { EARLIEST_BILLING_DATE, latestBillingDate } from '@takt/domain';
import { formatDateTime, t } from '@takt/ui';
import { Field } from './AdminParts';
import type { MachineForm } from './machines';

// reports-admin §6 "root sees extra machine options", §3 Machine "billingDate, integratedAt, …, version=2, ping
// monitor (null, 1, 0)", §5 "Machine billing date from 2014-06-01 to 1 year ahead" (decisions 1111, 1112). Shown
// to root users only; the API refuses these fields from anyone else.

export interface RootView {
  /** The company's locale and zone, for the integration time. */
  zone: { locale: string; timeZone: string };
  /** The machine's first data, shown when no integration time is set (null: none yet, or a new machine). */
  firstDataAt: number | null;
}

export function MachineRootPanel({
  form: f,
  root,
  errors,
  set,
}: {
  form: MachineForm;
  root: RootView;
  errors: Partial<Record<string, string>>;
  set: (patch: Partial<MachineForm>) => void;
}) {
  return (
    <fieldset className="admin-panel admin-panel--internal">
      <legend>{t('admin.machines.panel.internal')}</legend>
      <p className="admin__hint">{t('admin.machines.internalHint')}</p>
      <div className="admin__pair">
        <Field
          label={t('admin.machines.billingDate')}
          hint={t('admin.machines.billingDateHint')}
          error={errors.billingDate}
        >
          {(p) => (
            <input
              {...p}
              type="date"
              min={EARLIEST_BILLING_DATE}
              max={latestBillingDate(Date.now())}
              value={f.billingDate}
              onChange={(e) => set({ billingDate: e.target.value })}
            />
          )}
        </Field>
        <Field
          label={t('admin.machines.integratedAt')}
          hint={
            f.integratedAt !== ''
              ? undefined
              : root.firstDataAt === null
                ? t('admin.machines.integratedAtNoData')
                : t('admin.machines.integratedAtFirstData', {
                    time: formatDateTime(root.firstDataAt, root.zone),
                  })
          }
          error={errors.integratedAt}
        >
          {(p) => (
            <input
              {...p}
              type="datetime-local"
              min="2014-04-01T00:00"
              value={f.integratedAt}
              onChange={(e) => set({ integratedAt: e.target.value })}
            />
          )}
        </Field>
      </div>
      <div className="admin__pair">
        <Field label={t('admin.machines.pingMonitor')} hint={t('admin.machines.pingMonitorHint')}>
          {(p) => (
            <select
              {...p}
              value={f.pingMonitor}
              onChange={(e) => set({ pingMonitor: e.target.value as MachineForm['pingMonitor'] })}
            >
              <option value="">{t('admin.machines.pingMonitor.unset')}</option>
              <option value="1">{t('admin.machines.pingMonitor.on')}</option>
              <option value="0">{t('admin.machines.pingMonitor.off')}</option>
            </select>
          )}
        </Field>
        <Field label={t('admin.machines.version')}>{(p) => <input {...p} readOnly value="2" />}</Field>
      </div>
    </fieldset>
  );
}
