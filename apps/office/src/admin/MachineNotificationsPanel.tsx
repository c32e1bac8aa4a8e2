import { MACHINE_NOTIFICATION_TYPES, MAX_NOTIFICATION_DELAY_MINUTES } from '@takt/domain';
import type { MachineNotificationsResponse, MachineNotificationType } from '@takt/domain';
import { t } from '@takt/ui';
import { useState } from 'react';
import type { KeyboardEvent } from 'react';
import { api } from '../api';
import { Field, FormErrorBox, LoadedView, RowButton, useLoaded, useSubmit } from './AdminParts';
import {
  accountText,
  listWith,
  newNotificationForm,
  notificationErrors,
  notificationFormOf,
  othersThan,
  summaryText,
  typeText,
} from './machine-notifications';
import type { LevelChoice, NotificationEditing, NotificationForm } from './machine-notifications';
import './machine-notifications.css';

// The machines admin Notifications panel (reports-admin §2 "panels … Notifications", §3 "Machine notification:
// accountId, type (downtime or utilization), level (2 Failure, otherwise Warning), delayMinutes (default 10)",
// §5 "Only one adapter field or notification edited at a time"; decision 0900). It loads and saves through
// GET and PUT /api/machines/{id}/notifications on its own: each notification is saved when its editor is
// saved, apart from the machine form's Save. It sits inside the machine form, so it has no <form> of its own
// and Enter in its fields must not submit the machine.

const path = (id: string) => `/api/machines/${encodeURIComponent(id)}/notifications`;

const LEVELS: readonly LevelChoice[] = ['warning', 'failure'];

/** Enter in the panel's fields saves nothing of the surrounding machine form. */
const keepEnter = (e: KeyboardEvent) => {
  if (e.key === 'Enter') e.preventDefault();
};

/** The panel for a saved machine; a new machine has no id yet, so it says to save first. */
export function MachineNotificationsPanel({ machineId }: { machineId: string | null }) {
  return (
    <fieldset className="admin-panel machine-notifications">
      <legend>{t('email.machine.panel')}</legend>
      <p className="admin__hint">{t('email.machine.intro')}</p>
      {machineId === null ? (
        <p className="admin__hint">{t('email.machine.newFirst')}</p>
      ) : (
        <NotificationsOf machineId={machineId} />
      )}
    </fieldset>
  );
}

function NotificationsOf({ machineId }: { machineId: string }) {
  const [state, reload] = useLoaded((signal) =>
    api.request<MachineNotificationsResponse>(path(machineId), { signal }),
  );
  // The last answer of a save replaces what was loaded, so the list shows what the server keeps.
  const [saved, setSaved] = useState<MachineNotificationsResponse | null>(null);
  const [editing, setEditing] = useState<NotificationEditing | null>(null);
  const [done, setDone] = useState(false);
  // UI.md: destructive actions confirm; the row asks "Are you sure?" in place (the panel is inside a dialog).
  const [removing, setRemoving] = useState<number | null>(null);
  const save = useSubmit(t('email.machine.saveFailed'));

  return (
    <LoadedView state={state} retry={reload}>
      {(loaded) => {
        const data = saved ?? loaded;
        const { notifications, accounts } = data;
        const put = async (list: ReturnType<typeof listWith>) => {
          setDone(false);
          let answer: MachineNotificationsResponse | null = null;
          const ok = await save.run(async () => {
            answer = await api.request<MachineNotificationsResponse>(path(machineId), {
              method: 'PUT',
              body: { notifications: list },
            });
          });
          setRemoving(null);
          if (ok && answer) {
            setSaved(answer);
            setEditing(null);
            setDone(true);
          }
        };
        const others = editing ? othersThan(notifications, editing.index) : notifications;
        const errors = editing ? notificationErrors(editing.form, others) : {};
        return (
          <>
            <FormErrorBox error={save.error} />
            {notifications.length === 0 ? (
              <p className="admin__hint">{t('email.machine.empty')}</p>
            ) : (
              <ul className="machine-notifications__list" aria-label={t('email.machine.list')}>
                {notifications.map((n, i) => {
                  const who = accountText(accounts, n.accountId);
                  const named = { type: typeText(n.type).toLowerCase(), name: who };
                  return (
                    <li key={n.id} className="machine-notifications__row">
                      <div className="machine-notifications__what">
                        <strong>{who}</strong>
                        <span className="admin__hint">{summaryText(n)}</span>
                      </div>
                      <div className="machine-notifications__actions">
                        {removing === i ? (
                          <>
                            <span className="machine-notifications__confirm">{t('admin.confirm')}</span>
                            <RowButton
                              text={t('email.machine.remove')}
                              label={t('email.machine.removeNamed', named)}
                              danger
                              disabled={save.busy}
                              onClick={() => void put(listWith(notifications, { remove: i }))}
                            />
                            <RowButton
                              text={t('email.machine.cancel')}
                              label={t('email.machine.cancel')}
                              disabled={save.busy}
                              onClick={() => setRemoving(null)}
                            />
                          </>
                        ) : (
                          <>
                            <RowButton
                              text={t('email.machine.edit')}
                              label={t('email.machine.editNamed', named)}
                              disabled={editing !== null || removing !== null || save.busy}
                              onClick={() => {
                                save.clear();
                                setDone(false);
                                setEditing({ index: i, form: notificationFormOf(n) });
                              }}
                            />
                            <RowButton
                              text={t('email.machine.remove')}
                              label={t('email.machine.removeNamed', named)}
                              disabled={editing !== null || removing !== null || save.busy}
                              onClick={() => {
                                save.clear();
                                setDone(false);
                                setRemoving(i);
                              }}
                            />
                          </>
                        )}
                      </div>
                    </li>
                  );
                })}
              </ul>
            )}
            {editing ? (
              <NotificationEditor
                form={editing.form}
                accounts={accounts}
                errors={errors}
                busy={save.busy}
                set={(patch) => setEditing((e) => e && { ...e, form: { ...e.form, ...patch } })}
                onCancel={() => {
                  save.clear();
                  setEditing(null);
                }}
                onSave={() => void put(listWith(notifications, editing))}
              />
            ) : (
              <div className="machine-notifications__add">
                <button
                  type="button"
                  className="button"
                  disabled={save.busy || removing !== null}
                  onClick={() => {
                    save.clear();
                    setDone(false);
                    setEditing({ index: null, form: newNotificationForm() });
                  }}
                >
                  {t('email.machine.add')}
                </button>
                <span role="status" className="admin__hint">
                  {done ? t('email.machine.saved') : ''}
                </span>
              </div>
            )}
          </>
        );
      }}
    </LoadedView>
  );
}

function NotificationEditor({
  form,
  accounts,
  errors,
  busy,
  set,
  onCancel,
  onSave,
}: {
  form: NotificationForm;
  accounts: MachineNotificationsResponse['accounts'];
  errors: Partial<Record<'accountId' | 'delay', string>>;
  busy: boolean;
  set: (patch: Partial<NotificationForm>) => void;
  onCancel: () => void;
  onSave: () => void;
}) {
  const invalid = Object.keys(errors).length > 0;
  // A fresh editor says nothing until the account is chosen; the delay is checked as typed.
  const shown = { ...errors, ...(form.accountId === '' ? { accountId: undefined } : {}) };
  return (
    <div className="machine-notifications__editor" role="group" aria-label={t('email.machine.panel')}>
      <Field label={t('email.machine.account')} error={shown.accountId}>
        {(p) => (
          <select {...p} value={form.accountId} onChange={(e) => set({ accountId: e.target.value })}>
            <option value="">{t('email.machine.accountPick')}</option>
            {accounts.map((a) => (
              <option key={a.id} value={a.id}>
                {accountText(accounts, a.id)}
              </option>
            ))}
          </select>
        )}
      </Field>
      <div className="admin__pair">
        <Field label={t('email.machine.type')}>
          {(p) => (
            <select
              {...p}
              value={form.type}
              onChange={(e) => set({ type: e.target.value as MachineNotificationType })}
            >
              {MACHINE_NOTIFICATION_TYPES.map((v) => (
                <option key={v} value={v}>
                  {typeText(v)}
                </option>
              ))}
            </select>
          )}
        </Field>
        <Field label={t('email.machine.level')} hint={t(`email.machine.levelHint.${form.type}`)}>
          {(p) => (
            <select {...p} value={form.level} onChange={(e) => set({ level: e.target.value as LevelChoice })}>
              {LEVELS.map((v) => (
                <option key={v} value={v}>
                  {t(`email.machine.level.${v}`)}
                </option>
              ))}
            </select>
          )}
        </Field>
        <Field label={t('email.machine.delay')} hint={t('email.machine.delayHint')} error={shown.delay}>
          {(p) => (
            <input
              {...p}
              type="number"
              inputMode="numeric"
              min={0}
              max={MAX_NOTIFICATION_DELAY_MINUTES}
              value={form.delay}
              onKeyDown={keepEnter}
              onChange={(e) => set({ delay: e.target.value })}
            />
          )}
        </Field>
      </div>
      <div className="machine-notifications__buttons">
        <button type="button" className="button" onClick={onCancel} disabled={busy}>
          {t('email.machine.cancel')}
        </button>
        <button type="button" className="button button--primary" onClick={onSave} disabled={invalid || busy}>
          {busy ? t('email.machine.saving') : t('email.machine.save')}
        </button>
      </div>
    </div>
  );
}
