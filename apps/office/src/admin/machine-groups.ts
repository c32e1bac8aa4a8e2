import type { MachineGroup, MachineGroupSaveRequest } from '@takt/domain';
import { t } from '@takt/ui';
import { nameError, setErrors } from './form';

// Machine groups (reports-admin §2 "Machine groups: name, ERP group id, machines, downtime reasons
// (FullProduct)", §3 Machine group: id, name, erpGroupId, machines, annotationTypes).

export interface GroupForm {
  name: string;
  erpGroupId: string;
  machines: string[];
  annotationTypes: string[];
}

export const newGroupForm = (): GroupForm => ({
  name: '',
  erpGroupId: '',
  machines: [],
  annotationTypes: [],
});

export const groupFormOf = (g: MachineGroup): GroupForm => ({
  name: g.name,
  erpGroupId: g.erpGroupId ?? '',
  machines: [...g.machines],
  annotationTypes: [...g.annotationTypes],
});

export const groupErrors = (f: GroupForm) =>
  setErrors({
    name: nameError(f.name),
    erpGroupId: f.erpGroupId.trim().length > 250 ? t('admin.tooLong', { max: 250 }) : null,
  });

/**
 * The save body. Downtime reasons are sent only with FullProduct (reports-admin §6): without it the API
 * refuses them, and a body without them keeps the group's reasons.
 */
export const groupBody = (f: GroupForm, fullProduct: boolean): MachineGroupSaveRequest => ({
  name: f.name.trim(),
  erpGroupId: f.erpGroupId.trim() === '' ? null : f.erpGroupId.trim(),
  machines: f.machines,
  ...(fullProduct ? { annotationTypes: f.annotationTypes } : {}),
});

/** `ids` with `id` in or out. */
export const toggled = (ids: readonly string[], id: string, on: boolean): string[] =>
  on ? (ids.includes(id) ? [...ids] : [...ids, id]) : ids.filter((x) => x !== id);

/** The names of `ids` found in `named`, in `named`'s order, joined for a table cell. */
export function namesOf(ids: readonly string[], named: ReadonlyArray<{ id: string; name: string }>): string {
  const set = new Set(ids);
  return named
    .filter((n) => set.has(n.id))
    .map((n) => n.name)
    .join(', ');
}
