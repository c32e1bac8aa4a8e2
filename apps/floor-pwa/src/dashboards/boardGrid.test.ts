import { describe, expect, it } from 'vitest';
import { bestGrid, MAX_TILE_SCALE } from './boardGrid';

// A full-width tile designed at 19 × 14 rem (TV mode: 24 px a rem), a Downtime tile at 11 × 15.5 rem.
const FULL = { width: 456, height: 336 };
const HALF = { width: 264, height: 372 };
/** The space under the board's header bar at 1920 × 1080 and 3840 × 2160, with 12 px gaps. */
const HD = { width: 1896, height: 1000, gap: 12 };
const UHD = { width: 3816, height: 2080, gap: 12 };

describe('the live board grid (decision 1042)', () => {
  it.each([
    [13, HD, FULL],
    [24, HD, FULL],
    [48, HD, FULL],
    [13, HD, HALF],
    [48, HD, HALF],
    [13, UHD, FULL],
    [48, UHD, FULL],
    [200, HD, FULL],
  ])('%i tiles fit the space, every tile inside it', (count, space, tile) => {
    const g = bestGrid({ count, ...space, tile })!;
    expect(g.cols * g.rows).toBeGreaterThanOrEqual(count);
    // No empty row: the grid has no more rows than the tiles need.
    expect((g.rows - 1) * g.cols).toBeLessThan(count);
    const cellW = (space.width - (g.cols - 1) * space.gap) / g.cols;
    const cellH = (space.height - (g.rows - 1) * space.gap) / g.rows;
    expect(tile.width * g.scale).toBeLessThanOrEqual(cellW + 1e-6);
    expect(tile.height * g.scale).toBeLessThanOrEqual(cellH + 1e-6);
  });

  it('takes the grid with the largest tiles: 13 full tiles at 1080p are 5 × 3, 48 are 8 × 6', () => {
    expect(bestGrid({ count: 13, ...HD, tile: FULL })).toMatchObject({ cols: 5, rows: 3 });
    expect(bestGrid({ count: 48, ...HD, tile: FULL })).toMatchObject({ cols: 8, rows: 6 });
  });

  it('grows tiles on a large screen up to MAX_TILE_SCALE, and has no grid for nothing', () => {
    expect(bestGrid({ count: 1, ...UHD, tile: HALF })!.scale).toBe(MAX_TILE_SCALE);
    expect(bestGrid({ count: 13, ...UHD, tile: FULL })!.scale).toBeGreaterThan(1);
    expect(bestGrid({ count: 0, ...HD, tile: FULL })).toBeNull();
    expect(bestGrid({ count: 5, width: 0, height: 100, gap: 0, tile: FULL })).toBeNull();
  });
});
