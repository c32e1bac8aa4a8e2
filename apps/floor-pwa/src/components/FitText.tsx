import { useLayoutEffect, useRef } from 'react';
import type { ReactNode } from 'react';

/**
 * Fit-to-width text (decision 1042): a figure on a board is never cut ("0:10:…"). The text keeps its font size
 * while it fits its box and shrinks, on one line, when it does not: measured on every change of the box or
 * the text (a ticking time in state). The box is a block; the text is `.fit-text__inner`.
 */
export function FitText({ children, className }: { children: ReactNode; className?: string }) {
  const box = useRef<HTMLSpanElement>(null);
  const inner = useRef<HTMLSpanElement>(null);
  useLayoutEffect(() => {
    const b = box.current;
    const i = inner.current;
    if (!b || !i) return;
    const fit = () => {
      i.style.fontSize = '';
      const room = b.clientWidth;
      const need = i.scrollWidth;
      if (room > 0 && need > room) i.style.fontSize = `${Math.floor((room / need) * 1000) / 1000}em`;
    };
    fit();
    const ro = new ResizeObserver(fit);
    ro.observe(b);
    const mo = new MutationObserver(fit);
    mo.observe(i, { subtree: true, childList: true, characterData: true });
    return () => {
      ro.disconnect();
      mo.disconnect();
    };
  }, []);
  return (
    <span ref={box} className={`fit-text${className ? ` ${className}` : ''}`}>
      <span ref={inner} className="fit-text__inner">
        {children}
      </span>
    </span>
  );
}
