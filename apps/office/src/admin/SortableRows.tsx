import { t } from '@takt/ui';
import { useEffect, useRef, useState } from 'react';
import type { KeyboardEvent, PointerEvent, ReactNode } from 'react';
import { moveRow } from './stages';

// Drag reorder for the setup stage list (reports-admin §2 "drag reorder"), by pointer (mouse, pen and touch)
// and by keyboard: each row has a handle; drag it, or focus it and press the arrow keys. Every move is
// announced. Written here rather than taken from a library: decision 0830.

export interface SortableRowProps {
  /** The drag handle, to put at the start of the row. */
  handle: ReactNode;
  dragging: boolean;
}

interface Drag {
  key: string;
  from: number;
  over: number;
  /** Vertical middles of the rows when the drag started. */
  mids: number[];
}

export function SortableRows<T extends { key: string }>({
  rows,
  onMove,
  label,
  help,
  renderRow,
}: {
  rows: readonly T[];
  onMove: (rows: T[]) => void;
  /** The handle's accessible name for a row. */
  label: (row: T) => string;
  /** How to reorder, read with each handle (default: the setup stages' wording). */
  help?: string;
  renderRow: (row: T, index: number, props: SortableRowProps) => ReactNode;
}) {
  const [drag, setDrag] = useState<Drag | null>(null);
  const [announcement, setAnnouncement] = useState('');
  const [focusRequest, setFocusRequest] = useState<{ key: string } | null>(null);
  const listRef = useRef<HTMLOListElement>(null);
  const handles = useRef(new Map<string, HTMLButtonElement>());

  // Moving a node in the DOM drops its focus: give it back to the handle that moved.
  useEffect(() => {
    if (focusRequest) handles.current.get(focusRequest.key)?.focus();
  }, [focusRequest]);

  const commit = (from: number, to: number) => {
    if (from === to) return;
    const next = moveRow(rows, from, to);
    const moved = rows[from]!;
    onMove(next);
    setFocusRequest({ key: moved.key });
    setAnnouncement(
      t('admin.stages.moved', { name: label(moved), n: next.indexOf(moved) + 1, count: next.length }),
    );
  };

  const onPointerDown = (e: PointerEvent<HTMLButtonElement>, index: number, key: string) => {
    if (e.button !== 0) return;
    const items = [...(listRef.current?.children ?? [])] as HTMLElement[];
    const mids = items.map((el) => {
      const r = el.getBoundingClientRect();
      return r.top + r.height / 2;
    });
    e.currentTarget.setPointerCapture(e.pointerId);
    setDrag({ key, from: index, over: index, mids });
  };

  const onPointerMove = (e: PointerEvent<HTMLButtonElement>) => {
    if (!drag) return;
    // The dragged row lands after every other row whose middle is above the pointer.
    const over = drag.mids.filter((m, i) => i !== drag.from && m < e.clientY).length;
    if (over !== drag.over) setDrag({ ...drag, over });
  };

  const onPointerUp = () => {
    if (!drag) return;
    setDrag(null);
    commit(drag.from, drag.over);
  };

  const onKeyDown = (e: KeyboardEvent<HTMLButtonElement>, index: number) => {
    const to =
      e.key === 'ArrowUp'
        ? index - 1
        : e.key === 'ArrowDown'
          ? index + 1
          : e.key === 'Home'
            ? 0
            : e.key === 'End'
              ? rows.length - 1
              : null;
    if (to === null) return;
    e.preventDefault();
    commit(index, Math.max(0, Math.min(rows.length - 1, to)));
  };

  // While dragging, the list shows where the row would land.
  const shown = drag ? moveRow(rows, drag.from, drag.over) : rows;

  return (
    <>
      <ol className="admin-sortable" ref={listRef}>
        {shown.map((row, i) => {
          const index = rows.indexOf(row);
          const handle = (
            <button
              type="button"
              className="admin-sortable__handle"
              aria-label={t('admin.stages.handle', { name: label(row) })}
              aria-roledescription="sortable"
              aria-describedby="admin-sortable-help"
              ref={(el) => {
                if (el) handles.current.set(row.key, el);
                else handles.current.delete(row.key);
              }}
              onPointerDown={(e) => onPointerDown(e, index, row.key)}
              onPointerMove={onPointerMove}
              onPointerUp={onPointerUp}
              onPointerCancel={() => setDrag(null)}
              onKeyDown={(e) => onKeyDown(e, index)}
            >
              <span aria-hidden="true">⠿</span>
            </button>
          );
          return (
            <li
              key={row.key}
              className={drag?.key === row.key ? 'admin-sortable__row is-dragging' : 'admin-sortable__row'}
            >
              {renderRow(row, i, { handle, dragging: drag?.key === row.key })}
            </li>
          );
        })}
      </ol>
      <p id="admin-sortable-help" className="visually-hidden">
        {help ?? t('admin.stages.intro')}
      </p>
      <p className="visually-hidden" role="status" aria-live="polite">
        {announcement}
      </p>
    </>
  );
}
