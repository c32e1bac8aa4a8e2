import { FormActions, Modal, Progress, t, useSession } from '@takt/ui';
import type { FormActionsProps, MessageKey } from '@takt/ui';
import { useCallback, useEffect, useId, useRef, useState } from 'react';
import type { ReactNode } from 'react';
import { Link } from 'react-router';
import type { FormError } from './form';
import { formError } from './form';
import { ADMIN_PATHS, mayOpen } from './screens';
import type { AdminScreen } from './screens';
import './admin.css';

// The pieces every plant administration screen is built from: the page frame, the permission gate
// (reports-admin §6), loading, the form error box at the top (reports-admin §8), labelled fields (in
// AdminFields.tsx, exported from here too) and the "Are you sure?" confirmation (UI.md: destructive actions
// confirm).
export { ColorField, DateField, EffectiveDateField, Field, NameField, TimeField } from './AdminFields';
export type { FieldProps } from './AdminFields';

/** reports-admin §6: screens a user may not open say so instead of loading. */
export function AdminGate({
  screen,
  children,
}: {
  screen: Pick<AdminScreen, 'permission'>;
  children: ReactNode;
}) {
  const { me } = useSession();
  if (mayOpen(me, screen)) return <>{children}</>;
  return (
    <main className="page" aria-labelledby="admin-forbidden">
      <h1 id="admin-forbidden">{t('admin.title')}</h1>
      <p className="notice" role="status">
        {t('admin.notPermitted')}
      </p>
    </main>
  );
}

/** The frame of a screen: back link, heading, the header's actions, then the body. */
export function AdminPage({
  title,
  intro,
  actions,
  children,
  busy,
}: {
  title: MessageKey;
  intro?: MessageKey;
  actions?: ReactNode;
  children: ReactNode;
  busy?: boolean;
}) {
  const id = useId();
  useEffect(() => {
    document.title = `${t(title)} · ${t('app.officeName')}`;
  }, [title]);
  return (
    <main className="page admin" aria-labelledby={id} aria-busy={busy ? 'true' : undefined}>
      <p className="admin__back">
        <Link to={ADMIN_PATHS.index}>{t('admin.back')}</Link>
      </p>
      <div className="page__head">
        <h1 id={id}>{t(title)}</h1>
        {actions && <div className="page__tools">{actions}</div>}
      </div>
      {intro && <p className="admin__intro">{t(intro)}</p>}
      {children}
    </main>
  );
}

export type Loaded<T> = { kind: 'loading' } | { kind: 'failed' } | { kind: 'ready'; data: T };

/** Loads with `load`; `reload` asks again (after a change) and keeps the shown data until the answer. */
export function useLoaded<T>(load: (signal: AbortSignal) => Promise<T>): [Loaded<T>, () => void] {
  const [state, setState] = useState<Loaded<T>>({ kind: 'loading' });
  const [round, setRound] = useState(0);
  const loadRef = useRef(load);
  useEffect(() => {
    loadRef.current = load;
  });
  useEffect(() => {
    const controller = new AbortController();
    loadRef
      .current(controller.signal)
      .then((data) => setState({ kind: 'ready', data }))
      .catch(() => {
        if (!controller.signal.aborted) setState({ kind: 'failed' });
      });
    return () => controller.abort();
  }, [round]);
  const reload = useCallback(() => setRound((r) => r + 1), []);
  return [state, reload];
}

/** Progress while loading, the failure with Try again, else the content. */
export function LoadedView<T>({
  state,
  retry,
  children,
}: {
  state: Loaded<T>;
  retry: () => void;
  children: (data: T) => ReactNode;
}) {
  if (state.kind === 'loading') return <Progress />;
  if (state.kind === 'failed')
    return (
      <div className="notice notice--error admin__failed" role="alert">
        <span>{t('admin.loadFailed')}</span>
        <button type="button" className="button" onClick={retry}>
          {t('admin.retry')}
        </button>
      </div>
    );
  return <>{children(state.data)}</>;
}

/** reports-admin §8: the server's error at the top of the form, scrolled into view when it appears. */
export function FormErrorBox({ error }: { error: FormError | null }) {
  const ref = useRef<HTMLDivElement>(null);
  useEffect(() => {
    if (error) ref.current?.scrollIntoView?.({ block: 'nearest' });
  }, [error]);
  if (!error) return null;
  return (
    <div ref={ref} className="notice notice--error admin__error" role="alert">
      <strong>{error.heading}</strong>
      {error.lines.length > 0 && (
        <ul>
          {error.lines.map((l) => (
            <li key={l}>{l}</li>
          ))}
        </ul>
      )}
    </div>
  );
}

/** A dialog with Cancel and one primary action at the bottom (UI.md: within thumb reach). */
function AdminDialog({
  title,
  onClose,
  busy,
  submit,
  children,
}: {
  title: string;
  onClose: () => void;
  busy: boolean;
  submit: FormActionsProps['submit'];
  children: ReactNode;
}) {
  return (
    <Modal
      title={title}
      onClose={onClose}
      busy={busy}
      footer={<FormActions onCancel={onClose} cancelLabel={t('admin.cancel')} busy={busy} submit={submit} />}
    >
      {children}
    </Modal>
  );
}

/**
 * A form in a dialog: the error box on top, the fields, Cancel and Save at the bottom. Save stays disabled
 * while the form is invalid or saving (reports-admin §5 "Submit buttons disabled while invalid or saving").
 */
export function FormDialog({
  title,
  onClose,
  onSubmit,
  invalid,
  busy,
  error,
  submitLabel,
  onInvalidSubmit,
  children,
}: {
  title: string;
  onClose: () => void;
  onSubmit: () => void;
  invalid: boolean;
  busy: boolean;
  error: FormError | null;
  submitLabel?: string;
  /** A submit while the form is invalid (Save is disabled, but a form can still be submitted): show its errors. */
  onInvalidSubmit?: () => void;
  children: ReactNode;
}) {
  const formId = useId();
  return (
    <AdminDialog
      title={title}
      onClose={onClose}
      busy={busy}
      submit={{
        label: busy ? t('admin.saving') : (submitLabel ?? t('admin.save')),
        disabled: invalid,
        form: formId,
      }}
    >
      <DialogForm
        id={formId}
        className="admin__form"
        onSubmit={() => {
          if (invalid) onInvalidSubmit?.();
          else if (!busy) onSubmit();
        }}
      >
        <FormErrorBox error={error} />
        {children}
      </DialogForm>
    </AdminDialog>
  );
}

/** FormDialog's state from a form's errors and its save call: Save is off while a field is wrong or saving. */
export const saveState = (save: { busy: boolean; error: FormError | null }, errors: object) => ({
  invalid: Object.keys(errors).length > 0,
  busy: save.busy,
  error: save.error,
});

/**
 * "Are you sure?" before a destructive action, `body` (what the action does) under it in normal text; the
 * server's refusal shows inside.
 */
export function ConfirmDialog({
  title,
  body,
  confirmLabel,
  onConfirm,
  onClose,
  busy,
  error,
  disabled,
  children,
}: {
  title: string;
  body?: string;
  /** The confirmation is not possible yet (a field below it is wrong). */
  disabled?: boolean;
  confirmLabel: string;
  onConfirm: () => void;
  onClose: () => void;
  busy: boolean;
  error: FormError | null;
  children?: ReactNode;
}) {
  return (
    <AdminDialog
      title={title}
      onClose={onClose}
      busy={busy}
      submit={{ label: confirmLabel, tone: 'danger', onClick: onConfirm, disabled }}
    >
      <FormErrorBox error={error} />
      {/* A short bold question, then what the action does in normal text (a long bold body shouted). */}
      <p className="modal__question confirm__question">{t('admin.confirm')}</p>
      {body && <p className="confirm__body">{body}</p>}
      {children}
    </AdminDialog>
  );
}

/** Runs a call with busy and error state for a form; resolves true when it succeeded. */
export function useSubmit(heading: string) {
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<FormError | null>(null);
  const run = useCallback(
    async (call: () => Promise<unknown>): Promise<boolean> => {
      setBusy(true);
      setError(null);
      try {
        await call();
        return true;
      } catch (err) {
        setError(formError(err, heading));
        return false;
      } finally {
        setBusy(false);
      }
    },
    [heading],
  );
  const clear = useCallback(() => setError(null), []);
  return { busy, error, run, clear };
}

/** A row action whose accessible name says which row ("Archive Break"). */
export function RowButton({
  text,
  label,
  onClick,
  danger,
  disabled,
}: {
  text: string;
  label: string;
  onClick: () => void;
  danger?: boolean;
  disabled?: boolean;
}) {
  return (
    <button
      type="button"
      className={danger ? 'button button--danger' : 'button'}
      aria-label={label}
      disabled={disabled}
      onClick={onClick}
    >
      {text}
    </button>
  );
}

/** A list as a table (one card per row on a phone): the headers, then Status (unless `status` is false) and the row actions. */
export function AdminTable({
  caption,
  headers,
  status = true,
  children,
}: {
  caption: string;
  headers: readonly string[];
  status?: boolean;
  children: ReactNode;
}) {
  return (
    <div className="admin-table-wrap">
      <table className="admin-table">
        <caption className="visually-hidden">{caption}</caption>
        <AdminTableHead>
          {(status ? [...headers, t('admin.status')] : headers).map((h) => (
            <th key={h} scope="col">
              {h}
            </th>
          ))}
        </AdminTableHead>
        <tbody>{children}</tbody>
      </table>
    </div>
  );
}

/** An admin table's header row: the column headers, then the unlabelled column of row actions. */
export function AdminTableHead({ children }: { children: ReactNode }) {
  return (
    <thead>
      <tr>
        {children}
        <th scope="col">
          <span className="visually-hidden">{t('admin.actions')}</span>
        </th>
      </tr>
    </thead>
  );
}

/** A dialog's form, sent by Enter or by the footer's button (its `form` is this id), never by the browser. */
export function DialogForm({
  id,
  className,
  onSubmit,
  children,
}: {
  id: string;
  className: string;
  onSubmit: () => void;
  children: ReactNode;
}) {
  return (
    <form
      id={id}
      className={className}
      noValidate
      onSubmit={(e) => {
        e.preventDefault();
        onSubmit();
      }}
    >
      {children}
    </form>
  );
}

/**
 * Copies a secret shown once (an access token) to the clipboard. Without clipboard access (permissions,
 * plain http) it selects the text in `input` for a manual copy, and `copy` says it failed.
 */
export function useClipboardCopy<E extends HTMLInputElement | HTMLTextAreaElement>(text: string) {
  const [copy, setCopy] = useState<'idle' | 'copied' | 'failed'>('idle');
  const input = useRef<E>(null);
  const onCopy = async () => {
    try {
      await navigator.clipboard.writeText(text);
      setCopy('copied');
    } catch {
      input.current?.select();
      setCopy('failed');
    }
  };
  return { copy, input, onCopy };
}

/** An index page's screens: each a link with its title and a line on what it is for. */
export function ScreenList({
  screens,
}: {
  screens: readonly { id: string; path: string; title: MessageKey; blurb: MessageKey }[];
}) {
  return (
    <ul className="report-list">
      {screens.map((s) => (
        <li key={s.id}>
          <Link to={s.path} className="report-list__link">
            <span className="report-list__title">{t(s.title)}</span>
            <span className="report-list__blurb">{t(s.blurb)}</span>
          </Link>
        </li>
      ))}
    </ul>
  );
}
