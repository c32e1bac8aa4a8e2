import type { MessageKey } from '@takt/ui';
import type { CompanySettings } from './settings';

// The company settings form (issue 29 point 3, decision 1087): which setting sits in which group, how each one
// is entered (durations in seconds or minutes, stored in ms), the checks the API makes, and the body of a save
// (only the group's changed fields).

export type SettingKey = Exclude<keyof CompanySettings, 'name' | 'locale' | 'enable_setup_stages'>;

export type SettingKind =
  | { kind: 'flag' }
  | { kind: 'percent' }
  | { kind: 'duration'; unitMs: number; unit: 'seconds' | 'minutes' }
  | { kind: 'choice'; options: ReadonlyArray<{ value: string; label: MessageKey }> }
  | { kind: 'text'; generate?: boolean };

export type SettingDef = SettingKind & { key: SettingKey; label: MessageKey; hint?: MessageKey };

export interface SettingGroup {
  id: 'floor' | 'downtime' | 'goals' | 'jobs' | 'company';
  title: MessageKey;
  fields: readonly SettingDef[];
}

const SECONDS = { kind: 'duration', unitMs: 1000, unit: 'seconds' } as const;
const MINUTES = { kind: 'duration', unitMs: 60_000, unit: 'minutes' } as const;
/** The longest duration the API takes (one day). */
export const MAX_DURATION_MS = 24 * 60 * 60_000;
const TEXT_MAX = 250;

/** The names N of the message keys `${L}.N` (a choice's option labels under its own label L). */
type OptionName<L extends string> = MessageKey extends infer K
  ? K extends `${L}.${infer N}`
    ? N
    : never
  : never;

/** The message keys that have a hint key `${key}Hint`. */
type HintedKey = { [K in MessageKey]: `${K}Hint` extends MessageKey ? K : never }[MessageKey];

/** A choice field: its hint is `${label}Hint` and each option's label `${label}.${name}`. */
function choice<L extends HintedKey>(
  key: SettingKey,
  label: L,
  options: ReadonlyArray<readonly [value: string, name: OptionName<L>]>,
): SettingDef {
  return {
    key,
    kind: 'choice',
    label,
    hint: `${label}Hint` as MessageKey,
    options: options.map(([value, name]) => ({ value, label: `${label}.${name}` as MessageKey })),
  };
}

export const SETTING_GROUPS: readonly SettingGroup[] = [
  {
    id: 'floor',
    title: 'admin.settings.group.floor',
    fields: [
      {
        key: 'operator_tracking',
        kind: 'flag',
        label: 'admin.settings.operatorTracking',
        hint: 'admin.settings.operatorTrackingHint',
      },
      {
        key: 'enable_tablet_machine_switching',
        kind: 'flag',
        label: 'admin.settings.machineSwitching',
        hint: 'admin.settings.machineSwitchingHint',
      },
      {
        key: 'hide_remove_rejected_parts_checkbox',
        kind: 'flag',
        label: 'admin.settings.hideRemoveRejected',
        hint: 'admin.settings.hideRemoveRejectedHint',
      },
      choice('cycleinputoption', 'admin.settings.cycleInput', [
        ['timepercycle', 'timepercycle'],
        ['timeperpart', 'timeperpart'],
        ['partsperhour', 'partsperhour'],
      ]),
      {
        key: 'areActivitiesEnabled',
        kind: 'flag',
        label: 'admin.settings.activities',
        hint: 'admin.settings.activitiesHint',
      },
    ],
  },
  {
    id: 'downtime',
    title: 'admin.settings.group.downtime',
    fields: [
      {
        key: 'underlay_delay',
        ...SECONDS,
        label: 'admin.settings.underlayDelay',
        hint: 'admin.settings.underlayDelayHint',
      },
      {
        key: 'underlay_auto_expand',
        ...MINUTES,
        label: 'admin.settings.underlayAutoExpand',
        hint: 'admin.settings.underlayAutoExpandHint',
      },
      {
        key: 'downtime_list_filter_duration',
        ...SECONDS,
        label: 'admin.settings.listFilter',
        hint: 'admin.settings.listFilterHint',
      },
      {
        key: 'long_downtime_threshold',
        ...MINUTES,
        label: 'admin.settings.longDowntime',
        hint: 'admin.settings.longDowntimeHint',
      },
    ],
  },
  {
    id: 'goals',
    title: 'admin.settings.group.goals',
    fields: [
      { key: 'warningpercent', kind: 'percent', label: 'admin.settings.goalWarning' },
      { key: 'failurepercent', kind: 'percent', label: 'admin.settings.goalFailure' },
      { key: 'utilizationwarningpercent', kind: 'percent', label: 'admin.settings.utilizationWarning' },
      { key: 'utilizationfailurepercent', kind: 'percent', label: 'admin.settings.utilizationFailure' },
      { key: 'warningpercent_oee', kind: 'percent', label: 'admin.settings.oeeWarning' },
      { key: 'failurepercent_oee', kind: 'percent', label: 'admin.settings.oeeFailure' },
    ],
  },
  {
    id: 'jobs',
    title: 'admin.settings.group.jobs',
    fields: [
      {
        key: 'enable_auto_job_dispatch',
        kind: 'flag',
        label: 'admin.settings.autoDispatch',
        hint: 'admin.settings.autoDispatchHint',
      },
    ],
  },
  {
    id: 'company',
    title: 'admin.settings.group.company',
    fields: [
      { key: 'address', kind: 'text', label: 'admin.settings.address' },
      // reports-admin §9: "Benchmarking: Undecided (null), Opt In (0), Opt Out (1)".
      choice('exclude_from_benchmarking', 'admin.settings.benchmarking', [
        ['', 'undecided'],
        ['0', 'optIn'],
        ['1', 'optOut'],
      ]),
      {
        key: 'tablet_registration_key',
        kind: 'text',
        generate: true,
        label: 'admin.settings.registrationKey',
        hint: 'admin.settings.registrationKeyHint',
      },
    ],
  },
];

/** Warning and failure percents that go together: the failure one may not be above the warning one. */
const PERCENT_PAIRS: ReadonlyArray<readonly [SettingKey, SettingKey]> = [
  ['warningpercent', 'failurepercent'],
  ['utilizationwarningpercent', 'utilizationfailurepercent'],
  ['warningpercent_oee', 'failurepercent_oee'],
];

/** What the inputs hold: checkboxes a boolean, every other input its text. */
export type Draft = Partial<Record<SettingKey, string | boolean>>;

const trimNumber = (n: number) => String(Math.round(n * 1000) / 1000);

export function draftOf(s: CompanySettings, group: SettingGroup): Draft {
  const d: Draft = {};
  for (const f of group.fields) {
    const v = s[f.key];
    if (f.kind === 'flag') d[f.key] = v === true;
    else if (f.kind === 'duration') d[f.key] = trimNumber((v as number) / f.unitMs);
    else d[f.key] = v == null ? '' : String(v);
  }
  return d;
}

/** The value a field's input stands for, in the API's terms; undefined when the input is not a valid value. */
function valueOf(f: SettingDef, raw: string | boolean | undefined): CompanySettings[SettingKey] | undefined {
  if (f.kind === 'flag') return raw === true;
  const text = typeof raw === 'string' ? raw.trim() : '';
  if (f.kind === 'text') return text === '' ? null : text;
  if (f.kind === 'choice') {
    if (f.key === 'exclude_from_benchmarking') return text === '' ? null : (Number(text) as 0 | 1);
    return text as CompanySettings[SettingKey];
  }
  if (text === '' || !Number.isFinite(Number(text))) return undefined;
  const n = Number(text);
  if (f.kind === 'percent') return Number.isInteger(n) && n >= 0 && n <= 100 ? n : undefined;
  const ms = Math.round(n * f.unitMs);
  return ms >= 0 && ms <= MAX_DURATION_MS ? ms : undefined;
}

const ERROR_OF: Record<Exclude<SettingDef['kind'], 'flag' | 'choice'>, MessageKey> = {
  percent: 'admin.settings.percentRange',
  duration: 'admin.settings.durationRange',
  text: 'admin.settings.textTooLong',
};

/** The group's problems by field (message keys): the API's own checks, made before saving. */
export function draftErrors(group: SettingGroup, draft: Draft): Partial<Record<SettingKey, MessageKey>> {
  const errors: Partial<Record<SettingKey, MessageKey>> = {};
  for (const f of group.fields) {
    if (f.kind === 'flag' || f.kind === 'choice') continue;
    const raw = draft[f.key];
    const bad =
      f.kind === 'text'
        ? typeof raw === 'string' && raw.trim().length > TEXT_MAX
        : valueOf(f, raw) === undefined;
    if (bad) errors[f.key] = ERROR_OF[f.kind];
  }
  const byKey = new Map(group.fields.map((f) => [f.key, f]));
  for (const [warning, failure] of PERCENT_PAIRS) {
    const w = byKey.get(warning);
    const fl = byKey.get(failure);
    if (!w || !fl || errors[warning] || errors[failure]) continue;
    const wv = valueOf(w, draft[warning]) as number;
    const fv = valueOf(fl, draft[failure]) as number;
    if (fv > wv) errors[failure] = 'admin.settings.percentOrder';
  }
  return errors;
}

/** The body of the group's save: only its fields whose value changed; empty when nothing did. */
export function patchOf(group: SettingGroup, draft: Draft, saved: CompanySettings): Partial<CompanySettings> {
  const out: Partial<Record<SettingKey, unknown>> = {};
  for (const f of group.fields) {
    const v = valueOf(f, draft[f.key]);
    if (v !== undefined && v !== saved[f.key]) out[f.key] = v;
  }
  return out as Partial<CompanySettings>;
}

/** A new tablet registration key: 24 characters no one types by mistake (no 0/O, 1/l/I). */
export function newRegistrationKey(
  random: (n: number) => Uint8Array = (n) => crypto.getRandomValues(new Uint8Array(n)),
): string {
  const alphabet = 'ABCDEFGHJKLMNPQRSTUVWXYZ23456789';
  return Array.from(random(24), (b) => alphabet[b % alphabet.length]).join('');
}
