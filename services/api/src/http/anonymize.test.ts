import { describe, expect, it } from 'vitest';
import { anonymizeCsv, anonymizeJson, nameAliases } from './anonymize';
import { toCsv } from './csv';

// Decision 1116: one mapping from real names to stand-ins, for JSON answers and CSV downloads.

const aliases = nameAliases({
  machines: [
    { id: 'm-b', name: 'Haas VF-2', createdAt: 2 },
    { id: 'm-a', name: 'Okuma, "big" lathe', createdAt: 1 },
    { id: 'm-c', name: 'Mazak', createdAt: 2 },
  ],
  operators: [
    { id: 'o-1', name: 'Ada Byron', createdAt: 5 },
    { id: 'o-2', name: 'Mazak', createdAt: 1 },
    { id: 'o-3', name: '  ', createdAt: 6 },
  ],
  companyName: 'Acme Machining',
});

describe('nameAliases', () => {
  it('numbers machines and operators in the order they were made, the company one stand-in', () => {
    expect(Object.fromEntries(aliases)).toEqual({
      'Okuma, "big" lathe': 'Machine 1',
      'Haas VF-2': 'Machine 2',
      Mazak: 'Machine 3', // a machine before an operator of the same name
      'Ada Byron': 'Operator 2',
      'Acme Machining': 'Company',
    });
  });

  it('gives a name the same stand-in however the rows arrive', () => {
    const again = nameAliases({
      machines: [
        { id: 'm-c', name: 'Mazak', createdAt: 2 },
        { id: 'm-b', name: 'Haas VF-2', createdAt: 2 },
        { id: 'm-a', name: 'Okuma, "big" lathe', createdAt: 1 },
      ],
      operators: [],
      companyName: 'Acme Machining',
    });
    expect(again.get('Haas VF-2')).toBe('Machine 2');
    expect(again.get('Mazak')).toBe('Machine 3');
  });
});

describe('anonymizeJson', () => {
  it('replaces every string that is a real name, at any depth, and nothing else', () => {
    const answer = {
      company: { id: 'c1', name: 'Acme Machining' },
      machines: [
        { id: 'm-b', name: 'Haas VF-2', utilization: 0.5 },
        { id: 'm-c', name: 'Mazak Cell', note: 'Haas VF-2 is down' },
      ],
      operator: 'Ada Byron',
      'Haas VF-2': true,
      empty: null,
    };
    expect(anonymizeJson(answer, aliases)).toEqual({
      company: { id: 'c1', name: 'Company' },
      machines: [
        { id: 'm-b', name: 'Machine 2', utilization: 0.5 },
        { id: 'm-c', name: 'Mazak Cell', note: 'Haas VF-2 is down' },
      ],
      operator: 'Operator 2',
      'Haas VF-2': true,
      empty: null,
    });
  });
});

describe('anonymizeCsv', () => {
  it('replaces whole cells, quoted or not, and keeps the document’s shape', () => {
    const csv = toCsv(
      ['Machine', 'Operator', 'Note'],
      [
        ['Okuma, "big" lathe', 'Ada Byron', 'a "quoted"\nnote'],
        ['Haas VF-2', '', 'Haas VF-2 ran'],
      ],
    );
    expect(anonymizeCsv(csv, aliases)).toBe(
      toCsv(
        ['Machine', 'Operator', 'Note'],
        [
          ['Machine 1', 'Operator 2', 'a "quoted"\nnote'],
          ['Machine 2', '', 'Haas VF-2 ran'],
        ],
      ),
    );
  });

  it('leaves a CSV without names as it was', () => {
    const csv = 'a,b\r\n"1,5",2\r\n';
    expect(anonymizeCsv(csv, aliases)).toBe(csv);
    expect(anonymizeCsv('', aliases)).toBe('');
  });
});
