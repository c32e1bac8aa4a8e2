// SHDR data items: `key|value…` tokens → observations, by the item's kind (value, message, condition,
// time series). A bad item is counted in `rejected` and skipped; its neighbours are kept.
import type {
  ConditionLevel,
  KeyKind,
  KeyKinds,
  ShdrConditionValue as ConditionValue,
  ShdrData,
  ShdrObservation as Observation,
} from '@takt/domain';

const CONDITION_LEVELS: ReadonlySet<string> = new Set(['NORMAL', 'WARNING', 'FAULT', 'UNAVAILABLE']);
const QUALIFIERS: ReadonlySet<string> = new Set(['', 'HIGH', 'LOW']);

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

function kindOf(kinds: KeyKinds | undefined, key: string): KeyKind | undefined {
  if (!kinds) return undefined;
  return typeof kinds === 'function' ? kinds(key) : kinds.get(key);
}

function valueOrNull(text: string): string | null {
  return text.length === 11 && text.toUpperCase() === 'UNAVAILABLE' ? null : text;
}

/** Walks `key|value…` tokens; each step consumes one item's tokens and never more than exist. */
export function parsePairs(tokens: string[], ts: number, kinds: KeyKinds | undefined): ShdrData {
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
