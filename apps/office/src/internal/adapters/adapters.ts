import type { Adapter, AdapterField } from '@takt/domain';
import { t } from '@takt/ui';

// The adapter admin's forms and the adapter import's answer, as pure functions (reports-admin §2 "Internal
// adapter admin", "Adapter import"; §3 Adapter; §5 "Adapter name, field name, componentName, componentType
// required. Notes and description max 250 characters").

export type { Adapter, AdapterField };

/** reports-admin §3 Adapter type. */
export interface AdapterType {
  id: string;
  name: string;
  displayName: string;
  defaultConfig?: unknown;
}

/** reports-admin §7 "data item list": kinds already in use, offered as suggestions. */
export interface DataItemList {
  types: string[];
  subtypes: string[];
  componentTypes: string[];
}

/** POST /api/adapters/import (reports-admin §7 "adapter search by shdr"). */
export type ImportResult = {
  unmatchedItems: string[];
  extraneousItems: string[];
  device: { id: string | null; name: string; uuid: string | null } | null;
  sampleFields: AdapterField[];
  unresolvedKeys: string[];
  lines: number;
  rejected: number;
} & (
  | { outcome: 'exact'; adapter: Adapter }
  | { outcome: 'partial'; adapter: Adapter; missing: AdapterField[]; extra: AdapterField[]; matched: number }
  | { outcome: 'none'; proposed: AdapterField[] }
);

const MAX = 250;
const required = (label: string) => t('internal.adapters.import.required', { label });

/** A field row of the editor; `key` tells rows apart while names are being typed. */
export interface FieldRow {
  key: string;
  name: string;
  dataItemType: string;
  dataItemSubtype: string;
  componentName: string;
  componentType: string;
}

export interface AdapterForm {
  name: string;
  notes: string;
  className: string;
  /** reports-admin §3 Adapter config, as JSON text ('' for none). */
  config: string;
  incomplete: boolean;
  fields: FieldRow[];
}

let rowSeq = 0;
const nextKey = () => `row-${++rowSeq}`;

export const fieldRowOf = (f: AdapterField): FieldRow => ({
  key: nextKey(),
  name: f.name,
  dataItemType: f.dataItemType,
  dataItemSubtype: f.dataItemSubtype ?? '',
  componentName: f.componentName,
  componentType: f.componentType,
});

export const emptyFieldRow = (): FieldRow => ({
  key: nextKey(),
  name: '',
  dataItemType: '',
  dataItemSubtype: '',
  componentName: '',
  componentType: '',
});

const configText = (config: unknown): string =>
  config === null || config === undefined ? '' : JSON.stringify(config, null, 2);

/** A new adapter starts with its type's default config (reports-admin §3 Adapter type defaultConfig). */
export const newAdapterForm = (type?: AdapterType): AdapterForm => ({
  name: '',
  notes: '',
  className: type?.name ?? 'MTConnect',
  config: configText(type?.defaultConfig),
  incomplete: false,
  fields: [],
});

export const adapterFormOf = (a: Adapter): AdapterForm => ({
  name: a.name,
  notes: a.notes ?? '',
  className: a.class,
  config: configText(a.config),
  incomplete: a.incomplete,
  fields: a.fields.map(fieldRowOf),
});

const tooLong = (v: string) => (v.trim().length > MAX ? t('admin.tooLong', { max: MAX }) : null);

export interface AdapterErrors {
  name?: string;
  notes?: string;
  config?: string;
}

function parseConfig(text: string): { ok: true; value: unknown } | { ok: false } {
  if (text.trim() === '') return { ok: true, value: null };
  try {
    return { ok: true, value: JSON.parse(text) as unknown };
  } catch {
    return { ok: false };
  }
}

/** reports-admin §5: the adapter name is required; notes at most 250 characters. */
export function adapterErrors(form: AdapterForm): AdapterErrors {
  const out: AdapterErrors = {};
  const name = form.name.trim() === '' ? required(t('internal.adapters.name')) : tooLong(form.name);
  if (name) out.name = name;
  if (form.notes.length > MAX) out.notes = t('admin.tooLong', { max: MAX });
  if (!parseConfig(form.config).ok) out.config = t('internal.adapters.configInvalid');
  return out;
}

export type FieldErrors = Partial<
  Record<'name' | 'dataItemType' | 'dataItemSubtype' | 'componentName' | 'componentType', string>
>;

/**
 * reports-admin §5: field name, componentName and componentType required. A key maps to one data item, so
 * two rows may not share a name (the API refuses it too).
 */
export function fieldErrors(row: FieldRow, others: readonly FieldRow[]): FieldErrors {
  const out: FieldErrors = {};
  const need = (v: string, label: string) => (v.trim() === '' ? required(label) : tooLong(v));
  const name = need(row.name, t('internal.adapters.field.name'));
  if (name) out.name = name;
  else if (others.some((o) => o.key !== row.key && o.name.trim() === row.name.trim()))
    out.name = t('internal.adapters.field.duplicate');
  const componentName = need(row.componentName, 'componentName');
  if (componentName) out.componentName = componentName;
  const componentType = need(row.componentType, 'componentType');
  if (componentType) out.componentType = componentType;
  const type = tooLong(row.dataItemType);
  if (type) out.dataItemType = type;
  const subtype = tooLong(row.dataItemSubtype);
  if (subtype) out.dataItemSubtype = subtype;
  return out;
}

export const isEmpty = (errors: object) => Object.keys(errors).length === 0;

export const toField = (row: FieldRow): AdapterField => ({
  name: row.name.trim(),
  dataItemType: row.dataItemType.trim(),
  dataItemSubtype: row.dataItemSubtype.trim() === '' ? null : row.dataItemSubtype.trim(),
  componentName: row.componentName.trim(),
  componentType: row.componentType.trim(),
});

/** The body of POST /api/adapters and PUT /api/adapters/:id. */
export const adapterBody = (form: AdapterForm) => ({
  name: form.name.trim(),
  notes: form.notes.trim() === '' ? null : form.notes,
  class: form.className,
  config: (() => {
    const parsed = parseConfig(form.config);
    return parsed.ok ? parsed.value : null;
  })(),
  incomplete: form.incomplete,
  fields: form.fields.map(toField),
});

/** Adapters by name, the way people look them up. */
export const sortAdapters = (list: readonly Adapter[]): Adapter[] =>
  [...list].sort(
    (a, b) => a.name.localeCompare(b.name, undefined, { sensitivity: 'base' }) || a.id.localeCompare(b.id),
  );

/** The adapter type's display name for a class, or the class itself when the type is unknown. */
export const typeLabel = (types: readonly AdapterType[], className: string): string =>
  types.find((x) => x.name === className)?.displayName ?? className;

export interface ImportForm {
  devicesXml: string;
  sample: string;
}

/** The import needs both pastes (the API says the same: "Missing required field: Devices XML"). */
export function importErrors(form: ImportForm): Partial<Record<keyof ImportForm, string>> {
  const out: Partial<Record<keyof ImportForm, string>> = {};
  if (form.devicesXml.trim() === '') out.devicesXml = required(t('internal.adapters.import.devicesXml'));
  if (form.sample.trim() === '') out.sample = required(t('internal.adapters.import.sample'));
  return out;
}

/**
 * Clone & Modify (decision 0932): the copy maps every key of the sample the way the description says, and
 * keeps the original's other fields, since a short sample need not send every key (alarms come only with
 * faults). The extra ones are listed in the import; the editor removes what is wrong.
 */
export function cloneFields(adapter: Adapter, missing: readonly AdapterField[]): AdapterField[] {
  const replaced = new Set(missing.map((f) => f.name));
  return [...adapter.fields.filter((f) => !replaced.has(f.name)), ...missing].sort((a, b) =>
    a.name.localeCompare(b.name),
  );
}

/** The body of Create: the mapped fields; incomplete when some keys could not be mapped (decision 0932). */
export function createBody(result: ImportResult & { outcome: 'none' }, name: string) {
  return {
    name: name.trim(),
    autogenerated: true,
    incomplete: result.unresolvedKeys.length > 0,
    fields: result.proposed,
  };
}

/** The name Create proposes: the device's, as the description names it. */
export const proposedName = (result: ImportResult): string => result.device?.name ?? '';

/** reports-admin §8 "Adapter search no fields: no-match state": nothing to create from. */
export const hasNoFields = (result: ImportResult): boolean =>
  result.outcome === 'none' && result.proposed.length === 0;

/** What a field means, in one line: "EXECUTION · Path", "LOAD · Rotary (S)". */
export function fieldMeaning(f: AdapterField): string {
  const sameName = f.componentName.trim().toLowerCase() === f.componentType.trim().toLowerCase();
  const component = sameName ? f.componentType : `${f.componentType} (${f.componentName})`;
  return [f.dataItemType, f.dataItemSubtype, component].filter(Boolean).join(' · ');
}

/**
 * An adapter call's URL (reports-admin §7 adapter calls). `company`: the company a root user chose (decision
 * 0946), sent as `?companyId=`; null acts on the user's own company.
 */
export function adapterUrl(company: string | null, path = ''): string {
  const url = `/api/adapters${path}`;
  return company === null ? url : `${url}?companyId=${encodeURIComponent(company)}`;
}

/** One adapter's URL, or one of its actions ('/clone'). */
export const adapterPath = (company: string | null, id: string, action = ''): string =>
  adapterUrl(company, `/${encodeURIComponent(id)}${action}`);

/**
 * The page's URL state: the chosen company (left out when it is the user's own, so plain links keep working)
 * and the open adapter (reports-admin §2 "direct open with adapterId query parameter").
 */
export function adaptersSearch(
  ownCompany: string,
  company: string | null,
  adapterId: string | null = null,
): Record<string, string> {
  return {
    ...(company !== null && company !== ownCompany ? { companyId: company } : {}),
    ...(adapterId !== null ? { adapterId } : {}),
  };
}
