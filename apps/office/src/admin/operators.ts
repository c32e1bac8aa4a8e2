import type { Operator } from '@takt/domain';
import { t } from '@takt/ui';
import { nameError, setErrors } from './form';

// Operators (reports-admin §2 "Operators: create, edit, archive, restore, delete"; live-operations §3
// Operator: id, name, erpId, archivedAt, runCount).

export interface OperatorForm {
  name: string;
  erpId: string;
}

export const newOperatorForm = (): OperatorForm => ({ name: '', erpId: '' });
export const operatorFormOf = (o: Operator): OperatorForm => ({ name: o.name, erpId: o.erpId ?? '' });

export const operatorErrors = (f: OperatorForm) =>
  setErrors({
    name: nameError(f.name),
    erpId: f.erpId.trim().length > 250 ? t('admin.tooLong', { max: 250 }) : null,
  });

export const operatorBody = (f: OperatorForm) => ({
  name: f.name.trim(),
  erpId: f.erpId.trim() === '' ? null : f.erpId.trim(),
});

/** The API keeps operators with runs (runs refer to them): those can only be archived. */
export const mayDelete = (o: Pick<Operator, 'runCount'>): boolean => o.runCount === 0;

/** Active first, then archived; each by name. */
export const sortOperators = (list: readonly Operator[]): Operator[] =>
  [...list].sort(
    (a, b) => Number(a.archivedAt !== null) - Number(b.archivedAt !== null) || a.name.localeCompare(b.name),
  );
