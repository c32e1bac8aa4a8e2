import type { Invite } from '@takt/domain';
import { formatDateTime, t, useSession, useToasts } from '@takt/ui';
import { useState } from 'react';
import type { Dispatch, SetStateAction } from 'react';
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
import { formError } from '../admin/form';
import { AccountsFrame, RoleField } from './UsersPage';
import { inviteBody, inviteErrors, inviteState, mayBrand, newInviteForm, ROLE_TEXT } from './users';
import type { InviteForm } from './users';
import '../admin/admin.css';
import './accounts.css';

// reports-admin §2 "Invites: list, create, resend, delete", §5 "Invitees one per line, trimmed", §6
// "InviteUsers … gates the invites screen" and "Invite roles: default kiosk". Calls GET and POST /api/invites,
// POST /api/invites/:id/resend and DELETE /api/invites/:id (decision 0880).

const invitePath = itemPath('/api/invites');

/** The brand column shows only when some invite has a brand (decision 1117). */
const branded = (invites: readonly Invite[]) => invites.some((i) => i.brandOverride !== null);

export function InvitesPage() {
  const { me } = useSession();
  const allowed = me.permissions.includes('InviteUsers');
  const [form, setForm] = useState<InviteForm | null>(null);
  return (
    <AccountsFrame
      title="invites.title"
      allowed={allowed}
      // reports-admin §6: InviteUsers is for root users and admins not in demo mode, so an admin without it
      // is in the demo: say so instead of a bare refusal.
      notPermitted={me.isAdmin ? 'invites.notInDemo' : 'invites.notPermitted'}
      actions={
        <button type="button" className="button button--primary" onClick={() => setForm(newInviteForm())}>
          {t('invites.add')}
        </button>
      }
    >
      {allowed && <InvitesScreen form={form} setForm={setForm} />}
    </AccountsFrame>
  );
}

function InvitesScreen({
  form,
  setForm,
}: {
  form: InviteForm | null;
  setForm: Dispatch<SetStateAction<InviteForm | null>>;
}) {
  const { me } = useSession();
  const zone = { locale: me.company.locale, timeZone: me.company.timezone };
  const [state, reload] = useLoaded(async (signal) => ({
    invites: await api.request<Invite[]>('/api/invites', { signal }),
    now: Date.now(),
  }));
  const [deleting, setDeleting] = useState<Invite | null>(null);
  const save = useSubmit(t('invites.failed'));
  const act = useSubmit(t('invites.failed'));
  const toasts = useToasts();

  const errors = form ? inviteErrors(form) : {};
  const set = (patch: Partial<InviteForm>) => setForm((f) => f && { ...f, ...patch });
  // A new form is incomplete, not wrong: its errors show once the addresses were edited or a submit tried.
  const [touched, setTouched] = useState(false);
  const shown = touched ? errors : {};

  const submit = async () => {
    if (!form) return;
    const body = inviteBody(form);
    const ok = await save.run(() => api.request('/api/invites', { method: 'POST', body }));
    // A failed e-mail still made the invites: the list shows them, to resend.
    reload();
    if (!ok) return;
    setForm(null);
    setTouched(false);
    toasts.show({ message: t('invites.sentDone', { count: body.invitees.length }), tone: 'success' });
  };

  const resend = async (invite: Invite) => {
    // reports-admin §8 E-mail texts: the server's "Sent. …" or "Something went wrong. Please try again."
    try {
      const { message } = await api.request<{ message: string }>(invitePath(invite.id, 'resend'), {
        method: 'POST',
      });
      toasts.show({ message, tone: 'success' });
    } catch (err) {
      toasts.show({ message: formError(err, '').lines[0] ?? t('invites.failed'), tone: 'error' });
    }
    reload();
  };

  const confirmDelete = async () => {
    if (!deleting) return;
    const ok = await act.run(() => api.request(invitePath(deleting.id), { method: 'DELETE' }));
    if (!ok) return;
    toasts.show({ message: t('invites.deletedDone', { email: deleting.email }), tone: 'success' });
    setDeleting(null);
    reload();
  };

  return (
    <>
      <p className="admin__intro">{t('invites.intro')}</p>
      <LoadedView state={state} retry={reload}>
        {({ invites, now }) =>
          invites.length === 0 ? (
            <p className="notice" role="status">
              {t('invites.empty')}
            </p>
          ) : (
            <AdminTable
              caption={t('invites.caption')}
              status={false}
              headers={[
                t('invites.email'),
                t('invites.role'),
                t('invites.invitedBy'),
                t('invites.sent'),
                t('invites.expires'),
                ...(branded(invites) ? [t('invites.brandColumn')] : []),
              ]}
            >
              {invites.map((i) => {
                const expired = inviteState(i, now) === 'expired';
                return (
                  <tr key={i.id}>
                    <th scope="row" data-label={t('invites.email')} className="accounts__email">
                      {i.email}
                    </th>
                    <td data-label={t('invites.role')}>{t(ROLE_TEXT[i.role])}</td>
                    <td data-label={t('invites.invitedBy')}>{i.invitedBy ?? t('common.none')}</td>
                    <td data-label={t('invites.sent')}>{formatDateTime(i.sentAt, zone)}</td>
                    <td data-label={t('invites.expires')}>
                      {expired ? (
                        <span className="accounts__state accounts__state--locked">
                          {t('invites.expired')}
                        </span>
                      ) : (
                        formatDateTime(i.expiresAt, zone)
                      )}
                    </td>
                    {branded(invites) && (
                      <td data-label={t('invites.brandColumn')}>{i.brandOverride ?? t('common.none')}</td>
                    )}
                    <td className="admin-table__actions">
                      <RowButton
                        text={t('invites.resend')}
                        label={t('invites.resendNamed', { email: i.email })}
                        onClick={() => void resend(i)}
                      />
                      <RowButton
                        danger
                        text={t('invites.delete')}
                        label={t('invites.deleteNamed', { email: i.email })}
                        onClick={() => {
                          act.clear();
                          setDeleting(i);
                        }}
                      />
                    </td>
                  </tr>
                );
              })}
            </AdminTable>
          )
        }
      </LoadedView>

      {form && (
        <FormDialog
          title={t('invites.newTitle')}
          onClose={() => {
            setForm(null);
            setTouched(false);
          }}
          onSubmit={() => void submit()}
          onInvalidSubmit={() => setTouched(true)}
          {...saveState(save, errors)}
          submitLabel={t('invites.create')}
        >
          <Field label={t('invites.invitees')} hint={t('invites.inviteesHint')} error={shown.invitees}>
            {(p) => (
              <textarea
                {...p}
                rows={5}
                value={form.invitees}
                autoComplete="off"
                spellCheck={false}
                onChange={(e) => {
                  setTouched(true);
                  set({ invitees: e.target.value });
                }}
              />
            )}
          </Field>
          <RoleField label={t('invites.role')} value={form.role} onChange={(role) => set({ role })} />
          {/* reports-admin §3 "brand_override" (decision 1117): root users and service providers. */}
          {mayBrand(me) && (
            <Field label={t('invites.brand')} hint={t('invites.brandHint')} error={errors.brand}>
              {(p) => (
                <input
                  {...p}
                  type="text"
                  maxLength={60}
                  autoComplete="off"
                  value={form.brand ?? ''}
                  onChange={(e) => set({ brand: e.target.value })}
                />
              )}
            </Field>
          )}
        </FormDialog>
      )}

      {deleting && (
        <ConfirmDialog
          title={t('invites.deleteTitle')}
          body={t('invites.deleteBody', { email: deleting.email })}
          confirmLabel={t('invites.delete')}
          onConfirm={() => void confirmDelete()}
          onClose={() => setDeleting(null)}
          busy={act.busy}
          error={act.error}
        />
      )}
    </>
  );
}
