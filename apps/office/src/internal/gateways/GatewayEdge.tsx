import { t, useToasts } from '@takt/ui';
import { useId, useState } from 'react';
import { api } from '../../api';
import { ConfirmDialog, FormErrorBox, useSubmit } from '../../admin/AdminParts';
import { VERSION_PATTERN, edgeControls, gatewayPath, pusherUpdatable } from './gateways';
import type { EdgeAction, GatewayDetail, GatewayRow, IssuedToken } from './gateways';

// The internal gateway modal's edge device part (reports-admin §2, §4): its state and controls (enable,
// disable, reset, deregister, update pusher), the "Are you sure?" before the destructive ones, and the
// machines bound to it.

/** Delete, disable, reset and deregister ask "Are you sure?" first (UI.md: destructive actions confirm). */
export type Confirmable = Exclude<EdgeAction, 'enable'> | 'delete';

/** Reset and deregister act on the stored company (reports-admin §2 "needs company"). */
const companyBound = (a: EdgeAction) => a === 'reset' || a === 'deregister';

/** reports-admin §2, §4: the edge device's state and the actions it allows; update pusher per §9. */
export function EdgeControls({
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
      g = await api.request<GatewayRow>(gatewayPath(gateway.id, '/enable'), { method: 'POST' });
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
      g = await api.request<GatewayRow>(gatewayPath(gateway.id, '/pusher-update'), {
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

export function BoundMachines({ gateway }: { gateway: GatewayDetail }) {
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
export function ConfirmAction({
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
        await api.request(gatewayPath(gateway.id), { method: 'DELETE' });
      } else if (action === 'reset') {
        issued = await api.request<IssuedToken>(gatewayPath(gateway.id, '/reset'), { method: 'POST' });
        g = issued.gateway;
      } else {
        g = await api.request<GatewayRow>(gatewayPath(gateway.id, `/${action}`), { method: 'POST' });
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
