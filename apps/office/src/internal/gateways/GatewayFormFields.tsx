import { t } from '@takt/ui';
import { useId } from 'react';
import type { ReactNode } from 'react';
import { Field } from '../../admin/AdminParts';
import { CompanyOptions } from '../CompanyChoice';
import { SUPERVISOR_MODES } from './gateways';
import type { CompanyOption, GatewayDetail, GatewayForm, SupervisorMode } from './gateways';

// The internal gateway modal's form (reports-admin §2 "Internal gateway modal"): name, company, ingest
// multiplier, pusher and supervisor config, each with the version the device reports.

function Section({ title, children }: { title: string; children: ReactNode }) {
  return (
    <fieldset className="admin-panel">
      <legend>{title}</legend>
      {children}
    </fieldset>
  );
}

type SetForm = (patch: Partial<GatewayForm>) => void;

export function GatewayFields({
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

export function PusherFields({
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

export function SupervisorFields({
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

function ReportedVersion({ version }: { version: string | null }) {
  return version === null ? (
    <span className="admin__hint">{t('internal.gateways.notReported')}</span>
  ) : (
    <strong className="admin__mono">{version}</strong>
  );
}
