import { describe, expect, it } from 'vitest';
import { csvCell, toCsv } from './csv';

describe('csvCell', () => {
  it.each<[Parameters<typeof csvCell>[0], string]>([
    ['plain', 'plain'],
    [12, '12'],
    [-5, '-5'],
    ['-5', '-5'],
    [null, ''],
    [undefined, ''],
    [Number.NaN, ''],
    ['a,b', '"a,b"'],
    ['say "hi"', '"say ""hi"""'],
    ['two\nlines', '"two\nlines"'],
    [' padded', '" padded"'],
    ['=HYPERLINK("x")', `"'=HYPERLINK(""x"")"`],
    ['+1 extra', "'+1 extra"],
    ['@SUM(A1)', "'@SUM(A1)"],
  ])('%j → %s', (value, expected) => {
    expect(csvCell(value)).toBe(expected);
  });
});

describe('toCsv', () => {
  it('writes a header and rows with CRLF', () => {
    expect(
      toCsv(
        ['Name', 'Parts'],
        [
          ['Mazak 1', 3],
          ['Haas, VF-2', null],
        ],
      ),
    ).toBe('Name,Parts\r\nMazak 1,3\r\n"Haas, VF-2",\r\n');
  });
});
