import { FormActions, Modal, Progress, t } from '@takt/ui';
import { useEffect, useId, useState } from 'react';
import { api } from '../../api';
import { FormErrorBox, useSubmit } from '../../admin/AdminParts';
import '../../admin/admin-machines.css';
import { gatewayBody, gatewayErrors, gatewayFormOf, gatewayPath, newGatewayForm } from './gateways';
import type { CompanyOption, GatewayDetail, GatewayForm, GatewayRow, IssuedToken } from './gateways';
import type { Confirmable } from './GatewayEdge';
import { BoundMachines, ConfirmAction, EdgeControls } from './GatewayEdge';
import { GatewayFields, PusherFields, SupervisorFields } from './GatewayFormFields';

// The internal gateway modal (reports-admin §2 "Internal gateway modal", "Gateway edit dialog results"): create
// or edit name, company, ingest multiplier, pusher and supervisor config; the edge device controls enable,
// disable, reset, deregister and update pusher (§4); results update, delete, select, clone
// (docs/decisions/0927).

export type GatewayResult =
  { kind: 'update' | 'select' | 'clone'; gateway: GatewayRow } | { kind: 'delete'; gateway: GatewayRow };

export type ModalMode =
  { kind: 'create'; from?: GatewayRow; form: GatewayForm } | { kind: 'edit'; id: string };

export function GatewayModal({
  mode,
  companies,
  onClose,
  onResult,
  onToken,
  onChanged,
}: {
  mode: ModalMode;
  companies: CompanyOption[] | null;
  onClose: () => void;
  /** The dialog's result; the opener closes the dialog (or, for clone, opens the new one). */
  onResult: (r: GatewayResult) => void;
  /** A token was issued (create, reset): shown once by the page. */
  onToken: (issued: IssuedToken) => void;
  /** The gateway changed on the server (an edge action) while the dialog stays open. */
  onChanged: () => void;
}) {
  const [gateway, setGateway] = useState<GatewayDetail | null>(null);
  const [loadFailed, setLoadFailed] = useState(false);
  const [form, setForm] = useState<GatewayForm>(mode.kind === 'create' ? mode.form : newGatewayForm());
  const [touched, setTouched] = useState(false);
  const [confirming, setConfirming] = useState<Confirmable | null>(null);
  const save = useSubmit(t('internal.gateways.saveFailed'));
  const editId = mode.kind === 'edit' ? mode.id : null;

  useEffect(() => {
    if (editId === null) return;
    const controller = new AbortController();
    api
      .request<GatewayDetail>(gatewayPath(editId), { signal: controller.signal })
      .then((g) => {
        setGateway(g);
        setForm(gatewayFormOf(g));
      })
      .catch(() => {
        if (!controller.signal.aborted) setLoadFailed(true);
      });
    return () => controller.abort();
  }, [editId]);

  const formId = useId();
  const errors = gatewayErrors(form);
  const invalid = Object.keys(errors).length > 0;
  const shown = touched ? errors : {};
  const set = (patch: Partial<GatewayForm>) => {
    setForm((f) => ({ ...f, ...patch }));
    setTouched(true);
  };

  const submit = async () => {
    let saved: GatewayRow | null = null;
    const ok = await save.run(async () => {
      if (editId === null) {
        const issued = await api.request<IssuedToken>('/api/gateways', {
          method: 'POST',
          body: gatewayBody(form),
        });
        onToken(issued);
        saved = issued.gateway;
      } else {
        saved = await api.request<GatewayRow>(gatewayPath(editId), {
          method: 'PUT',
          body: gatewayBody(form),
        });
      }
    });
    if (ok && saved) onResult({ kind: 'update', gateway: saved });
  };

  const title =
    mode.kind === 'create'
      ? mode.from
        ? t('internal.gateways.cloneTitle', { name: mode.from.name })
        : t('internal.gateways.createTitle')
      : t('internal.gateways.editTitle', { name: gateway?.name ?? '' });

  // Delete apart on the left; the other results, then Cancel and the primary action on the right (thumb reach).
  const results = (
    <>
      {gateway && (
        <>
          <button
            type="button"
            className="button button--danger touch gateway-modal__delete"
            disabled={save.busy}
            onClick={() => setConfirming('delete')}
          >
            {t('internal.gateways.delete')}
          </button>
          <button
            type="button"
            className="button touch"
            disabled={save.busy}
            onClick={() => onResult({ kind: 'clone', gateway })}
          >
            {t('internal.gateways.clone')}
          </button>
          <button
            type="button"
            className="button touch"
            disabled={save.busy}
            title={t('internal.gateways.selectHint')}
            onClick={() => onResult({ kind: 'select', gateway })}
          >
            {t('internal.gateways.select')}
          </button>
        </>
      )}
      <button type="button" className="button touch" disabled={save.busy} onClick={onClose}>
        {t('admin.cancel')}
      </button>
    </>
  );

  return (
    <Modal
      title={title}
      onClose={onClose}
      busy={save.busy}
      className="gateway-modal"
      footer={
        <FormActions
          busy={save.busy}
          wrap
          submit={{
            label: save.busy
              ? t('admin.saving')
              : editId === null
                ? t('internal.gateways.createSubmit')
                : t('admin.save'),
            disabled: invalid || (editId !== null && gateway === null),
            form: formId,
          }}
        >
          {results}
        </FormActions>
      }
    >
      {editId !== null && gateway === null ? (
        loadFailed ? (
          <p className="notice notice--error" role="alert">
            {t('admin.loadFailed')}
          </p>
        ) : (
          <Progress />
        )
      ) : (
        <>
          <form
            id={formId}
            className="admin__form gateway-form"
            noValidate
            onSubmit={(e) => {
              e.preventDefault();
              if (!invalid && !save.busy) void submit();
            }}
          >
            <FormErrorBox error={save.error} />
            <GatewayFields form={form} errors={shown} companies={companies} set={set} />
            <PusherFields form={form} errors={shown} set={set} gateway={gateway} />
            <SupervisorFields form={form} set={set} gateway={gateway} />
          </form>
          {gateway && (
            <EdgeControls
              gateway={gateway}
              companyUnsaved={form.companyId !== (gateway.company?.id ?? '')}
              onAsk={setConfirming}
              onChanged={(g) => {
                setGateway((old) => (old ? { ...old, ...g } : old));
                onChanged();
              }}
            />
          )}
          {gateway && <BoundMachines gateway={gateway} />}
        </>
      )}
      {gateway && confirming && (
        <ConfirmAction
          action={confirming}
          gateway={gateway}
          onClose={() => setConfirming(null)}
          onDone={(g, issued) => {
            setConfirming(null);
            if (confirming === 'delete') {
              onResult({ kind: 'delete', gateway });
              return;
            }
            if (issued) onToken(issued);
            if (g) {
              setGateway((old) => (old ? { ...old, ...g } : old));
              if (confirming === 'deregister') setForm((f) => ({ ...f, companyId: '' }));
            }
            onChanged();
          }}
        />
      )}
    </Modal>
  );
}
