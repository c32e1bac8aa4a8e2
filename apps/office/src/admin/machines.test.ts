import { describe, expect, it } from 'vitest';
import type { AdminMachine } from '@takt/domain';
import { t } from '@takt/ui';
import {
  ADAPTER_POLL_MS,
  adapterStatusText,
  decommissionMatches,
  inOrder,
  machineBody,
  machineErrors,
  machineFormOf,
  newMachineForm,
  sourceSummary,
  splitMachines,
} from './machines';

const machine = (name: string, over: Partial<AdminMachine> = {}): AdminMachine => ({
  id: name,
  name,
  workcenterType: 'machine',
  sortOrder: 0,
  downtimeFailureDelay: 5,
  autostartBehavior: 'disabled',
  adapterId: null,
  decommissionedAt: null,
  source: null,
  dispatchKey: null,
  excludeFromBenchmarking: null,
  pingMonitor: null,
  utilizationWarningPercent: null,
  utilizationFailurePercent: null,
  ...over,
});

const source = (over: Partial<NonNullable<AdminMachine['source']>>) => ({
  id: 's',
  kind: 'shdr' as const,
  host: '',
  port: 0,
  baseUrl: null,
  agentDevice: null,
  machineRef: null,
  gatewayId: null,
  ...over,
});

describe('machines admin form', () => {
  it('starts a new machine with an SHDR source on the usual port, not yet complete', () => {
    const f = newMachineForm();
    expect(f.sourceKind).toBe('shdr');
    expect(f.port).toBe('7878');
    expect(Object.keys(machineErrors(f)).sort()).toEqual(['host', 'name']);
    expect(machineErrors(f).name).toBe('Missing required field: Name');
    expect(machineErrors(f).host).toBe('Missing required field: Address');
  });

  it('sends an SHDR source as host and port, an agent as its URL, none as null', () => {
    const f = { ...newMachineForm(), name: ' Lathe ', host: ' 10.0.0.7 ', port: '7879', adapterId: 'a1' };
    expect(machineErrors(f)).toEqual({});
    expect(machineBody(f)).toEqual({
      name: 'Lathe',
      workcenterType: 'machine',
      autostartBehavior: 'disabled',
      adapterId: 'a1',
      downtimeFailureDelay: 5,
      source: { kind: 'shdr', host: '10.0.0.7', port: 7879 },
      dispatchKey: null,
      excludeFromBenchmarking: null,
      utilizationWarningPercent: null,
      utilizationFailurePercent: null,
    });
    const agent = { ...f, sourceKind: 'agent' as const, baseUrl: 'agent.local' };
    expect(machineErrors(agent).baseUrl).toBe(t('admin.machines.agentUrlError'));
    expect(machineBody({ ...agent, baseUrl: 'http://agent.local:5000' }).source).toEqual({
      kind: 'agent',
      baseUrl: 'http://agent.local:5000',
      agentDevice: null,
    });
    expect(machineBody({ ...f, sourceKind: 'none' }).source).toBeNull();
  });

  it('refuses ports and delays out of range', () => {
    const f = { ...newMachineForm(), name: 'M', host: 'h' };
    expect(machineErrors({ ...f, port: '70000' }).port).toBe('Port must be from 1 to 65535');
    expect(machineErrors({ ...f, port: '1.5' }).port).toBeDefined();
    expect(machineErrors({ ...f, downtimeDelay: '-1' }).downtimeDelay).toBeDefined();
    expect(machineErrors({ ...f, downtimeDelay: '' }).downtimeDelay).toBeDefined();
  });

  it('keeps a gateway binding: the form leaves the source out of the body', () => {
    const m = machine('G', { source: source({ kind: 'gateway', gatewayId: 'g1', machineRef: 'm1' }) });
    const f = machineFormOf(m);
    expect(f.gatewayBound).toBe(true);
    expect(machineErrors(f)).toEqual({});
    expect('source' in machineBody(f)).toBe(false);
  });

  it('keeps a simulated machine’s simulator while Source stays None, and replaces it with a source chosen (decision 1100)', () => {
    const f = machineFormOf(machine('S', { source: source({ kind: 'simulator', host: '', port: 0 }) }));
    expect([f.sourceKind, f.simulated, f.gatewayBound]).toEqual(['none', true, false]);
    expect('source' in machineBody(f)).toBe(false);
    expect(machineBody({ ...f, sourceKind: 'shdr', host: '10.0.0.9' }).source).toEqual({
      kind: 'shdr',
      host: '10.0.0.9',
      port: 7878,
    });
    expect(sourceSummary(machine('S', { source: source({ kind: 'simulator' }) }))).toBe(
      'Simulator (test screen)',
    );
  });

  it('reads a stored SHDR source back into the form', () => {
    const f = machineFormOf(machine('M', { source: source({ host: '10.0.0.8', port: 7880 }) }));
    expect([f.sourceKind, f.host, f.port]).toEqual(['shdr', '10.0.0.8', '7880']);
    expect(sourceSummary(machine('M', { source: source({ host: 'h', port: 1 }) }))).toBe('SHDR h:1');
    expect(sourceSummary(machine('M'))).toBe(t('admin.machines.noSource'));
  });
});

describe('machines list', () => {
  it('orders machines in service by workcenter order and keeps decommissioned ones apart', () => {
    const { inService, decommissioned } = splitMachines([
      machine('B', { sortOrder: 2 }),
      machine('Old', { sortOrder: 0, decommissionedAt: 5 }),
      machine('A', { sortOrder: 1 }),
    ]);
    expect(inService.map((m) => m.name)).toEqual(['A', 'B']);
    expect(decommissioned.map((m) => m.name)).toEqual(['Old']);
  });

  it('decommissions only when the typed name matches (reports-admin §5)', () => {
    expect(decommissionMatches('Press 2', 'Press 2')).toBe(true);
    expect(decommissionMatches(' Press 2 ', 'Press 2')).toBe(true);
    expect(decommissionMatches('press 2', 'Press 2')).toBe(false);
    expect(decommissionMatches('', 'Press 2')).toBe(false);
  });

  it('says the workcenter order text verbatim (reports-admin §8)', () => {
    expect(t('admin.machines.orderSaved')).toBe('Your workcenter order has been updated!');
  });
});

describe('a reorder before the list reloads', () => {
  it('shows the chosen order; machines it does not name keep their place after', () => {
    const ms = ['a', 'b', 'c', 'd'].map((id) => ({ id }));
    expect(inOrder(ms, null).map((m) => m.id)).toEqual(['a', 'b', 'c', 'd']);
    expect(inOrder(ms, ['c', 'a', 'gone']).map((m) => m.id)).toEqual(['c', 'a', 'b', 'd']);
  });
});

describe('Software and Utilization panels (decision 0892)', () => {
  it('reads the panels back and sends them, empty as null', () => {
    const f = machineFormOf(
      machine('Lathe', {
        dispatchKey: 'O1234',
        excludeFromBenchmarking: 0,
        pingMonitor: 1,
        utilizationWarningPercent: 60,
        utilizationFailurePercent: null,
      }),
    );
    expect(f).toMatchObject({
      dispatchKey: 'O1234',
      excludeFromBenchmarking: '0',
      pingMonitor: '1',
      utilizationWarningPercent: '60',
      utilizationFailurePercent: '',
    });
    expect(machineBody({ ...f, dispatchKey: ' ' })).toMatchObject({
      dispatchKey: null,
      excludeFromBenchmarking: 0,
      utilizationWarningPercent: 60,
      utilizationFailurePercent: null,
    });
    expect(machineBody(newMachineForm())).toMatchObject({ excludeFromBenchmarking: null });
  });

  it.each([
    ['101', '', { utilizationWarningPercent: 'Utilization warning percent must be from 0 to 100' }],
    ['50', '4.5', { utilizationFailurePercent: 'Utilization failure percent must be from 0 to 100' }],
    [
      '50',
      '70',
      { utilizationFailurePercent: 'Utilization failure percent must not be above the warning percent' },
    ],
    ['50', '50', {}],
    ['', '', {}],
  ])('warning %j, failure %j: %o', (w, fail, expected) => {
    const f = {
      ...newMachineForm(),
      name: 'Lathe',
      host: 'h',
      utilizationWarningPercent: w,
      utilizationFailurePercent: fail,
    };
    expect(machineErrors(f)).toEqual(expected);
  });
});

describe('adapter status (reports-admin §4, §7, §8; decision 0891)', () => {
  const base = { adapterId: null, adapterName: null, message: null, resetAt: null };
  it.each([
    [{ status: 'checking' as const }, 'Checking status', null],
    [{ ...base, status: 'waiting' as const }, 'Waiting for workcenter', null],
    [{ ...base, status: 'gathering' as const }, 'Gathering info', null],
    [
      { ...base, status: 'problem' as const, message: 'No source.' },
      'Problem configuring machine',
      'No source.',
    ],
    [
      { ...base, status: 'mapped' as const, adapterId: 'a', adapterName: 'Haas' },
      'Adapter Haas in use',
      null,
    ],
  ])('%o reads %s', (view, text, detail) => {
    expect(adapterStatusText(view)).toEqual({ text, detail });
  });

  it('polls every 3 s', () => {
    expect(ADAPTER_POLL_MS).toBe(3000);
  });
});

describe('the Takt staff panel: root-only fields (decisions 1111, 1112)', () => {
  const NOW = Date.UTC(2025, 10, 22, 8);
  it('an admin’s body carries none of them; a root user’s all three, the integration time from company wall time', () => {
    const f = machineFormOf(
      machine('Lathe', {
        pingMonitor: 1,
        billingDate: '2025-01-15',
        integratedAt: Date.UTC(2025, 0, 10, 14, 30),
        integratedAtSet: true,
      }),
      'America/Chicago',
    );
    expect(f).toMatchObject({
      pingMonitor: '1',
      billingDate: '2025-01-15',
      integratedAt: '2025-01-10T08:30',
    });
    const admin = machineBody(f);
    for (const key of ['pingMonitor', 'billingDate', 'integratedAt']) expect(admin).not.toHaveProperty(key);
    expect(machineBody(f, { timezone: 'America/Chicago' })).toMatchObject({
      pingMonitor: 1,
      billingDate: '2025-01-15',
      integratedAt: Date.UTC(2025, 0, 10, 14, 30),
    });
    expect(machineBody(newMachineForm(), { timezone: 'UTC' })).toMatchObject({
      pingMonitor: null,
      billingDate: null,
      integratedAt: null,
    });
  });

  it('an integration time that is the first data (not set by root) stays empty in the form', () => {
    const f = machineFormOf(machine('Lathe', { integratedAt: NOW, integratedAtSet: false }), 'UTC');
    expect(f.integratedAt).toBe('');
  });

  it.each([
    ['2014-05-31', 'Machine billing date must be from 2014-06-01 to 1 year ahead (2026-11-22)'],
    ['2026-11-23', 'Machine billing date must be from 2014-06-01 to 1 year ahead (2026-11-22)'],
    ['2014-06-01', undefined],
    ['2026-11-22', undefined],
    ['', undefined],
  ])('billing date %s: %s', (billingDate, error) => {
    expect(machineErrors({ ...newMachineForm(), name: 'Lathe', billingDate }, NOW).billingDate).toBe(error);
  });
});
