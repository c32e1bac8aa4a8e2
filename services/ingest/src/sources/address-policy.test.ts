import net from 'node:net';
import { describe, expect, it } from 'vitest';
import type { SourcePolicy } from '@takt/domain';
import { DEFAULT_SOURCE_POLICY, closedAddressMessage, ownPortMessage } from '@takt/domain';
import {
  addressProblem,
  checkTarget,
  contestedSources,
  dialGuard,
  normalHost,
  parseCidr,
  sourceEndpoint,
} from './address-policy';

// Decision 0985: where a machine source may point.

const OWN = ['192.168.1.5', 'fe80::1'];
const API: SourcePolicy = { allow: [], ownPorts: [8080] };
const LOOPBACK_OPEN: SourcePolicy = { allow: [{ cidr: '127.0.0.1/32' }], ownPorts: [8080] };
const DEMO: SourcePolicy = {
  allow: [{ cidr: '127.0.0.1/32', ports: { from: 7878, to: 7889 } }],
  ownPorts: [8080],
};

describe('addressProblem', () => {
  const closed = closedAddressMessage;
  it.each<[string, number, SourcePolicy, string | null]>([
    // private LAN ranges and the internet are open
    ['10.0.0.7', 7878, API, null],
    ['172.16.4.2', 7878, API, null],
    ['192.168.1.20', 5000, API, null],
    ['203.0.113.9', 5000, API, null],
    ['fd12:3456::7', 7878, API, null],
    ['2001:db8::1', 7878, API, null],
    // loopback, either family, IPv4 inside IPv6 too
    ['127.0.0.1', 7878, API, closed('loopback')],
    ['127.3.2.1', 7878, API, closed('loopback')],
    ['::1', 7878, API, closed('loopback')],
    ['::ffff:127.0.0.1', 7878, API, closed('loopback')],
    // link-local and the cloud metadata addresses
    ['169.254.169.254', 80, API, closed('link-local')],
    ['fe80::abcd', 80, API, closed('link-local')],
    ['fd00:ec2::254', 80, API, closed('link-local')],
    // unspecified ("this host")
    ['0.0.0.0', 7878, API, closed('unspecified')],
    ['::', 7878, API, closed('unspecified')],
    // multicast, broadcast and reserved
    ['224.0.0.1', 7878, API, closed('multicast')],
    ['ff02::1', 7878, API, closed('multicast')],
    ['255.255.255.255', 7878, API, closed('broadcast')],
    ['240.0.0.1', 7878, API, closed('broadcast')],
    // the server's own port: on loopback, on its interface addresses, whatever is allowed
    ['127.0.0.1', 8080, API, ownPortMessage(8080)],
    ['127.0.0.1', 8080, LOOPBACK_OPEN, ownPortMessage(8080)],
    ['192.168.1.5', 8080, API, ownPortMessage(8080)],
    ['192.168.1.5', 7878, API, null],
    ['192.168.1.6', 8080, API, null],
    // TAKT_SOURCE_NETWORKS opens a network; a port range opens those ports only (the demo plant)
    ['127.0.0.1', 7878, LOOPBACK_OPEN, null],
    ['127.0.0.2', 7878, LOOPBACK_OPEN, closed('loopback')],
    ['127.0.0.1', 7880, DEMO, null],
    ['127.0.0.1', 7890, DEMO, closed('loopback')],
    ['::ffff:127.0.0.1', 7878, DEMO, null],
  ])('%s port %i → %s', (address, port, policy, expected) => {
    expect(addressProblem(address, port, policy, OWN)).toBe(expected);
  });
});

describe('checkTarget', () => {
  const resolve = (table: Record<string, string[]>) => async (host: string) => {
    const found = table[host];
    if (!found) throw Object.assign(new Error(`getaddrinfo ENOTFOUND ${host}`), { code: 'ENOTFOUND' });
    return found;
  };
  const names = resolve({
    localhost: ['127.0.0.1', '::1'],
    'adapter.plant': ['10.1.2.3'],
    'split.example': ['10.1.2.3', '127.0.0.1'],
  });
  it.each<[string, number, 'ok' | 'refused' | 'unresolved']>([
    ['localhost', 7878, 'refused'],
    ['LOCALHOST.', 7878, 'refused'],
    ['adapter.plant', 7878, 'ok'],
    // one closed address among several refuses the name (the resolver may answer either)
    ['split.example', 7878, 'refused'],
    ['127.1', 7878, 'refused'],
    ['0x7f.0.0.1', 7878, 'refused'],
    ['[::1]', 7878, 'refused'],
    ['nowhere.invalid', 7878, 'unresolved'],
    ['not a host/name', 7878, 'unresolved'],
    ['a..b', 7878, 'unresolved'],
  ])('%s:%i → %s', async (host, port, expected) => {
    const check = await checkTarget(host, port, DEFAULT_SOURCE_POLICY, { resolve: names, own: [] });
    expect(check.ok === true ? 'ok' : check.ok === false ? 'refused' : 'unresolved').toBe(expected);
  });

  it('names the rule in the refusal', async () => {
    const check = await checkTarget('localhost', 7878, DEFAULT_SOURCE_POLICY, { resolve: names, own: [] });
    expect(check).toEqual({
      ok: false,
      problem:
        'This address is not allowed for a machine source: loopback addresses are closed unless TAKT_SOURCE_NETWORKS allows them.',
    });
  });

  it('the dial guard refuses with the rule and hands back the checked address otherwise', async () => {
    await expect(dialGuard(DEFAULT_SOURCE_POLICY)('127.0.0.1', 7878)).rejects.toThrow(
      closedAddressMessage('loopback'),
    );
    await expect(dialGuard(LOOPBACK_OPEN)('127.0.0.1', 7878)).resolves.toBe('127.0.0.1');
  });
});

describe('normalised endpoints', () => {
  it.each<[Parameters<typeof sourceEndpoint>[0], string | null]>([
    [{ kind: 'shdr', host: 'Adapter.Plant.', port: 7878 }, 'adapter.plant:7878'],
    [{ kind: 'shdr', host: '10.0.0.5', port: 7878 }, '10.0.0.5:7878'],
    [{ kind: 'shdr', host: '10.5', port: 7878 }, '10.0.0.5:7878'],
    [{ kind: 'shdr', host: '[FD00::0:5]', port: 7878 }, 'fd00::5:7878'],
    [{ kind: 'agent', baseUrl: 'http://Agent.Plant:5000/OKUMA' }, 'agent.plant:5000'],
    [{ kind: 'agent', baseUrl: 'http://agent.plant/' }, 'agent.plant:80'],
    [{ kind: 'agent', baseUrl: 'https://agent.plant' }, 'agent.plant:443'],
    [{ kind: 'mqtt', host: '', port: 0 }, null],
  ])('%j → %s', (source, expected) => {
    const e = sourceEndpoint(source);
    expect(e && `${e.host}:${e.port}`).toBe(expected);
  });

  it('normalHost leaves names alone apart from case and the root dot', () => {
    expect(normalHost('Mill-1.Plant.LAN.')).toBe('mill-1.plant.lan');
  });

  it('parseCidr reads both families and refuses the rest', () => {
    expect(parseCidr('127.0.0.1/32')).toEqual({ address: '127.0.0.1', prefix: 32, family: 'ipv4' });
    expect(parseCidr('fd00::/8')).toEqual({ address: 'fd00::', prefix: 8, family: 'ipv6' });
    for (const bad of ['127.0.0.1', '127.0.0.1/33', 'fd00::/129', 'plant/8', '10.0.0.0/x'])
      expect(parseCidr(bad)).toBeNull();
  });
});

describe('contestedSources', () => {
  const src = (sourceId: string, companyId: string, host: string, createdAt: number, port = 7878) => ({
    sourceId,
    companyId,
    kind: 'shdr',
    host,
    port,
    baseUrl: null,
    createdAt,
  });
  it("leaves an address to the company whose source is oldest; the same company's machines may share it", () => {
    const contested = contestedSources([
      src('a1', 'A', '10.0.0.5', 1),
      src('a2', 'A', '10.0.0.5', 5),
      src('b1', 'B', '10.5', 3),
      src('b2', 'B', '10.0.0.6', 3),
      src('c1', 'C', '10.0.0.5', 0, 7879),
      { ...src('b3', 'B', '', 4), kind: 'agent', port: 0, baseUrl: 'http://10.0.0.5:7878/' },
    ]);
    expect([...contested].sort()).toEqual(['b1', 'b3']);
  });
});

it('net.BlockList matches IPv4 inside IPv6 (what the policy relies on)', () => {
  const list = new net.BlockList();
  list.addSubnet('127.0.0.0', 8, 'ipv4');
  expect(list.check('::ffff:7f00:1', 'ipv6')).toBe(true);
});
