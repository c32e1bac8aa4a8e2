import { FormActions, Modal } from '@takt/ui';
import type { FormActionsProps } from '@takt/ui';
import type { ReactNode } from 'react';

export interface FormModalProps {
  title: string;
  /** Closes the dialog; the footer's Cancel does the same (unless `noCancel`). */
  onClose: () => void;
  busy?: boolean;
  className?: string;
  submit: NonNullable<FormActionsProps['submit']>;
  /** Further buttons between Cancel and the primary action. */
  actions?: ReactNode;
  /** No Cancel button in the footer (the operator overlay closes by its heading only). */
  noCancel?: boolean;
  wrap?: boolean;
  children: ReactNode;
}

/** Every floor form and confirm dialog: a Modal whose footer is Cancel, any extra actions, then the primary one. */
export function FormModal({
  title,
  onClose,
  busy,
  className,
  submit,
  actions,
  noCancel,
  wrap,
  children,
}: FormModalProps) {
  return (
    <Modal
      title={title}
      onClose={onClose}
      {...(busy !== undefined ? { busy } : {})}
      {...(className !== undefined ? { className } : {})}
      footer={
        <FormActions
          {...(noCancel ? {} : { onCancel: onClose })}
          {...(busy !== undefined ? { busy } : {})}
          {...(wrap ? { wrap } : {})}
          submit={submit}
        >
          {actions}
        </FormActions>
      }
    >
      {children}
    </Modal>
  );
}
