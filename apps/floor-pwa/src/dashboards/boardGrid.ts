// A live board lays all its tiles on the screen, whatever the machine count (issue 28 point 3, decision 1042):
// the columns × rows that give the largest tiles in the space the board has, and the scale that fits a tile's
// content (designed at `tile` size) into one cell. Pure: the hook (useBoardGrid) measures, this decides.

export interface BoardGrid {
  cols: number;
  rows: number;
  /** The tile content's zoom: 1 is its designed size. */
  scale: number;
}

/** Tiles never grow beyond this zoom (13 tiles on a 4K wall stay tiles, not posters). */
export const MAX_TILE_SCALE = 3;

export function bestGrid(input: {
  count: number;
  /** The space for the tiles, in CSS px. */
  width: number;
  height: number;
  /** The gap between tiles, in CSS px. */
  gap: number;
  /** The tile's designed size, in CSS px. */
  tile: { width: number; height: number };
}): BoardGrid | null {
  const { count, width, height, gap, tile } = input;
  if (count < 1 || width <= 0 || height <= 0 || tile.width <= 0 || tile.height <= 0) return null;
  let best: BoardGrid | null = null;
  for (let cols = 1; cols <= count; cols++) {
    const rows = Math.ceil(count / cols);
    // The same rows with fewer columns is the same grid with an emptier last row: skip it.
    if (cols > 1 && Math.ceil(count / (cols - 1)) === rows) continue;
    const cellW = (width - (cols - 1) * gap) / cols;
    const cellH = (height - (rows - 1) * gap) / rows;
    if (cellW <= 0 || cellH <= 0) continue;
    const scale = Math.min(cellW / tile.width, cellH / tile.height, MAX_TILE_SCALE);
    if (!best || scale > best.scale + 1e-9) best = { cols, rows, scale };
  }
  return best;
}
