import { useId } from 'react';
import { t } from './i18n';

export interface GroupSelectProps {
  groups: readonly { id: string; name: string }[];
  /** null = All Machines. */
  value: string | null;
  onChange: (groupId: string | null) => void;
  className?: string;
}

/** "Machine group" filter: All Machines plus each group. */
export function GroupSelect({ groups, value, onChange, className }: GroupSelectProps) {
  const id = useId();
  const known = value != null && groups.some((g) => g.id === value);
  return (
    <div className={className ? `group-select ${className}` : 'group-select'}>
      <label htmlFor={id}>{t('filter.group')}</label>
      <select id={id} value={known ? value : ''} onChange={(e) => onChange(e.target.value || null)}>
        <option value="">{t('filter.allMachines')}</option>
        {groups.map((g) => (
          <option key={g.id} value={g.id}>
            {g.name}
          </option>
        ))}
      </select>
    </div>
  );
}
