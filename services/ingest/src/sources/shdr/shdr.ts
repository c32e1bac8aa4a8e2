// SHDR (the MTConnect adapter protocol), parsed the way the reference agent (cppagent) reads it.
// Rules: shared/data/mtconnect/README.md. Nothing in here throws on input: a bad token is counted
// in `rejected` and skipped, the good pairs on the same line are kept (ARCHITECTURE.md, Ingest contract).
import { StringDecoder } from 'node:string_decoder';
import { timeProblem } from '@takt/domain';

import type {
  AssetOp,
  AssetRecord,
  ConditionLevel,
  KeyKind,
  KeyKinds,
  ShdrCommand,
  ShdrConditionValue as ConditionValue,
  ShdrData,
  ShdrLine,
  ShdrObservation as Observation,
} from '@takt/domain';

// The parsed-line types are the ingest contract's (packages/domain), under the names the parser uses.
export type {
  AssetOp,
  AssetRecord,
  ConditionLevel,
  ConditionValue,
  KeyKind,
  KeyKinds,
  Observation,
  ShdrCommand,
  ShdrData,
  ShdrLine,
};

const CONDITION_LEVELS: ReadonlySet<string> = new Set(['NORMAL', 'WARNING', 'FAULT', 'UNAVAILABLE']);
const QUALIFIERS: ReadonlySet<string> = new Set(['', 'HIGH', 'LOW']);
const ASSET_COMMANDS: Readonly<Record<string, AssetOp>> = {
  '@ASSET@': 'add',
  '@UPDATE_ASSET@': 'update',
  '@REMOVE_ASSET@': 'remove',
  '@REMOVE_ALL_ASSETS@': 'remove_all',
};
const MULTILINE_MARK = '--multiline--';

/**
 * A condition observation's value and fields, as every source reads one (SHDR, agent XML, MQTT JSON): the
 * level is the value, UNAVAILABLE reads as null, and a field the source leaves out is ''.
 */
export function conditionReading(
  level: ConditionLevel,
  f: {
    nativeCode?: string | null | undefined;
    nativeSeverity?: string | null | undefined;
    qualifier?: string | null | undefined;
    message?: string | null | undefined;
  },
): { value: string | null; kind: 'condition'; condition: ConditionValue } {
  return {
    value: level === 'UNAVAILABLE' ? null : level,
    kind: 'condition',
    condition: {
      level,
      nativeCode: f.nativeCode ?? '',
      nativeSeverity: f.nativeSeverity ?? '',
      qualifier: f.qualifier ?? '',
      message: f.message ?? '',
    },
  };
}

// ---------------------------------------------------------------------------------------------
// Stream → lines

export interface ShdrLineSplitter {
  /** Feed raw bytes or text; returns the lines completed by this chunk (empty lines dropped). */
  push(chunk: Buffer | string): string[];
  /** End of stream: returns a last unterminated line, if any. */
  end(): string[];
  /** Lines (or multiline bodies) dropped because they exceeded maxLineLength. */
  readonly dropped: number;
}

/**
 * Stateful line assembler. Handles LF and CRLF, chunks that split lines (and UTF-8 characters),
 * and `--multiline--TAG` blocks: a line ending in the marker is joined with every following line up
 * to the closing `--multiline--TAG` line, and comes out as one record (`header|body`, body lines
 * joined by '\n'). The
 * body lines are never handed out as data lines, so an asset document cannot pollute the stream.
 */
export function splitShdrStream(options: { maxLineLength?: number } = {}): ShdrLineSplitter {
  // Guards memory against a peer that never sends a newline or never closes its multiline block.
  const maxLineLength = options.maxLineLength ?? 1 << 20;
  const decoder = new StringDecoder('utf8');
  let partial = '';
  let skippingOverlong = false;
  let block: { tag: string; header: string; body: string[]; size: number } | null = null;
  let dropped = 0;

  function takeLine(raw: string, out: string[]): void {
    const line = raw.endsWith('\r') ? raw.slice(0, -1) : raw;
    if (block) {
      if (line.trim() === block.tag) {
        out.push(`${block.header}|${block.body.join('\n')}`);
        block = null;
      } else if (block.size + line.length > maxLineLength) {
        dropped++;
        block = null;
      } else {
        block.body.push(line);
        block.size += line.length + 1;
      }
      return;
    }
    const trimmed = line.trimEnd();
    const markAt = trimmed.lastIndexOf(MULTILINE_MARK);
    if (markAt >= 0 && /^[^\s|]+$/.test(trimmed.slice(markAt + MULTILINE_MARK.length))) {
      const header = trimmed.slice(0, markAt).replace(/\|$/, '');
      block = { tag: trimmed.slice(markAt), header, body: [], size: header.length };
      return;
    }
    if (trimmed.trim() !== '') out.push(line);
  }

  function push(chunk: Buffer | string): string[] {
    const text = typeof chunk === 'string' ? chunk : decoder.write(chunk);
    const out: string[] = [];
    let start = 0;
    for (let nl = text.indexOf('\n'); nl >= 0; nl = text.indexOf('\n', start)) {
      const piece = text.slice(start, nl);
      start = nl + 1;
      if (skippingOverlong) {
        skippingOverlong = false;
        partial = '';
        continue;
      }
      const raw = partial + piece;
      partial = '';
      // A line that came whole within the chunks is held to the limit as well as one still growing.
      if (!block && raw.length > maxLineLength) {
        dropped++;
        continue;
      }
      takeLine(raw, out);
    }
    if (!skippingOverlong) partial += text.slice(start);
    if (partial.length > maxLineLength) {
      dropped++;
      partial = '';
      skippingOverlong = true;
    }
    return out;
  }

  function end(): string[] {
    const out: string[] = [];
    const rest = partial + decoder.end();
    partial = '';
    if (!skippingOverlong && rest !== '') takeLine(rest, out);
    skippingOverlong = false;
    // An unterminated multiline block at end of stream is incomplete: dropped, like cppagent.
    if (block) {
      dropped++;
      block = null;
    }
    return out;
  }

  return {
    push,
    end,
    get dropped() {
      return dropped;
    },
  };
}

// ---------------------------------------------------------------------------------------------
// Line → command or observations

/**
 * U+0000 has no meaning in SHDR and PostgreSQL cannot store it in text: it becomes U+FFFD, as a byte that is
 * not UTF-8 does when the stream is decoded. (Stored as is, one NUL failed every write of the worker's batch.)
 */
export function withoutNul(text: string): string {
  return text.indexOf('\0') < 0 ? text : text.replaceAll('\0', '\uFFFD');
}

/** Parses one SHDR line. Never throws. `receivedAt` stands in for an empty or unparseable timestamp. */
export function parseShdrLine(line: string, receivedAt: number, kinds?: KeyKinds): ShdrLine {
  const trimmed = withoutNul(line).trim();
  if (trimmed.startsWith('*')) return parseCommand(trimmed);

  const bar = trimmed.indexOf('|');
  if (bar < 0) {
    // A lone token (the Hurco log's broken `2017` lines) holds no pair: the whole line is rejected.
    return { type: 'data', ts: receivedAt, observations: [], rejected: trimmed === '' ? 0 : 1 };
  }
  // The usual `…Z` form is read in place; anything else goes through the general parser.
  const ts = parseUtcTimestamp(trimmed, 0, bar) ?? parseTimestamp(trimmed.slice(0, bar)) ?? receivedAt;
  // Asset commands (`@ASSET@|…`) are the first token after the timestamp.
  let first = bar + 1;
  while (trimmed.charCodeAt(first) === 32 || trimmed.charCodeAt(first) === 9) first++;
  if (trimmed.charCodeAt(first) === 64 /* @ */) {
    const rest = trimmed.slice(bar + 1);
    const asset = parseAssetCommand(rest, ts);
    if (asset) return asset;
  }
  return parsePairs(tokenize(trimmed, bar + 1), ts, kinds);
}

/**
 * Decision 0980: a data line stamped before 2014-04-01 or later than `now` plus the clock-skew tolerance is
 * refused whole: every pair on it carries the same wrong time, so none is kept. Counted as rejected, like any
 * malformed line, and flagged so the source can count it as a refused time. Commands pass unchanged.
 */
export function boundToWindow(line: ShdrLine, now: number): ShdrLine {
  if (line.type !== 'data' || timeProblem('time', line.ts, now) === null) return line;
  return {
    type: 'data',
    ts: line.ts,
    observations: [],
    rejected: line.rejected + Math.max(1, line.observations.length),
    outOfWindow: true,
  };
}

function parseCommand(line: string): ShdrCommand {
  const body = line.slice(1).trim();
  const colon = body.indexOf(':');
  const space = body.search(/\s/);
  // `*adapterVersion:2.0` and `* shdrVersion: 2` use a colon; `* PONG 10000` and `* PING` a space.
  const cut = colon >= 0 && (space < 0 || colon < space) ? colon : space;
  if (cut < 0) return { type: 'command', name: body, value: '', raw: line };
  return { type: 'command', name: body.slice(0, cut).trim(), value: body.slice(cut + 1).trim(), raw: line };
}

/** `* PONG 10000` → 10000; null for any other line or a useless interval. */
export function pongInterval(line: ShdrLine): number | null {
  if (line.type !== 'command' || line.name.toUpperCase() !== 'PONG') return null;
  const ms = Number(line.value);
  return Number.isFinite(ms) && ms > 0 ? ms : null;
}

const TIMESTAMP =
  /^(\d{4})-(\d{2})-(\d{2})[T ](\d{2}):(\d{2}):(\d{2})(?:[.,](\d+))?\s*(Z|[+-]\d{2}(?::?\d{2})?)?$/i;

/**
 * ISO 8601 timestamp → epoch ms, or null. Written by hand because adapters send up to 7 (or more)
 * fractional digits (the Hurco log), and a missing zone means UTC in MTConnect, not local time.
 * A `@duration` suffix (sample durations) is ignored.
 */
export function parseTimestamp(text: string): number | null {
  const fast = parseUtcTimestamp(text);
  if (fast !== null) return fast;
  const m = TIMESTAMP.exec(text.trim().replace(/@[\d.]*$/, ''));
  if (!m) return null;
  const [, y, mo, d, h, mi, s, frac = '', zone = 'Z'] = m;
  const ms = Number((frac + '000').slice(0, 3));
  const utc = Date.UTC(Number(y), Number(mo) - 1, Number(d), Number(h), Number(mi), Number(s), ms);
  if (
    !Number.isFinite(utc) ||
    Number(mo) > 12 ||
    Number(d) > 31 ||
    Number(h) > 24 ||
    Number(mi) > 59 ||
    Number(s) > 60
  ) {
    return null;
  }
  return utc - zoneOffsetMs(zone);
}

/** The number in text[from, to) when every character there is a digit, else -1. */
function digits(text: string, from: number, to: number): number {
  let n = 0;
  for (let i = from; i < to; i++) {
    const d = text.charCodeAt(i) - 48;
    if (d < 0 || d > 9) return -1;
    n = n * 10 + d;
  }
  return n;
}

/**
 * Days from 1970-01-01 to a proleptic Gregorian date (H. Hinnant's days_from_civil). Linear in the day,
 * and month 0 is December of the year before, so out-of-range fields roll over exactly as in Date.UTC.
 */
function daysFromCivil(year: number, month: number, day: number): number {
  const y = month <= 2 ? year - 1 : year;
  const era = Math.floor(y / 400);
  const yoe = y - era * 400;
  const doy = Math.floor((153 * (month > 2 ? month - 3 : month + 9) + 2) / 5) + day - 1;
  return era * 146_097 + yoe * 365 + Math.floor(yoe / 4) - Math.floor(yoe / 100) + doy - 719_468;
}

/**
 * The form nearly every adapter sends, `YYYY-MM-DDTHH:MM:SS[.fraction]Z` with nothing around it, read
 * without a regex, substrings or Date (it runs once per line). Anything else returns null for the general
 * parser.
 */
function parseUtcTimestamp(text: string, from = 0, to = text.length): number | null {
  // Character codes read in place (no closure: this runs once per line, and under tsx every closure made
  // here is also named at run time, which cost as much as the parse itself).
  const n = to - from;
  if (n < 20 || text.charCodeAt(to - 1) !== 90 /* Z */) return null;
  if (
    text.charCodeAt(from + 4) !== 45 /* - */ ||
    text.charCodeAt(from + 7) !== 45 ||
    text.charCodeAt(from + 10) !== 84 /* T */ ||
    text.charCodeAt(from + 13) !== 58 /* : */ ||
    text.charCodeAt(from + 16) !== 58
  )
    return null;
  const y = digits(text, from, from + 4);
  const mo = digits(text, from + 5, from + 7);
  const d = digits(text, from + 8, from + 10);
  const h = digits(text, from + 11, from + 13);
  const mi = digits(text, from + 14, from + 16);
  const sec = digits(text, from + 17, from + 19);
  let ms = 0;
  if (n > 20) {
    // `.` and 1+ fraction digits; the first three are milliseconds, the rest is finer than we keep.
    const sep = text.charCodeAt(from + 19);
    if ((sep !== 46 /* . */ && sep !== 44) /* , */ || n - 1 === 20) return null;
    if (digits(text, from + 20, to - 1) < 0) return null;
    for (let i = 20; i < 23; i++) ms = ms * 10 + (i < n - 1 ? text.charCodeAt(from + i) - 48 : 0);
  }
  // The general parser's range checks; -1 (a non-digit) fails them as well.
  if (!(
    mo >= 0 &&
    mo <= 12 &&
    d >= 0 &&
    d <= 31 &&
    h >= 0 &&
    h <= 24 &&
    mi >= 0 &&
    mi <= 59 &&
    sec >= 0 &&
    sec <= 60
  ))
    return null;
  if (y < 100) {
    // Date.UTC reads years 0–99 as 1900–1999; keep that (the general parser does the same).
    if (y < 0) return null;
    const utc = Date.UTC(y, mo - 1, d, h, mi, sec, ms);
    return Number.isFinite(utc) ? utc : null;
  }
  return ((daysFromCivil(y, mo, d) * 24 + h) * 60 + mi) * 60_000 + sec * 1000 + ms;
}

function zoneOffsetMs(zone: string): number {
  if (zone.toUpperCase() === 'Z') return 0;
  const sign = zone.startsWith('-') ? -1 : 1;
  const digits = zone.slice(1).replace(':', '');
  const hours = Number(digits.slice(0, 2));
  const minutes = Number(digits.slice(2, 4) || '0');
  return sign * (hours * 60 + minutes) * 60_000;
}

/**
 * Splits on `|` and trims. A token that starts with `"` runs to the closing quote and may hold `\|`
 * and `\"`; a token that starts with `{` (data set / table) runs to its matching `}` even across `|`.
 * If a quote or brace never closes, the token falls back to a plain split so nothing is swallowed.
 */
export function tokenize(text: string, from = 0): string[] {
  const tokens: string[] = [];
  let i = from;
  while (i <= text.length) {
    while (i < text.length && (text[i] === ' ' || text[i] === '\t')) i++;
    const grouped = text[i] === '"' ? readQuoted(text, i) : text[i] === '{' ? readBraced(text, i) : null;
    if (grouped) {
      tokens.push(grouped.token);
      i = grouped.next;
      continue;
    }
    const bar = text.indexOf('|', i);
    const stop = bar < 0 ? text.length : bar;
    tokens.push(text.slice(i, stop).trim());
    i = stop + 1;
  }
  return tokens;
}

/** A quoted token: its unescaped text and the index after the `|` that ends it, or null. */
function readQuoted(text: string, start: number): { token: string; next: number } | null {
  let out = '';
  for (let i = start + 1; i < text.length; i++) {
    const c = text[i];
    if (c === '\\' && (text[i + 1] === '|' || text[i + 1] === '"' || text[i + 1] === '\\')) {
      out += text[i + 1];
      i++;
    } else if (c === '"') {
      return afterGroup(text, i + 1, out);
    } else {
      out += c;
    }
  }
  return null;
}

function readBraced(text: string, start: number): { token: string; next: number } | null {
  let depth = 0;
  let quote: string | null = null;
  for (let i = start; i < text.length; i++) {
    const c = text[i];
    if (quote) {
      if (c === '\\') i++;
      else if (c === quote) quote = null;
    } else if (c === '"' || c === "'") {
      quote = c;
    } else if (c === '{') {
      depth++;
    } else if (c === '}' && --depth === 0) {
      return afterGroup(text, i + 1, text.slice(start, i + 1));
    }
  }
  return null;
}

/** After a closing quote or brace only blanks may precede the next `|`; otherwise it was no group. */
function afterGroup(text: string, from: number, token: string): { token: string; next: number } | null {
  let i = from;
  while (i < text.length && (text[i] === ' ' || text[i] === '\t')) i++;
  if (i === text.length) return { token, next: text.length + 1 };
  return text[i] === '|' ? { token, next: i + 1 } : null;
}

function kindOf(kinds: KeyKinds | undefined, key: string): KeyKind | undefined {
  if (!kinds) return undefined;
  return typeof kinds === 'function' ? kinds(key) : kinds.get(key);
}

function valueOrNull(text: string): string | null {
  return text.length === 11 && text.toUpperCase() === 'UNAVAILABLE' ? null : text;
}

/** Walks `key|value…` tokens; each step consumes one item's tokens and never more than exist. */
function parsePairs(tokens: string[], ts: number, kinds: KeyKinds | undefined): ShdrData {
  const observations: Observation[] = [];
  let rejected = 0;
  let i = 0;
  while (i < tokens.length) {
    const key = tokens[i] ?? '';
    if (key === '') {
      // Trailing empty tokens (`…|value|`) are noise, not data; an empty key before data is an error.
      if (tokens.slice(i).every((t) => t === '')) break;
      rejected++;
      i += 2;
      continue;
    }
    // Without a device description the shape decides whether the item is a condition.
    const kind = kindOf(kinds, key) ?? (looksLikeCondition(tokens, i) ? 'condition' : undefined);
    const observation = parseItem(tokens, i, ts, kind);
    if (observation) observations.push(observation);
    else rejected++;
    i += itemLength(tokens, i, kind);
  }
  if (observations.length === 0 && rejected === 0) rejected = 1; // `ts|` alone: nothing usable
  return { type: 'data', ts, observations, rejected };
}

/** The item at tokens[i]: its observation, or null when its tokens are bad (see itemLength). */
function parseItem(tokens: string[], i: number, ts: number, kind: KeyKind | undefined): Observation | null {
  const key = tokens[i] ?? '';
  if (kind === 'condition') {
    return conditionObservation(key, ts, tokens, i);
  }
  if (tokens.length - i - 1 < 1) return null;
  if (kind === 'message') {
    return {
      ts,
      key,
      value: valueOrNull(tokens[i + 2] ?? ''),
      kind: 'message',
      nativeCode: tokens[i + 1] ?? '',
    };
  }
  if (kind === 'time_series') return timeSeriesObservation(key, ts, tokens, i);
  return { ts, key, value: valueOrNull(tokens[i + 1] ?? ''), kind: 'value' };
}

/** How many tokens the item at tokens[i] consumes, good or bad; never less than one. */
function itemLength(tokens: string[], i: number, kind: KeyKind | undefined): number {
  if (kind === 'condition') return 6;
  if (tokens.length - i - 1 < 1) return 1;
  return kind === 'message' ? 3 : kind === 'time_series' ? 4 : 2;
}

/**
 * Without a device description the parser cannot know a key is a CONDITION, so it guesses from the
 * shape, strictly enough that ordinary values are not swallowed:
 *  - the token after the key is a condition level (any case), and five tokens follow the key;
 *  - the qualifier slot (key+4) is empty, HIGH or LOW, the only qualifiers MTConnect allows;
 *  - for UNAVAILABLE, the code slot is empty (an unavailable condition carries no code), so
 *    `avail|UNAVAILABLE|execution|READY|…` stays an availability value followed by pairs.
 * A NORMAL/WARNING/FAULT event value followed by pairs whose 4th token happens to be empty, HIGH or
 * LOW would be misread; pass KeyKinds (from Devices.xml) to remove the guess.
 */
function looksLikeCondition(tokens: string[], i: number): boolean {
  if (tokens.length - i < 6) return false;
  const level = (tokens[i + 1] ?? '').toUpperCase();
  if (!CONDITION_LEVELS.has(level)) return false;
  if (!QUALIFIERS.has((tokens[i + 4] ?? '').toUpperCase())) return false;
  return level !== 'UNAVAILABLE' || tokens[i + 2] === '';
}

function conditionObservation(key: string, ts: number, tokens: string[], i: number): Observation | null {
  const at = (offset: number): string => tokens[i + offset] ?? '';
  const level = at(1).toUpperCase();
  if (!CONDITION_LEVELS.has(level)) return null;
  const condition: ConditionValue = {
    level: level as ConditionLevel,
    nativeCode: at(2),
    nativeSeverity: at(3),
    qualifier: at(4),
    message: at(5),
  };
  return { ts, key, value: level === 'UNAVAILABLE' ? null : level, kind: 'condition', condition };
}

/** `key|count|rate|v1 v2 …`; the rate may be empty (the item's default) */
function timeSeriesObservation(key: string, ts: number, tokens: string[], i: number): Observation | null {
  const at = (offset: number): string => tokens[i + offset] ?? '';
  if (at(1).toUpperCase() === 'UNAVAILABLE') return { ts, key, value: null, kind: 'value' };
  const count = Number(at(1));
  const rate = at(2) === '' ? null : Number(at(2));
  if (!Number.isInteger(count) || count < 0 || (rate !== null && !Number.isFinite(rate))) return null;
  const samples = at(3)
    .split(/\s+/)
    .filter((s) => s !== '');
  return { ts, key, value: samples.join(' '), kind: 'value', timeSeries: { count, rate } };
}

/**
 * `@ASSET@|id|type|<xml…>` (the xml may hold `|` and, after splitShdrStream, newlines),
 * `@UPDATE_ASSET@|id|key|value…`, `@REMOVE_ASSET@|id`, `@REMOVE_ALL_ASSETS@|type`.
 * Reported both as an `assets` record and as one observation of kind 'asset' (key = the command,
 * value = the asset id) so the stream keeps a trace of asset changes like the agent's AssetChanged.
 */
function parseAssetCommand(rest: string, ts: number): ShdrData | null {
  const first = rest.indexOf('|');
  const command = (first < 0 ? rest : rest.slice(0, first)).trim();
  const op = ASSET_COMMANDS[command];
  if (!op) return null;
  const args = first < 0 ? '' : rest.slice(first + 1);
  const record = assetRecord(op, args);
  if (!record) return { type: 'data', ts, observations: [], rejected: 1 };
  const observation: Observation = { ts, key: command, value: record.assetId, kind: 'asset' };
  return { type: 'data', ts, observations: [observation], rejected: 0, assets: [record] };
}

function assetRecord(op: AssetOp, args: string): AssetRecord | null {
  const [id = '', second = ''] = args.split('|', 2).map((s) => s.trim());
  if (id === '') return null;
  if (op === 'remove') return { op, assetId: id, assetType: '', body: '' };
  if (op === 'remove_all') return { op, assetId: id, assetType: id, body: '' };
  const afterId = restAfterBar(args);
  if (op === 'update')
    return afterId === null ? null : { op, assetId: id, assetType: '', body: afterId.trim() };
  const body = afterId === null ? null : restAfterBar(afterId);
  return second === '' || body === null ? null : { op, assetId: id, assetType: second, body: body.trim() };
}

function restAfterBar(text: string): string | null {
  const bar = text.indexOf('|');
  return bar < 0 ? null : text.slice(bar + 1);
}

// ---------------------------------------------------------------------------------------------
// Values

/**
 * A DATA_SET or TABLE value (`a=1 b='x y' c={…}`, optionally wrapped in `{}`) as entries.
 * `UNAVAILABLE` or a key without `=` maps to null (cppagent: the key is removed).
 */
export function parseDataSet(value: string): Record<string, string | null> {
  let text = value.trim();
  if (text.startsWith('{') && text.endsWith('}')) text = text.slice(1, -1);
  const out: Record<string, string | null> = {};
  const entry = /([^\s=]+)(?:=("(?:[^"\\]|\\.)*"|'(?:[^'\\]|\\.)*'|\{(?:[^{}]|\{[^{}]*\})*\}|\S*))?/g;
  for (const m of text.matchAll(entry)) {
    const key = m[1] ?? '';
    const raw = m[2];
    if (raw === undefined) out[key] = null;
    else if (/^["']/.test(raw)) out[key] = raw.slice(1, -1).replace(/\\(.)/g, '$1');
    else out[key] = raw.toUpperCase() === 'UNAVAILABLE' ? null : raw;
  }
  return out;
}
