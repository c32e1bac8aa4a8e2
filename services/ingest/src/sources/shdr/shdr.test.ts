import { readFileSync } from 'node:fs';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { AssetRecord, KeyKind, ShdrData, ShdrLine } from './shdr';
import { parseDataSet, parseShdrLine, parseTimestamp, pongInterval, splitShdrStream, tokenize } from './shdr';

const RECEIVED = Date.UTC(2024, 0, 1);
const T0 = '2017-02-01T12:18:02.2343750Z';
const T0_MS = Date.UTC(2017, 1, 1, 12, 18, 2, 234);

function mtconnectFile(name: string): Buffer {
  return readFileSync(new URL(`../../../../../../shared/data/mtconnect/${name}`, import.meta.url));
}

function data(line: ShdrLine): ShdrData {
  if (line.type !== 'data') throw new Error(`expected a data line, got ${JSON.stringify(line)}`);
  return line;
}

function parse(line: string, kinds?: Record<string, KeyKind>): ShdrData {
  return data(parseShdrLine(line, RECEIVED, kinds ? new Map(Object.entries(kinds)) : undefined));
}

function pairs(line: ShdrData): Array<[string, string | null]> {
  return line.observations.map((o) => [o.key, o.value]);
}

function splitAll(chunks: Array<string | Buffer>): string[] {
  const splitter = splitShdrStream();
  return [...chunks.flatMap((c) => splitter.push(c)), ...splitter.end()];
}

describe('parseTimestamp', () => {
  it.each([
    [T0, T0_MS],
    ['2022-08-08T13:51:34.7167146Z', Date.UTC(2022, 7, 8, 13, 51, 34, 716)],
    ['2024-03-05T06:07:08Z', Date.UTC(2024, 2, 5, 6, 7, 8)],
    ['2024-03-05T06:07:08.5Z', Date.UTC(2024, 2, 5, 6, 7, 8, 500)],
    ['2024-03-05T06:07:08.123', Date.UTC(2024, 2, 5, 6, 7, 8, 123)],
    ['2024-03-05T08:07:08.000+02:00', Date.UTC(2024, 2, 5, 6, 7, 8)],
    ['2024-03-05T06:07:08.000Z@12.5', Date.UTC(2024, 2, 5, 6, 7, 8)],
  ])('%s → %d', (text, ms) => {
    expect(parseTimestamp(text)).toBe(ms);
  });

  it.each([
    '',
    '2017',
    'now',
    '2024-13-05T06:07:08Z',
    '2024-03-05',
    '2024-03-05T06:07:08.Z',
    '2024-03-05T06:07:x8Z',
  ])('%j is not a timestamp', (text) => {
    expect(parseTimestamp(text)).toBeNull();
  });

  it('reads the usual `…Z` form exactly as the general parser does (a leading blank forces that one)', () => {
    const digits = (n: number, width: number) => String(n).padStart(width, '0');
    let seed = 7;
    const rand = (n: number) => (seed = (seed * 1103515245 + 12345) % 2147483648) % n;
    for (let k = 0; k < 2000; k++) {
      const fraction = rand(3) === 0 ? '' : `.${digits(rand(10_000_000), 1 + rand(9))}`;
      const text =
        `${digits(1970 + rand(80), 4)}-${digits(rand(14), 2)}-${digits(rand(33), 2)}T` +
        `${digits(rand(26), 2)}:${digits(rand(61), 2)}:${digits(rand(62), 2)}${fraction}Z`;
      expect(parseTimestamp(text), text).toBe(parseTimestamp(` ${text}`));
    }
  });
});

describe('parseShdrLine: values', () => {
  it('reads several pairs on one line at the line timestamp', () => {
    const line = parse(`${T0}|execution|ACTIVE|part_count|17|Sspeed|1200.5`);
    expect(line.ts).toBe(T0_MS);
    expect(pairs(line)).toEqual([
      ['execution', 'ACTIVE'],
      ['part_count', '17'],
      ['Sspeed', '1200.5'],
    ]);
    expect(line.observations.every((o) => o.ts === T0_MS && o.kind === 'value')).toBe(true);
    expect(line.rejected).toBe(0);
  });

  it('uses the receive time when the timestamp is empty or unparseable', () => {
    expect(parse('|execution|READY').ts).toBe(RECEIVED);
    expect(parse('garbage|execution|READY').ts).toBe(RECEIVED);
  });

  it('maps UNAVAILABLE in any case to null and trims tokens', () => {
    expect(pairs(parse(`${T0}| avail |unavailable|mode|Unavailable|program| O1 `))).toEqual([
      ['avail', null],
      ['mode', null],
      ['program', 'O1'],
    ]);
  });

  it('keeps an empty value (the Hurco sends `Block_Number|`)', () => {
    expect(pairs(parse(`${T0}|Block_Number|`))).toEqual([['Block_Number', '']]);
  });

  it('reads a quoted value holding \\| and \\"', () => {
    expect(pairs(parse(`${T0}|msg|"a \\| b \\"c\\""|x|1`))).toEqual([
      ['msg', 'a | b "c"'],
      ['x', '1'],
    ]);
  });

  it('keeps a data set or table in braces as one value, even with | inside', () => {
    const line = parse(`${T0}|vars|{a=1 b='x|y' c={d=2}}|x|1`);
    expect(pairs(line)).toEqual([
      ['vars', "{a=1 b='x|y' c={d=2}}"],
      ['x', '1'],
    ]);
    expect(parseDataSet(line.observations[0]?.value ?? '')).toEqual({ a: '1', b: 'x|y', c: '{d=2}' });
  });

  it('parses key=value data sets, removals and UNAVAILABLE entries', () => {
    expect(parseDataSet('a=1 b="two words" c d=UNAVAILABLE')).toEqual({
      a: '1',
      b: 'two words',
      c: null,
      d: null,
    });
  });

  it('reads a time series when the key is known to be one', () => {
    const line = parse(`${T0}|amps|3|100|1.5 2.5 3.5|x|1`, { amps: 'time_series' });
    expect(line.observations[0]).toMatchObject({
      key: 'amps',
      value: '1.5 2.5 3.5',
      timeSeries: { count: 3, rate: 100 },
    });
    expect(pairs(line)[1]).toEqual(['x', '1']);
  });
});

describe('parseShdrLine: conditions and messages', () => {
  it('detects a condition by shape without a device description, level in any case', () => {
    const line = parse(`${T0}|system|Fault|E101|2|HIGH|Spindle overload|execution|STOPPED`);
    expect(line.observations[0]).toMatchObject({
      key: 'system',
      kind: 'condition',
      value: 'FAULT',
      condition: {
        level: 'FAULT',
        nativeCode: 'E101',
        nativeSeverity: '2',
        qualifier: 'HIGH',
        message: 'Spindle overload',
      },
    });
    expect(pairs(line)[1]).toEqual(['execution', 'STOPPED']);
  });

  it('reads NORMAL clears and an UNAVAILABLE condition', () => {
    expect(parse(`${T0}|system|NORMAL||||`).observations[0]).toMatchObject({
      kind: 'condition',
      value: 'NORMAL',
    });
    expect(parse(`${T0}|system|NORMAL|E101|||`).observations[0]?.condition?.nativeCode).toBe('E101');
    expect(parse(`${T0}|system|UNAVAILABLE||||`).observations[0]).toMatchObject({
      kind: 'condition',
      value: null,
    });
  });

  it('does not mistake an UNAVAILABLE value followed by pairs for a condition', () => {
    const line = parse(`${T0}|avail|UNAVAILABLE|execution|UNAVAILABLE|mode|UNAVAILABLE|program|UNAVAILABLE`);
    expect(line.observations.map((o) => o.kind)).toEqual(['value', 'value', 'value', 'value']);
    expect(pairs(line).map(([k]) => k)).toEqual(['avail', 'execution', 'mode', 'program']);
  });

  it('does not mistake a NORMAL event value followed by pairs for a condition', () => {
    const line = parse(`${T0}|door|NORMAL|execution|READY|mode|AUTOMATIC`);
    expect(pairs(line)).toEqual([
      ['door', 'NORMAL'],
      ['execution', 'READY'],
      ['mode', 'AUTOMATIC'],
    ]);
    expect(line.observations.every((o) => o.kind === 'value')).toBe(true);
  });

  it('uses KeyKinds when given: a short condition is padded, a bad level rejected', () => {
    expect(parse(`${T0}|temp|warning|T1`, { temp: 'condition' }).observations[0]?.condition).toEqual({
      level: 'WARNING',
      nativeCode: 'T1',
      nativeSeverity: '',
      qualifier: '',
      message: '',
    });
    const bad = parse(`${T0}|temp|HOT||||`, { temp: 'condition' });
    expect(bad.observations).toEqual([]);
    expect(bad.rejected).toBe(1);
  });

  it('reads a MESSAGE as nativeCode|text when the key is known to be a message', () => {
    const line = parse(`${T0}|msg|M42|Door open|x|1`, { msg: 'message' });
    expect(line.observations[0]).toMatchObject({
      key: 'msg',
      kind: 'message',
      nativeCode: 'M42',
      value: 'Door open',
    });
    expect(pairs(line)[1]).toEqual(['x', '1']);
  });
});

describe('parseShdrLine: bad input', () => {
  it.each([
    ['2017', 0, 1],
    ['2017.919363', 0, 1],
    [`${T0}|`, 0, 1],
    [`${T0}|a|1|dangling`, 1, 1],
    [`${T0}||orphan|a|1`, 1, 1],
    [`${T0}|a|1||`, 1, 0],
  ])('%j → %d observations, %d rejected', (text, observations, rejected) => {
    const line = parse(text);
    expect(line.observations).toHaveLength(observations);
    expect(line.rejected).toBe(rejected);
  });
});

it('reads a NUL character as U+FFFD and keeps the pairs around it', () => {
  const line = parse(`${T0}|program|O1\u0000|a|1`);
  expect(line.observations.map((o) => [o.key, o.value])).toEqual([
    ['program', 'O1\uFFFD'],
    ['a', '1'],
  ]);
  expect(line.rejected).toBe(0);
});

describe('parseShdrLine: commands and assets', () => {
  it.each([
    ['* PONG 10000', 'PONG', '10000'],
    ['* PING', 'PING', ''],
    ['*adapterVersion:2.0', 'adapterVersion', '2.0'],
    ['* shdrVersion: 2', 'shdrVersion', '2'],
    ['*adapterVersion:UNAVAILABLE', 'adapterVersion', 'UNAVAILABLE'],
  ])('%j is command %s = %j', (text, name, value) => {
    expect(parseShdrLine(text, RECEIVED)).toMatchObject({ type: 'command', name, value });
  });

  it('reads the heartbeat interval from PONG only', () => {
    expect(pongInterval(parseShdrLine('* PONG 10000', RECEIVED))).toBe(10_000);
    expect(pongInterval(parseShdrLine('* PONG soon', RECEIVED))).toBeNull();
    expect(pongInterval(parseShdrLine('*adapterVersion:2', RECEIVED))).toBeNull();
  });

  it.each<[string, AssetRecord]>([
    [
      `${T0}|@ASSET@|T1|CuttingTool|<CuttingTool a="1|2"/>`,
      { op: 'add', assetId: 'T1', assetType: 'CuttingTool', body: '<CuttingTool a="1|2"/>' },
    ],
    [
      `${T0}|@UPDATE_ASSET@|T1|ToolLife|3`,
      { op: 'update', assetId: 'T1', assetType: '', body: 'ToolLife|3' },
    ],
    [`${T0}|@REMOVE_ASSET@|T1`, { op: 'remove', assetId: 'T1', assetType: '', body: '' }],
    [
      `${T0}|@REMOVE_ALL_ASSETS@|CuttingTool`,
      { op: 'remove_all', assetId: 'CuttingTool', assetType: 'CuttingTool', body: '' },
    ],
  ])('%j is an asset record', (text, record) => {
    const line = parse(text);
    expect(line.assets).toEqual([record]);
    expect(line.observations).toEqual([
      { ts: T0_MS, key: text.split('|')[1], value: record.assetId, kind: 'asset' },
    ]);
  });

  it('rejects an asset command without an id', () => {
    expect(parse(`${T0}|@ASSET@`)).toMatchObject({ observations: [], rejected: 1 });
  });
});

describe('splitShdrStream', () => {
  it('handles LF, CRLF, blank lines and a line split across chunks', () => {
    expect(splitAll(['a|1\r\nb|', '2\n\r\n', 'c|3\r', '\nd|4'])).toEqual(['a|1', 'b|2', 'c|3', 'd|4']);
  });

  it('keeps a UTF-8 character split between two chunks', () => {
    const bytes = Buffer.from('t|msg|Überlast\n');
    expect(splitAll([bytes.subarray(0, 7), bytes.subarray(7)])).toEqual(['t|msg|Überlast']);
  });

  it('joins a --multiline-- asset block into one record and hides its body lines', () => {
    const lines = splitAll([
      `${T0}|@ASSET@|T1|CuttingTool|--multiline--AB\r\n<Tool>\n`,
      'x|1|y|2\n--multiline--AB\nnext|1\n',
    ]);
    expect(lines).toEqual([`${T0}|@ASSET@|T1|CuttingTool|<Tool>\nx|1|y|2`, 'next|1']);
    expect(parse(lines[0] ?? '').assets?.[0]?.body).toBe('<Tool>\nx|1|y|2');
  });

  it('drops an overlong line and goes on with the next one', () => {
    const splitter = splitShdrStream({ maxLineLength: 10 });
    const lines = [
      ...splitter.push('x'.repeat(8)),
      ...splitter.push('y'.repeat(8)),
      ...splitter.push('\nok|1\n'),
    ];
    expect(lines).toEqual(['ok|1']);
    expect(splitter.dropped).toBe(1);
  });

  it('drops an unterminated multiline block at end of stream', () => {
    const splitter = splitShdrStream();
    expect([...splitter.push('t|@ASSET@|T1|X|--multiline--Q\n<a/>\n'), ...splitter.end()]).toEqual([]);
    expect(splitter.dropped).toBe(1);
  });
});

describe('real adapter logs (shared/data/mtconnect)', () => {
  function parseFile(name: string) {
    const lines = splitAll([mtconnectFile(name)]);
    const parsed = lines.map((l, i) => parseShdrLine(l, i));
    const dataLines = parsed.filter((p): p is ShdrData => p.type === 'data');
    return { lines, parsed, dataLines };
  }

  it('Hurco04: every line parsed, the nine broken `2017` lines rejected, 7-digit fractions read', () => {
    const { lines, dataLines } = parseFile('nist_2-1-2017-Hurco04-Clean.shdr.txt');
    expect(lines).toHaveLength(66_155);
    const rejectedLines = dataLines.filter((l) => l.rejected > 0);
    expect(rejectedLines).toHaveLength(9);
    expect(rejectedLines.every((l) => l.observations.length === 0)).toBe(true);
    expect(dataLines[0]?.ts).toBe(T0_MS);
    const partCounts = dataLines.flatMap((l) => l.observations).filter((o) => o.key === 'Part_Count');
    expect([partCounts[0]?.value, partCounts.at(-1)?.value]).toEqual(['1065', '1075']);
    const execution = dataLines.flatMap((l) => l.observations).filter((o) => o.key === 'Program_Status');
    expect(execution.at(-1)?.value).toBe('PROGRAM_STOPPED');
  });

  it('Okuma: asset blocks consumed, commands recognised, backwards timestamps kept, conditions read', () => {
    const { lines, parsed, dataLines } = parseFile('cppagent_demo_okuma.shdr.txt');
    // 10,770 file lines; each of the 118 asset blocks spans 3 lines and becomes one record.
    expect(lines).toHaveLength(10_770 - 118 * 2);
    expect(lines.some((l) => l.startsWith('<CuttingTool') || l.startsWith('--multiline--'))).toBe(false);
    expect(parsed.filter((p) => p.type === 'command')).toHaveLength(9);
    expect(dataLines.every((l) => l.rejected === 0)).toBe(true);
    const assets = dataLines.flatMap((l) => l.assets ?? []);
    expect(assets.filter((a) => a.op === 'add')).toHaveLength(118);
    expect(assets.every((a) => a.op !== 'add' || a.body.startsWith('<CuttingTool'))).toBe(true);
    const backwards = dataLines.filter((l, i) => i > 0 && l.ts < (dataLines[i - 1]?.ts ?? 0));
    expect(backwards.length).toBeGreaterThan(0);
    const observations = dataLines.flatMap((l) => l.observations);
    expect(observations.filter((o) => o.kind === 'condition')).toHaveLength(40);
    expect(new Set(observations.filter((o) => o.key === 'pexecution').map((o) => o.value))).toEqual(
      new Set(['READY', 'ACTIVE', 'PROGRAM_COMPLETED']),
    );
    expect(observations.filter((o) => o.key === 'ppartcount').map((o) => o.value)).toContain('3');
  });
});

describe('fuzz: the parser never throws', () => {
  const shdrChars = fc.constantFrom(
    '|',
    '"',
    '\\',
    '{',
    '}',
    '=',
    ' ',
    '*',
    '@',
    '\r',
    '\n',
    'a',
    '1',
    '.',
    'Z',
    'T',
    '-',
    ':',
  );
  const shdrish = fc.array(shdrChars, { maxLength: 80 }).map((cs) => cs.join(''));
  const anyText = fc.oneof(fc.string({ unit: 'binary', maxLength: 120 }), shdrish);
  const kinds: KeyKind[] = ['condition', 'message', 'sample', 'event', 'data_set', 'table', 'time_series'];

  it('parseShdrLine returns a well-formed result for any text and any key kinds', () => {
    fc.assert(
      fc.property(anyText, fc.constantFrom(...kinds), fc.boolean(), (text, kind, withKinds) => {
        const line = parseShdrLine(text, RECEIVED, withKinds ? () => kind : undefined);
        if (line.type === 'data') {
          expect(Number.isFinite(line.ts)).toBe(true);
          expect(Number.isInteger(line.rejected) && line.rejected >= 0).toBe(true);
          for (const o of line.observations) expect(o.key).not.toBe('');
        }
      }),
      { numRuns: 2000 },
    );
  });

  it('the well-formed prefix of a line survives garbage appended after it', () => {
    fc.assert(
      fc.property(shdrish, (garbage) => {
        const line = parse(`${T0}|execution|ACTIVE|${garbage.replace(/[\r\n"{\\]/g, '')}`);
        expect(line.observations[0]).toMatchObject({ key: 'execution', value: 'ACTIVE' });
      }),
    );
  });

  it('splitting a stream into arbitrary chunks yields the same lines as one chunk', () => {
    fc.assert(
      fc.property(shdrish, fc.array(fc.nat(), { maxLength: 6 }), (text, cuts) => {
        const bytes = Buffer.from(text);
        const points = [...new Set(cuts.map((c) => c % (bytes.length + 1)))].sort((a, b) => a - b);
        const chunks = [0, ...points].map((p, i, all) => bytes.subarray(p, all[i + 1] ?? bytes.length));
        expect(splitAll(chunks)).toEqual(splitAll([bytes]));
      }),
    );
  });

  it('tokenize never loses a plain token', () => {
    fc.assert(
      fc.property(
        fc.array(fc.stringMatching(/^[a-z0-9 ]{0,6}$/), { minLength: 1, maxLength: 8 }),
        (parts) => {
          expect(tokenize(parts.join('|'))).toEqual(parts.map((p) => p.trim()));
        },
      ),
    );
  });
});
