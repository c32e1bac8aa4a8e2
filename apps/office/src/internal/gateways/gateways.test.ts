import { describe, expect, it } from 'vitest';
import {
  agoText,
  cloneForm,
  edgeControls,
  gatewayBody,
  gatewayErrors,
  gatewayFormOf,
  ingestMultiplierError,
  listQuery,
  newGatewayForm,
  pusherUpdatable,
  readListState,
  sortBy,
  writeListState,
} from './gateways';
import type { GatewayRow } from './gateways';

const aGateway = (over: Partial<GatewayRow> = {}): GatewayRow => ({
  id: 'g-1',
  name: 'Edge 1',
  assetSerial: 'SN-1',
  edgeRef: 'edge-1',
  company: { id: 'c-1', name: 'Acme' },
  nonRootMachineCount: 2,
  rootMachineCount: 0,
  resinUUID: null,
  ingestMultiplier: 2.5,
  state: 'active',
  activationStatus: 'pending',
  activationToken: 'tgw_...abcdef',
  pusher: {
    drainCount: 500,
    drainInterval: 2000,
    packedRecordCount: 50,
    pushInterval: 3000,
    version: '3.1.0',
    requestedVersion: null,
  },
  supervisor: { mode: 'Dry Run', version: '1.2.0' },
  lastResponse: null,
  bufferedRecords: null,
  lastShdr: null,
  supervisorLastJoin: null,
  actions: ['reset', 'disable', 'deregister'],
  health: { status: 'NeverReported', label: 'Never Reported', tone: 'warning' },
  bufferTone: null,
  lastResponseTone: null,
  ...over,
});

describe('the list state in the URL (reports-admin §2: sortable columns, two filters)', () => {
  it('reads defaults from an empty query and writes nothing for them', () => {
    const s = readListState(new URLSearchParams());
    expect(s).toEqual({
      sort: 'company',
      direction: 'asc',
      unactivated: false,
      inactiveCompanies: false,
      selected: null,
      open: null,
    });
    expect(writeListState(s).toString()).toBe('');
  });

  it('round-trips sort, direction, filters, selection and the open gateway', () => {
    const q =
      'sort=bufferSize&direction=desc&unactivated=true&inactiveCompanies=true&selected=g-1&gateway=g-2';
    expect(writeListState(readListState(new URLSearchParams(q))).toString()).toBe(q);
  });

  it('falls back to the default sort for an unknown column', () => {
    expect(readListState(new URLSearchParams('sort=password&direction=sideways'))).toMatchObject({
      sort: 'company',
      direction: 'asc',
    });
  });

  it.each([
    ['company', 'asc', 'company', 'desc'],
    ['company', 'desc', 'company', 'asc'],
    ['company', 'desc', 'lastShdr', 'asc'],
  ] as const)('sorted by %s %s, a click on %s sorts %s', (sort, direction, click, expected) => {
    const s = { ...readListState(new URLSearchParams()), sort, direction };
    expect(sortBy(s, click)).toMatchObject({ sort: click, direction: expected });
  });

  it('asks the API with the sort and only the filters that are on', () => {
    const s = readListState(new URLSearchParams('sort=name&inactiveCompanies=true&gateway=g-1'));
    expect(listQuery(s)).toBe('sort=name&direction=asc&inactiveCompanies=true');
  });
});

describe('ingest multiplier (reports-admin §5: min 0.1, max 100, step 0.1)', () => {
  it.each([
    ['0.1', null],
    ['1', null],
    ['2.5', null],
    ['100', null],
    ['0.3', null],
    ['0.05', 'Ingest multiplier must be at least 0.1'],
    ['0', 'Ingest multiplier must be at least 0.1'],
    ['100.1', 'Ingest multiplier must be at most 100'],
    ['1.25', 'Ingest multiplier must be a multiple of 0.1'],
    ['', 'Ingest multiplier must be a number'],
    ['abc', 'Ingest multiplier must be a number'],
  ])('%j → %j', (text, error) => {
    expect(ingestMultiplierError(text)).toBe(error);
  });
});

describe('the gateway form', () => {
  it('needs a name and whole pusher numbers', () => {
    const f = { ...newGatewayForm(), drainCount: '-1', pushInterval: '0', packedRecordCount: '1.5' };
    expect(Object.keys(gatewayErrors(f)).sort()).toEqual([
      'drainCount',
      'name',
      'packedRecordCount',
      'pushInterval',
    ]);
    expect(gatewayErrors(f).name).toBe('Missing required field: Name');
    expect(gatewayErrors({ ...newGatewayForm(), name: 'Edge' })).toEqual({});
  });

  it('sends what the API takes, blanks as null and the multiplier on its 0.1 step', () => {
    const body = gatewayBody({
      ...gatewayFormOf(aGateway()),
      assetSerial: ' ',
      ingestMultiplier: '0.30000000004',
    });
    expect(body).toEqual({
      name: 'Edge 1',
      companyId: 'c-1',
      assetSerial: null,
      edgeRef: 'edge-1',
      ingestMultiplier: 0.3,
      pusher: { drainCount: 500, drainInterval: 2000, packedRecordCount: 50, pushInterval: 3000 },
      supervisor: { mode: 'Dry Run' },
    });
    expect(gatewayBody({ ...newGatewayForm(), name: 'x' }).companyId).toBeNull();
  });

  it('clones company and settings but not the hardware identity (decision 0927)', () => {
    const f = cloneForm(aGateway());
    expect(f).toMatchObject({
      name: 'Edge 1 (copy)',
      companyId: 'c-1',
      assetSerial: '',
      edgeRef: '',
      ingestMultiplier: '2.5',
      pushInterval: '3000',
      mode: 'Dry Run',
    });
  });
});

describe('edge device controls (reports-admin §2, §4)', () => {
  it.each([
    ['active with a company', aGateway(), ['reset', 'disable', 'deregister'], []],
    [
      'active without a company',
      aGateway({ company: null }),
      ['reset', 'disable', 'deregister'],
      ['reset', 'deregister'],
    ],
    ['inactive', aGateway({ state: 'inactive' }), ['enable'], []],
    ['inactive without a company', aGateway({ state: 'inactive', company: null }), ['enable'], []],
  ])('%s allows %j', (_, g, actions, blocked) => {
    const controls = edgeControls(g);
    expect(controls.map((c) => c.action)).toEqual(actions);
    expect(controls.filter((c) => c.needsCompany).map((c) => c.action)).toEqual(blocked);
  });

  it.each([
    [null, false],
    ['', false],
    ['2.9.9', false],
    ['3.0.0', true],
    ['3.2.1', true],
    ['10.0.0', true],
    ['v3', false],
  ])('pusher version %j may be updated: %j (reports-admin §9: 3.0.0 and later)', (version, ok) => {
    expect(pusherUpdatable(version)).toBe(ok);
  });
});

describe('how long ago, in the list', () => {
  it.each([
    [0, '0 s ago'],
    [59_999, '59 s ago'],
    [60_000, '1 min ago'],
    [3_599_999, '59 min ago'],
    [3_600_000, '1 h ago'],
    [86_400_000 * 3, '3 d ago'],
    [-5_000, '0 s ago'],
  ])('%i ms → %s', (ms, text) => {
    expect(agoText(1_000_000_000_000 - ms, 1_000_000_000_000)).toBe(text);
  });
});
