import { useEffect, useId, useRef } from 'react';
import type { ReactNode } from 'react';
import { t } from './i18n';

export interface ModalProps {
  /** The dialog's accessible name and heading. */
  title: string;
  onClose: () => void;
  children: ReactNode;
  /** Primary actions, kept at the bottom within thumb reach (UI.md "Floor"). */
  footer?: ReactNode;
  className?: string;
  /** Escape and the backdrop do nothing while saving. */
  busy?: boolean;
}

/**
 * A modal dialog on the native <dialog> element (focus trap, Escape, inert background come with it), named by
 * its heading so tests and screen readers find it by role and name.
 */
export function Modal({ title, onClose, children, footer, className, busy }: ModalProps) {
  const ref = useRef<HTMLDialogElement>(null);
  const id = useId();
  const onCloseRef = useRef(onClose);
  const busyRef = useRef(busy);
  useEffect(() => {
    onCloseRef.current = onClose;
    busyRef.current = busy;
  });

  useEffect(() => {
    const d = ref.current;
    if (!d) return;
    if (!d.open) d.showModal();
    const onCancel = (e: Event) => {
      e.preventDefault();
      if (!busyRef.current) onCloseRef.current();
    };
    d.addEventListener('cancel', onCancel);
    return () => {
      d.removeEventListener('cancel', onCancel);
      if (d.open) d.close();
    };
  }, []);

  return (
    <dialog ref={ref} className={`modal ${className ?? ''}`} aria-labelledby={`${id}-title`}>
      <header className="modal__head">
        <h2 id={`${id}-title`} className="modal__title">
          {title}
        </h2>
        <button
          type="button"
          className="button button--ghost modal__close"
          aria-label={t('common.close')}
          onClick={onClose}
          disabled={busy}
        >
          ×
        </button>
      </header>
      <div className="modal__body">{children}</div>
      {footer && <footer className="modal__foot">{footer}</footer>}
    </dialog>
  );
}
