import type { ReactNode } from 'react';
import { ErrorNotice } from '../../components/ErrorNotice';

export interface OverlayFormProps {
  /** The form's id, named by the FormModal's submit button (`submit.form`). */
  id: string;
  /** The form's accessible name. */
  label: string;
  /** The save's failure, shown above the fields. */
  error?: string | null;
  noValidate?: boolean;
  /** Pressed Save or Enter: the browser's own submit is prevented. */
  onSubmit: () => void;
  children: ReactNode;
}

/** The form of an overlay whose FormModal footer holds the submit button. */
export function OverlayForm({ id, label, error, noValidate, onSubmit, children }: OverlayFormProps) {
  return (
    <form
      id={id}
      className="form-grid"
      aria-label={label}
      noValidate={noValidate}
      onSubmit={(e) => {
        e.preventDefault();
        onSubmit();
      }}
    >
      <ErrorNotice message={error} />
      {children}
    </form>
  );
}
