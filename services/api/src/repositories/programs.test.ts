import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { companyScope, packPrograms } from '@takt/db';
import { DIALECTS, freshDb } from '@takt/db/testing';
import type { TestDb } from '@takt/db/testing';
import { hasSubprogramIn, programsOverlapping } from './reports';
import { openSubprogram } from './production';

// The timeline's program reads and the work center card's open sub-program read program_rows and program_open by the
// machine's dictionary id (decision 1181): closed programs from the last one starting at or before the range, the open
// one, of the caller's company only (the same machine id under another company is another machine). The same reads
// with the closed programs ending before a time packed (PostgreSQL, decision 1196): read as rows, packs or both.
describe.each(DIALECTS)('program reads on %s', (dialect) => {
  let t: TestDb;
  beforeEach(async () => {
    t = await freshDb(dialect);
  });
  afterEach(async () => {
    await t.cleanup();
  });

  it.each([
    ['as rows', null],
    ['packed before 5 s', 5_000],
    ['all packed', 100_000],
  ] as const)(
    'reads the programs reaching into a range from before it, the open one, and nothing of another company (%s)',
    async (_, packAt) => {
      const c1 = companyScope(t.db, 'c1');
      const c2 = companyScope(t.db, 'c2');
      // Programs of 100 ms from 0 to 10 s (the last open); sub-programs [1000, 1500) and one open from 9000.
      await c1
        .insertInto('program_intervals', [
          ...Array.from({ length: 100 }, (_, i) => ({
            machine_id: 'm1',
            sub: 0,
            start_at: i * 100,
            end_at: i === 99 ? null : i * 100 + 100,
            name: `P${i}`,
          })),
          { machine_id: 'm1', sub: 1, start_at: 1000, end_at: 1500, name: 'S1' },
          { machine_id: 'm1', sub: 1, start_at: 9000, end_at: null, name: 'S2' },
        ])
        .execute();
      // The same machine id under another company, overlapping everything.
      await c2
        .insertInto('program_intervals', [
          { machine_id: 'm1', sub: 0, start_at: 0, end_at: 20_000, name: 'X' },
          { machine_id: 'm1', sub: 1, start_at: 0, end_at: null, name: 'XS' },
        ])
        .execute();
      if (packAt !== null) {
        const r = await packPrograms(t.db, packAt, 0);
        // c1's closed programs and sub-program ending before packAt, and c2's closed one when it ends before.
        const due = (packAt === 5_000 ? 49 + 1 : 99 + 1 + 1) * (dialect === 'postgres' ? 1 : 0);
        expect(r.rowsPacked).toBe(due);
      }
      const names = async (scope: typeof c1, range: { start: number; end: number }, sub: 0 | 1) =>
        (await programsOverlapping(scope, 'm1', range, sub)).map((p) => [
          p.name,
          Number(p.start_at),
          p.end_at == null ? null : Number(p.end_at),
        ]);

      // Mid-history: the program started at 4,000 reaches in; the one ending at 4,050's start does not.
      expect(await names(c1, { start: 4050, end: 4250 }, 0)).toEqual([
        ['P40', 4000, 4100],
        ['P41', 4100, 4200],
        ['P42', 4200, 4300],
      ]);
      // A range starting where a program starts: the one ending there is not in it.
      expect((await names(c1, { start: 4100, end: 4200 }, 0)).map((p) => p[0])).toEqual(['P41']);
      // Near now: the last closed one and the open one.
      expect(await names(c1, { start: 9850, end: 20_000 }, 0)).toEqual([
        ['P98', 9800, 9900],
        ['P99', 9900, null],
      ]);
      expect(await names(c1, { start: 1200, end: 9500 }, 1)).toEqual([
        ['S1', 1000, 1500],
        ['S2', 9000, null],
      ]);
      expect(await names(c2, { start: 4050, end: 4250 }, 0)).toEqual([['X', 0, 20_000]]);

      expect(await hasSubprogramIn(c1, 'm1', { start: 1400, end: 1600 })).toBe(true);
      expect(await hasSubprogramIn(c1, 'm1', { start: 1500, end: 9000 })).toBe(false);
      expect(await hasSubprogramIn(c1, 'm1', { start: 8000, end: 9001 })).toBe(true);

      expect(await openSubprogram(c1, 'm1')).toBe('S2');
      expect(await openSubprogram(c2, 'm1')).toBe('XS');
      expect(await openSubprogram(companyScope(t.db, 'c3'), 'm1')).toBeNull();
      // A machine running a program with no sub-program.
      await c1
        .insertInto('program_intervals', { machine_id: 'm9', sub: 0, start_at: 1, end_at: null, name: 'Q' })
        .execute();
      expect(await openSubprogram(c1, 'm9')).toBeNull();
    },
  );
});
