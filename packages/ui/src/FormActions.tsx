import type { ReactNode } from 'react';
import { t } from './i18n';

export interface FormActionsProps {
  /** Cancel button (left); left out when absent. */
  onCancel?: () => void;
  /** Defaults to "Cancel". */
  cancelLabel?: string;
  /** Saving: every button is disabled, so a submit cannot run twice (live-operations §5). */
  busy?: boolean;
  /** The primary action (right, within thumb reach — UI.md "Floor"). */
  submit?: {
    label: string;
    /** Disabled while the form is invalid (live-operations §5). */
    disabled?: boolean;
    /** Submits this form (by id) instead of calling onClick: the footer sits outside the <form>. */
    form?: string;
    onClick?: () => void;
    /** A destructive action ("Stop Job") is red. */
    tone?: 'primary' | 'danger';
  };
  /** Further buttons between Cancel and the primary action (Start Job in Setup, a hint). */
  children?: ReactNode;
  /** Let many buttons wrap onto several rows (the operator overlay). */
  wrap?: boolean;
}

/** The footer of every floor form and confirm dialog: Cancel, then any extra actions, then the primary one. */
export function FormActions({ onCancel, cancelLabel, busy, submit, children, wrap }: FormActionsProps) {
  return (
    <div className={`modal__buttons${wrap ? ' modal__buttons--wrap' : ''}`}>
      {onCancel && (
        <button type="button" className="button touch" onClick={onCancel} disabled={busy}>
          {cancelLabel ?? t('overlay.cancel')}
        </button>
      )}
      {children}
      {submit && (
        <button
          type={submit.form ? 'submit' : 'button'}
          form={submit.form}
          className={`button button--${submit.tone ?? 'primary'} touch`}
          disabled={busy || submit.disabled}
          onClick={submit.onClick}
        >
          {submit.label}
        </button>
      )}
    </div>
  );
}
