import { t } from '@takt/ui';
import { Field, useLoaded } from '../admin/AdminParts';
import { api } from '../api';

// The company whose adapters a root user works on (decision 0946): staff look after several customers, and
// adapters belong to a company. Every company comes from the internal company list (reports-admin §2).

export interface CompanyOption {
  id: string;
  name: string;
}

/** Every company by name; only the user's own while the list loads or when it cannot be read. */
export function useCompanyOptions(own: CompanyOption): CompanyOption[] {
  const [state] = useLoaded(async (signal) => {
    const { companies } = await api.request<{ companies: CompanyOption[] }>('/api/internal/companies', {
      signal,
    });
    return companies.map(({ id, name }) => ({ id, name })).sort((a, b) => a.name.localeCompare(b.name));
  });
  return state.kind === 'ready' ? state.data : [own];
}

/** The companies as a select's options (the adapter and gateway screens' company choices). */
export function CompanyOptions({ companies }: { companies: readonly CompanyOption[] }) {
  return companies.map((c) => (
    <option key={c.id} value={c.id}>
      {c.name}
    </option>
  ));
}

export function CompanyChoice({
  value,
  companies,
  onChange,
  hint,
}: {
  value: string;
  companies: readonly CompanyOption[];
  onChange: (id: string) => void;
  hint?: string;
}) {
  // A company named by the URL shows by its id until the list has it.
  const options = companies.some((c) => c.id === value)
    ? companies
    : [...companies, { id: value, name: value }];
  return (
    <Field label={t('internal.adapters.company')} {...(hint ? { hint } : {})}>
      {(p) => (
        <select {...p} value={value} onChange={(e) => onChange(e.target.value)}>
          <CompanyOptions companies={options} />
        </select>
      )}
    </Field>
  );
}
