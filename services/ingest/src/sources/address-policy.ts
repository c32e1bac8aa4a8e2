// Where a machine source may point (decision 0985). A source is dialled by the server, so an address an admin
// types is a request the server makes: by default it may not reach the server itself (loopback, its own ports),
// link-local (cloud metadata), unspecified, multicast or broadcast addresses. Private LAN ranges are where
// machines live and stay open; TAKT_SOURCE_NETWORKS opens more. Every address a name resolves to is checked, at
// save (the API) and again at every connect (here), and the connection goes to the address that was checked,
// so a name that changes its answer (DNS rebinding) or a source stored before the rule cannot get through.
import dns from 'node:dns';
import net from 'node:net';
import os from 'node:os';
import type { ClosedAddressClass, SourceAllowance, SourcePolicy } from '@takt/domain';
import { closedAddressMessage, ownPortMessage } from '@takt/domain';

const CLOSED: ReadonlyArray<[ClosedAddressClass, string, number, 'ipv4' | 'ipv6']> = [
  ['loopback', '127.0.0.0', 8, 'ipv4'],
  ['loopback', '::1', 128, 'ipv6'],
  // 0.0.0.0/8 is "this network": a connect to 0.0.0.0 reaches this host on Linux.
  ['unspecified', '0.0.0.0', 8, 'ipv4'],
  ['unspecified', '::', 128, 'ipv6'],
  ['link-local', '169.254.0.0', 16, 'ipv4'],
  ['link-local', 'fe80::', 10, 'ipv6'],
  // The IPv6 instance metadata address of EC2 (the twin of 169.254.169.254) sits in the unique-local range.
  ['link-local', 'fd00:ec2::254', 128, 'ipv6'],
  ['multicast', '224.0.0.0', 4, 'ipv4'],
  ['multicast', 'ff00::', 8, 'ipv6'],
  // 240.0.0.0/4 is reserved; its last address is the limited broadcast.
  ['broadcast', '240.0.0.0', 4, 'ipv4'],
];

const closedLists = new Map<ClosedAddressClass, net.BlockList>();
for (const [cls, address, prefix, family] of CLOSED) {
  let list = closedLists.get(cls);
  if (!list) closedLists.set(cls, (list = new net.BlockList()));
  list.addSubnet(address, prefix, family);
}

const familyOf = (address: string): 'ipv4' | 'ipv6' => (net.isIPv6(address) ? 'ipv6' : 'ipv4');

/** `a.b.c.d/n` or `v6::/n` → its parts, null when it is no network (TAKT_SOURCE_NETWORKS is checked with it). */
export function parseCidr(cidr: string): { address: string; prefix: number; family: 'ipv4' | 'ipv6' } | null {
  const m = /^([^/\s]+)\/(\d{1,3})$/.exec(cidr.trim());
  if (!m) return null;
  const address = m[1]!;
  const prefix = Number(m[2]);
  const v = net.isIP(address);
  if (v === 0 || prefix > (v === 4 ? 32 : 128)) return null;
  return { address, prefix, family: v === 4 ? 'ipv4' : 'ipv6' };
}

function allows(allowance: SourceAllowance, address: string, port: number): boolean {
  const net_ = parseCidr(allowance.cidr);
  if (!net_) return false;
  if (allowance.ports && (port < allowance.ports.from || port > allowance.ports.to)) return false;
  const list = new net.BlockList();
  list.addSubnet(net_.address, net_.prefix, net_.family);
  return list.check(address, familyOf(address));
}

/** The addresses of this host's interfaces (the server's "own" addresses besides loopback and unspecified). */
export function interfaceAddresses(): string[] {
  return Object.values(os.networkInterfaces())
    .flat()
    .flatMap((i) => (i ? [i.address.replace(/%.*$/, '')] : []));
}

/**
 * Why `address:port` (an IP address) may not be a source, null when it may. `own` lists this host's interface
 * addresses (for the own-port rule). Pure apart from the BlockList lookups.
 */
export function addressProblem(
  address: string,
  port: number,
  policy: SourcePolicy,
  own: readonly string[] = [],
): string | null {
  if (net.isIP(address) === 0) return closedAddressMessage('unspecified');
  const family = familyOf(address);
  const cls = [...closedLists].find(([, list]) => list.check(address, family))?.[0] ?? null;
  const onThisHost =
    cls === 'loopback' ||
    cls === 'unspecified' ||
    own.some((o) => {
      const l = new net.BlockList();
      l.addAddress(o, familyOf(o));
      return l.check(address, family);
    });
  if (onThisHost && policy.ownPorts.includes(port)) return ownPortMessage(port);
  if (cls === null) return null;
  if (policy.allow.some((a) => allows(a, address, port))) return null;
  return closedAddressMessage(cls);
}

/** A host as a name or an IP literal: lower-case, without brackets or a trailing dot, IPv4 forms made canonical. */
export function normalHost(host: string): string {
  const bare = host.trim().replace(/^\[(.*)\]$/, '$1');
  try {
    // The URL parser reads every IPv4 spelling the resolver accepts (127.1, 0x7f.0.0.1) as getaddrinfo does.
    const parsed = new URL(`http://${net.isIPv6(bare) ? `[${bare}]` : bare}/`).hostname;
    return parsed.replace(/^\[(.*)\]$/, '$1').replace(/\.$/, '');
  } catch {
    return bare.toLowerCase().replace(/\.$/, '');
  }
}

/** Where a source connects, normalised: SHDR host and port; an agent URL's host and port (80/443 by default). */
export function sourceEndpoint(source: {
  kind: string;
  host?: string | null;
  port?: number | null;
  baseUrl?: string | null;
}): { host: string; port: number } | null {
  if (source.kind === 'shdr' && source.host && source.port)
    return { host: normalHost(source.host), port: source.port };
  if (source.kind === 'agent' && source.baseUrl) {
    try {
      const url = new URL(source.baseUrl);
      const port = url.port ? Number(url.port) : url.protocol === 'https:' ? 443 : 80;
      return { host: normalHost(url.hostname), port };
    } catch {
      return null;
    }
  }
  return null;
}

export type Resolve = (host: string) => Promise<string[]>;

/** A DNS host name: dot-separated labels of letters, digits, hyphens (and underscores, which resolvers pass). */
const HOST_NAME =
  /^(?=.{1,253}$)[a-z0-9_](?:[a-z0-9_-]{0,61}[a-z0-9_])?(?:\.[a-z0-9_](?:[a-z0-9_-]{0,61}[a-z0-9_])?)*$/;

/** Every address `host` resolves to (the system resolver, as a connect would use it), within `timeoutMs`. */
export function resolveAll(timeoutMs = 3000): Resolve {
  return (host) =>
    new Promise((resolve, reject) => {
      const timer = setTimeout(
        () => reject(new Error(`resolving ${host} took over ${timeoutMs} ms`)),
        timeoutMs,
      );
      dns.lookup(host, { all: true }, (err, addresses) => {
        clearTimeout(timer);
        if (err) reject(err);
        else resolve(addresses.map((a) => a.address));
      });
    });
}

export type TargetCheck =
  /** Every address the host has is allowed; `addresses` in the resolver's order, to dial the first. */
  | { ok: true; addresses: string[] }
  | { ok: false; problem: string }
  /** The name did not resolve: nothing to dial, nothing refused. */
  | { ok: null; error: Error };

/** Resolves `host` and checks every address it has for `port` (one closed address refuses the name). */
export async function checkTarget(
  host: string,
  port: number,
  policy: SourcePolicy,
  options: { resolve?: Resolve; own?: readonly string[] } = {},
): Promise<TargetCheck> {
  const h = normalHost(host);
  let addresses: string[];
  if (net.isIP(h) !== 0) addresses = [h];
  // Not a host name at all (spaces, slashes, empty labels): no resolver is asked, nothing can be dialled.
  else if (!HOST_NAME.test(h)) return { ok: null, error: new Error(`${host} is not a host name`) };
  else {
    try {
      addresses = await (options.resolve ?? resolveAll())(h);
    } catch (err) {
      return { ok: null, error: err instanceof Error ? err : new Error(String(err)) };
    }
  }
  const own = options.own ?? interfaceAddresses();
  for (const a of addresses) {
    const problem = addressProblem(a, port, policy, own);
    if (problem) return { ok: false, problem };
  }
  return addresses.length > 0
    ? { ok: true, addresses }
    : { ok: null, error: new Error(`${host} has no address`) };
}

/**
 * The save check the API applies (through apiRules): why `host:port` may not be a source (null when it may), and
 * the addresses the host has now (to compare with other companies' sources, decision 0986). A name that does not
 * resolve now is let through with no addresses: the connect-time check refuses it if it ever resolves to a closed
 * address.
 */
export async function sourceTargetProblem(
  target: { host: string; port: number },
  policy: SourcePolicy,
): Promise<{ problem: string | null; addresses: string[] }> {
  const check = await checkTarget(target.host, target.port, policy);
  if (check.ok === false) return { problem: check.problem, addresses: [] };
  return { problem: null, addresses: check.ok ? check.addresses.map(normalHost) : [] };
}

/** A refusal by the policy: the connect is not made, and the reason is what the operator sees. */
export class SourceRefusedError extends Error {}

/**
 * A `lookup` for net.connect and http.request that checks every address a name resolves to and hands back only
 * checked ones, so the connection goes where the check looked (closes DNS rebinding between check and connect).
 * An IP literal never reaches a lookup: check it with `addressProblem` first.
 */
export function guardedLookup(policy: SourcePolicy, port: number): net.LookupFunction {
  return (hostname, options, callback) => {
    dns.lookup(hostname, { ...options, all: true }, (err, addresses) => {
      if (err) return callback(err, '', 4);
      const own = interfaceAddresses();
      for (const a of addresses) {
        const problem = addressProblem(a.address, port, policy, own);
        if (problem) return callback(new SourceRefusedError(problem), '', 4);
      }
      if (options.all)
        return (callback as unknown as (e: null, a: dns.LookupAddress[]) => void)(null, addresses);
      const first = addresses[0];
      if (!first) return callback(new Error(`${hostname} has no address`), '', 4);
      callback(null, first.address, first.family);
    });
  };
}

/**
 * ShdrClient's guard: the checked address to dial; rejects with SourceRefusedError when the policy refuses the
 * target, or with the resolver's error.
 */
export function dialGuard(policy: SourcePolicy): (host: string, port: number) => Promise<string> {
  return async (host, port) => {
    const check = await checkTarget(host, port, policy);
    if (check.ok === false) throw new SourceRefusedError(check.problem);
    if (check.ok === null) throw check.error;
    return check.addresses[0]!;
  };
}

/**
 * The sources that may not be dialled because another company's source, made earlier, is on the same address
 * (decision 0986: one source address belongs to one company; the API refuses such a save with 409, this covers
 * sources stored before the rule). Compared by normalised host and port.
 */
export function contestedSources(
  sources: ReadonlyArray<{
    sourceId: string;
    companyId: string;
    kind: string;
    host: string;
    port: number;
    baseUrl: string | null;
    createdAt: number;
  }>,
): Set<string> {
  const firstCompany = new Map<string, { companyId: string; createdAt: number; sourceId: string }>();
  const keyed = sources.flatMap((s) => {
    const e = sourceEndpoint(s);
    return e ? [{ s, key: `${e.host}|${e.port}` }] : [];
  });
  for (const { s, key } of keyed) {
    const had = firstCompany.get(key);
    const earlier =
      !had || s.createdAt < had.createdAt || (s.createdAt === had.createdAt && s.sourceId < had.sourceId);
    if (earlier) firstCompany.set(key, s);
  }
  return new Set(
    keyed.filter(({ s, key }) => firstCompany.get(key)!.companyId !== s.companyId).map(({ s }) => s.sourceId),
  );
}
