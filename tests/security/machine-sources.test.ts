import http from 'node:http';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { companyScope } from '@takt/db';
import { DIALECTS } from '@takt/db/testing';
import type { SourcePolicy } from '@takt/domain';
import { SOURCE_ADDRESS_TAKEN, closedAddressMessage, ownPortMessage } from '@takt/domain';
import { startIngest } from '@takt/ingest';
import type { IngestService } from '@takt/ingest';
import { parseEnv } from '../../services/api/src/env';
import { createShdrSource } from '../../services/api/src/repositories/machine-sources';
import { replaceMachineSource } from '../../services/api/src/repositories/machines-admin';
import type { Company } from '../../services/api/src/repositories/company';
import { apiHarness, apiHarnessOn } from '../../services/api/src/testing/app';
import type { ApiHarness } from '../../services/api/src/testing/app';
import { aCompany, aMachine } from '../../services/api/src/testing/builders';
import type { FakeAdapter } from '../../services/ingest/src/testing/test-support';
import { LOOPBACK_SOURCES, fakeAdapter, waitFor } from '../../services/ingest/src/testing/test-support';

// Issue 26 finding 2: company B's admin made a machine whose SHDR source was company A's adapter and read A's
// live data in Diagnostics; an agent source aimed at the server's own loopback /metrics made the server fetch it.
// Decisions 0985 (where a source may point) and 0986 (one source address belongs to one company). The API runs
// with the default policy and the server's PORT 8080 (as main.ts passes it); `open` is the same API with
// TAKT_SOURCE_NETWORKS=127.0.0.0/8.

const PORT = 8080;
const DEFAULT: SourcePolicy = { allow: [], ownPorts: [PORT] };
const OPEN: SourcePolicy = { allow: [{ cidr: '127.0.0.0/8' }], ownPorts: [PORT] };
const LOOPBACK_CLOSED = closedAddressMessage('loopback');

const machine = (name: string, source: unknown) => ({
  name,
  workcenterType: 'machine',
  downtimeFailureDelay: 10,
  autostartBehavior: 'disabled',
  adapterId: null,
  source,
});

describe.each(DIALECTS)('machine sources on %s', (dialect) => {
  let h: ApiHarness;
  let open: ApiHarness;
  let a: { company: Company; cookie: string };
  let b: { company: Company; cookie: string };

  beforeAll(async () => {
    h = await apiHarness(dialect, undefined, { sourcePolicy: DEFAULT });
    open = apiHarnessOn(h.t, undefined, { sourcePolicy: OPEN });
    a = await h.tenant();
    b = await h.tenant();
  });
  afterAll(() => h.close());

  const machinesOf = async (company: Company) =>
    (await h.t.db.selectFrom('machines').select('name').where('company_id', '=', company.id).execute()).map(
      (m) => m.name,
    );

  it("refuses company B a source on company A's adapter address (409), in any spelling", async () => {
    const saved = await h.send(
      'POST',
      '/api/machines',
      a.cookie,
      machine('A Lathe', { kind: 'shdr', host: '10.20.0.5', port: 7878 }),
    );
    expect(saved.status).toBe(201);
    for (const source of [
      { kind: 'shdr', host: '10.20.0.5', port: 7878 },
      { kind: 'shdr', host: '10.20.5', port: 7878 },
      { kind: 'agent', baseUrl: 'http://10.20.0.5:7878/' },
    ]) {
      const res = await h.send('POST', '/api/machines', b.cookie, machine('B Spy', source));
      expect(res.status).toBe(409);
      const body = (await res.json()) as { error?: { message?: string }; message?: string };
      expect(JSON.stringify(body)).toContain(SOURCE_ADDRESS_TAKEN);
      // Which company holds the address is not said.
      expect(JSON.stringify(body)).not.toContain(a.company.id);
    }
    expect(await machinesOf(b.company)).toEqual([]);
    // Machines of one company may share an address, as before.
    const twin = await h.send(
      'POST',
      '/api/machines',
      a.cookie,
      machine('A Lathe twin', { kind: 'shdr', host: '10.20.0.5', port: 7878 }),
    );
    expect(twin.status).toBe(201);
  });

  it.each([
    [
      'an agent on the server’s own loopback /metrics',
      { kind: 'agent', baseUrl: `http://127.0.0.1:${PORT}/metrics` },
      ownPortMessage(PORT),
    ],
    [
      'an agent on loopback /metrics by name',
      { kind: 'agent', baseUrl: 'http://localhost:9100/metrics' },
      LOOPBACK_CLOSED,
    ],
    [
      'SHDR on localhost (a name resolving to loopback)',
      { kind: 'shdr', host: 'localhost', port: 7878 },
      LOOPBACK_CLOSED,
    ],
    ['SHDR on [::1]', { kind: 'shdr', host: '[::1]', port: 7878 }, LOOPBACK_CLOSED],
  ])('refuses %s with 400 naming the rule', async (_, source, message) => {
    const res = await h.send('POST', '/api/machines', b.cookie, machine('B Probe', source));
    expect(res.status).toBe(400);
    expect(JSON.stringify(await res.json())).toContain(message);
    expect(await machinesOf(b.company)).toEqual([]);
  });

  it.each([
    { kind: 'shdr', host: '169.254.169.254', port: 80 },
    { kind: 'agent', baseUrl: 'http://169.254.169.254/latest/meta-data' },
  ])('refuses link-local 169.254.169.254 (%j) with 400', async (source) => {
    const res = await h.send('POST', '/api/machines', b.cookie, machine('B Metadata', source));
    expect(res.status).toBe(400);
    expect(JSON.stringify(await res.json())).toContain(closedAddressMessage('link-local'));
    expect(await machinesOf(b.company)).toEqual([]);
  });

  it('refuses an edit that points an existing machine at loopback', async () => {
    const saved = await h.send(
      'POST',
      '/api/machines',
      b.cookie,
      machine('B Mill', { kind: 'shdr', host: '10.30.0.9', port: 7878 }),
    );
    expect(saved.status).toBe(201);
    const { id } = (await saved.json()) as { id: string };
    const res = await h.send(
      'PUT',
      `/api/machines/${id}`,
      b.cookie,
      machine('B Mill', { kind: 'shdr', host: '127.0.0.1', port: 7878 }),
    );
    expect(res.status).toBe(400);
    const stored = await h.t.db
      .selectFrom('machine_sources')
      .select('host')
      .where('machine_id', '=', id)
      .execute();
    expect(stored).toEqual([{ host: '10.30.0.9' }]);
  });

  it('with TAKT_SOURCE_NETWORKS allowing loopback, a loopback source is saved; the server’s own port still is not', async () => {
    const c = await open.tenant();
    const ok = await open.send(
      'POST',
      '/api/machines',
      c.cookie,
      machine('Adapter on this host', { kind: 'shdr', host: 'localhost', port: 7878 }),
    );
    expect(ok.status).toBe(201);
    const own = await open.send(
      'POST',
      '/api/machines',
      c.cookie,
      machine('Metrics', { kind: 'agent', baseUrl: `http://127.0.0.1:${PORT}/metrics` }),
    );
    expect(own.status).toBe(400);
    expect(JSON.stringify(await own.json())).toContain(ownPortMessage(PORT));
  });

  it("refuses a name for another company's adapter address (409)", async () => {
    const c = await open.tenant();
    const d = await open.tenant();
    const first = await open.send(
      'POST',
      '/api/machines',
      c.cookie,
      machine('C Press', { kind: 'shdr', host: '127.0.0.1', port: 7900 }),
    );
    expect(first.status).toBe(201);
    const byName = await open.send(
      'POST',
      '/api/machines',
      d.cookie,
      machine('D Spy', { kind: 'shdr', host: 'localhost', port: 7900 }),
    );
    expect(byName.status).toBe(409);
    expect(await machinesOf(d.company)).toEqual([]);
    // The other way round: C names its adapter, D types the address the name has.
    const named = await open.send(
      'POST',
      '/api/machines',
      c.cookie,
      machine('C Lathe', { kind: 'shdr', host: 'localhost', port: 7901 }),
    );
    expect(named.status).toBe(201);
    const byAddress = await open.send(
      'POST',
      '/api/machines',
      d.cookie,
      machine('D Spy 2', { kind: 'shdr', host: '127.0.0.1', port: 7901 }),
    );
    expect(byAddress.status).toBe(409);
    expect(await machinesOf(d.company)).toEqual([]);
  });

  it('Diagnostics says why a source stored before the rule is not connected', async () => {
    const c = await h.tenant();
    const id = await aMachine(h.t.db, c.company);
    await createShdrSource(
      companyScope(h.t.db, c.company.id),
      { machineId: id, host: '127.0.0.1', port: 7878 },
      1,
    );
    const res = await h.get(`/api/machines/${id}/diagnostics`, c.cookie);
    expect(res.status).toBe(200);
    expect(((await res.json()) as { sourceProblem: string | null }).sourceProblem).toBe(LOOPBACK_CLOSED);
  });
});

// Ingest checks again at every connect: a source stored before the rule, or a name that resolves to a closed
// address later (DNS rebinding), is never dialled. Real sockets on loopback that must receive nothing.
describe.each(DIALECTS)('ingest and stored sources on %s', (dialect) => {
  let h: ApiHarness;
  let adapter: FakeAdapter;
  let agent: http.Server;
  let agentRequests = 0;
  let agentPort = 0;
  let ingest: IngestService | undefined;
  const logs: string[] = [];

  beforeAll(async () => {
    h = await apiHarness(dialect);
    adapter = await fakeAdapter(() => {});
    agent = http.createServer((_, res) => {
      agentRequests++;
      res.end('<MTConnectDevices/>');
    });
    await new Promise<void>((resolve) => agent.listen(0, '127.0.0.1', resolve));
    agentPort = (agent.address() as { port: number }).port;
  });
  afterEach(async () => {
    await ingest?.stop();
    ingest = undefined;
    logs.length = 0;
    await h.t.db.deleteFrom('machine_sources').execute();
  });
  afterAll(async () => {
    await adapter.close();
    await new Promise((resolve) => agent.close(resolve));
    await h.close();
  });

  it('does not dial a stored source that the policy closes (SHDR by address and by name, agent)', async () => {
    const company = await aCompany(h.t.db);
    const scope = companyScope(h.t.db, company.id);
    const [m1, m2, m3] = [
      await aMachine(h.t.db, company),
      await aMachine(h.t.db, company),
      await aMachine(h.t.db, company),
    ];
    await createShdrSource(scope, { machineId: m1, host: '127.0.0.1', port: adapter.port }, 1);
    await createShdrSource(scope, { machineId: m2, host: 'localhost', port: adapter.port }, 1);
    await replaceMachineSource(scope, m3, { kind: 'agent', baseUrl: `http://127.0.0.1:${agentPort}` }, 1);
    ingest = await startIngest({
      db: h.t.db,
      flushIntervalMs: 20,
      rollupIntervalMs: 0,
      sourcesIntervalMs: 0,
      backoff: { initialMs: 10, maxMs: 20 },
      log: (m) => logs.push(m),
    });
    // Each source is refused with the rule (by address, by name, the agent) and never connected.
    const refused = (what: string) => logs.some((l) => l.includes(what) && l.includes(LOOPBACK_CLOSED));
    await waitFor(
      () =>
        refused(`(127.0.0.1:${adapter.port})`) &&
        refused(`(localhost:${adapter.port})`) &&
        refused(`agent http://127.0.0.1:${agentPort}`),
      5000,
      'the refusals',
    );
    expect(adapter.sockets).toHaveLength(0);
    expect(agentRequests).toBe(0);
  });

  it("leaves an address to the company whose source is older: the other company's is not dialled", async () => {
    const older = await aCompany(h.t.db);
    const newer = await aCompany(h.t.db);
    const mA = await aMachine(h.t.db, older);
    const mB = await aMachine(h.t.db, newer);
    await createShdrSource(
      companyScope(h.t.db, older.id),
      { machineId: mA, host: '127.0.0.1', port: adapter.port },
      1,
    );
    await createShdrSource(
      companyScope(h.t.db, newer.id),
      { machineId: mB, host: '127.0.0.1', port: adapter.port },
      2,
    );
    const before = adapter.sockets.length;
    ingest = await startIngest({
      db: h.t.db,
      flushIntervalMs: 20,
      rollupIntervalMs: 0,
      sourcesIntervalMs: 0,
      sourcePolicy: LOOPBACK_SOURCES,
      log: (m) => logs.push(m),
    });
    await waitFor(() => adapter.sockets.length > before, 5000, 'the older source to be dialled');
    await ingest.refresh();
    expect(logs.filter((l) => l.includes("another company's machine"))).toHaveLength(1);
    expect(adapter.sockets.length - before).toBe(1);
    expect(ingest.counters().size).toBe(1);
  });
});

describe('TAKT_SOURCE_NETWORKS', () => {
  it('reads CIDR ranges and addresses separated by spaces or commas, and refuses the rest', () => {
    expect(parseEnv({}).TAKT_SOURCE_NETWORKS).toEqual([]);
    expect(parseEnv({ TAKT_SOURCE_NETWORKS: '127.0.0.1/32, ::1 10.99.0.7' }).TAKT_SOURCE_NETWORKS).toEqual([
      '127.0.0.1/32',
      '::1/128',
      '10.99.0.7/32',
    ]);
    for (const bad of ['localhost', '127.0.0.1/33', '10.0.0.0/8/1'])
      expect(() => parseEnv({ TAKT_SOURCE_NETWORKS: bad })).toThrow(/TAKT_SOURCE_NETWORKS/);
  });
});
