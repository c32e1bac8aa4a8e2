import { useLayoutEffect, useState } from 'react';
import type { CSSProperties, RefObject } from 'react';
import { bestGrid } from './boardGrid';
import type { BoardGrid } from './boardGrid';

// The board's tiles fill the space under its header bar (decision 1042): measured here, decided by bestGrid.

/** live-operations §9: the mobile layout under 736 px scrolls as before. */
const MOBILE_MAX_PX = 735.98;

/** A tile's designed size in rem (what it needs at zoom 1 without cutting anything). */
export interface TileSize {
  width: number;
  height: number;
}

const remPx = () => parseFloat(getComputedStyle(document.documentElement).fontSize) || 16;

/**
 * The grid for `count` tiles of `tile` size in the element `ref` (the tiles' container, which must have the
 * space to fill: a definite height). Null on a phone, or before the first measure: the CSS grid's own layout.
 */
export function useBoardGrid(
  ref: RefObject<HTMLElement | null>,
  count: number,
  tile: TileSize,
): BoardGrid | null {
  const [grid, setGrid] = useState<BoardGrid | null>(null);
  const { width: tileW, height: tileH } = tile;
  useLayoutEffect(() => {
    const el = ref.current;
    if (!el) return;
    const measure = () => {
      if (window.innerWidth <= MOBILE_MAX_PX) return setGrid(null);
      const style = getComputedStyle(el);
      const rem = remPx();
      const next = bestGrid({
        count,
        width: el.clientWidth,
        height: el.clientHeight,
        gap: parseFloat(style.rowGap) || 0,
        tile: { width: tileW * rem, height: tileH * rem },
      });
      setGrid((prev) =>
        prev && next && prev.cols === next.cols && prev.rows === next.rows && prev.scale === next.scale
          ? prev
          : next,
      );
    };
    measure();
    const ro = new ResizeObserver(measure);
    ro.observe(el);
    return () => ro.disconnect();
  }, [ref, count, tileW, tileH]);
  return grid;
}

/** The container's style for a grid: the columns and rows, and the tiles' zoom (--tile-scale). */
export const boardGridStyle = (grid: BoardGrid | null): CSSProperties | undefined =>
  grid
    ? ({
        gridTemplateColumns: `repeat(${grid.cols}, minmax(0, 1fr))`,
        gridTemplateRows: `repeat(${grid.rows}, minmax(0, 1fr))`,
        '--tile-scale': String(Math.floor(grid.scale * 1000) / 1000),
      } as CSSProperties)
    : undefined;
