import { useEffect, useId, useRef, useState } from 'react';
import type { ReactNode } from 'react';
import { useLocation } from 'react-router';

/**
 * A disclosure in the header (the WAI-ARIA disclosure pattern): a button that shows or hides the entries
 * under it, so the header keeps one row at desk width. Tab reaches every entry in order once it is open;
 * Escape closes it and gives the focus back to the button; so do a click outside, the focus leaving it and
 * a new page. On a phone the entries show in the row and the button is gone (shell.css).
 */
export function HeaderMenu({
  label,
  ariaLabel,
  current,
  className,
  children,
}: {
  /** The button's text. */
  label: ReactNode;
  /** The button's accessible name when its text alone does not say what it opens (it contains the text). */
  ariaLabel?: string;
  /** The page shown is one of the entries: the button is marked as the navigation marks a link. */
  current?: boolean;
  className?: string;
  children: ReactNode;
}) {
  const [open, setOpen] = useState(false);
  const id = useId();
  const box = useRef<HTMLDivElement>(null);
  const button = useRef<HTMLButtonElement>(null);
  const { pathname } = useLocation();

  useEffect(() => setOpen(false), [pathname]);
  useEffect(() => {
    if (!open) return;
    const outside = (e: Event) => {
      if (!box.current?.contains(e.target as Node)) setOpen(false);
    };
    const escape = (e: KeyboardEvent) => {
      if (e.key !== 'Escape') return;
      setOpen(false);
      button.current?.focus();
    };
    document.addEventListener('pointerdown', outside);
    document.addEventListener('keydown', escape);
    return () => {
      document.removeEventListener('pointerdown', outside);
      document.removeEventListener('keydown', escape);
    };
  }, [open]);

  return (
    <div
      ref={box}
      className={`shell__menu${open ? ' shell__menu--open' : ''} ${className ?? ''}`}
      onBlur={(e) => {
        // The focus went to another part of the page (not nowhere, as a click on the list's padding does).
        if (e.relatedTarget && !box.current?.contains(e.relatedTarget)) setOpen(false);
      }}
    >
      <button
        ref={button}
        type="button"
        className={`button button--ghost shell__menu-button${current ? ' shell__menu-button--current' : ''}`}
        aria-expanded={open}
        aria-controls={id}
        aria-label={ariaLabel}
        onClick={() => setOpen((o) => !o)}
      >
        {label}
        <span aria-hidden="true" className="shell__menu-caret">
          ▾
        </span>
      </button>
      <div id={id} className="shell__menu-list">
        {children}
      </div>
    </div>
  );
}
