// Pure path matching for the small history router (router.tsx). Patterns are "/a/:b/:c"; segments are
// compared whole and decoded; a trailing slash is ignored.

export type Params = Record<string, string>;

function segments(path: string): string[] {
  return path.split('/').filter((s) => s !== '');
}

export function matchPath(pattern: string, pathname: string): Params | null {
  const want = segments(pattern);
  const have = segments(pathname);
  if (want.length !== have.length) return null;
  const params: Params = {};
  for (let i = 0; i < want.length; i++) {
    const w = want[i] as string;
    const h = have[i] as string;
    let decoded: string;
    try {
      decoded = decodeURIComponent(h);
    } catch {
      return null;
    }
    if (w.startsWith(':')) params[w.slice(1)] = decoded;
    else if (w !== decoded) return null;
  }
  return params;
}

/** The path with segment `index` (0-based, after the leading slash) replaced; other segments and query kept. */
export function replaceSegment(pathname: string, index: number, value: string): string {
  const parts = segments(pathname);
  if (index < 0 || index >= parts.length) return pathname;
  parts[index] = encodeURIComponent(value);
  return `/${parts.join('/')}`;
}

/** `search` with `key` set (or removed when value is null/empty), as "?a=b" or "". */
export function withSearchParam(search: string, key: string, value: string | null): string {
  const params = new URLSearchParams(search);
  if (value == null || value === '') params.delete(key);
  else params.set(key, value);
  const s = params.toString();
  return s ? `?${s}` : '';
}
