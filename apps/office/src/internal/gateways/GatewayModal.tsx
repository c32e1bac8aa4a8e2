import { FormActions, Modal, Progress, t, useToasts } from '@takt/ui';
import { useEffect, useId, useState } from 'react';
import type { ReactNode } from 'react';
import { api } from '../../api';
import { ConfirmDialog, Field, FormErrorBox, useSubmit } from '../../admin/AdminParts';
import '../../admin/admin-machines.css';
import { CompanyOptions } from '../CompanyChoice';
import {
  SUPERVISOR_MODES,
  VERSION_PATTERN,
  edgeControls,
  gatewayBody,
  gatewayErrors,
  gatewayFormOf,
  newGatewayForm,
  pusherUpdatable,
} from './gateways';
import type {
  CompanyOption,
  EdgeAction,
  GatewayDetail,
  GatewayForm,
  GatewayRow,
  IssuedToken,
  SupervisorMode,
} from './gateways';

// The internal gateway modal (reports-admin §2 "Internal gateway modal", "Gateway edit dialog results"): create
// or edit name, company, ingest multiplier, pusher and supervisor config; the edge device controls enable,
// disable, reset, deregister and update pusher (§4); results update, delete, select, clone
// (docs/decisions/0927).

export type GatewayResult =
  { kind: 'update' | 'select' | 'clone'; gateway: GatewayRow } | { kind: 'delete'; gateway: GatewayRow };

export type ModalMode =
  { kind: 'create'; from?: GatewayRow; form: GatewayForm } | { kind: 'edit'; id: string };

/** Delete, disable, reset and deregister ask "Are you sure?" first (UI.md: destructive actions confirm). */
type Confirmable = Exclude<EdgeAction, 'enable'> | 'delete';

const path = (id: string, action = '') => `/api/gateways/${encodeURIComponent(id)}${action}`;

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
      .request<GatewayDetail>(path(editId), { signal: controller.signal })
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
        saved = await api.request<GatewayRow>(path(editId), { method: 'PUT', body: gatewayBody(form) });
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

function Section({ title, children }: { title: string; children: ReactNode }) {
  return (
    <fieldset className="admin-panel">
      <legend>{title}</legend>
      {children}
    </fieldset>
  );
}

type SetForm = (patch: Partial<GatewayForm>) => void;

function GatewayFields({
  form: f,
  errors,
  companies,
  set,
}: {
  form: GatewayForm;
  errors: Partial<Record<keyof GatewayForm, string>>;
  companies: CompanyOption[] | null;
  set: SetForm;
}) {
  const current = f.companyId;
  const options = companies ?? [];
  return (
    <>
      <Field label={t('internal.gateways.field.name')} error={errors.name}>
        {(p) => (
          <input {...p} value={f.name} autoComplete="off" onChange={(e) => set({ name: e.target.value })} />
        )}
      </Field>
      <Field
        label={t('internal.gateways.field.company')}
        hint={t('internal.gateways.field.companyHint')}
        error={errors.companyId}
      >
        {(p) => (
          <select {...p} value={current} onChange={(e) => set({ companyId: e.target.value })}>
            <option value="">{t('internal.gateways.noCompany')}</option>
            <CompanyOptions companies={options} />
          </select>
        )}
      </Field>
      <div className="admin__pair">
        <Field label={t('internal.gateways.field.assetSerial')} error={errors.assetSerial}>
          {(p) => (
            <input
              {...p}
              value={f.assetSerial}
              autoComplete="off"
              spellCheck={false}
              onChange={(e) => set({ assetSerial: e.target.value })}
            />
          )}
        </Field>
        <Field label={t('internal.gateways.field.edgeRef')} error={errors.edgeRef}>
          {(p) => (
            <input
              {...p}
              value={f.edgeRef}
              autoComplete="off"
              spellCheck={false}
              onChange={(e) => set({ edgeRef: e.target.value })}
            />
          )}
        </Field>
      </div>
      <Field
        label={t('internal.gateways.field.ingestMultiplier')}
        hint={t('internal.gateways.field.ingestMultiplierHint')}
        error={errors.ingestMultiplier}
      >
        {(p) => (
          <input
            {...p}
            type="number"
            inputMode="decimal"
            min={0.1}
            max={100}
            step={0.1}
            value={f.ingestMultiplier}
            onChange={(e) => set({ ingestMultiplier: e.target.value })}
          />
        )}
      </Field>
    </>
  );
}

const PUSHER_FIELDS = ['drainCount', 'drainInterval', 'packedRecordCount', 'pushInterval'] as const;

function PusherFields({
  form: f,
  errors,
  set,
  gateway,
}: {
  form: GatewayForm;
  errors: Partial<Record<keyof GatewayForm, string>>;
  set: SetForm;
  gateway: GatewayDetail | null;
}) {
  return (
    <Section title={t('internal.gateways.pusher')}>
      <div className="gateway-form__pusher">
        {PUSHER_FIELDS.map((key) => (
          <Field key={key} label={t(`internal.gateways.field.${key}`)} error={errors[key]}>
            {(p) => (
              <input
                {...p}
                type="number"
                inputMode="numeric"
                min={key === 'drainCount' ? 0 : 1}
                step={1}
                value={f[key]}
                onChange={(e) => set({ [key]: e.target.value })}
              />
            )}
          </Field>
        ))}
      </div>
      {gateway && (
        <p className="gateway-form__reported">
          {t('internal.gateways.reportedVersion')}: <ReportedVersion version={gateway.pusher.version} />
          {gateway.pusher.requestedVersion && (
            <span className="admin__hint">
              {' '}
              · {t('internal.gateways.requestedVersion', { version: gateway.pusher.requestedVersion })}
            </span>
          )}
        </p>
      )}
    </Section>
  );
}

function SupervisorFields({
  form: f,
  set,
  gateway,
}: {
  form: GatewayForm;
  set: SetForm;
  gateway: GatewayDetail | null;
}) {
  const name = useId();
  return (
    <Section title={t('internal.gateways.supervisor')}>
      <div className="gateway-form__modes" role="radiogroup" aria-label={t('internal.gateways.field.mode')}>
        {SUPERVISOR_MODES.map((m: SupervisorMode) => (
          <label key={m} className="admin__check">
            <input
              type="radio"
              name={name}
              value={m}
              checked={f.mode === m}
              onChange={() => set({ mode: m })}
            />
            {t(`internal.gateways.mode.${m}`)}
          </label>
        ))}
      </div>
      {gateway && (
        <p className="gateway-form__reported">
          {t('internal.gateways.reportedVersion')}: <ReportedVersion version={gateway.supervisor.version} />
        </p>
      )}
    </Section>
  );
}

/** Reset and deregister act on the stored company (reports-admin §2 "needs company"). */
const companyBound = (a: EdgeAction) => a === 'reset' || a === 'deregister';

function ReportedVersion({ version }: { version: string | null }) {
  return version === null ? (
    <span className="admin__hint">{t('internal.gateways.notReported')}</span>
  ) : (
    <strong className="admin__mono">{version}</strong>
  );
}

/** reports-admin §2, §4: the edge device's state and the actions it allows; update pusher per §9. */
function EdgeControls({
  gateway,
  companyUnsaved,
  onAsk,
  onChanged,
}: {
  gateway: GatewayDetail;
  companyUnsaved: boolean;
  onAsk: (a: Confirmable) => void;
  onChanged: (g: GatewayRow) => void;
}) {
  const toasts = useToasts();
  const enable = useSubmit(t('internal.gateways.actionFailed'));
  const update = useSubmit(t('internal.gateways.actionFailed'));
  const [version, setVersion] = useState('');
  const versionId = useId();
  const updatable = pusherUpdatable(gateway.pusher.version);
  const versionOk = VERSION_PATTERN.test(version.trim());
  const controls = edgeControls(gateway);
  const blocked = controls.some((c) => c.needsCompany);

  const runEnable = async () => {
    let g: GatewayRow | null = null;
    const ok = await enable.run(async () => {
      g = await api.request<GatewayRow>(path(gateway.id, '/enable'), { method: 'POST' });
    });
    if (ok && g) {
      onChanged(g);
      toasts.show({ message: t('internal.gateways.done.enable', { name: gateway.name }), tone: 'success' });
    }
  };

  const runUpdate = async () => {
    const v = version.trim();
    let g: GatewayRow | null = null;
    const ok = await update.run(async () => {
      g = await api.request<GatewayRow>(path(gateway.id, '/pusher-update'), {
        method: 'POST',
        body: { version: v },
      });
    });
    if (ok && g) {
      onChanged(g);
      setVersion('');
      toasts.show({
        message: t('internal.gateways.updateRequested', { version: v, name: gateway.name }),
        tone: 'success',
      });
    }
  };

  return (
    <section className="gateway-edge" aria-label={t('internal.gateways.edge')}>
      <h3>{t('internal.gateways.edge')}</h3>
      <p>
        {t('internal.gateways.edgeState', {
          state: t(`internal.gateways.state.${gateway.state}`),
          activation: t(`internal.gateways.activation.${gateway.activationStatus}`),
        })}
        {gateway.activationToken && (
          <span className="admin__hint admin__mono">
            {' '}
            {t('internal.gateways.tokenHint', { hint: gateway.activationToken })}
          </span>
        )}
      </p>
      <FormErrorBox error={enable.error} />
      <div className="gateway-edge__actions">
        {controls.map(({ action, needsCompany }) => (
          <button
            key={action}
            type="button"
            className={`button touch ${action === 'enable' ? 'button--primary' : 'button--danger'}`}
            disabled={needsCompany || enable.busy || (companyUnsaved && companyBound(action))}
            onClick={() => (action === 'enable' ? void runEnable() : onAsk(action))}
          >
            {t(`internal.gateways.${action}`)}
          </button>
        ))}
      </div>
      {blocked && <p className="admin__hint">{t('internal.gateways.needsCompany')}</p>}
      {companyUnsaved && !blocked && gateway.state === 'active' && (
        <p className="admin__hint">{t('internal.gateways.unsavedCompany')}</p>
      )}

      <FormErrorBox error={update.error} />
      <div className="gateway-edge__update">
        <div className="field">
          <label htmlFor={versionId}>{t('internal.gateways.updateVersion')}</label>
          <input
            id={versionId}
            value={version}
            placeholder={t('internal.gateways.versionPlaceholder')}
            autoComplete="off"
            spellCheck={false}
            disabled={!updatable}
            aria-invalid={version !== '' && !versionOk}
            aria-describedby={`${versionId}-hint`}
            onChange={(e) => setVersion(e.target.value)}
          />
        </div>
        <button
          type="button"
          className="button touch"
          disabled={!updatable || !versionOk || update.busy}
          onClick={() => void runUpdate()}
        >
          {t('internal.gateways.updatePusher')}
        </button>
      </div>
      <p className={version !== '' && !versionOk ? 'field__error' : 'admin__hint'} id={`${versionId}-hint`}>
        {!updatable
          ? t('internal.gateways.updateTooOld')
          : version !== '' && !versionOk
            ? t('internal.gateways.updateVersionError')
            : t('internal.gateways.updateHint')}
      </p>
    </section>
  );
}

function BoundMachines({ gateway }: { gateway: GatewayDetail }) {
  return (
    <section className="gateway-machines" aria-label={t('internal.gateways.machinesBound')}>
      <h3>{t('internal.gateways.machinesBound')}</h3>
      {gateway.machines.length === 0 ? (
        <p className="admin__hint">{t('internal.gateways.noMachines')}</p>
      ) : (
        <ul>
          {gateway.machines.map((m) => (
            <li key={m.sourceId}>
              {m.machineName} <span className="admin__hint admin__mono">{m.machineRef}</span>
            </li>
          ))}
        </ul>
      )}
    </section>
  );
}

/** "Are you sure?" before delete, disable, reset and deregister (UI.md: destructive actions confirm). */
function ConfirmAction({
  action,
  gateway,
  onClose,
  onDone,
}: {
  action: Confirmable;
  gateway: GatewayRow;
  onClose: () => void;
  onDone: (g: GatewayRow | null, issued: IssuedToken | null) => void;
}) {
  const toasts = useToasts();
  const run = useSubmit(t('internal.gateways.actionFailed'));
  const label = t(`internal.gateways.${action}`);
  const confirm = async () => {
    let g: GatewayRow | null = null;
    let issued: IssuedToken | null = null;
    const ok = await run.run(async () => {
      if (action === 'delete') {
        await api.request(path(gateway.id), { method: 'DELETE' });
      } else if (action === 'reset') {
        issued = await api.request<IssuedToken>(path(gateway.id, '/reset'), { method: 'POST' });
        g = issued.gateway;
      } else {
        g = await api.request<GatewayRow>(path(gateway.id, `/${action}`), { method: 'POST' });
      }
    });
    if (!ok) return;
    if (action !== 'reset' && action !== 'delete')
      toasts.show({
        message: t(`internal.gateways.done.${action}`, { name: gateway.name }),
        tone: 'success',
      });
    onDone(g, issued);
  };
  return (
    <ConfirmDialog
      title={t('internal.gateways.confirmTitle', { action: label, name: gateway.name })}
      body={t(`internal.gateways.confirm.${action}`)}
      confirmLabel={label}
      onConfirm={() => void confirm()}
      onClose={onClose}
      busy={run.busy}
      error={run.error}
    />
  );
}
