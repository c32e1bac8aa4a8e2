import type { AccountUser, Me, Role } from '@takt/domain';
import { t, useSession, useToasts } from '@takt/ui';
import type { MessageKey } from '@takt/ui';
import { useEffect, useId, useState } from 'react';
import type { ReactNode } from 'react';
import { NavLink } from 'react-router';
import { api, itemPath } from '../api';
import {
  AdminTable,
  ConfirmDialog,
  Field,
  FormDialog,
  LoadedView,
  RowButton,
  saveState,
  useLoaded,
  useSubmit,
} from '../admin/AdminParts';
import { isAdminUser } from '../admin/screens';
import { ACCOUNTS_PATHS } from './paths';
import { formatDay, ROLE_TEXT, roleOptions, sortUsers, userErrors, userFormOf } from './users';
import type { UserForm } from './users';
import '../admin/admin.css';
import './accounts.css';

// reports-admin §2 "Users: edit, delete, lock, unlock, reset password, revoke sessions"; admins only
// (reports-admin §1 "Admins configure … users"; decision 0880). Calls GET /api/users, PUT /api/users/:id,
// POST /api/users/:id/{lock,unlock,revoke,reset-password} and DELETE /api/users/:id.

const userPath = itemPath('/api/users');

/** Users | Invites, the two screens of the Users entry (Invites only with InviteUsers, reports-admin §6). */
export function UsersTabs({ me }: { me: Pick<Me, 'permissions'> }) {
  return (
    <nav className="accounts__tabs" aria-label={t('users.tabs')}>
      <NavLink end to={ACCOUNTS_PATHS.users}>
        {t('users.title')}
      </NavLink>
      {me.permissions.includes('InviteUsers') && (
        <NavLink end to={ACCOUNTS_PATHS.invites}>
          {t('invites.title')}
        </NavLink>
      )}
    </nav>
  );
}

/** A page of the Users entry: heading, tabs, and a "not permitted" notice for whoever may not open it. */
export function AccountsFrame({
  title,
  allowed,
  notPermitted,
  busy,
  actions,
  children,
}: {
  title: MessageKey;
  allowed: boolean;
  notPermitted: MessageKey;
  busy?: boolean;
  actions?: ReactNode;
  children: ReactNode;
}) {
  const { me } = useSession();
  const headingId = useId();
  useEffect(() => {
    document.title = `${t(title)} · ${t('app.officeName')}`;
  }, [title]);
  return (
    <main className="page admin accounts" aria-labelledby={headingId} aria-busy={busy ? 'true' : undefined}>
      <div className="page__head">
        <h1 id={headingId}>{t(title)}</h1>
        {allowed && actions && <div className="page__tools">{actions}</div>}
      </div>
      {allowed && isAdminUser(me) && <UsersTabs me={me} />}
      {allowed ? (
        children
      ) : (
        <p className="notice" role="status">
          {t(notPermitted)}
        </p>
      )}
    </main>
  );
}

type Confirming = { user: AccountUser; action: 'lock' | 'revoke' | 'reset' | 'delete' };

const CONFIRM: Record<Confirming['action'], { title: MessageKey; body: MessageKey; label: MessageKey }> = {
  lock: { title: 'users.lockTitle', body: 'users.lockBody', label: 'users.lock' },
  revoke: { title: 'users.revokeTitle', body: 'users.revokeBody', label: 'users.revoke' },
  reset: { title: 'users.resetTitle', body: 'users.resetBody', label: 'users.send' },
  delete: { title: 'users.deleteTitle', body: 'users.deleteBody', label: 'users.delete' },
};

export function UsersPage() {
  const { me } = useSession();
  const allowed = isAdminUser(me);
  return (
    <AccountsFrame title="users.title" allowed={allowed} notPermitted="users.notPermitted">
      {allowed && <UsersScreen />}
    </AccountsFrame>
  );
}

function UsersScreen() {
  const { me } = useSession();
  const zone = { locale: me.company.locale, timeZone: me.company.timezone };
  const [state, reload] = useLoaded(async (signal) =>
    sortUsers(await api.request<AccountUser[]>('/api/users', { signal })),
  );
  const [editing, setEditing] = useState<{ user: AccountUser; form: UserForm } | null>(null);
  const [confirming, setConfirming] = useState<Confirming | null>(null);
  const save = useSubmit(t('users.failed'));
  const act = useSubmit(t('users.failed'));
  const toasts = useToasts();

  const errors = editing ? userErrors(editing.form) : {};
  const set = (patch: Partial<UserForm>) => setEditing((e) => e && { ...e, form: { ...e.form, ...patch } });
  const done = (message: string) => {
    toasts.show({ message, tone: 'success' });
    reload();
  };

  const submit = async () => {
    if (!editing) return;
    const body = { displayName: editing.form.displayName.trim(), role: editing.form.role };
    const ok = await save.run(() => api.request(userPath(editing.user.id), { method: 'PUT', body }));
    if (!ok) return;
    setEditing(null);
    done(t('users.savedDone', { name: body.displayName }));
  };

  const unlock = async (user: AccountUser) => {
    const ok = await act.run(() => api.request(userPath(user.id, 'unlock'), { method: 'POST' }));
    if (ok) done(t('users.unlockedDone', { name: user.displayName }));
    else toasts.show({ message: t('users.failed'), tone: 'error' });
  };

  const confirm = async () => {
    if (!confirming) return;
    const { user, action } = confirming;
    let message = '';
    const ok = await act.run(async () => {
      if (action === 'lock') {
        await api.request(userPath(user.id, 'lock'), { method: 'POST' });
        message = t('users.lockedDone', { name: user.displayName });
      } else if (action === 'revoke') {
        const r = await api.request<{ revoked: number }>(userPath(user.id, 'revoke'), { method: 'POST' });
        message = t('users.revokedDone', { count: r.revoked });
      } else if (action === 'reset') {
        // reports-admin §8 E-mail texts come from the server: "Sent. You should get it …".
        message = (
          await api.request<{ message: string }>(userPath(user.id, 'reset-password'), { method: 'POST' })
        ).message;
      } else {
        await api.request(userPath(user.id), { method: 'DELETE' });
        message = t('users.deletedDone', { name: user.displayName });
      }
    });
    if (!ok) return;
    setConfirming(null);
    done(message);
  };

  const ask = (user: AccountUser, action: Confirming['action']) => {
    act.clear();
    setConfirming({ user, action });
  };

  return (
    <>
      <p className="admin__intro">{t('users.intro')}</p>
      <LoadedView state={state} retry={reload}>
        {(users) => (
          <AdminTable
            caption={t('users.caption')}
            status={false}
            headers={[
              t('users.nameAndEmail'),
              t('users.role'),
              t('users.status'),
              t('users.sessions'),
              t('users.created'),
            ]}
          >
            {users.map((u) => {
              const self = u.id === me.id;
              // Internal staff's accounts are left to internal staff (decision 0880).
              const mayChange = !u.isRoot || me.isRoot;
              const name = u.displayName;
              return (
                <tr key={u.id}>
                  <th scope="row" data-label={t('users.name')}>
                    {name} {self && <span className="admin__hint">{t('users.you')}</span>}
                    <span className="accounts__email accounts__sub">{u.email}</span>
                  </th>
                  <td data-label={t('users.role')} className="accounts__role">
                    {/* One grid cell on a phone's card, the internal mark with the role. */}
                    <span>
                      {t(ROLE_TEXT[u.role])}
                      {u.isRoot && <span className="admin__hint"> · {t('users.internal')}</span>}
                    </span>
                  </td>
                  <td data-label={t('users.status')}>
                    <span
                      className={u.locked ? 'accounts__state accounts__state--locked' : 'accounts__state'}
                    >
                      {u.locked ? t('users.locked') : t('users.active')}
                    </span>
                  </td>
                  <td data-label={t('users.sessions')} className="admin__num">
                    {u.sessions}
                  </td>
                  <td data-label={t('users.created')}>{formatDay(u.createdAt, zone)}</td>
                  <td className="admin-table__actions">
                    {mayChange && (
                      <div className="accounts__actions">
                        <RowButton
                          text={t('users.edit')}
                          label={t('users.editNamed', { name })}
                          onClick={() => {
                            save.clear();
                            setEditing({ user: u, form: userFormOf(u) });
                          }}
                        />
                        {!self &&
                          (u.locked ? (
                            <RowButton
                              text={t('users.unlock')}
                              label={t('users.unlockNamed', { name })}
                              onClick={() => void unlock(u)}
                            />
                          ) : (
                            <RowButton
                              text={t('users.lock')}
                              label={t('users.lockNamed', { name })}
                              onClick={() => ask(u, 'lock')}
                            />
                          ))}
                        <RowButton
                          text={t('users.resetPassword')}
                          label={t('users.resetNamed', { name })}
                          onClick={() => ask(u, 'reset')}
                        />
                        <RowButton
                          text={t('users.revoke')}
                          label={t('users.revokeNamed', { name })}
                          disabled={u.sessions === 0}
                          onClick={() => ask(u, 'revoke')}
                        />
                        {!self && (
                          <RowButton
                            danger
                            text={t('users.delete')}
                            label={t('users.deleteNamed', { name })}
                            onClick={() => ask(u, 'delete')}
                          />
                        )}
                      </div>
                    )}
                  </td>
                </tr>
              );
            })}
          </AdminTable>
        )}
      </LoadedView>

      {editing && (
        <FormDialog
          title={t('users.editTitle')}
          onClose={() => setEditing(null)}
          onSubmit={() => void submit()}
          {...saveState(save, errors)}
        >
          <p className="admin__hint">{editing.user.email}</p>
          <Field label={t('users.name')} error={errors.displayName}>
            {(p) => (
              <input
                {...p}
                value={editing.form.displayName}
                autoComplete="off"
                onChange={(e) => set({ displayName: e.target.value })}
              />
            )}
          </Field>
          <RoleField label={t('users.role')} value={editing.form.role} onChange={(role) => set({ role })} />
        </FormDialog>
      )}

      {confirming && (
        <ConfirmDialog
          title={t(CONFIRM[confirming.action].title)}
          body={t(CONFIRM[confirming.action].body, {
            name: confirming.user.displayName,
            email: confirming.user.email,
          })}
          confirmLabel={t(CONFIRM[confirming.action].label)}
          onConfirm={() => void confirm()}
          onClose={() => setConfirming(null)}
          busy={act.busy}
          error={act.error}
        />
      )}
    </>
  );
}

/** The role of a user or of invitees (reports-admin §6 roles). */
export function RoleField({
  label,
  value,
  onChange,
}: {
  label: string;
  value: Role;
  onChange: (role: Role) => void;
}) {
  return (
    <Field label={label}>
      {(p) => (
        <select {...p} value={value} onChange={(e) => onChange(e.target.value as Role)}>
          {roleOptions().map((o) => (
            <option key={o.value} value={o.value}>
              {o.label}
            </option>
          ))}
        </select>
      )}
    </Field>
  );
}
