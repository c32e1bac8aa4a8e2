import type { CycleInputOption } from '@takt/domain';
import { t } from '@takt/ui';
import { useId } from 'react';
import { Field } from '../admin/AdminParts';
import type { CycleFields, JobForm, StandardsForm } from './planning';
import { cycleMsOf, formMultiplier, partsPerHourText } from './planning';

// The fields of the job screens (decision 1084): a cycle time entered as hours, minutes and seconds (0–60, step
// 0.001) or as parts per hour, following the company's cycleinputoption, with its parts per hour beside it
// (live-operations §5, reports-admin §9); the job's own fields; a job's standards on one machine.

type Errors = Partial<Record<string, string>>;

const OPTION_LABEL: Record<CycleInputOption, 'planning.field.perCycle' | 'planning.field.perPart' | null> = {
  timepercycle: 'planning.field.perCycle',
  timeperpart: 'planning.field.perPart',
  partsperhour: null,
};

export function CycleInput({
  label,
  option,
  value,
  onChange,
  multiplier,
  error,
  hint,
  noStandard = false,
}: {
  label: string;
  option: CycleInputOption;
  value: CycleFields;
  onChange: (v: CycleFields) => void;
  multiplier: number;
  error?: string | undefined;
  hint?: string;
  noStandard?: boolean;
}) {
  const id = useId();
  const ms = cycleMsOf(option, value, multiplier, noStandard);
  const unit = OPTION_LABEL[option];
  const part = (key: keyof CycleFields, text: string, attrs: { min: number; max?: number; step: number }) => (
    <label className="cycle-input__part">
      <span>{text}</span>
      <input
        type="number"
        inputMode="decimal"
        {...attrs}
        value={value[key]}
        aria-invalid={Boolean(error)}
        aria-describedby={error ? `${id}-error` : undefined}
        onChange={(e) => onChange({ ...value, [key]: e.target.value })}
      />
    </label>
  );
  return (
    <fieldset className="field cycle-input">
      <legend>
        {label}
        {unit ? ` (${t(unit).toLowerCase()})` : ''}
      </legend>
      <div className="cycle-input__parts">
        {option === 'partsperhour' ? (
          part('partsPerHour', t('planning.field.partsPerHourInput'), { min: 0, step: 0.001 })
        ) : (
          <>
            {part('hours', t('planning.field.hours'), { min: 0, step: 1 })}
            {part('minutes', t('planning.field.minutes'), { min: 0, step: 1 })}
            {part('seconds', t('planning.field.seconds'), { min: 0, max: 60, step: 0.001 })}
          </>
        )}
      </div>
      <p className="admin__hint" role="status">
        {ms.ok && ms.ms > 0 ? t('planning.field.pph', { value: partsPerHourText(ms.ms, multiplier) }) : ''}
      </p>
      {hint && <p className="admin__hint">{hint}</p>}
      {error && (
        <p className="field__error" id={`${id}-error`}>
          {error}
        </p>
      )}
    </fieldset>
  );
}

/** The expected and ideal cycle times of a job or of its standards on a machine. */
function CycleTimes({
  option,
  form,
  set,
  errors,
  multiplier,
}: {
  option: CycleInputOption;
  form: Pick<JobForm, 'expected' | 'ideal'>;
  set: (patch: Partial<Pick<JobForm, 'expected' | 'ideal'>>) => void;
  errors: Errors;
  multiplier: number;
}) {
  return (
    <>
      <CycleInput
        label={t('planning.field.expected')}
        option={option}
        value={form.expected}
        onChange={(expected) => set({ expected })}
        multiplier={multiplier}
        error={errors.expected}
      />
      <CycleInput
        label={t('planning.field.ideal')}
        option={option}
        value={form.ideal}
        onChange={(ideal) => set({ ideal })}
        multiplier={multiplier}
        error={errors.ideal}
        hint={t('planning.field.idealHint')}
        noStandard
      />
    </>
  );
}

/** A setup time in minutes (stored in seconds). */
function SetupMinutes({
  value,
  onChange,
  error,
  hint,
}: {
  value: string;
  onChange: (v: string) => void;
  error?: string | undefined;
  hint?: string;
}) {
  return (
    <Field label={t('planning.field.setup')} error={error} {...(hint ? { hint } : {})}>
      {(p) => (
        <input
          {...p}
          type="number"
          min={0}
          step="any"
          value={value}
          onChange={(e) => onChange(e.target.value)}
        />
      )}
    </Field>
  );
}

export function JobFields({
  option,
  form,
  set,
  errors,
}: {
  option: CycleInputOption;
  form: JobForm;
  set: (patch: Partial<JobForm>) => void;
  errors: Errors;
}) {
  return (
    <>
      <Field label={t('planning.field.name')} error={errors.name}>
        {(p) => (
          <input
            {...p}
            value={form.name}
            autoComplete="off"
            onChange={(e) => set({ name: e.target.value })}
          />
        )}
      </Field>
      <Field label={t('planning.field.erp')} error={errors.erpId}>
        {(p) => (
          <input
            {...p}
            value={form.erpId}
            autoComplete="off"
            onChange={(e) => set({ erpId: e.target.value })}
          />
        )}
      </Field>
      <CycleTimes option={option} form={form} set={set} errors={errors} multiplier={1} />
      <SetupMinutes
        value={form.setup}
        onChange={(setup) => set({ setup })}
        error={errors.setup}
        hint={t('planning.field.setupHint')}
      />
    </>
  );
}

const BEHAVIORS = ['one', 'manyparts', 'manycycles'] as const;
const SETUP_MODES = ['none', 'planned', 'unplanned'] as const;

export function StandardsFields({
  option,
  form,
  set,
  errors,
  machines,
}: {
  option: CycleInputOption;
  form: StandardsForm;
  set: (patch: Partial<StandardsForm>) => void;
  errors: Errors;
  /** The machines to choose from; null when the machine is fixed (editing an assignment). */
  machines: { id: string; name: string }[] | null;
}) {
  const multiplier = formMultiplier(form);
  const count = (key: 'actualParts' | 'reportedParts' | 'requiredCycles', label: string) => (
    <Field label={label} error={errors[key]}>
      {(p) => (
        <input
          {...p}
          type="number"
          min={1}
          step={1}
          required
          value={form[key]}
          onChange={(e) => set({ [key]: e.target.value })}
        />
      )}
    </Field>
  );
  return (
    <>
      {machines && (
        <Field label={t('planning.field.machine')} error={errors.machineId}>
          {(p) => (
            <select {...p} value={form.machineId} onChange={(e) => set({ machineId: e.target.value })}>
              <option value="">{t('common.none')}</option>
              {machines.map((m) => (
                <option key={m.id} value={m.id}>
                  {m.name}
                </option>
              ))}
            </select>
          )}
        </Field>
      )}
      <Field label={t('planning.field.partBehavior')}>
        {(p) => (
          <select
            {...p}
            value={form.partBehavior}
            onChange={(e) => set({ partBehavior: e.target.value as StandardsForm['partBehavior'] })}
          >
            {BEHAVIORS.map((b) => (
              <option key={b} value={b}>
                {t(`planning.behavior.${b}`)}
              </option>
            ))}
          </select>
        )}
      </Field>
      {form.partBehavior === 'manyparts' && count('actualParts', t('planning.field.actualParts'))}
      {form.partBehavior === 'manycycles' && (
        <>
          {count('reportedParts', t('planning.field.reportedParts'))}
          {count('requiredCycles', t('planning.field.requiredCycles'))}
        </>
      )}
      <CycleTimes option={option} form={form} set={set} errors={errors} multiplier={multiplier} />
      <Field label={t('planning.field.startInSetup')} hint={t('planning.setup.hint')}>
        {(p) => (
          <select
            {...p}
            value={form.startInSetup}
            onChange={(e) => set({ startInSetup: e.target.value as StandardsForm['startInSetup'] })}
          >
            {SETUP_MODES.map((m) => (
              <option key={m} value={m}>
                {t(`planning.setup.${m}`)}
              </option>
            ))}
          </select>
        )}
      </Field>
      {form.startInSetup !== 'none' && (
        <SetupMinutes value={form.setup} onChange={(setup) => set({ setup })} error={errors.setup} />
      )}
      <Field
        label={t('planning.field.scheduleEnds')}
        hint={t('planning.field.scheduleHint')}
        error={errors.ends}
      >
        {(p) => (
          <input {...p} type="date" value={form.ends} onChange={(e) => set({ ends: e.target.value })} />
        )}
      </Field>
    </>
  );
}
