import { BlockList, isIP } from 'node:net';
import type { Context } from 'hono';
import { getConnInfo } from '@hono/node-server/conninfo';
import type { AppEnv } from './context';

/** `10.0.0.1`, `::1`, `10.0.0.0/8`, `fd00::/8`: what TAKT_TRUSTED_PROXIES may list. */
export function isAddressOrRange(entry: string): boolean {
  const [address = '', bits, ...rest] = entry.split('/');
  const family = isIP(address);
  if (family === 0 || rest.length > 0) return false;
  if (bits === undefined) return true;
  if (!/^\d{1,3}$/.test(bits)) return false;
  return Number(bits) <= (family === 4 ? 32 : 128);
}

/** `::ffff:10.0.0.1` (IPv4 on a dual-stack socket) → `10.0.0.1`. */
const plain = (address: string) =>
  address.startsWith('::ffff:') && isIP(address.slice(7)) === 4 ? address.slice(7) : address;

const listCache = new WeakMap<readonly string[], BlockList>();

/** A BlockList of the trusted proxies, built once per configured list. */
function trustList(entries: readonly string[]): BlockList {
  let list = listCache.get(entries);
  if (list) return list;
  list = new BlockList();
  for (const entry of entries) {
    const [address = '', bits] = entry.split('/');
    const type = isIP(address) === 6 ? 'ipv6' : 'ipv4';
    if (bits === undefined) list.addAddress(plain(address), type);
    else list.addSubnet(address, Number(bits), type);
  }
  listCache.set(entries, list);
  return list;
}

const trusted = (list: BlockList, address: string) => {
  const a = plain(address);
  const family = isIP(a);
  return family !== 0 && list.check(a, family === 6 ? 'ipv6' : 'ipv4');
};

/** The addresses a proxy chain forwarded, nearest client first: X-Forwarded-For, else Forwarded's for=. */
function forwardedChain(c: Context): string[] {
  const xff = c.req.header('x-forwarded-for');
  if (xff) return xff.split(',').map((a) => a.trim());
  const forwarded = c.req.header('forwarded');
  if (!forwarded) return [];
  return [...forwarded.matchAll(/for=("?)\[?([^\]",;]+)\]?(?::\d+)?\1/gi)].map((m) => m[2] ?? '');
}

/**
 * The client's address (decision 0988), or null when there is no socket (requests made in-process, as route
 * tests do). It is the socket's remote address, unless that is a proxy listed in TAKT_TRUSTED_PROXIES: then the
 * forwarded chain is read from the right, skipping trusted proxies, and the first other address is the client.
 * Without configured proxies X-Forwarded-For and Forwarded are ignored: any client could set them.
 */
export function clientAddress(c: Context<AppEnv>): string | null {
  let socket: string | null;
  try {
    socket = getConnInfo(c).remote.address ?? null;
  } catch {
    socket = null;
  }
  const proxies = c.var.deps?.trustedProxies;
  if (!socket || !proxies || proxies.length === 0) return socket && plain(socket);
  const list = trustList(proxies);
  if (!trusted(list, socket)) return plain(socket);
  let client = plain(socket);
  for (const hop of forwardedChain(c).reverse()) {
    if (isIP(plain(hop)) === 0) break;
    client = plain(hop);
    if (!trusted(list, client)) break;
  }
  return client;
}
