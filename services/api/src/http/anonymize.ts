import { promisify } from 'node:util';
import { gunzip } from 'node:zlib';
import type { MiddlewareHandler } from 'hono';
import type { CompanyScope } from '@takt/db';
import type { AppEnv, UserCaller } from './context';
import { csvCell } from './csv';
import { replaceResponse } from './shared-json';

// The anonymize option (reports-admin §6 "The anonymize option is for root or non-demo accounts"; decision
// 1116): with it on, the answers a user reads on report and dashboard screens, and their CSV downloads, name
// machines "Machine 1", "Machine 2" …, operators "Operator 1" … and the company "Company", so screenshots and
// exports can be shared. One place, here, for every such answer: a string that is exactly a real name becomes
// its stand-in, in JSON answers and in CSV cells. Numbers follow the order the company made them in, so a name
// keeps its stand-in from day to day. Screens that edit names (administration) are left as they are, so
// nobody saves a stand-in as a real name.

/** reports-admin §6 "The anonymize option is for root or non-demo accounts". */
export const anonymizeOffered = (caller: Pick<UserCaller, 'user' | 'company'>): boolean =>
  caller.user.isRoot || !caller.company.isDemo;

export interface NamedRow {
  name: string;
  createdAt: number;
  id: string;
}

/** Real name → stand-in; machines first (a name shared with an operator stays a machine). */
export function nameAliases(input: {
  machines: readonly NamedRow[];
  operators: readonly NamedRow[];
  companyName: string;
}): Map<string, string> {
  const aliases = new Map<string, string>();
  const add = (name: string, alias: string) => {
    if (name.trim() !== '' && !aliases.has(name)) aliases.set(name, alias);
  };
  const ordered = (rows: readonly NamedRow[]) =>
    [...rows].sort((a, b) => a.createdAt - b.createdAt || (a.id < b.id ? -1 : a.id > b.id ? 1 : 0));
  ordered(input.machines).forEach((m, i) => add(m.name, `Machine ${i + 1}`));
  ordered(input.operators).forEach((o, i) => add(o.name, `Operator ${i + 1}`));
  add(input.companyName, 'Company');
  return aliases;
}

/** A JSON value with every string that is a real name replaced (keys are left alone). */
export function anonymizeJson(value: unknown, aliases: ReadonlyMap<string, string>): unknown {
  if (typeof value === 'string') return aliases.get(value) ?? value;
  if (Array.isArray(value)) return value.map((v) => anonymizeJson(v, aliases));
  if (value !== null && typeof value === 'object')
    return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, anonymizeJson(v, aliases)]));
  return value;
}

/** RFC 4180 rows of a CSV document (as http/csv.ts writes them), the line ends kept per row. */
function csvRows(text: string): Array<{ cells: string[]; end: string }> {
  const rows: Array<{ cells: string[]; end: string }> = [];
  let cells: string[] = [];
  let cell = '';
  let i = 0;
  let quoted = false;
  while (i < text.length) {
    const ch = text[i]!;
    if (quoted) {
      if (ch === '"' && text[i + 1] === '"') {
        cell += '"';
        i += 2;
        continue;
      }
      if (ch === '"') quoted = false;
      else cell += ch;
      i++;
      continue;
    }
    if (ch === '"') {
      quoted = true;
      i++;
    } else if (ch === ',') {
      cells.push(cell);
      cell = '';
      i++;
    } else if (ch === '\r' || ch === '\n') {
      const end = ch === '\r' && text[i + 1] === '\n' ? '\r\n' : ch;
      cells.push(cell);
      rows.push({ cells, end });
      cells = [];
      cell = '';
      i += end.length;
    } else {
      cell += ch;
      i++;
    }
  }
  if (cell !== '' || cells.length > 0) {
    cells.push(cell);
    rows.push({ cells, end: '' });
  }
  return rows;
}

/** A CSV document with every cell that is a real name replaced, written back with the same quoting. */
export function anonymizeCsv(text: string, aliases: ReadonlyMap<string, string>): string {
  return csvRows(text)
    .map((r) => r.cells.map((c) => csvCell(aliases.get(c) ?? c)).join(',') + r.end)
    .join('');
}

/** The reads whose answers are anonymized: reports, dashboards, the floor's and the caller's own (GET only). */
export const ANONYMIZED_READS: readonly RegExp[] = [
  /^\/api\/me\/?$/,
  /^\/api\/dashboard(\/|$)/,
  /^\/api\/reports\//,
  /^\/api\/oee(\/|$)/,
  /^\/api\/workcenter(\/|$)/,
  /^\/api\/machines\/statuses\/?$/,
  /^\/api\/partadjustment(\/|$)/,
  /^\/api\/productionruns(\/|$)/,
  /^\/api\/operatorruns(\/|$)/,
  /^\/api\/downtime(\/|$)/,
];

/** Report reads the office sends as POST (their filters are bodies): anonymized like the GET reads. */
export const ANONYMIZED_POST_READS: readonly RegExp[] = [
  /^\/api\/oee\/(bymachine|byabstractshift)\/?$/,
  /^\/api\/reports\/warehouse\/(production|downtime|quality)\/?$/,
];

const anonymizedRead = (method: string, path: string): boolean =>
  method === 'GET'
    ? ANONYMIZED_READS.some((r) => r.test(path))
    : method === 'POST' && ANONYMIZED_POST_READS.some((r) => r.test(path));

async function aliasesOf(scope: CompanyScope, companyName: string): Promise<Map<string, string>> {
  const [machines, operators] = await Promise.all([
    scope.selectFrom('machines').select(['id', 'name', 'created_at']).execute(),
    scope.selectFrom('operators').select(['id', 'name', 'created_at']).execute(),
  ]);
  const rows = (r: Array<{ id: string; name: string; created_at: number | string }>) =>
    r.map((m) => ({ id: m.id, name: m.name, createdAt: Number(m.created_at) }));
  return nameAliases({ machines: rows(machines), operators: rows(operators), companyName });
}

const gunzipAsync = promisify(gunzip);

async function anonymizeOn(scope: CompanyScope, userId: string): Promise<boolean> {
  const row = await scope
    .selectFrom('user_preferences')
    .select('anonymize')
    .where('user_id', '=', userId)
    .executeTakeFirst();
  return row?.anonymize === 1;
}

/**
 * After the route answered: a logged-in user (session or CSV link) with anonymize on gets the answer of an
 * ANONYMIZED_READS (GET) or ANONYMIZED_POST_READS call with the names replaced, while the option is offered
 * to them.
 */
export const anonymizeAnswers: MiddlewareHandler<AppEnv> = async (c, next) => {
  await next();
  const { caller } = c.var;
  if (caller.kind !== 'user' || !c.res.ok) return;
  if (!anonymizedRead(c.req.method, c.req.path)) return;
  if (!anonymizeOffered(caller)) return;
  const type = c.res.headers.get('content-type') ?? '';
  const json = type.includes('application/json');
  if (!json && !type.includes('text/csv')) return;
  if (!(caller.anonymize ?? (await anonymizeOn(c.var.scope, caller.user.id)))) return;
  const aliases = await aliasesOf(c.var.scope, caller.company.name);
  // A shared report answer may come gzipped (decision 1248): read as its text, sent rewritten as text.
  const text =
    c.res.headers.get('content-encoding') === 'gzip'
      ? (await gunzipAsync(Buffer.from(await c.res.arrayBuffer()))).toString('utf8')
      : await c.res.text();
  const body = json ? JSON.stringify(anonymizeJson(JSON.parse(text), aliases)) : anonymizeCsv(text, aliases);
  const headers = new Headers(c.res.headers);
  headers.delete('content-length');
  replaceResponse(c, new Response(body, { status: c.res.status, headers }));
};
