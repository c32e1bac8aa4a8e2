// SHDR (the MTConnect adapter protocol), parsed the way the reference agent (cppagent) reads it.
// Rules: shared/data/mtconnect/README.md. Nothing in here throws on input: a bad token is counted
// in `rejected` and skipped, the good pairs on the same line are kept (ARCHITECTURE.md, Ingest contract).
// This module reads one line; beside it: the stream's line assembler (shdr-stream.ts), timestamps
// (shdr-timestamp.ts), the tokenizer and data-set values (shdr-tokens.ts), data items → observations
// (shdr-items.ts) and asset commands (shdr-assets.ts). Callers import all of it from here.
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
import { parseAssetCommand } from './shdr-assets';
import { parsePairs } from './shdr-items';
import { parseTimestamp, parseUtcTimestamp } from './shdr-timestamp';
import { tokenize } from './shdr-tokens';

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
export { conditionReading } from './shdr-items';
export type { ShdrLineSplitter } from './shdr-stream';
export { splitShdrStream } from './shdr-stream';
export { parseTimestamp } from './shdr-timestamp';
export { parseDataSet, tokenize } from './shdr-tokens';

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
