// SHDR tokens: a line split on `|` with quoted and braced groups kept whole, and DATA_SET / TABLE values
// read as entries. Nothing here throws on input.

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
