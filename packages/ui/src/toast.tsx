import { createContext, useCallback, useContext, useEffect, useMemo, useRef, useState } from 'react';
import type { ReactNode } from 'react';
import { t } from './i18n';

/** live-operations §9: toasts close after 3000 ms unless they say otherwise. */
export const TOAST_AUTO_CLOSE_MS = 3000;

export type ToastTone = 'info' | 'success' | 'warning' | 'error';

export interface ToastInput {
  message: ReactNode;
  tone?: ToastTone;
  /** null keeps the toast until dismissed or replaced (offline and new-version toasts). */
  autoCloseMs?: number | null;
  action?: { label: string; onClick: () => void; disabled?: boolean };
  /** Showing a toast with the id of an open one replaces it in place (countdowns, reconnect states). */
  id?: string;
}

interface Toast extends ToastInput {
  id: string;
}

export interface Toasts {
  show: (toast: ToastInput) => string;
  dismiss: (id: string) => void;
}

const ToastContext = createContext<Toasts | null>(null);

export function useToasts(): Toasts {
  const ctx = useContext(ToastContext);
  if (!ctx) throw new Error('useToasts needs a <ToastProvider> above it');
  return ctx;
}

function ToastView({ toast, onDismiss }: { toast: Toast; onDismiss: (id: string) => void }) {
  const { id, autoCloseMs = TOAST_AUTO_CLOSE_MS } = toast;
  useEffect(() => {
    if (autoCloseMs == null) return;
    const timer = setTimeout(() => onDismiss(id), autoCloseMs);
    return () => clearTimeout(timer);
  }, [id, autoCloseMs, onDismiss, toast.message]);

  const tone = toast.tone ?? 'info';
  return (
    <div className={`toast toast--${tone}`} role={tone === 'error' ? 'alert' : 'status'}>
      <div className="toast__message">{toast.message}</div>
      {toast.action && (
        <button
          type="button"
          className="button button--ghost"
          onClick={toast.action.onClick}
          disabled={toast.action.disabled}
        >
          {toast.action.label}
        </button>
      )}
      <button
        type="button"
        className="toast__close"
        aria-label={t('common.dismiss')}
        onClick={() => onDismiss(id)}
      >
        ×
      </button>
    </div>
  );
}

export function ToastProvider({ children }: { children: ReactNode }) {
  const [toasts, setToasts] = useState<Toast[]>([]);
  const counter = useRef(0);

  const dismiss = useCallback((id: string) => setToasts((ts) => ts.filter((x) => x.id !== id)), []);
  const show = useCallback((input: ToastInput) => {
    const id = input.id ?? `toast-${++counter.current}`;
    setToasts((ts) => {
      const next = { ...input, id };
      return ts.some((x) => x.id === id) ? ts.map((x) => (x.id === id ? next : x)) : [...ts, next];
    });
    return id;
  }, []);
  const api = useMemo(() => ({ show, dismiss }), [show, dismiss]);

  return (
    <ToastContext.Provider value={api}>
      {children}
      <section className="toasts" aria-label={t('common.notifications')}>
        {toasts.map((toast) => (
          <ToastView key={toast.id} toast={toast} onDismiss={dismiss} />
        ))}
      </section>
    </ToastContext.Provider>
  );
}
